package precision

// This file implements the bit-requirement experiment of issue 3: the
// noise-robust single-query attack with power-of-two weights [AKXFT21,
// Algorithm 2, Theorem 4] run against a server that computes the mean
// cross-entropy in FPA(φ), at the φ that fpa.MinPhi predicts and below.

import (
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/scorer"
)

// wide is the attacker's working format: 62 exponent bits hold every
// doubly exponential θ here, 300 fraction bits make its own rounding
// negligible next to the server's.
var wide = fpa.Format{ExpBits: 62, FracBits: 300}

// Pow2Attack is the robust single-query attack with weights
// dᵢ = c·2^(i−1), c = 4Nτ (separation Λ = 4τ, twice what noise τ needs, so
// that the server's own rounding may use the other τ).
type Pow2Attack struct {
	N   int
	Tau float64
	c   *fpa.Float
	lnT []*fpa.Float // ln θᵢ in the wide format
}

// NewPow2Attack returns the attack for n labels and noise τ.
func NewPow2Attack(n int, tau float64) (*Pow2Attack, error) {
	if n < 1 || n > 60 || !(tau > 0) {
		return nil, fmt.Errorf("precision: Pow2Attack needs 1 ≤ n ≤ 60 and τ > 0")
	}
	a := &Pow2Attack{N: n, Tau: tau}
	a.c = fpa.New(wide).SetFloat64(4 * float64(n) * tau)
	d := fpa.New(wide).Set(a.c)
	two := fpa.New(wide).SetInt64(2)
	for range n {
		// ln θ = −softplus(d) = −(d + ln(1 + e^−d)).
		t := fpa.New(wide).Neg(d)
		t.Exp(t)
		t.Log1p(t)
		t.Add(t, d)
		a.lnT = append(a.lnT, t.Neg(t))
		d = fpa.New(wide).Mul(d, two)
	}
	return a, nil
}

// Predictions returns θ rounded to f, as the server stores them.
func (a *Pow2Attack) Predictions(f fpa.Format) []fpa.Float {
	p := make([]fpa.Float, a.N)
	for i, l := range a.lnT {
		p[i].SetFormat(f)
		p[i].Exp(l)
	}
	return p
}

// Need returns what the attack needs from a server evaluating in a format
// whose predictions are p: N terms, the largest −ln θ, the smallest θ, a
// slack of τ (Λ/2 − τ with Λ = 4τ), and the rounding of the noisy score.
func (a *Pow2Attack) Need() fpa.Need {
	maxT, _ := fpa.New(wide).Neg(a.lnT[a.N-1]).Big(nil)
	minP, _ := fpa.New(wide).Exp(a.lnT[a.N-1]).Big(nil)
	// Bound's terms: −ln θ rounded up a little for the format's own θ.
	maxT.Mul(maxT, big.NewFloat(1.0001))
	return fpa.Need{N: a.N, MaxTerm: maxT, MinProb: minP, Slack: big.NewFloat(a.Tau), Rounded: true}
}

// Decode recovers the labels from a reported score: weights and constant
// from the rounded predictions p, computed in the wide format, then the
// greedy read-out of a superincreasing subset sum. It reports whether the
// residual after decoding is within c/2 (the verification).
func (a *Pow2Attack) Decode(p []fpa.Float, score *fpa.Float) ([]int, bool) {
	return a.decoder(p).decode(score)
}

// pow2Decoder holds what decoding needs from one set of rounded
// predictions: the weights dᵢ = ln(1−θ̃ᵢ) − ln θ̃ᵢ and C = Σ −ln(1−θ̃ᵢ),
// in the wide format, so that many scores can be decoded for the price
// of one set of wide logarithms.
type pow2Decoder struct {
	n    int
	d    []*fpa.Float
	negC *fpa.Float // −C
	half *fpa.Float // c/2
}

func (a *Pow2Attack) decoder(p []fpa.Float) *pow2Decoder {
	dec := &pow2Decoder{n: a.N, d: make([]*fpa.Float, a.N), negC: fpa.New(wide)}
	for i := range p {
		lt := fpa.New(wide).Log(&p[i])
		l1 := fpa.New(wide).Log1p(fpa.New(wide).Neg(&p[i])) // ln(1−θ̃)
		dec.negC.Add(dec.negC, l1)
		dec.d[i] = fpa.New(wide).Sub(l1, lt)
	}
	dec.half = fpa.New(wide).Quo(a.c, fpa.New(wide).SetInt64(2))
	return dec
}

// decode reads the labels off N·score − C greedily, largest weight first.
func (dec *pow2Decoder) decode(score *fpa.Float) ([]int, bool) {
	r := fpa.New(wide).Mul(score, fpa.New(wide).SetInt64(int64(dec.n)))
	r.Add(r, dec.negC)
	labels := make([]int, dec.n)
	t := fpa.New(wide)
	for i := dec.n - 1; i >= 0; i-- {
		if t.Sub(dec.d[i], dec.half).Cmp(r) <= 0 {
			labels[i] = 1
			r.Sub(r, dec.d[i])
		}
	}
	return labels, t.Abs(r).Cmp(dec.half) < 0
}

// Trial runs one attack against a server in format f holding random
// labels, with uniform noise in (−τ, τ) added to its score and rounded to
// f. It reports whether the decoded labels are right and verified.
func (a *Pow2Attack) Trial(f fpa.Format, r *rand.Rand) (bool, error) {
	labels := make([]int, a.N)
	for i := range labels {
		labels[i] = r.IntN(2)
	}
	p := a.Predictions(f)
	server := scorer.FloatLoss{Loss: fpa.Loss{Format: f, Sum: fpa.SumOptions{Order: fpa.Pairwise}}}
	score, _, err := server.Binary(nil, labels, p)
	if err != nil {
		// Too few bits: a θ flushed to 0 or 1 makes a term infinite, and
		// the server has no score to give. The attack fails.
		return false, nil
	}
	noise := fpa.New(wide).SetFloat64((2*r.Float64() - 1) * a.Tau)
	score.Add(score, noise)
	got, ok := a.Decode(p, score)
	if !ok {
		return false, nil
	}
	for i := range got {
		if got[i] != labels[i] {
			return false, nil
		}
	}
	return true, nil
}
