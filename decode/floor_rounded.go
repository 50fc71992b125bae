// This file bounds the block codes against scores rounded to decimals
// ([RoundedBlockMax]; doc.go, "Scores rounded to D decimals").

package decode

import "math"

// RoundedBlockMax returns the most binary labels one query of any block
// code can decode from a score whose mean over n points is rounded to
// decimals (the reported N·score moves in steps of Δ = n·10^−decimals),
// when one point moves the sum by at most w (ln((1−ε)/ε) for a clip at
// ε): the largest k with
//
//	√((4^k − 1)/12) ≤ √k·w/(2Δ) + 1/2.
//
// A block code decodes its k labels from their one score with every other
// point's term fixed, so the reported value is f(σ) = round((c + s(σ))/Δ)
// for a constant c and the block's sum s(σ), and the 2^k labelings need
// 2^k distinct integers f. Under uniform σ those have variance at least
// (4^k − 1)/12 (2^k distinct integers), while f = (c + s)/Δ − φ with
// |φ| ≤ 1/2, so its deviation is at most sd(s)/Δ + 1/2 ≤ √k·w/(2Δ) + 1/2
// (the Erdős–Moser variance argument [Fre98] with the rounding's offset
// added; the float summation moves s by far less than Δ). Choosing the
// offset c does not help: it is already free in the bound. It returns 0
// for n < 1, decimals < 0 or w ≤ 0.
func RoundedBlockMax(n, decimals int, w float64) int {
	if n < 1 || decimals < 0 || !(w > 0) || math.IsInf(w, 0) {
		return 0
	}
	cell := float64(n) * math.Pow(10, -float64(decimals))
	k := 0
	for k < 62 {
		next := float64(k + 1)
		if math.Sqrt((math.Exp2(2*next)-1)/12) > math.Sqrt(next)*w/(2*cell)+0.5 {
			break
		}
		k++
	}
	return k
}
