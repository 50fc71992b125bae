package discrete

import (
	"fmt"
	"math"
)

// Floor returns the information bound on the queries of any attack that
// recovers n labels of entropy h bits each (log₂K for labels drawn
// uniformly; the empirical entropy of the class counts for a known
// labeling) from released scores that take at most values distinct
// values each: ⌈n·h / log₂ values⌉. No attack, adaptive or not, can
// distinguish the 2^(n·h) labelings with fewer answers.
//
// [Values] counts a metric's distinct released scores.
func Floor(n int, h float64, values float64) (int, error) {
	if n < 1 {
		return 0, fmt.Errorf("discrete: floor of N = %d rows", n)
	}
	if !(h >= 0) || math.IsInf(h, 0) {
		return 0, fmt.Errorf("discrete: label entropy %v", h)
	}
	if !(values >= 2) {
		return 0, fmt.Errorf("discrete: a score of %v values carries nothing", values)
	}
	return int(math.Ceil(float64(n) * h / math.Log2(values))), nil
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

// Entropy returns the empirical entropy, in bits per label, of labels in
// [0, k).
func Entropy(labels []int, k int) float64 {
	if len(labels) == 0 {
		return 0
	}
	c := make([]int, max(k, 2))
	for _, y := range labels {
		if y >= 0 && y < len(c) {
			c[y]++
		}
	}
	var h float64
	for _, n := range c {
		if n > 0 {
			p := float64(n) / float64(len(labels))
			h -= p * math.Log2(p)
		}
	}
	return h
}
