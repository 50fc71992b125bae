package discrete

import (
	"fmt"
	"math"
)

// Floor returns the information bound on the queries of any attack that
// tells apart 2^bits labelings from released scores that take at most
// values distinct values each: ⌈bits / log₂ values⌉. No attack, adaptive
// or not, can tell them apart with fewer answers on every one of them.
// bits is [LabelBits] for the labelings with a known labeling's class
// counts (the bound then holds on average over them, so for the worst),
// or N·log₂K for every labeling.
//
// [Values] counts a metric's distinct released scores.
func Floor(bits float64, values float64) (int, error) {
	if !(bits >= 0) || math.IsInf(bits, 0) {
		return 0, fmt.Errorf("discrete: floor of %v bits", bits)
	}
	if !(values >= 2) {
		return 0, fmt.Errorf("discrete: a score of %v values carries nothing", values)
	}
	return int(math.Ceil(bits / math.Log2(values))), nil
}

// Values returns an upper bound on the number of distinct scores metric m
// can release for n rows of k classes, rounded to decimals (−1: not
// rounded): accuracy counts right rows (n + 1 values); the AUC is a
// multiple of 1/(2n₁n₀) in [0, 1] (at most n²/2 + 1 values); the Brier
// score is a float64 in [0, 2] (2^62 values at most). Rounding to d
// decimals leaves at most 10^d·range + 1 of them.
func Values(m Metric, n, k, decimals int) float64 {
	var v, hi float64
	switch m {
	case Accuracy:
		v, hi = float64(n)+1, 1
	case AUC:
		v, hi = float64(n)*float64(n)/2+1, 1
	default:
		v, hi = 0x1p62, 2
	}
	if decimals >= 0 {
		v = math.Min(v, hi*math.Pow(10, float64(decimals))+1)
	}
	return v
}

// ValuesOf is [Values] for the labels' class counts, which the floor's
// bits ([LabelBits]) assume known: the AUC is then a multiple of
// 1/(2n₀n₁) in [0, 1] (ties count ½), at most 2n₀n₁ + 1 values, n₀n₁ ≤
// N²/4 and fewer for unbalanced classes (n₁ = N/10: 0.18·N² + 1, not
// N²/2 + 1); the other metrics as Values.
func ValuesOf(m Metric, labels []int, k, decimals int) float64 {
	if m != AUC {
		return Values(m, len(labels), k, decimals)
	}
	var n1 float64
	for _, y := range labels {
		if y == 1 {
			n1++
		}
	}
	v := 2*n1*(float64(len(labels))-n1) + 1
	if decimals >= 0 {
		v = math.Min(v, math.Pow(10, float64(decimals))+1)
	}
	return math.Min(v, Values(m, len(labels), k, decimals))
}

// LabelBits returns log₂ of the number of labelings of len(labels) rows
// with the class counts of labels (classes in [0, k)): the multinomial
// coefficient, at most N times the labels' empirical entropy.
func LabelBits(labels []int, k int) float64 {
	c := make([]int, max(k, 2))
	for _, y := range labels {
		if y >= 0 && y < len(c) {
			c[y]++
		}
	}
	lg := func(x int) float64 {
		v, _ := math.Lgamma(float64(x) + 1)
		return v
	}
	// From the last class down: for two classes lg(N) − lg(n₁) − lg(n₀),
	// the order the audit's binomial was computed in (its reports stay
	// byte-identical).
	b := lg(len(labels))
	for i := len(c) - 1; i >= 0; i-- {
		b -= lg(c[i])
	}
	return math.Max(b/math.Ln2, 0)
}
