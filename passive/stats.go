// This file implements the statistics that turn a success ratio into a
// conclusion: confidence intervals, the binomial test against ½ that the
// paper's reading calls for, and the exact conditional test that stays
// valid for attacks that read the per-sample loss.

package passive

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"math"
	"math/big"

	"gonum.org/v1/gonum/mathext"
)

// Alpha is the significance level at which an [Outcome] counts as
// "memorization detected" (p < 0.01), and the confidence intervals are at
// level 1 − 0.05.
const (
	Alpha      = 0.01
	Confidence = 0.95
)

// An Outcome is the result of one attack on a set of canaries, or of
// several pooled with [Pool].
type Outcome struct {
	N         int     `json:"n"`         // canaries attacked
	Successes int     `json:"successes"` // guesses equal to the canary label
	Rate      float64 `json:"rate"`      // the success ratio [BLIA, (1)]
	// CI is the Clopper–Pearson (exact) 95% interval of the success
	// probability; Wilson is the Wilson score interval [Wil27].
	CI     [2]float64 `json:"ci"`
	Wilson [2]float64 `json:"wilson"`
	// PHalf is the one-sided binomial p-value P(X ≥ Successes) under
	// X ~ Bin(N, ½), the test the paper's reading "above 50% means
	// memorization" calls for [BLIA, Lemma 3.1].
	PHalf float64 `json:"p_half"`
	// NullRate is the success ratio expected if the model had memorized
	// nothing about the canaries' training labels, given its outputs; it
	// is ½ for attacks that do not read the labels.
	NullRate float64 `json:"null_rate"`
	// PCond is the one-sided exact p-value of Successes under that null
	// (see [Evaluate]); it equals PHalf for label-free attacks.
	PCond float64 `json:"p_cond"`
	// Detected is PCond < Alpha: the attack shows memorization.
	Detected bool `json:"detected"`

	q []float64 // per-canary success probability under the null
}

// Evaluate runs attack a on canaries with class-1 probabilities p1,
// canary labels canary (the labels after the ½ flip, which the attack
// tries to infer [BLIA, (1)]) and training labels trained (the canary
// labels after randomized response with keep probability keep, which the
// model saw and the per-sample loss is computed against).
//
// The null hypothesis H₀ is that the model's outputs are independent of
// the canaries' training labels: nothing was memorized. Under H₀ each
// canary label Y is a fair coin independent of p1 [BLIA, Lemma 3.1], and
// the training label is T = Y with probability keep, else 1 − Y. With
// g₀, g₁ the guesses the attack makes for the row if T were 0 or 1, the
// row succeeds with probability
//
//	q = ½·[keep·(1{g₀=0} + 1{g₁=1}) + (1−keep)·(1{g₁=0} + 1{g₀=1})],
//
// independently across rows, so the number of successes is Poisson-
// binomial with these q: [Outcome.PCond] is its exact upper tail. For a
// label-free attack g₀ = g₁ and every q is ½, so the test is the binomial
// test against ½. For the delta-margin attack, which reads the loss, q
// exceeds ½ on many rows: its success ratio sits above ½ even for a model
// that memorized nothing, and only PCond can tell memorization apart.
//
// It returns an error if the inputs differ in length or are not labels,
// if keep is outside [½, 1], or if the attack rejects p1.
func Evaluate(a Attack, p1 []float64, canary, trained []int, keep float64) (Outcome, error) {
	n := len(p1)
	if len(canary) != n || len(trained) != n {
		return Outcome{}, fmt.Errorf("passive: Evaluate: %d probabilities, %d canary labels, %d training labels", n, len(canary), len(trained))
	}
	if !(keep >= 0.5 && keep <= 1) {
		return Outcome{}, fmt.Errorf("passive: keep probability %v outside [½, 1]", keep)
	}
	for i := range canary {
		if canary[i] != 0 && canary[i] != 1 {
			return Outcome{}, fmt.Errorf("passive: canary %d: label %d is not 0 or 1", i, canary[i])
		}
	}
	guess, err := a.Infer(nil, p1, trained)
	if err != nil {
		return Outcome{}, err
	}
	var g0, g1 []int
	if a.ReadsLabels() {
		t := make([]int, n)
		if g0, err = a.Infer(nil, p1, t); err != nil {
			return Outcome{}, err
		}
		for i := range t {
			t[i] = 1
		}
		if g1, err = a.Infer(nil, p1, t); err != nil {
			return Outcome{}, err
		}
	} else {
		g0, g1 = guess, guess
	}
	o := Outcome{N: n, q: make([]float64, n)}
	for i := range n {
		if guess[i] == canary[i] {
			o.Successes++
		}
		s := keep*float64(b2i(g0[i] == 0)+b2i(g1[i] == 1)) + (1-keep)*float64(b2i(g1[i] == 0)+b2i(g0[i] == 1))
		o.q[i] = s / 2
	}
	o.finish()
	return o, nil
}

// Pool merges outcomes of independent experiments (different seeds) into
// one: counts add up and the null distributions convolve. Pool of nothing
// is the zero Outcome.
func Pool(os ...Outcome) Outcome {
	var p Outcome
	for _, o := range os {
		p.N += o.N
		p.Successes += o.Successes
		p.q = append(p.q, o.q...)
	}
	if p.N > 0 {
		p.finish()
	}
	return p
}

func (o *Outcome) finish() {
	o.Rate = float64(o.Successes) / float64(o.N)
	o.CI = ClopperPearson(o.Successes, o.N, Confidence)
	o.Wilson = Wilson(o.Successes, o.N, Confidence)
	o.PHalf = BinomialHalfUpper(o.Successes, o.N)
	var s float64
	for _, q := range o.q {
		s += q
	}
	o.NullRate = s / float64(o.N)
	o.PCond = PoissonBinomialUpper(o.q, o.Successes)
	o.Detected = o.PCond < Alpha
}

// ClopperPearson returns the exact (Clopper–Pearson) two-sided confidence
// interval at level conf for a binomial proportion with k successes in n
// trials [CP34]: its bounds are the conf-level quantiles of
// Beta(k, n−k+1) and Beta(k+1, n−k). It returns [0, 1] for n = 0.
func ClopperPearson(k, n int, conf float64) [2]float64 {
	if n <= 0 {
		return [2]float64{0, 1}
	}
	a := (1 - conf) / 2
	lo, hi := 0.0, 1.0
	if k > 0 {
		lo = mathext.InvRegIncBeta(float64(k), float64(n-k+1), a)
	}
	if k < n {
		hi = mathext.InvRegIncBeta(float64(k+1), float64(n-k), 1-a)
	}
	return [2]float64{lo, hi}
}

// Wilson returns the Wilson score interval at level conf for k successes
// in n trials [Wil27]. It returns [0, 1] for n = 0.
func Wilson(k, n int, conf float64) [2]float64 {
	if n <= 0 {
		return [2]float64{0, 1}
	}
	z := math.Sqrt2 * math.Erfinv(conf)
	nf := float64(n)
	p := float64(k) / nf
	den := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / den
	h := z / den * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return [2]float64{max(0, c-h), min(1, c+h)}
}

// BinomialHalfUpper returns P(X ≥ k) for X ~ Bin(n, ½), computed exactly
// as Σ_{j≥k} C(n, j) / 2ⁿ in integers and rounded once to float64 (it
// underflows to 0 only below 2⁻¹⁰⁷⁴).
func BinomialHalfUpper(k, n int) float64 {
	if k <= 0 {
		return 1
	}
	if k > n {
		return 0
	}
	sum := new(big.Int)
	c := big.NewInt(1) // C(n, j), from j = n down to k
	for j := n; j >= k; j-- {
		sum.Add(sum, c)
		// C(n, j−1) = C(n, j)·j/(n−j+1)
		c.Mul(c, big.NewInt(int64(j)))
		c.Quo(c, big.NewInt(int64(n-j+1)))
	}
	f := new(big.Float).SetInt(sum)
	f.SetMantExp(f, -n)
	v, _ := f.Float64()
	return v
}

// PoissonBinomialUpper returns P(X ≥ k) for X the number of successes of
// independent trials with success probabilities q, by the O(n²) dynamic
// programme over the count distribution.
func PoissonBinomialUpper(q []float64, k int) float64 {
	if k <= 0 {
		return 1
	}
	if k > len(q) {
		return 0
	}
	dist := make([]float64, len(q)+1)
	dist[0] = 1
	for i, p := range q {
		for j := i + 1; j >= 1; j-- {
			dist[j] = dist[j]*(1-p) + dist[j-1]*p
		}
		dist[0] *= 1 - p
	}
	var s float64
	for j := len(q); j >= k; j-- { // small terms first
		s += dist[j]
	}
	return min(s, 1)
}

// outcomeGob is an Outcome's gob form: its fields and its per-canary
// null probabilities, which [Pool] needs (a run trained elsewhere, by
// package queue, pools as one trained here).
type outcomeGob struct {
	O outcomeFields
	Q []float64
}

type outcomeFields Outcome // Outcome's fields without its methods

// GobEncode encodes o with its null probabilities.
func (o Outcome) GobEncode() ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(outcomeGob{O: outcomeFields(o), Q: o.q})
	return buf.Bytes(), err
}

// GobDecode decodes what GobEncode encoded.
func (o *Outcome) GobDecode(b []byte) error {
	var w outcomeGob
	if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&w); err != nil {
		return err
	}
	*o = Outcome(w.O)
	o.q = w.Q
	return nil
}
