package precision

// This file implements the bit-requirement report behind labelinf bits:
// for one loss, N, K and noise τ, the bits the papers' bound asks for,
// the bits our planner asks for, and the lowest bits observed to work when
// every labeling is run through an emulated server.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

// MaxObserveLabelings bounds the labelings [Bits] emulates per candidate
// precision: K^N for the exact attack, 2^N (each with three noise values)
// for the robust one, so N ≤ 10 for K = 2, N ≤ 6 for K = 3. Emulating
// every labeling doubles in cost with each label: at this bound a report
// takes a few seconds on one core (N = 10: exact 2^10 decodes at about
// 2 ms each, for the lowest P and again at the paper's and our P); at
// N = 12 the exact report took 32 s. Beyond it the observed column is
// "not measured".
const MaxObserveLabelings = 1 << 10

// BitsValue is one column of a [BitsReport]: a number of bits and where it
// comes from, or why there is none.
type BitsValue struct {
	Bits   uint   `json:"bits,omitempty"`
	Source string `json:"source"`
	// Missing, when set, says why there is no number (Bits is then 0).
	Missing string `json:"missing,omitempty"`
	// Works reports whether every labeling decoded correctly at Bits; it
	// is set only when the observation ran (nil otherwise).
	Works *bool `json:"works,omitempty"`
}

// BitsReport compares the bits a bound asks for with the bits that work.
type BitsReport struct {
	Loss string  `json:"loss"`
	N    int     `json:"n"`
	K    int     `json:"k"`
	Tau  float64 `json:"tau"`
	// Unit is "phi" (the papers' FPA(φ): 1 sign bit, ⌊(φ−1)/2⌋ exponent
	// bits, the rest fraction) or "score-bits" (significand bits of a
	// score correctly rounded once by an exact server).
	Unit    string    `json:"unit"`
	Setting string    `json:"setting"`
	Paper   BitsValue `json:"paper"`
	Ours    BitsValue `json:"ours"`
	// Observed is the lowest value at which every labeling (and, with
	// noise, each of the noise values −τ', 0, +τ', τ' = τ(1 − 2^−20))
	// decodes correctly; every lower value fails at least one.
	Observed BitsValue `json:"observed"`
	// Labelings is how many labelings the observation emulated per value.
	Labelings int `json:"labelings,omitempty"`
	// GapPaper and GapOurs are Paper − Observed and Ours − Observed
	// (negative: the bound asks for too few bits); nil when either side
	// is missing.
	GapPaper *int `json:"gap_paper,omitempty"`
	GapOurs  *int `json:"gap_ours,omitempty"`
}

// BitsOptions are the inputs of [Bits].
type BitsOptions struct {
	Loss string  // "cross-entropy" (aliases "ce", "log-loss")
	N    int     // labels, ≥ 1
	K    int     // classes, ≥ 2 (0 means 2)
	Tau  float64 // noise bound, ≥ 0; 0 is the exact single-query attack
	// ObserveMax overrides [MaxObserveLabelings] (0 keeps it).
	ObserveMax int
}

// ErrUnsupportedLoss is returned for a loss name [Bits] does not know, and
// for the losses of the family that need more than a name (Mahalanobis's
// matrix, Bregman's h).
var ErrUnsupportedLoss = errors.New("precision: unsupported loss")

// ErrBitsRequest wraps every error [Bits] returns for an invalid request
// (N, K, τ or ObserveMax out of range, or a combination the settings do
// not cover).
var ErrBitsRequest = errors.New("precision: invalid bits request")

// BitsLosses lists the loss names [Bits] accepts; "norm-like:A" sets the
// norm-like exponent α = A (default 2).
var BitsLosses = []string{"cross-entropy", "sigmoid-ce", "itakura-saito", "squared-euclidean", "norm-like"}

// familyLoss returns the loss of the family [EA, Appendix F] called name.
func familyLoss(name string) (*loss.Binary, error) {
	kind, alpha := loss.CE, 0.0
	switch {
	case name == "sigmoid-ce":
		kind = loss.SigmoidCE
	case name == "itakura-saito":
		kind = loss.IS
	case name == "squared-euclidean":
		kind = loss.SE
	case name == "norm-like" || strings.HasPrefix(name, "norm-like:"):
		kind, alpha = loss.NL, 2
		if a, ok := strings.CutPrefix(name, "norm-like:"); ok {
			v, err := strconv.ParseFloat(a, 64)
			if err != nil {
				return nil, fmt.Errorf("%w %q: the exponent %q is not a number", ErrUnsupportedLoss, name, a)
			}
			alpha = v
		}
	case name == "mahalanobis" || name == "bregman":
		return nil, fmt.Errorf("%w %q: it needs a matrix or a function, not only a name (want one of %s)", ErrUnsupportedLoss, name, strings.Join(BitsLosses, ", "))
	default:
		return nil, fmt.Errorf("%w %q (want one of %s)", ErrUnsupportedLoss, name, strings.Join(BitsLosses, ", "))
	}
	l, err := loss.NewBinary(kind, alpha, [4]float64{})
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrUnsupportedLoss, name, err)
	}
	return l, nil
}

// Bits returns the bit-requirement report for opt. Two settings:
//
//   - τ = 0: the exact single-query attack [AKXFT21, Thm 1 and 3] against
//     an exact server that rounds the mean cross-entropy once to P bits.
//     Paper: the bits of X = Π pᵢ^(K−1) with every prime bounded by
//     N·ln N as the Prime Number Theorem gives it [AKXFT21, App A.1,
//     Lemma 3], ⌈(K−1)·N·log2(N ln N)⌉ (N ≥ 2); it bounds X, not the
//     score, and ignores the score's magnitude. Ours:
//     single.NewQuery's P. Observed: the lowest P at which
//     decoding (with AllowLowPrecision) returns every one of the K^N
//     labelings.
//   - τ > 0, K = 2: the robust single-query attack with power-of-two
//     weights ([Pow2Attack], [AKXFT21, Alg 2]) against a server computing
//     the mean in FPA(φ) with a pairwise sum, plus noise in (−τ, τ), the
//     noisy score rounded to FPA(φ). Paper: [EA, Prop 3]
//     (fpa.Prop3Phi). Ours: fpa.MinPhi for the attack's need. Observed:
//     the lowest φ at which every labeling decodes correctly for noise
//     −τ', 0 and +τ'.
//   - τ > 0, another loss of the family (sigmoid CE, Itakura–Saito,
//     squared Euclidean, norm-like): the robust single-query attack of
//     single.PlanFamily [EA, Thm 4] against an exact server that rounds
//     the noisy mean loss once to P bits, the attacker budgeting one ulp
//     of the score per point for that rounding. Paper: [EA, Prop 3]'s φ
//     read as FPA(φ)'s significand, P = φ − ⌊(φ−1)/2⌋ (the most favourable
//     reading: a server that only rounds the score). Ours: PlanFamily's
//     P. Observed: the lowest P at which every labeling decodes for noise
//     −τ', 0 and +τ'.
//
// The observation runs only while the labelings to emulate stay within
// opt.ObserveMax (default [MaxObserveLabelings]); otherwise Observed says
// "not measured" and why. ctx cancels the observation.
//
// It returns an error for N < 1, K < 2, τ < 0 or not finite, K > 2 with
// τ > 0, τ = 0 or K > 2 with a loss other than cross-entropy, an error of
// single.PlanFamily (a loss that cannot be separated at this N and τ), and
// [ErrUnsupportedLoss] (wrapped) for an unknown loss.
func Bits(ctx context.Context, opt BitsOptions) (*BitsReport, error) {
	if opt.K == 0 {
		opt.K = 2
	}
	var fam *loss.Binary
	switch opt.Loss {
	case "cross-entropy", "ce", "log-loss":
	default:
		var err error
		if fam, err = familyLoss(opt.Loss); err != nil {
			return nil, err
		}
	}
	switch {
	case opt.N < 1:
		return nil, fmt.Errorf("%w: N = %d; want N ≥ 1", ErrBitsRequest, opt.N)
	case opt.K < 2:
		return nil, fmt.Errorf("%w: K = %d; want K ≥ 2", ErrBitsRequest, opt.K)
	case !(opt.Tau >= 0) || math.IsInf(opt.Tau, 0):
		return nil, fmt.Errorf("%w: τ = %v; want a finite τ ≥ 0", ErrBitsRequest, opt.Tau)
	case opt.Tau > 0 && opt.K != 2:
		return nil, fmt.Errorf("%w: K = %d with τ > 0: the robust attack here is binary (K = 2)", ErrBitsRequest, opt.K)
	case fam != nil && opt.K != 2:
		return nil, fmt.Errorf("%w: K = %d: the loss family is binary (K = 2)", ErrBitsRequest, opt.K)
	case fam != nil && opt.Tau == 0:
		return nil, fmt.Errorf("%w: %v needs τ > 0: its attack is the noise-robust one (single.PlanFamily)", ErrBitsRequest, fam)
	case opt.ObserveMax < 0:
		return nil, fmt.Errorf("%w: ObserveMax = %d; want ≥ 0", ErrBitsRequest, opt.ObserveMax)
	}
	if opt.ObserveMax == 0 {
		opt.ObserveMax = MaxObserveLabelings
	}
	rep := &BitsReport{Loss: "cross-entropy", N: opt.N, K: opt.K, Tau: opt.Tau}
	var err error
	switch {
	case fam != nil:
		rep.Loss = fam.String()
		err = rep.family(ctx, fam, opt)
	case opt.Tau == 0:
		err = rep.exact(ctx, opt)
	default:
		err = rep.robust(ctx, opt)
	}
	if err != nil {
		return nil, err
	}
	if rep.Observed.Bits > 0 {
		gap := func(v BitsValue) *int {
			if v.Bits == 0 {
				return nil
			}
			g := int(v.Bits) - int(rep.Observed.Bits)
			return &g
		}
		rep.GapPaper, rep.GapOurs = gap(rep.Paper), gap(rep.Ours)
	}
	return rep, nil
}

// labelings returns K^N if it is at most limit, else 0.
func labelings(n, k, limit int) int {
	c := 1
	for range n {
		if c > limit/k {
			return 0
		}
		c *= k
	}
	return c
}

// nextLabeling steps y through [0, K)^N in counting order; it reports
// false after the last.
func nextLabeling(y []int, k int) bool {
	for i := range y {
		if y[i]++; y[i] < k {
			return true
		}
		y[i] = 0
	}
	return false
}

func (rep *BitsReport) exact(ctx context.Context, opt BitsOptions) error {
	n, k := opt.N, opt.K
	rep.Unit = "score-bits"
	rep.Setting = "exact single-query attack (ICML Thm 1/3, primes), exact server, score rounded once to P bits"
	rep.Paper.Source = "⌈(K−1)·N·log2(N ln N)⌉: X = Π p_i^(K−1) with p_i ≤ N ln N (ICML App A.1, PNT)"
	if n >= 2 {
		rep.Paper.Bits = uint(math.Ceil(float64(k-1) * float64(n) * math.Log2(float64(n)*math.Log(float64(n)))))
		if rep.Paper.Bits == 0 {
			rep.Paper.Bits = 1
		}
	} else {
		rep.Paper.Missing = "undefined at N = 1 (N ln N = 0)"
	}
	rep.Ours.Source = "single.NewQuery: BitLen(Π D_i) + ⌈log2 max L·e^−L⌉ + 3"
	q, err := single.NewQuery(n, k)
	if err != nil {
		return err
	}
	rep.Ours.Bits = q.Prec()
	rep.Observed.Source = fmt.Sprintf("lowest P at which all K^N labelings decode (emulated when K^N ≤ %d)", opt.ObserveMax)
	count := labelings(n, k, opt.ObserveMax)
	if count == 0 {
		rep.Observed.Missing = fmt.Sprintf("not measured: K^N = %d^%d labelings exceed %d; emulating every labeling grows as K^N (-observe-max raises the cut-off)", k, n, opt.ObserveMax)
		return nil
	}
	rep.Labelings = count
	works := func(p uint) (bool, error) {
		y := make([]int, n)
		for {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			o, err := oracle.NewExact(y, k, p)
			if err != nil {
				return false, err
			}
			score, err := o.Score(ctx, q.Prediction())
			if err != nil {
				return false, err
			}
			res, err := q.Decode(score, single.Options{ScorePrec: p, AllowLowPrecision: true})
			if err != nil || !slices.Equal(res.Labels, y) {
				return false, nil
			}
			if !nextLabeling(y, k) {
				return true, nil
			}
		}
	}
	return rep.scan(ctx, 2, max(rep.Ours.Bits, rep.Paper.Bits)+64, works)
}

// scan sets Observed to the lowest value in [lo, hi] at which works holds,
// and records whether it holds at Paper and Ours.
func (rep *BitsReport) scan(ctx context.Context, lo, hi uint, works func(uint) (bool, error)) error {
	for v := lo; v <= hi; v++ {
		ok, err := works(v)
		if err != nil {
			return err
		}
		if ok {
			rep.Observed.Bits = v
			break
		}
	}
	if rep.Observed.Bits == 0 {
		rep.Observed.Missing = fmt.Sprintf("no value up to %d worked", hi)
	}
	for _, c := range []*BitsValue{&rep.Paper, &rep.Ours} {
		if c.Bits == 0 {
			continue
		}
		ok := c.Bits >= rep.Observed.Bits && rep.Observed.Bits > 0
		if c.Bits != rep.Observed.Bits {
			var err error
			if ok, err = works(c.Bits); err != nil {
				return err
			}
		}
		c.Works = &ok
	}
	return nil
}

func (rep *BitsReport) robust(ctx context.Context, opt BitsOptions) error {
	n, tau := opt.N, opt.Tau
	rep.Unit = "phi"
	rep.Setting = "robust single-query attack (ICML Alg 2, weights 4Nτ·2^(i−1)), server in FPA(φ) with a pairwise sum, noise in (−τ, τ)"
	rep.Paper.Source = "EA Prop 3: ⌈max(2·log2 τ + 5, −2·log2 τ − 1)⌉"
	phi, err := fpa.Prop3Phi(tau)
	if err != nil {
		return err
	}
	rep.Paper.Bits = phi
	rep.Ours.Source = "fpa.MinPhi: narrowest FPA(φ) whose rigorous error bound stays within the slack τ"
	rep.Observed.Source = fmt.Sprintf("lowest φ at which all 2^N labelings × noise {−τ', 0, +τ'} decode (emulated when 2^N ≤ %d)", opt.ObserveMax)
	a, err := NewPow2Attack(n, tau)
	if err != nil {
		rep.Ours.Missing = fmt.Sprintf("not computed: %v", err)
		rep.Observed.Missing = "not measured: no attack to emulate"
		return nil
	}
	ours, _, err := fpa.MinPhi(fpa.Loss{Sum: fpa.SumOptions{Order: fpa.Pairwise}}, a.Need())
	if err != nil {
		rep.Ours.Missing = fmt.Sprintf("not computed: %v", err)
	} else {
		rep.Ours.Bits = ours
	}
	count := labelings(n, 2, opt.ObserveMax)
	if count == 0 {
		rep.Observed.Missing = fmt.Sprintf("not measured: 2^%d labelings exceed %d; emulating every labeling grows as 2^N (-observe-max raises the cut-off)", n, opt.ObserveMax)
		return nil
	}
	rep.Labelings = count
	tp := tau * (1 - 0x1p-20)
	noise := []*fpa.Float{fpa.New(wide).SetFloat64(-tp), fpa.New(wide), fpa.New(wide).SetFloat64(tp)}
	works := func(phi uint) (bool, error) {
		f, err := fpa.FPA(phi)
		if err != nil {
			return false, nil // no such format: it does not work
		}
		p := a.Predictions(f)
		dec := a.decoder(p)
		server := scorer.FloatLoss{Loss: fpa.Loss{Format: f, Sum: fpa.SumOptions{Order: fpa.Pairwise}}}
		y := make([]int, n)
		s := fpa.New(f)
		for {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			score, _, err := server.Binary(nil, y, p)
			if err != nil {
				return false, nil // a θ flushed to 0 or 1: no score
			}
			for _, z := range noise {
				s.Add(score, z)
				got, ok := dec.decode(s)
				if !ok || !slices.Equal(got, y) {
					return false, nil
				}
			}
			if !nextLabeling(y, 2) {
				return true, nil
			}
		}
	}
	hi := max(phi, rep.Ours.Bits) + 16
	return rep.scan(ctx, 5, hi, works)
}

func (rep *BitsReport) family(ctx context.Context, l *loss.Binary, opt BitsOptions) error {
	n, tau := opt.N, opt.Tau
	rep.Unit = "score-bits"
	rep.Setting = "robust single-query attack (EA Thm 4, single.PlanFamily), exact server, noisy mean loss rounded once to P bits"
	phi, err := fpa.Prop3Phi(tau)
	if err != nil {
		return err
	}
	// FPA(φ)'s significand: φ − 1 − ⌊(φ−1)/2⌋ fraction bits plus the
	// hidden one (fpa.FPA's split; above φ = 125 the exponent stays at 62).
	rep.Paper.Bits = phi - (phi-1)/2
	if f, err := fpa.FPA(phi); err == nil {
		rep.Paper.Bits = f.Prec()
	}
	rep.Paper.Source = fmt.Sprintf("EA Prop 3: φ = %d, read as the significand of FPA(φ)", phi)
	plan, err := single.PlanFamily(ctx, single.FamilyOptions{Loss: l, N: n, Tau: tau})
	if err != nil {
		return err
	}
	rep.Ours.Bits = plan.Prec()
	rep.Ours.Source = "single.PlanFamily: the score's magnitude W·2^N against a quarter of Nτδ"
	rep.Observed.Source = fmt.Sprintf("lowest P at which all 2^N labelings × noise {−τ', 0, +τ'} decode (emulated when 2^N ≤ %d)", opt.ObserveMax)
	count := labelings(n, 2, opt.ObserveMax)
	if count == 0 {
		rep.Observed.Missing = fmt.Sprintf("not measured: 2^%d labelings exceed %d; emulating every labeling grows as 2^N (-observe-max raises the cut-off)", n, opt.ObserveMax)
		return nil
	}
	rep.Labelings = count
	// Exact terms, far more precise than any P tried.
	hi := max(rep.Paper.Bits, rep.Ours.Bits) + 16
	wp := hi + 128
	var terms [2][]*big.Float
	for y := range 2 {
		for _, th := range plan.Theta {
			t, err := l.Term(new(big.Float).SetPrec(wp), y, th)
			if err != nil {
				return err
			}
			terms[y] = append(terms[y], t)
		}
	}
	tp := tau * (1 - 0x1p-20)
	noise := []*big.Float{big.NewFloat(-tp), big.NewFloat(0), big.NewFloat(tp)}
	nf := new(big.Float).SetInt64(int64(n))
	works := func(p uint) (bool, error) {
		y := make([]int, n)
		sum := new(big.Float).SetPrec(wp)
		mean := new(big.Float).SetPrec(wp)
		for {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			sum.SetInt64(0)
			for i, c := range y {
				sum.Add(sum, terms[c][i])
			}
			mean.Quo(sum, nf)
			for _, z := range noise {
				score := new(big.Float).SetPrec(wp).Add(mean, z)
				score.SetPrec(p) // the server's one rounding, to nearest even
				// The attacker's budget for it: one ulp of the score per point.
				ulp := math.Ldexp(float64(n), score.MantExp(nil)-int(p))
				got, err := plan.Decode(score, ulp)
				if err != nil || !slices.Equal(got.Labels, y) {
					return false, nil
				}
			}
			if !nextLabeling(y, 2) {
				return true, nil
			}
		}
	}
	return rep.scan(ctx, 2, hi, works)
}
