// This file implements the challenger's label perturbations: canary
// selection and flipping [BLIA, §3.2], and randomized response [War65]
// over the whole training set [BLIA, Definition 2.3].

package passive

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// KeepProb returns the probability e^ε/(1+e^ε) with which randomized
// response keeps a label, the mechanism that makes the released labels
// ε-label-differentially private [BLIA, Definition 2.3].
//
// Special cases are:
//
//	KeepProb(+Inf) = 1    (no privacy: labels are kept)
//	KeepProb(0)    = 1/2  (labels are pure noise)
//	KeepProb(ε)    error  for ε < 0 or NaN
func KeepProb(eps float64) (float64, error) {
	switch {
	case math.IsNaN(eps) || eps < 0:
		return 0, fmt.Errorf("passive: ε = %v; the privacy budget must be ≥ 0 (+Inf for no privacy)", eps)
	case math.IsInf(eps, 1):
		return 1, nil
	}
	// e^ε/(1+e^ε) = 1/(1+e^−ε), which does not overflow for large ε.
	return 1 / (1 + math.Exp(-eps)), nil
}

// Canaries chooses ⌊frac·n⌋ of the n rows uniformly at random, without
// replacement, and returns them in increasing order. The paper uses
// frac = 0.02: 520 canaries among CENSUS's 26,048 training rows
// [BLIA, Table 1]. It returns an error if frac is outside (0, 1) or
// selects no row.
func Canaries(n int, frac float64, rng *rand.Rand) ([]int, error) {
	if !(frac > 0 && frac < 1) {
		return nil, fmt.Errorf("passive: canary fraction %v outside (0, 1)", frac)
	}
	m := int(math.Floor(frac * float64(n)))
	if m < 1 {
		return nil, fmt.Errorf("passive: a canary fraction of %v of %d rows selects no canary", frac, n)
	}
	// Floyd's algorithm draws m distinct indices with m random numbers.
	chosen := make(map[int]bool, m)
	for j := n - m; j < n; j++ {
		t := rng.IntN(j + 1)
		if chosen[t] {
			t = j
		}
		chosen[t] = true
	}
	out := make([]int, 0, m)
	for i := range n {
		if chosen[i] {
			out = append(out, i)
		}
	}
	return out, nil
}

// FlipCanaries flips each canary's label in labels with probability ½
// [BLIA, §3.1, Setting 1]. Whatever the original label, the result is a
// fair coin independent of the features and of every other label, so an
// attack that guesses it without information from the trained model
// succeeds with probability exactly ½.
func FlipCanaries(labels, canaries []int, rng *rand.Rand) {
	for _, i := range canaries {
		if rng.IntN(2) == 1 {
			labels[i] ^= 1
		}
	}
}

// RRUniforms draws the uniform variates randomized response consumes, one
// per row. Sharing them across privacy budgets couples the experiments:
// [RandomizedResponse] flips row i iff u[i] ≥ KeepProb(ε), so a label
// flipped at some ε is flipped at every smaller ε as well, and the
// differences between budgets are not blurred by independent draws.
func RRUniforms(n int, rng *rand.Rand) []float64 {
	u := make([]float64, n)
	for i := range u {
		u[i] = rng.Float64()
	}
	return u
}

// RandomizedResponse writes to dst the labels released by randomized
// response with keep probability keep: dst[i] = labels[i] if u[i] < keep,
// else 1 − labels[i]. With u uniform on [0, 1) each label is kept with
// probability keep, independently. It returns dst and the number of labels
// flipped. It panics if the slices differ in length.
func RandomizedResponse(dst, labels []int, keep float64, u []float64) ([]int, int) {
	if len(dst) != len(labels) || len(u) != len(labels) {
		panic("passive: RandomizedResponse: length mismatch")
	}
	flipped := 0
	for i, y := range labels {
		if u[i] < keep {
			dst[i] = y
		} else {
			dst[i] = 1 - y
			flipped++
		}
	}
	return dst, flipped
}
