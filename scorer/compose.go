package scorer

// This file parses and prints composed scorer models: a model written as
// its components (format, clipping, renormalisation, log clamp, input,
// summation, reduction, decimals, log accuracy), of which the presets of
// ParseModel are named shorthands.

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/fpa"
)

// A Spec is a scorer model as its components, each with the values real
// libraries use. Its zero value is not usable (no format); [ParseSpec]
// fills the defaults. [Spec.Model] builds the [Model] it describes and
// [Spec.String] writes it in the syntax ParseSpec reads.
type Spec struct {
	// Format is the float format of every operation; Exact servers
	// instead compute exactly and round the score to Prec bits.
	Format fpa.Format
	Exact  bool
	Prec   uint
	// Clip is the clipping constant: "" none, "eps" the format's machine
	// epsilon 2^−M (scikit-learn ≥ 1.2's dtype eps), or a decimal or
	// hexadecimal number (1e-15: scikit-learn ≤ 1.1 and Kaggle; 1e-7:
	// Keras).
	Clip string
	// AddEps adds the clipping constant inside the log after clipping,
	// −log(q + eps) (Keras 2 binary_crossentropy).
	AddEps bool
	// Renorm divides each clipped row by its sum (scikit-learn ≤ 1.4);
	// scikit-learn ≥ 1.5 does not.
	Renorm bool
	// Floor, if not "", clamps each log at ≥ Floor (PyTorch: −100).
	Floor string
	// Logits says the server takes logits, not probabilities
	// (BCEWithLogits, softmax cross-entropy). No model of this package
	// emulates it: [Spec.Model] refuses it.
	Logits bool
	// Sum is the summation: "pairwise" (numpy: 8 accumulators, blocks of
	// 128, buffers of 8,192 added left to right), "naive" (left to
	// right), "kahan" (compensated), "fsum" (exact, rounded once, as
	// Python's math.fsum), "torch-cascade" (PyTorch's CPU sum with
	// 256-bit vector accumulators: its AVX2 and default kernels) or
	// "torch-cascade:avx512" (its AVX-512 kernels).
	Sum string
	// Total reports the sum of the terms instead of their mean.
	Total bool
	// Decimals ≥ 0 rounds the reported score to that many places; −1 not.
	Decimals int
	// LogULPs is the log's accuracy in ulps: 1 faithful (glibc, numpy), 0
	// correctly rounded.
	LogULPs float64
	// LogLib, if not LogGo, is the library log the server calls, bit for
	// bit (LogULPs is then 1).
	LogLib LogLib
}

// Summations accepted by the sum= component.
const (
	SumPairwise = "pairwise"
	SumNaive    = "naive"
	SumKahan    = "kahan"
	SumFsum     = "fsum"
	// SumTorch is PyTorch's cascade sum with 256-bit vectors (8 float32
	// or 4 float64 lanes), SumTorch512 with AVX-512's 512-bit ones.
	SumTorch    = "torch-cascade"
	SumTorch512 = "torch-cascade:avx512"
)

// presetSpecs are the presets as components: ParseSpec starts from one of
// these when the model string begins with a preset name.
func presetSpec(name string) (Spec, bool) {
	switch name {
	case Float64Sklearn:
		return Spec{Format: fpa.Binary64, Clip: "eps", Renorm: true, Sum: SumPairwise, Decimals: -1, LogULPs: 1, LogLib: LogGlibc}, true
	case Float32Keras:
		return Spec{Format: fpa.Binary32, Clip: "1e-7", Sum: SumPairwise, Decimals: -1, LogULPs: 1}, true
	case TorchBCE:
		return Spec{Format: fpa.Binary32, Floor: "-100", Sum: SumTorch, Decimals: -1, LogULPs: 1, LogLib: LogGlibc}, true
	case Leaderboard:
		return Spec{Format: fpa.Binary64, Clip: "1e-15", Sum: SumPairwise, Decimals: 5, LogULPs: 1}, true
	}
	return Spec{}, false
}

// ModelSyntax is the syntax of a composed model, for usage messages.
const ModelSyntax = "BASE[,COMPONENT...]: BASE a preset or a format (binary64, binary32, binary16, bfloat16, fpa:E,M, exact[:BITS]); " +
	"COMPONENT clip=none|eps|NUMBER|keras2[:NUMBER], renorm|norenorm, floor=none|NUMBER, input=prob|logits, " +
	"sum=pairwise|naive|kahan|fsum|torch-cascade[:avx512], reduce=mean|sum, dec=none|D, log=faithful|exact|glibc|glibc-nofma"

// ParseSpec parses a model written as components:
//
//	BASE[,COMPONENT...]
//
// BASE is a preset of [ParseModel] (whose components are then the
// defaults) or a format: binary64 (float64), binary32 (float32), binary16
// (float16, half), bfloat16, fpa:E,M (or eE mM), or exact[:BITS] (default
// 256 bits). A format alone means: no clipping, no renormalisation, no
// clamp, probabilities, numpy's pairwise sum, mean, unrounded, faithful
// log. Each COMPONENT overrides one of them:
//
//	clip=none|eps|NUMBER   clip to [c, 1−c]; eps is the format's epsilon
//	clip=keras2[:NUMBER]   Keras 2: clip to [c, 1−c], then −log(q + c) (c = 1e-7)
//	renorm, norenorm       divide each clipped row by its sum, or not
//	floor=none|NUMBER      clamp each log at ≥ NUMBER (PyTorch: -100)
//	input=prob|logits      logits are refused: not emulated
//	sum=pairwise|naive|kahan|fsum|torch-cascade[:avx512]
//	reduce=mean|sum        report the mean or the sum of the terms
//	dec=none|D             round the reported score to D decimals
//	log=faithful|exact     the log within 1 ulp, or correctly rounded
//	log=glibc|glibc-nofma  glibc's log and logf, bit for bit, as x86-64
//	                       runs them with FMA and AVX2, or without FMA
//
// Example: "float64,clip=eps,renorm,dec=5" is scikit-learn 1.2's log_loss
// rounded to 5 decimals. Each component may appear once.
func ParseSpec(s string) (Spec, error) {
	toks := splitModel(s)
	if len(toks) == 0 || toks[0] == "" {
		return Spec{}, errors.New("scorer: empty model")
	}
	sp, err := parseBase(toks[0])
	if err != nil {
		return Spec{}, err
	}
	seen := map[string]bool{}
	for _, t := range toks[1:] {
		key, val, hasVal := strings.Cut(t, "=")
		if key == "renorm" || key == "norenorm" {
			if hasVal {
				return Spec{}, fmt.Errorf("scorer: model %q: component %q takes no value (write renorm or norenorm)", s, t)
			}
			val, key = key, "renorm"
		} else if !hasVal {
			return Spec{}, fmt.Errorf("scorer: model %q: component %q: want KEY=VALUE, renorm or norenorm (%s)", s, t, ModelSyntax)
		}
		if seen[key] {
			return Spec{}, fmt.Errorf("scorer: model %q: component %s given twice", s, key)
		}
		seen[key] = true
		if err := sp.set(key, val); err != nil {
			return Spec{}, fmt.Errorf("scorer: model %q: %w", s, err)
		}
	}
	return sp, nil
}

// splitModel splits at commas, keeping "fpa:E,M" (a format) in one piece.
func splitModel(s string) []string {
	parts := strings.Split(strings.TrimSpace(s), ",")
	var out []string
	for i := 0; i < len(parts); i++ {
		p := strings.TrimSpace(parts[i])
		if strings.HasPrefix(p, "fpa:") && !strings.Contains(p, "=") && i+1 < len(parts) {
			if _, err := strconv.ParseUint(strings.TrimSpace(parts[i+1]), 10, 32); err == nil {
				p += "," + strings.TrimSpace(parts[i+1])
				i++
			}
		}
		out = append(out, p)
	}
	return out
}

func parseBase(b string) (Spec, error) {
	if sp, ok := presetSpec(b); ok {
		return sp, nil
	}
	sp := Spec{Sum: SumPairwise, Decimals: -1, LogULPs: 1}
	if rest, ok := strings.CutPrefix(b, "exact"); ok {
		sp.Exact, sp.Prec, sp.LogULPs = true, 256, 0
		if rest != "" {
			v, err := strconv.ParseUint(strings.TrimPrefix(rest, ":"), 10, 32)
			if !strings.HasPrefix(rest, ":") || err != nil || v < 8 || v > 1<<24 {
				return Spec{}, fmt.Errorf("scorer: base %q: want exact or exact:BITS with BITS in [8, 2^24]", b)
			}
			sp.Prec = uint(v)
		}
		return sp, nil
	}
	if strings.HasPrefix(b, "apa") {
		m, err := parseModel(b)
		if err != nil {
			return Spec{}, err
		}
		sp.Exact, sp.Prec, sp.LogULPs = true, m.Prec, 0
		return sp, nil
	}
	name := b
	if b == "half" {
		name = "binary16"
	}
	f, err := fpa.ParseFormat(strings.TrimPrefix(name, "fpa:"))
	if err != nil {
		return Spec{}, fmt.Errorf("scorer: base %q is neither a preset (%s) nor a format (binary64, binary32, binary16, bfloat16, fpa:E,M, exact[:BITS]): %w",
			b, strings.Join(ModelNames, ", "), err)
	}
	sp.Format = f
	if strings.HasPrefix(b, "fpa:") {
		sp.LogULPs = 0 // as the fpa:E,M preset: a correctly rounded log
	}
	return sp, nil
}

func (sp *Spec) set(key, val string) error {
	switch key {
	case "clip":
		sp.AddEps = false
		switch {
		case val == "none":
			sp.Clip = ""
		case val == "eps":
			sp.Clip = "eps"
		case val == "keras2" || strings.HasPrefix(val, "keras2:"):
			sp.Clip, sp.AddEps = "1e-7", true
			if c, ok := strings.CutPrefix(val, "keras2:"); ok {
				if err := checkNumber(c, "clip"); err != nil {
					return err
				}
				sp.Clip = c
			}
		default:
			if err := checkNumber(val, "clip"); err != nil {
				return fmt.Errorf("%w (or none, eps, keras2[:NUMBER])", err)
			}
			sp.Clip = val
		}
	case "renorm":
		sp.Renorm = val == "renorm"
	case "floor":
		if val == "none" {
			sp.Floor = ""
			return nil
		}
		if err := checkNumber(val, "floor"); err != nil {
			return fmt.Errorf("%w (or none)", err)
		}
		sp.Floor = val
	case "input":
		switch val {
		case "prob", "probs", "probabilities":
			sp.Logits = false
		case "logits":
			sp.Logits = true
		default:
			return fmt.Errorf("input=%s: want prob or logits", val)
		}
	case "sum":
		switch val {
		case SumPairwise, SumNaive, SumKahan, SumFsum, SumTorch, SumTorch512:
			sp.Sum = val
		default:
			return fmt.Errorf("sum=%s: want pairwise (numpy), naive, kahan, fsum (exact), torch-cascade or torch-cascade:avx512 (PyTorch)", val)
		}
	case "reduce":
		switch val {
		case "mean", "sum":
			sp.Total = val == "sum"
		default:
			return fmt.Errorf("reduce=%s: want mean or sum", val)
		}
	case "dec":
		if val == "none" {
			sp.Decimals = -1
			return nil
		}
		d, err := strconv.Atoi(val)
		if err != nil || d < 0 || d > 30 {
			return fmt.Errorf("dec=%s: want none or a number of decimals in [0, 30]", val)
		}
		sp.Decimals = d
	case "log":
		switch val {
		case "faithful":
			sp.LogULPs, sp.LogLib = 1, LogGo
		case "exact":
			sp.LogULPs, sp.LogLib = 0, LogGo
		case string(LogGlibc), string(LogGlibcNoFMA):
			sp.LogULPs, sp.LogLib = 1, LogLib(val)
		default:
			return fmt.Errorf("log=%s: want faithful, exact, glibc or glibc-nofma", val)
		}
	default:
		return fmt.Errorf("unknown component %q (%s)", key, ModelSyntax)
	}
	return nil
}

func checkNumber(s, key string) error {
	if _, ok := new(big.Float).SetString(s); !ok {
		if _, err := fpa.Parse(s, fpa.Binary64, fpa.ToNearestEven); err != nil {
			return fmt.Errorf("%s=%s: not a number", key, s)
		}
	}
	return nil
}

// String writes sp in the syntax ParseSpec reads, every component given
// except those at their default.
func (sp Spec) String() string {
	var b strings.Builder
	if sp.Exact {
		fmt.Fprintf(&b, "exact:%d", sp.Prec)
	} else {
		b.WriteString(formatName(sp.Format))
		switch {
		case sp.AddEps && sp.Clip == "1e-7":
			b.WriteString(",clip=keras2")
		case sp.AddEps:
			b.WriteString(",clip=keras2:" + sp.Clip)
		case sp.Clip != "":
			b.WriteString(",clip=" + sp.Clip)
		}
		if sp.Renorm {
			b.WriteString(",renorm")
		}
		if sp.Floor != "" {
			b.WriteString(",floor=" + sp.Floor)
		}
		if sp.Sum != SumPairwise {
			b.WriteString(",sum=" + sp.Sum)
		}
		switch {
		case sp.LogLib != LogGo:
			b.WriteString(",log=" + string(sp.LogLib))
		case sp.LogULPs == 0:
			b.WriteString(",log=exact")
		}
	}
	if sp.Logits {
		b.WriteString(",input=logits")
	}
	if sp.Total {
		b.WriteString(",reduce=sum")
	}
	if sp.Decimals >= 0 {
		fmt.Fprintf(&b, ",dec=%d", sp.Decimals)
	}
	return b.String()
}

func formatName(f fpa.Format) string {
	switch f {
	case fpa.Binary64, fpa.Binary32, fpa.Binary16, fpa.BFloat16:
		return f.String()
	}
	return fmt.Sprintf("fpa:%d,%d", f.ExpBits, f.FracBits)
}

// Describe returns a one-line description of sp in words.
func (sp Spec) Describe() string {
	var parts []string
	if sp.Exact {
		parts = append(parts, fmt.Sprintf("exact arithmetic rounded to %d bits", sp.Prec))
	} else {
		parts = append(parts, sp.Format.String())
		switch {
		case sp.Clip == "":
			parts = append(parts, "no clipping")
		case sp.Clip == "eps":
			parts = append(parts, fmt.Sprintf("clip to [eps, 1-eps], eps = 2^-%d (the dtype's)", sp.Format.FracBits))
		default:
			parts = append(parts, fmt.Sprintf("clip to [%s, 1-%s]", sp.Clip, sp.Clip))
		}
		if sp.AddEps {
			parts = append(parts, "eps added inside the log (Keras 2)")
		}
		if sp.Renorm {
			parts = append(parts, "rows renormalised")
		} else {
			parts = append(parts, "rows not renormalised")
		}
		if sp.Floor != "" {
			parts = append(parts, "log clamped at ≥ "+sp.Floor)
		}
		parts = append(parts, map[string]string{SumPairwise: "numpy pairwise sum", SumNaive: "left-to-right sum",
			SumKahan: "Kahan sum", SumFsum: "exact sum rounded once (math.fsum)",
			SumTorch: "PyTorch cascade sum (256-bit vectors)", SumTorch512: "PyTorch cascade sum (AVX-512 vectors)"}[sp.Sum])
		switch sp.LogLib {
		case LogGlibc:
			parts = append(parts, "glibc log (x86-64, FMA)")
		case LogGlibcNoFMA:
			parts = append(parts, "glibc log (x86-64, no FMA)")
		}
	}
	if sp.Total {
		parts = append(parts, "sum of the terms")
	} else {
		parts = append(parts, "mean")
	}
	if sp.Decimals >= 0 {
		parts = append(parts, fmt.Sprintf("rounded to %d decimals", sp.Decimals))
	}
	return strings.Join(parts, ", ")
}

// Model returns the model sp describes, named by its String, or an error
// if sp is invalid or the code cannot evaluate and bound it exactly
// (logits; an exact server that sums or clips).
func (sp Spec) Model() (*Model, error) {
	m, err := sp.model(sp.String())
	if err != nil {
		return nil, err
	}
	if !m.Exact {
		if m.clip, err = parseClip(&m.Loss); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (sp Spec) model(name string) (*Model, error) {
	if sp.Logits {
		return nil, fmt.Errorf("scorer: model %s: logits input (BCEWithLogits, softmax cross-entropy) is not emulated: its log-sum-exp has no exact terms or error budget here, so it is refused rather than approximated", name)
	}
	m := &Model{Name: name, Decimals: sp.Decimals, Desc: sp.Describe()}
	if sp.Exact {
		if sp.Clip != "" || sp.Renorm || sp.Floor != "" || sp.Total || sp.Sum != SumPairwise || sp.LogLib != LogGo {
			return nil, fmt.Errorf("scorer: model %s: an exact server takes only dec= (it neither clips, renormalises, clamps nor sums in a format)", name)
		}
		m.Exact, m.Prec = true, sp.Prec
		return m, m.Validate()
	}
	l := FloatLoss{Loss: fpa.Loss{Format: sp.Format, Renormalize: sp.Renorm, LogULPs: sp.LogULPs}, LogFloor: sp.Floor, AddEps: sp.AddEps, Total: sp.Total, LogLib: sp.LogLib}
	switch sp.Clip {
	case "":
	case "eps":
		l.Eps = fmt.Sprintf("0x1p-%d", sp.Format.FracBits)
	default:
		l.Eps = sp.Clip
	}
	switch sp.Sum {
	case SumPairwise:
		l.Sum = numpySum
	case SumNaive:
		l.Sum = fpa.SumOptions{Order: fpa.Recursive}
	case SumKahan:
		l.Sum = fpa.SumOptions{Order: fpa.Kahan}
	case SumFsum:
		l.ExactSum = true
	case SumTorch, SumTorch512:
		bitsWide := 256
		if sp.Sum == SumTorch512 {
			bitsWide = 512
		}
		switch sp.Format {
		case fpa.Binary32:
			l.Sum = fpa.SumOptions{Order: fpa.Cascade, Lanes: bitsWide / 32}
		case fpa.Binary64:
			l.Sum = fpa.SumOptions{Order: fpa.Cascade, Lanes: bitsWide / 64}
		default:
			return nil, fmt.Errorf("scorer: model %s: PyTorch's cascade sum is modelled for float32 and float64 tensors, not %v", name, sp.Format)
		}
	default:
		return nil, fmt.Errorf("scorer: model %s: unknown summation %q", name, sp.Sum)
	}
	m.Loss = l
	return m, m.Validate()
}
