package scorer

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/fpa"
)

// A Model says how a scoring server computes and reports a mean
// cross-entropy score: the knowledge an attacker plans with, and what the
// simulated servers of this package run.
//
// A finite-precision server (Exact false) works in Loss.Format as [FloatLoss]
// describes: round each prediction to the format, clip, form the row and
// renormalise it, take an elementwise log (faithful, within Loss.LogULPs
// ulps), clamp, sum in Loss.Sum's order and divide by N. An exact server
// (Exact true) takes the float64 predictions as the rationals they are,
// computes the mean cross-entropy exactly and rounds it to nearest at Prec
// bits. Either may then round the reported score to Decimals places.
type Model struct {
	Name  string
	Exact bool
	Prec  uint      // exact servers: bits of the score
	Loss  FloatLoss // finite-precision servers
	// Decimals ≥ 0 rounds the reported score to that many decimal places
	// (ties to even); −1 reports it unrounded.
	Decimals int
	// Desc is a one-line description.
	Desc string

	// clip holds Loss's constants, parsed once by ParseModel and
	// NewModel. A model built by hand (or whose Loss is changed: build a
	// new Model with NewModel) has none and parses them where they are
	// used.
	clip *Clip
}

// Scorer model names accepted by [ParseModel].
const (
	Float64Sklearn = "float64-sklearn"
	Float32Keras   = "float32-keras"
	TorchBCE       = "torch-bce"
	Leaderboard    = "leaderboard"
)

// ModelNames lists the preset names, for usage messages.
var ModelNames = []string{Float64Sklearn, Float32Keras, TorchBCE, Leaderboard, "apa[:BITS]", "fpa:E,M"}

// numpySum is numpy's reduction of a long float array: pairwise summation
// (8 accumulators, blocks of 128) over buffers of 8,192 elements whose sums
// are added left to right.
var numpySum = fpa.SumOptions{Order: fpa.Pairwise, Chunk: 8192}

// torchSum32 is PyTorch's sum of a contiguous float32 tensor on CPU with
// its AVX2 or default kernels: the cascade of 8-lane vector accumulators.
var torchSum32 = fpa.SumOptions{Order: fpa.Cascade, Lanes: 8}

// ParseModel returns the scorer model called name:
//
//   - "float64-sklearn": scikit-learn 1.2–1.4 log_loss. Probabilities
//     clipped to [ε, 1−ε], ε = 2^−52 (float64 machine epsilon), rows
//     [1−p, p] renormalised, elementwise log in float64 (glibc's log, which
//     scipy.special.xlogy calls, as x86-64 with FMA runs it), numpy's
//     summation (pairwise, buffers of 8,192), mean. Bit for bit Debian 12's
//     scikit-learn 1.2.1 on such a CPU.
//   - "float32-keras": Keras 3 binary_crossentropy: ε = 1e−7 clip,
//     float32 throughout, numpy's summation.
//   - "torch-bce": PyTorch BCELoss: float32, each log glibc's logf
//     (x86-64, FMA) of p or of 1−p clamped at ≥ −100, no clipping, mean by
//     PyTorch's cascade sum with 8-lane vectors (its AVX2 and default
//     kernels). Bit for bit Debian 12's PyTorch 1.13.1 on such a CPU.
//   - "leaderboard": a Kaggle-style leaderboard: clip to [1e−15, 1−1e−15],
//     float64, numpy's summation, score rounded to 5 decimals.
//   - "apa" or "apa:BITS": exact arithmetic, score correctly rounded to
//     BITS bits (default 256).
//   - "fpa:E,M" (or any name fpa.ParseFormat accepts after "fpa:"): a server
//     in that format with a correctly rounded log, no clipping, numpy's
//     summation.
//
// The float models' logs are faithful (within 1 ulp), as glibc's and
// numpy's are; the simulated servers use Go's math.Log, which is too,
// except where the model names a library log (log=glibc: package libm).
func ParseModel(name string) (*Model, error) {
	m, err := parseModel(name)
	if err != nil {
		sp, serr := ParseSpec(name)
		if serr == nil {
			return sp.Model()
		}
		if strings.ContainsAny(name, ",=") || !strings.HasPrefix(err.Error(), "scorer: unknown scorer") {
			return nil, serr
		}
		return nil, fmt.Errorf("%w, a format, or a composed model %s", err, ModelSyntax)
	}
	if !m.Exact {
		if m.clip, err = parseClip(&m.Loss); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func parseModel(name string) (*Model, error) {
	switch name {
	case Float64Sklearn:
		return &Model{Name: name, Decimals: -1, Desc: "scikit-learn log_loss: float64, eps = 2^-52 clip, rows renormalised, glibc log (x86-64, FMA), numpy pairwise sum, mean",
			Loss: FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64, Sum: numpySum, Renormalize: true, LogULPs: 1}, Eps: "2.220446049250313e-16", LogLib: LogGlibc}}, nil
	case Float32Keras:
		return &Model{Name: name, Decimals: -1, Desc: "Keras 3 binary_crossentropy: float32, eps = 1e-7 clip, numpy pairwise sum, mean",
			Loss: FloatLoss{Loss: fpa.Loss{Format: fpa.Binary32, Sum: numpySum, LogULPs: 1}, Eps: "1e-7"}}, nil
	case TorchBCE:
		return &Model{Name: name, Decimals: -1, Desc: "PyTorch BCELoss: float32, glibc logf (x86-64, FMA), log clamped at -100, PyTorch cascade sum (256-bit vectors), mean",
			Loss: FloatLoss{Loss: fpa.Loss{Format: fpa.Binary32, Sum: torchSum32, LogULPs: 1}, LogFloor: "-100", LogLib: LogGlibc}}, nil
	case Leaderboard:
		return &Model{Name: name, Decimals: 5, Desc: "Kaggle-style leaderboard: float64, clip to [1e-15, 1-1e-15], numpy pairwise sum, mean rounded to 5 decimals",
			Loss: FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64, Sum: numpySum, LogULPs: 1}, Eps: "1e-15"}}, nil
	}
	if rest, ok := strings.CutPrefix(name, "apa"); ok {
		prec := uint(256)
		if rest != "" {
			b, ok := strings.CutPrefix(rest, ":")
			v, err := strconv.ParseUint(b, 10, 32)
			if !ok || err != nil || v < 8 || v > 1<<24 {
				return nil, fmt.Errorf("scorer: scorer %q: want apa or apa:BITS with BITS in [8, 2^24]", name)
			}
			prec = uint(v)
		}
		return &Model{Name: fmt.Sprintf("apa:%d", prec), Exact: true, Prec: prec, Decimals: -1,
			Desc: fmt.Sprintf("exact mean cross-entropy, correctly rounded to %d bits", prec)}, nil
	}
	if rest, ok := strings.CutPrefix(name, "fpa:"); ok {
		f, err := fpa.ParseFormat(rest)
		if err != nil {
			return nil, fmt.Errorf("scorer: scorer %q: %w", name, err)
		}
		return &Model{Name: "fpa:" + f.String(), Decimals: -1, Desc: fmt.Sprintf("%v server: correctly rounded log, no clipping, numpy pairwise sum, mean", f),
			Loss: FloatLoss{Loss: fpa.Loss{Format: f, Sum: numpySum}}}, nil
	}
	return nil, fmt.Errorf("scorer: unknown scorer %q (want one of %s)", name, strings.Join(ModelNames, ", "))
}

// NewModel returns a copy of m, a model built from its exported fields
// (say, a parsed model whose Loss was changed), if [Model.Validate]
// accepts it, with its clipping constants parsed once as [ParseModel]'s
// are: a model built by hand parses them wherever they are used.
func NewModel(m Model) (*Model, error) {
	m.clip = nil
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if !m.Exact {
		c, err := parseClip(&m.Loss)
		if err != nil {
			return nil, err
		}
		m.clip = c
	}
	return &m, nil
}

// Validate reports whether m is usable.
func (m *Model) Validate() error {
	if m.Decimals < -1 || m.Decimals > 30 {
		return fmt.Errorf("scorer: model %s: %d decimals outside [-1, 30]", m.Name, m.Decimals)
	}
	if m.Exact {
		if m.Prec < 8 {
			return fmt.Errorf("scorer: model %s: %d bits, need at least 8", m.Name, m.Prec)
		}
		return nil
	}
	return m.Loss.validate()
}

// Native reports whether m is evaluated with hardware float64 or float32
// arithmetic (fast), rather than emulated or exact arithmetic.
func (m *Model) Native() bool {
	_, ok := m.native()
	return ok
}

// native reports whether m can be evaluated with hardware float64 or
// float32 arithmetic, and which.
func (m *Model) native() (f64, ok bool) {
	if m.Exact || m.Loss.Mode != fpa.ToNearestEven || m.Loss.LogFunc != nil {
		return false, false
	}
	switch m.Loss.Format {
	case fpa.Binary64:
		return true, true
	case fpa.Binary32:
		return false, true
	}
	return false, false
}

// consts64 returns eps, 1−eps (computed in the format) and the log floor as
// float64 values of the (binary32 or binary64) format, with clip and clamp
// false where unused.
func (m *Model) consts64() (eps, oneMinus, floor float64, clip, clamp bool, err error) {
	c, err := m.Clip()
	if err != nil {
		return 0, 0, 0, false, false, err
	}
	return c.eps64, c.oneMinus64, c.floor64, c.Eps != nil, c.Floor != nil, nil
}

// log32 is a faithful float32 logarithm: float64 log rounded to float32
// (a float32 subnormal is a normal float64, so goLog's subnormal case never arises).
func log32(x float32) float32 { return float32(math.Log(float64(x))) }
