package fingerprint

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/scorer"
)

// MaxProbes is the most probe queries [Identify] sends.
const MaxProbes = 6

// extremes are the probabilities of probe 1's special rows: far below
// every candidate clip (1e-300 is 0 in binary32), and the float64 just
// below 1 (1 in binary32), whose complement 2^−53 is below every clip too.
var extremes = [...]float64{1e-300, 1 - 0x1p-53, 1e-300, 1 - 0x1p-53}

// nSpecial is the number of special rows of a probe: the rest predict ½,
// whose term is ln 2 whatever the label.
const nSpecial = len(extremes)

// A Probe is one query sent to identify the scorer.
type Probe struct {
	// Purpose says what the probe was designed to reveal.
	Purpose string
	// P is the prediction of the special rows 0..3; every other row is ½.
	P []float64
	// Score is the answer; Err the server's error.
	Score *big.Rat
	Err   error
	// Fits is the number of candidate models (with decimals) consistent
	// with every probe up to this one.
	Fits int
}

// A Component is the identified value of one component of the model,
// with the evidence for it.
type Component struct {
	Name string
	// Value is the component's value, or "undetermined" when the probes
	// leave several values that fit.
	Value string
	// Fits lists every value consistent with all probes.
	Fits []string
	// Evidence says which probe ruled out each other value, or why the
	// value could not be determined.
	Evidence string
}

// A Result is the outcome of [Identify].
type Result struct {
	// Model is the identified model, nil if no model fits. When some
	// component is undetermined it is the fitting model with the largest
	// error budget, and Exact is false.
	Model *scorer.Model
	Spec  scorer.Spec
	// Exact reports that exactly one candidate model fits every probe.
	Exact bool
	// Fits lists every candidate model (with its decimals) that fits
	// every probe, the largest error budget first: Spec is Fits[0].
	Fits []scorer.Spec
	// NoFit explains why no model fits ("" if one does).
	NoFit      string
	Components []Component
	Probes     []Probe
	// Labels are the labels the probes determine: N entries, −1 where
	// unknown. A row's label is known when every candidate model (and
	// labeling) that fits the probes agrees on it; they are as sure as
	// the identification, and an attack that starts from them
	// ([decode.MultiOptions.Known]) verifies them with the rest.
	Labels []int
}

// Queries returns the number of probe queries sent.
func (r *Result) Queries() int { return len(r.Probes) }

// Identify sends at most [MaxProbes] probe queries to s (binary labels)
// and returns the candidate model that fits every answer: see the package
// comment. A server error is not returned as an error but recorded in the
// result (no model fits); errors are ctx's and invalid servers.
func Identify(ctx context.Context, s scorer.Server) (*Result, error) {
	n, k := s.N(), s.K()
	if k < 2 || k > 64 {
		return nil, fmt.Errorf("fingerprint: K = %d outside [2, 64]", k)
	}
	if n < 2*nSpecial {
		return nil, fmt.Errorf("fingerprint: N = %d: the probes need at least %d points", n, 2*nSpecial)
	}
	res := &Result{Labels: make([]int, n)}
	for i := range res.Labels {
		res.Labels[i] = -1
	}
	ask := func(off int, purpose string, p []float64) (*Probe, error) {
		pred := probePred(n, k, off, p)
		score, err := s.Score(ctx, pred)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.Probes = append(res.Probes, Probe{Purpose: purpose, P: slices.Clone(p), Score: score, Err: err})
		return &res.Probes[len(res.Probes)-1], nil
	}

	// Probe 1: the extremes reveal the format, the clip, the clamp, the
	// reduction and (by their digits) the decimals.
	p1, err := ask(0, "extremes (1e-300 and 1-2^-53 in rows 0-3): the clip, the clamp, the format, mean or sum, the decimals", extremes[:])
	if err != nil {
		return nil, err
	}
	if p1.Err != nil {
		res.NoFit = fmt.Sprintf("the server failed on probe 1 (probabilities below every clip): %v; no candidate model fails there", p1.Err)
		return res, nil
	}
	// Probe 2: the same prediction again reveals noise.
	p2, err := ask(0, "probe 1 again: noise", extremes[:])
	if err != nil {
		return nil, err
	}
	if p2.Err != nil || p2.Score.Cmp(p1.Score) != 0 {
		res.NoFit = fmt.Sprintf("the same prediction scored %s and %s: the server adds noise (or is not deterministic); no noiseless model fits", ratText(p1.Score), scoreText(p2))
		return res, nil
	}

	hyp, err := hypotheses(n, k, p1.Score)
	if err != nil {
		return nil, err
	}
	all, _ := hypotheses(n, k, p1.Score)
	hyp = filter(hyp, n, 0, extremes[:], p1.Score)
	res.Probes[0].Fits, res.Probes[1].Fits = len(hyp), len(hyp)
	elim := map[string]int{} // component=value → the probe that ruled it out
	note := func(before map[string][]string, after []*hyp0, probe int) {
		for _, c := range componentNames {
			for _, v := range before[c] {
				if !slices.Contains(values(after, c), v) {
					if _, ok := elim[c+"="+v]; !ok {
						elim[c+"="+v] = probe
					}
				}
			}
		}
	}
	note(snapshot(all), hyp, 1)

	off := 0 // the special rows are off..off+3
	for round := 0; len(hyp) > 1 && len(res.Probes) < MaxProbes; round++ {
		if len(values(hyp, "clip")) > 1 || len(values(hyp, "format")) > 1 || len(values(hyp, "floor")) > 1 {
			// The labels of the special rows hid the extremes: try the
			// next four rows.
			if off+2*nSpecial > n {
				break
			}
			// Every candidate that explains the score by hidden extremes
			// agrees on the labels that hide them: keep them.
			l, _ := sharedLabels(hyp)
			copy(res.Labels[off:], classes(l, k))
			off += nSpecial
			for _, h := range hyp {
				h.newRows()
			}
			pr, err := ask(off, fmt.Sprintf("extremes again in rows %d-%d (the labels of rows %d-%d hid them)", off, off+3, off-4, off-1), extremes[:])
			if err != nil {
				return nil, err
			}
			if pr.Err != nil {
				res.NoFit = fmt.Sprintf("the server failed on probe %d: %v", len(res.Probes), pr.Err)
				return res, nil
			}
			before := snapshot(hyp)
			hyp = filter(hyp, n, off, extremes[:], pr.Score)
			res.Probes[len(res.Probes)-1].Fits = len(hyp)
			note(before, hyp, len(res.Probes))
			continue
		}
		// Rows of known label at probabilities whose terms differ in
		// magnitude, so that the summation orders, the decimals and the
		// format round them differently; sent only if it separates some
		// fitting models.
		labels, _ := sharedLabels(hyp)
		p, ok := separating(hyp, n, k, off, labels, round)
		if !ok {
			break
		}
		what := fmt.Sprintf("rows %d-%d (labels %v learned, -1 unknown) at %s: the summation order, the decimals, the format", off, off+3, labels, floatsText(p))
		if k > 2 {
			what = fmt.Sprintf("rows %d-%d (labels %v learned: 1 class 1, 0 another class, -1 unknown) with class 1 at %s (-2: a uniform row), rows summing to 1+2^-30: the renormalisation, the summation order, the decimals, the format", off, off+3, labels, floatsText(p))
		}
		pr, err := ask(off, what, p)
		if err != nil {
			return nil, err
		}
		if pr.Err != nil {
			res.NoFit = fmt.Sprintf("the server failed on probe %d: %v", len(res.Probes), pr.Err)
			return res, nil
		}
		before := snapshot(hyp)
		hyp = filter(hyp, n, off, p, pr.Score)
		res.Probes[len(res.Probes)-1].Fits = len(hyp)
		note(before, hyp, len(res.Probes))
	}
	if len(hyp) == 0 {
		for i := range res.Labels {
			res.Labels[i] = -1 // learned under models that no longer fit
		}
		res.NoFit = "no candidate model reproduces every probe's score"
		res.Components = components(nil, all, elim)
		return res, nil
	}
	l, _ := sharedLabels(hyp)
	copy(res.Labels[off:], classes(l, k))
	// The most cautious fitting model: the largest error budget over
	// every (candidate, decimals) pair left. PyTorch's cascade sum is
	// taken only if the probes rule out every other order: where they
	// cannot tell it from numpy's pairwise sum, the attack's brackets are
	// emulated sums in one order, and a numpy server planned as PyTorch's
	// cascade (whose budget is larger) costs retries (25 queries became 32
	// against the real scikit-learn at N = 1000). Fits lists the cascade
	// candidates last, for the same reason.
	type fit struct {
		sp      scorer.Spec
		b       float64
		cascade bool
	}
	var fits []fit
	for _, h := range hyp {
		for dec := range h.alive {
			sp := h.spec
			sp.Decimals = dec
			fits = append(fits, fit{sp, budget(sp), sp.Sum == scorer.SumTorch || sp.Sum == scorer.SumTorch512})
		}
	}
	slices.SortStableFunc(fits, func(x, y fit) int {
		if x.cascade != y.cascade {
			if y.cascade {
				return -1
			}
			return 1
		}
		if x.b != y.b {
			if x.b > y.b {
				return -1
			}
			return 1
		}
		return strings.Compare(x.sp.String(), y.sp.String())
	})
	for _, f := range fits {
		res.Fits = append(res.Fits, f.sp)
	}
	best := fits[0].sp
	m, err := best.Model()
	if err != nil {
		return nil, fmt.Errorf("fingerprint: identified model %s: %w", best, err)
	}
	res.Model, res.Spec, res.Exact = m, best, distinctSpecs(hyp) == 1
	res.Components = components(hyp, all, elim)
	return res, nil
}

// probePred is a probe: the special rows off.. at probabilities p (for
// K > 2, rows of specialRow), every other row neutral.
func probePred(n, k, off int, p []float64) *scorer.Pred {
	if k == 2 {
		pred := &scorer.Pred{K: 2, P: make([]float64, n)}
		for i := range pred.P {
			pred.P[i] = 0.5
		}
		copy(pred.P[off:], p)
		return pred
	}
	pred := &scorer.Pred{K: k, P: make([]float64, 0, n*k)}
	for i := range n {
		v := neutralP(k)
		if i >= off && i < off+len(p) {
			v = p[i-off]
		}
		pred.P = specialRow(pred.P, v, k)
	}
	return pred
}

// classes turns the special rows' bits (1: class 1; 0: class 0, or for
// K > 2 any class but 1; −1 unknown) into labels (−1 unknown).
func classes(bits []int, k int) []int {
	if k == 2 {
		return bits
	}
	out := make([]int, len(bits))
	for i, b := range bits {
		out[i] = -1
		if b == 1 {
			out[i] = 1
		}
	}
	return out
}

// snapshot returns the values of each component among hyp, before a
// filter changes them.
func snapshot(hyp []*hyp0) map[string][]string {
	m := map[string][]string{}
	for _, c := range componentNames {
		m[c] = values(hyp, c)
	}
	return m
}

// ratText prints a score as a decimal.
func ratText(r *big.Rat) string {
	if r == nil {
		return "nothing"
	}
	f, _ := r.Float64()
	return fmt.Sprint(f)
}

func scoreText(p *Probe) string {
	if p.Err != nil {
		return "an error (" + p.Err.Error() + ")"
	}
	return ratText(p.Score)
}

func floatsText(p []float64) string {
	s := make([]string, len(p))
	for i, v := range p {
		s[i] = fmt.Sprint(v)
	}
	return "[" + strings.Join(s, " ") + "]"
}

// decimalsOf returns the number of decimals of r if it has at most 12,
// or −1.
func decimalsOf(r *big.Rat) int {
	x := new(big.Rat).Set(r)
	ten := big.NewRat(10, 1)
	for d := 0; d <= 12; d++ {
		if x.IsInt() {
			return d
		}
		x.Mul(x, ten)
	}
	return -1
}

// errNoFormat reports an observation that is not a finite number.
var errNoFormat = errors.New("fingerprint: score not finite")

// roundTo returns r rounded to nearest in f, as a float64.
func roundTo(r *big.Rat, f fpa.Format) (float64, error) {
	v, _ := fpa.New(f).SetRat(r).Float64()
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errNoFormat
	}
	return v, nil
}
