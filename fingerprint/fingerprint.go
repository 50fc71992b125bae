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
	// NoFit explains why no model fits ("" if one does).
	NoFit      string
	Components []Component
	Probes     []Probe
	// Labels are the labels of the special rows learned from the probes
	// (−1 where unknown).
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
	if k != 2 {
		return nil, fmt.Errorf("fingerprint: K = %d: the probes are designed for binary labels (K = 2)", k)
	}
	if n < 2*nSpecial {
		return nil, fmt.Errorf("fingerprint: N = %d: the probes need at least %d points", n, 2*nSpecial)
	}
	res := &Result{Labels: []int{-1, -1, -1, -1}}
	ask := func(off int, purpose string, p []float64) (*Probe, error) {
		pred := &scorer.Pred{K: 2, P: make([]float64, n)}
		for i := range pred.P {
			pred.P[i] = 0.5
		}
		copy(pred.P[off:], p)
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

	hyp, err := hypotheses(n, p1.Score)
	if err != nil {
		return nil, err
	}
	all, _ := hypotheses(n, p1.Score)
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
		p, ok := separating(hyp, n, off, labels, round)
		if !ok {
			break
		}
		pr, err := ask(off, fmt.Sprintf("rows %d-%d (labels %v learned, -1 unknown) at %s: the summation order, the decimals, the format", off, off+3, labels, floatsText(p)), p)
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
		res.NoFit = "no candidate model reproduces every probe's score"
		res.Components = components(nil, all, elim)
		return res, nil
	}
	if l, ok := sharedLabels(hyp); ok {
		res.Labels = l
	}
	// The most cautious fitting model: the largest error budget over
	// every (candidate, decimals) pair left. PyTorch's cascade sum is
	// taken only if the probes rule out every other order: where they
	// cannot tell it from numpy's pairwise sum, the attack's brackets are
	// emulated sums in one order, and a numpy server planned as PyTorch's
	// cascade (whose budget is larger) costs retries (25 queries became 32
	// against the real scikit-learn at N = 1000).
	var best scorer.Spec
	bestB := -1.0
	for _, cascade := range []bool{false, true} {
		for _, h := range hyp {
			if (h.spec.Sum == scorer.SumTorch || h.spec.Sum == scorer.SumTorch512) != cascade {
				continue
			}
			for dec := range h.alive {
				sp := h.spec
				sp.Decimals = dec
				if b := budget(sp); b > bestB {
					best, bestB = sp, b
				}
			}
		}
		if bestB >= 0 {
			break
		}
	}
	m, err := best.Model()
	if err != nil {
		return nil, fmt.Errorf("fingerprint: identified model %s: %w", best, err)
	}
	res.Model, res.Spec, res.Exact = m, best, distinctSpecs(hyp) == 1
	res.Components = components(hyp, all, elim)
	return res, nil
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
