package fingerprint

// This file holds the candidate models and what each predicts for a
// probe: a bracket of the reported score per labeling of the special rows
// (the emulator's, scorer.Emulator), for each choice of the neutral term.

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/scorer"
)

// allKeys is every labeling of the special rows with either neutral term.
const allKeys = 1<<(2<<nSpecial) - 1

// componentNames are the components a probe can tell apart, in the order
// they are printed.
var componentNames = []string{"format", "clip", "renorm", "floor", "sum", "reduce", "dec"}

// A hyp0 is one candidate model (decimals aside) with the decimals and
// labelings of the special rows still consistent with the probes.
type hyp0 struct {
	k     int         // classes
	spec  scorer.Spec // Decimals −1
	model *scorer.Model
	emu   *scorer.Emulator
	// alive[dec] is the set of keys still consistent, for each decimals
	// hypothesis (−1: unrounded): bit key set for a key = labeling of the
	// special rows (bit i = label of row i) + 16·(the neutral term's
	// choice: 0 the lower, 1 the upper value its log can take).
	alive map[int]uint32
	terms map[float64][]*big.Float
	maxD  int // the deepest term's additions at the probes' N (0: not yet)
}

// candidateSpecs is the grid of library behaviours the probes choose
// from: binary64 and binary32; no clip, the dtype's eps, 1e-15
// (scikit-learn ≤ 1.1, Kaggle), 1e-7 (Keras 3) or Keras 2's 1e-7 added
// inside the log; rows renormalised or not; PyTorch's −100 clamp or none;
// numpy pairwise, naive, exact (fsum) or PyTorch's cascade (256-bit
// vectors, its AVX2 and default CPU kernels) summation; mean or sum.
// Kahan's sum is left out: it is not monotone, so no emulator brackets it.
func candidateSpecs() []scorer.Spec {
	var out []scorer.Spec
	for _, f := range []fpa.Format{fpa.Binary64, fpa.Binary32} {
		for _, clip := range []string{"", "eps", "1e-15", "1e-7", "keras2"} {
			for _, renorm := range []bool{false, true} {
				for _, floor := range []string{"", "-100"} {
					if floor != "" && clip != "" {
						continue // every clip keeps the terms below 100: the clamp never acts
					}
					for _, sum := range []string{scorer.SumPairwise, scorer.SumNaive, scorer.SumFsum, scorer.SumTorch} {
						for _, total := range []bool{false, true} {
							sp := scorer.Spec{Format: f, Clip: clip, Renorm: renorm, Floor: floor, Sum: sum, Total: total, Decimals: -1, LogULPs: 1}
							if clip == "keras2" {
								if renorm {
									continue
								}
								sp.Clip, sp.AddEps = "1e-7", true
							}
							if clip == "" && floor == "" && f == fpa.Binary32 {
								continue // 1e-300 is 0 there: the server fails, no model to fit
							}
							if clip == "" && renorm {
								continue // renormalising unclipped rows [1−p, p] is rare; keep the grid small
							}
							out = append(out, sp)
						}
					}
				}
			}
		}
	}
	return out
}

// hypotheses returns every candidate with the decimals hypotheses the
// first score allows: unrounded, and its own number of decimals if it has
// at most 12.
func hypotheses(n, k int, first *big.Rat) ([]*hyp0, error) {
	decs := []int{-1}
	if d := decimalsOf(first); d >= 0 {
		// Trailing zeros hide decimals: d, d+1 or d+2 (a later probe's
		// digits or brackets tell them apart).
		decs = append(decs, d, d+1, d+2)
	}
	var out []*hyp0
	for _, sp := range candidateSpecs() {
		m, err := sp.Model()
		if err != nil {
			continue // not valid in this format (1e-15 in binary32)
		}
		e, err := m.NewEmulator()
		if err != nil {
			return nil, fmt.Errorf("fingerprint: candidate %s: %w", sp, err)
		}
		h := &hyp0{k: k, spec: sp, model: m, emu: e, alive: map[int]uint32{}, terms: map[float64][]*big.Float{}}
		for _, d := range decs {
			h.alive[d] = allKeys
		}
		out = append(out, h)
	}
	return out, nil
}

// newRows forgets the labelings (the special rows move) but keeps the
// neutral terms still consistent.
func (h *hyp0) newRows() {
	const masks = 1<<(1<<nSpecial) - 1
	for d, alive := range h.alive {
		keep := uint32(0)
		for c := range 2 {
			if alive>>(c<<nSpecial)&masks != 0 {
				keep |= masks << (c << nSpecial)
			}
		}
		h.alive[d] = keep
	}
}

// term returns the exact term of a special row of probability p (see
// specialRow) for a point whose bit is 1 (its label is class 1) or 0
// (another class: every other class has the same term); false if the
// model cannot score the row.
func (h *hyp0) term(p float64, bit int) (*big.Float, bool) {
	t, ok := h.terms[p]
	if !ok {
		row := []float64{p}
		if h.k > 2 {
			row = specialRow(nil, p, h.k)
		}
		var err error
		if t, err = h.model.Terms(row); err != nil {
			t = nil
		}
		h.terms[p] = t
	}
	if t == nil || t[bit].IsInf() {
		return nil, false
	}
	return t[bit], true
}

// neutralP is the probability that stands for the neutral row (every
// class's term the same): ½ for two classes, and for K > 2 the uniform
// row, which no probability p writes as a special row.
func neutralP(k int) float64 {
	if k == 2 {
		return 0.5
	}
	return -1
}

// scaledNeutral stands, for K > 2, for the uniform row scaled by
// 1 + 2^−30: neutral (every class the same term) yet shifted by a server
// that renormalises (see specialRow).
const scaledNeutral = -2

// specialRow appends to dst the K probabilities of a special row of
// probability p for K > 2: class 1 gets p and every other class
// (1−p)/(K−1), so that a label other than 1 has the same term whichever
// it is; p = neutralP(k) is the uniform row. Except in the extremes of
// probe 1, the other classes get (1−p)/(K−1)·(1 + 2^−30): the row sums
// to 1 + about 10^−9, which every library accepts (scikit-learn ≥ 1.5
// warns beyond √eps ≈ 1.5·10^−8, serve refuses beyond 10^−4), while a
// server that renormalises rows shifts each term by about 10^−9: the
// probes tell renormalisation apart, which rows summing to exactly 1
// cannot.
func specialRow(dst []float64, p float64, k int) []float64 {
	if p == neutralP(k) || p == scaledNeutral {
		u := 1 / float64(k)
		if p == scaledNeutral {
			u *= 1 + 0x1p-30
		}
		for range k {
			dst = append(dst, u)
		}
		return dst
	}
	q := (1 - p) / float64(k-1)
	if !slices.Contains(extremes[:], p) {
		q *= 1 + 0x1p-30
	}
	for c := range k {
		if c == 1 {
			dst = append(dst, p)
		} else {
			dst = append(dst, q)
		}
	}
	return dst
}

// brackets returns the brackets [lo, hi] of the unrounded reported value
// (the mean, or the sum for reduce=sum) for prediction p of the special
// rows with labeling mask, one per value the neutral row's term can take
// (all neutral rows compute the same log of ½, so they take the same
// value). ok is false if the model predicts a server error.
func (h *hyp0) brackets(n, off int, p []float64, mask uint16) (br [][2]float64, ok bool) {
	tn, ok := h.term(neutralP(h.k), 0)
	if !ok {
		return nil, false
	}
	nlo, nhi := h.emu.TermRange(tn)
	lo, hi := h.emu.NewTerms(n), h.emu.NewTerms(n)
	for i, v := range p {
		t, ok := h.term(v, int(mask>>i&1))
		if !ok {
			return nil, false
		}
		a, b := h.emu.TermRange(t)
		lo.Set(off+i, a)
		hi.Set(off+i, b)
	}
	neutral := []float64{nlo}
	if nhi != nlo {
		neutral = append(neutral, nhi)
	}
	for _, v := range neutral {
		for i := range n {
			if i < off || i >= off+len(p) {
				lo.Set(i, v)
				hi.Set(i, v)
			}
		}
		a, errA := h.emu.Report(lo)
		b, errB := h.emu.Report(hi)
		if errA != nil || errB != nil {
			return nil, false
		}
		if h.spec.Total {
			a.Mul(a, new(big.Rat).SetInt64(int64(n)))
			b.Mul(b, new(big.Rat).SetInt64(int64(n)))
		}
		fa, _ := a.Float64()
		fb, _ := b.Float64()
		br = append(br, [2]float64{fa, fb})
	}
	return br, true
}

// fits reports whether the observed score o lies in bracket b under the
// decimals hypothesis dec.
func (h *hyp0) fits(o *big.Rat, b [2]float64, dec int) bool {
	if dec >= 0 {
		if decimalsOf(o) < 0 || decimalsOf(o) > dec {
			return false
		}
		lo, err1 := fpa.RoundDecimal(fpa.New(fpa.Binary64).SetFloat64(b[0]), dec)
		hi, err2 := fpa.RoundDecimal(fpa.New(fpa.Binary64).SetFloat64(b[1]), dec)
		return err1 == nil && err2 == nil && o.Cmp(lo) >= 0 && o.Cmp(hi) <= 0
	}
	v, err := roundTo(o, h.spec.Format)
	return err == nil && v >= b[0] && v <= b[1]
}

// filter keeps the hypotheses (decimals, labelings) under which a probe
// predicting p in the special rows could have scored o.
func filter(hyp []*hyp0, n, off int, p []float64, o *big.Rat) []*hyp0 {
	var out []*hyp0
	for _, h := range hyp {
		union := uint32(0)
		for _, m := range h.alive {
			union |= m
		}
		cons := map[uint32][2]float64{} // key → bracket
		for mask := range uint32(1 << nSpecial) {
			if union&(1<<mask|1<<(mask+1<<nSpecial)) == 0 {
				continue
			}
			if !h.near(n, off, p, uint16(mask), o, slack(h)) {
				continue // far outside the error budget: skip the emulation
			}
			if br, ok := h.brackets(n, off, p, uint16(mask)); ok {
				for c, b := range br {
					cons[mask+uint32(c)<<nSpecial] = b
				}
			}
		}
		any := false
		for dec, alive := range h.alive {
			keep := uint32(0)
			for key, b := range cons {
				if alive&(1<<key) != 0 && h.fits(o, b, dec) {
					keep |= 1 << key
				}
			}
			if keep != 0 {
				h.alive[dec] = keep
				any = true
			} else {
				delete(h.alive, dec)
			}
		}
		if any {
			out = append(out, h)
		}
	}
	return out
}

// slack is the largest decimal rounding among h's decimals hypotheses.
func slack(h *hyp0) float64 {
	sl := 0.0
	for dec := range h.alive {
		if dec >= 0 {
			sl = max(sl, 0.5*math.Pow(10, -float64(dec)))
		}
	}
	return sl
}

// near reports whether the score o can come from h with the special rows'
// labels mask by the model's rigorous error budget ([scorer.Model.Bound]:
// any faithful log, the model's summation) plus a decimal rounding of up
// to sl: a cheap test (O(1) per labeling) that lets filter skip the
// emulated brackets of hypotheses that cannot fit. It never rules out a
// hypothesis whose brackets contain o, since the brackets lie within the
// budget.
func (h *hyp0) near(n, off int, p []float64, mask uint16, o *big.Rat, sl float64) bool {
	tn, ok := h.term(neutralP(h.k), 0)
	if !ok {
		return true // let brackets report the failure
	}
	sum, _ := tn.Float64()
	sum *= float64(n - len(p))
	tmax, _ := tn.Float64()
	for i, v := range p {
		t, ok := h.term(v, int(mask>>i&1))
		if !ok {
			return true
		}
		f, _ := t.Float64()
		sum += f
		tmax = max(tmax, f)
	}
	if h.maxD == 0 {
		for _, d := range h.model.Depths(n) {
			h.maxD = max(h.maxD, d)
		}
		h.maxD = max(h.maxD, 1)
	}
	st := sum * (1 + 1e-12)
	b := h.model.Bound(scorer.Budget{N: n, Max: tmax, SumT: st, SumDT: st * float64(h.maxD), MaxD: h.maxD})
	v, tol := sum, b
	if !h.spec.Total {
		v, tol = sum/float64(n), b/float64(n)
	}
	of, _ := o.Float64()
	return math.Abs(of-v) <= tol*(1+1e-9)+sl*(1+1e-9)+1e-12*math.Abs(v)
}

// sharedLabels returns the special rows' labels on which every
// hypothesis left agrees, −1 for a row whose label some disagree on (its
// two labels give the same term under some fitting model: clipping is
// symmetric), and whether any row's label is known.
func sharedLabels(hyp []*hyp0) ([]int, bool) {
	var ones, zeros uint16 // rows seen with label 1, with label 0
	seen := false
	for _, h := range hyp {
		for _, alive := range h.alive {
			for key := range 2 << nSpecial {
				if alive&(1<<key) != 0 {
					m := uint16(key & (1<<nSpecial - 1))
					seen = true
					ones |= m
					zeros |= ^m
				}
			}
		}
	}
	l := make([]int, nSpecial)
	known := false
	for i := range l {
		switch {
		case !seen || (ones>>i&1 == 1 && zeros>>i&1 == 1):
			l[i] = -1
		case ones>>i&1 == 1:
			l[i], known = 1, true
		default:
			l[i], known = 0, true
		}
	}
	return l, known
}

// budget is the error budget of model sp at a typical query (N = 1000,
// terms 1), to pick the most cautious of several fitting models.
func budget(sp scorer.Spec) float64 {
	m, err := sp.Model()
	if err != nil {
		return -1
	}
	n := 1000
	b := scorer.Budget{N: n, Max: 1, SumT: float64(n)}
	for _, d := range m.Depths(n) {
		b.SumDT += float64(d)
		b.MaxD = max(b.MaxD, d)
	}
	return m.Bound(b)
}

// value returns h's value of component c.
func (h *hyp0) value(c string, dec int) string {
	sp := h.spec
	switch c {
	case "format":
		return sp.Format.String()
	case "clip":
		switch {
		case sp.AddEps:
			return "keras2"
		case sp.Clip == "":
			return "none"
		}
		return sp.Clip
	case "renorm":
		if sp.Renorm {
			return "renorm"
		}
		return "norenorm"
	case "floor":
		if sp.Floor == "" {
			return "none"
		}
		return sp.Floor
	case "sum":
		return sp.Sum
	case "reduce":
		if sp.Total {
			return "sum"
		}
		return "mean"
	case "dec":
		if dec < 0 {
			return "none"
		}
		return fmt.Sprint(dec)
	}
	return ""
}

// values lists the values of component c among hyp, sorted.
func values(hyp []*hyp0, c string) []string {
	var out []string
	for _, h := range hyp {
		for dec := range h.alive {
			if v := h.value(c, dec); !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// distinctSpecs counts the distinct models (with decimals) in hyp.
func distinctSpecs(hyp []*hyp0) int {
	n := 0
	for _, h := range hyp {
		n += len(h.alive)
	}
	return n
}

// components writes the evidence for each component: the values that fit
// and the probe that ruled out each other value.
func components(hyp, all []*hyp0, elim map[string]int) []Component {
	var out []Component
	for _, c := range componentNames {
		fit := values(hyp, c)
		cp := Component{Name: c, Fits: fit}
		switch len(fit) {
		case 0:
			cp.Value = "none fits"
		case 1:
			cp.Value = fit[0]
		default:
			cp.Value = "undetermined"
		}
		var ev []string
		for _, v := range values(all, c) {
			if p, ok := elim[c+"="+v]; ok {
				ev = append(ev, fmt.Sprintf("%s ruled out by probe %d", v, p))
			}
		}
		if len(fit) > 1 && c == "dec" {
			ev = append(ev, "trailing zeros leave "+strings.Join(fit, ", ")+"; the model assumes the coarsest, whose error budget covers the finer")
		} else if len(fit) > 1 {
			ev = append(ev, "the probes cannot tell "+strings.Join(fit, ", ")+" apart")
		}
		cp.Evidence = strings.Join(ev, "; ")
		out = append(out, cp)
	}
	return out
}
