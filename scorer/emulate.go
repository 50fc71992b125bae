package scorer

// This file lets an attacker bracket what a float server reports for a
// labeling without assuming the server's log bit for bit: rounding to
// nearest is monotone, so a sum computed in a fixed order, a division by N
// and a decimal rounding are monotone in every term. If each computed term
// lies in [lo_i, hi_i], the reported score lies between the scores the
// same computation gives on all the lo_i and on all the hi_i.

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/labelinf/labelinf/fpa"
)

// Emulator brackets a float server's reported score (see the file comment).
// It needs a binary64 or binary32 model rounding to nearest with recursive
// or pairwise summation (Kahan's is not monotone).
type Emulator struct {
	m     *Model
	f64   bool
	clamp bool    // the model clamps its log at −floor
	floor float64 // the log floor (negative), a value of the format
}

// NewEmulator returns an emulator for m, or an error if m is not a
// binary64/binary32 round-to-nearest model with a monotone summation.
func (m *Model) NewEmulator() (*Emulator, error) {
	f64, ok := m.native()
	if !ok || m.Loss.Sum.Order == fpa.Kahan || m.Loss.LogULPs > 64 {
		return nil, fmt.Errorf("scorer: %s cannot be emulated (needs binary64 or binary32, round to nearest, recursive or pairwise sum)", m.Name)
	}
	c, err := m.Clip()
	if err != nil {
		return nil, err
	}
	return &Emulator{m: m, f64: f64, clamp: c.Floor != nil, floor: c.floor64}, nil
}

// TermRange returns the computed values between which the server's term
// lies when the exact term is t: its log is within LogULPs ulps (faithful:
// the two format values around t, widened by ⌈LogULPs⌉−1 ulps each side),
// then clamped. t must be finite; it is taken with a relative error of up
// to 2^−118, and the range allows for that.
func (e *Emulator) TermRange(t *big.Float) (lo, hi float64) {
	f := e.m.Loss.Format
	w := new(big.Float).SetPrec(t.Prec() + 8).Abs(t)
	w.SetMantExp(w, -118)
	a := new(big.Float).SetPrec(t.Prec()+8).Sub(t, w)
	b := new(big.Float).SetPrec(t.Prec()+8).Add(t, w)
	lo, _ = fpa.New(f).SetMode(big.ToNegativeInf).SetBig(a).Float64()
	hi, _ = fpa.New(f).SetMode(big.ToPositiveInf).SetBig(b).Float64()
	for range int(math.Ceil(max(e.m.Loss.LogULPs, 1))) - 1 {
		lo, hi = e.next(lo, -1), e.next(hi, 1)
	}
	if e.clamp {
		lo, hi = min(lo, -e.floor), min(hi, -e.floor)
	}
	return lo, hi
}

// Nearest returns t rounded to nearest in the format: the term a
// correctly rounded log gives.
func (e *Emulator) Nearest(t *big.Float) float64 {
	v, _ := fpa.New(e.m.Loss.Format).SetBig(t).Float64()
	if e.clamp {
		v = min(v, -e.floor)
	}
	return v
}

func (e *Emulator) next(x float64, dir int) float64 {
	if e.f64 {
		return math.Nextafter(x, float64(dir)*math.Inf(1))
	}
	return float64(math.Nextafter32(float32(x), float32(dir)*float32(math.Inf(1))))
}

// Spacing returns the distance from x (a value of the format) to the next
// value above it.
func (e *Emulator) Spacing(x float64) float64 { return e.next(x, 1) - x }

// Terms is a buffer of computed terms in the emulator's format.
type Terms struct {
	f64 []float64
	f32 []float32
	// c64, c32: the summation tree of a cached buffer (NewCachedTerms).
	c64 *sumTree[float64]
	c32 *sumTree[float32]
}

// NewTerms returns a buffer of n terms, all +0.
func (e *Emulator) NewTerms(n int) *Terms {
	if e.f64 {
		return &Terms{f64: make([]float64, n)}
	}
	return &Terms{f32: make([]float32, n)}
}

// Set sets term i to v, a value of the format.
func (t *Terms) Set(i int, v float64) {
	switch {
	case t.c64 != nil:
		t.c64.set(i, v)
		return
	case t.c32 != nil:
		t.c32.set(i, float32(v))
		return
	}
	if t.f64 != nil {
		t.f64[i] = v
	} else {
		t.f32[i] = float32(v)
	}
}

// Report returns the score the server reports for computed terms: their
// sum in its order, divided by N in the format, rounded to its decimals.
func (e *Emulator) Report(t *Terms) (*big.Rat, error) {
	mean, err := e.mean(t)
	if err != nil {
		return nil, err
	}
	var r *big.Rat
	if e.m.Decimals >= 0 {
		var err error
		if r, err = fpa.RoundDecimal(fpa.New(fpa.Binary64).SetFloat64(mean), e.m.Decimals); err != nil {
			return nil, err
		}
	} else {
		r = new(big.Rat).SetFloat64(mean)
	}
	if e.m.Loss.Total {
		// The attacker reads a summing server's score per point ([PerPoint]).
		r.Quo(r, new(big.Rat).SetInt64(int64(max(len(t.f64), len(t.f32)))))
	}
	return r, nil
}

// mean returns the server's mean (or total) in its format, before any
// rounding to decimals.
func (e *Emulator) mean(t *Terms) (float64, error) {
	var mean float64
	if e.f64 {
		if len(t.f64) == 0 {
			return 0, errors.New("scorer: no terms")
		}
		var s float64
		if t.c64 != nil {
			s = t.c64.sum() // the cached tree: sumNative's order, only changed paths recomputed
		} else {
			s = sumLoss(t.f64, &e.m.Loss)
		}
		if !e.m.Loss.Total {
			s /= float64(len(t.f64))
		}
		mean = s
	} else {
		if len(t.f32) == 0 {
			return 0, errors.New("scorer: no terms")
		}
		var s float32
		if t.c32 != nil {
			s = t.c32.sum()
		} else {
			s = sumLoss(t.f32, &e.m.Loss)
		}
		if !e.m.Loss.Total {
			s /= float32(len(t.f32))
		}
		mean = float64(s)
	}
	if math.IsInf(mean, 0) || math.IsNaN(mean) {
		return 0, ErrOverflow
	}
	return mean, nil
}

// ReportFloat is [Emulator.Report] as a float64, exactly, for a model
// whose score is its mean in the format (no decimals, not a total); ok is
// false for the others, whose score Report gives.
func (e *Emulator) ReportFloat(t *Terms) (score float64, ok bool, err error) {
	if e.m.Decimals >= 0 || e.m.Loss.Total {
		return 0, false, nil
	}
	mean, err := e.mean(t)
	return mean, err == nil, err
}
