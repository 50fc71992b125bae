package apa

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestFixedPowersBound checks fixedPowers' bounds against the exact
// powers: for x = X·2^−W exact and |x| < 1, the error of p_i is at most
// (i−1)·(1 + 2^−32) units of 2^−W (err_(a+c) ≤ err_a + err_c + 1 +
// 2^−32 from err_1 = 0), |p_i| ≤ |x|^i, and for |x| < 2^−8 (the exp
// series) each power is within 1.1 units. Operands of random words, all
// ones (the short product's largest dropped pairs) and both signs, at
// the scales of the series from 10^3 to 10^5 bits; it fails when the
// short product's guard words are cut to one.
func TestFixedPowersBound(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 7))
	Ws := []uint{1000, 9000, 10048, 30000}
	if !testing.Short() {
		Ws = append(Ws, 100000)
	}
	for _, W := range Ws {
		for i := range 12 {
			// |x| < 2^−lead: the atanh series' v (lead ≈ 2R) or exp's t.
			lead := uint([]int{0, 1, 8, 9, 40, 130, 260}[i%7])
			X := new(big.Int)
			if i%3 == 0 {
				X.Lsh(bigOne, W-lead)
				X.Sub(X, bigOne) // all ones
			} else {
				w := make([]big.Word, (W-lead)/bits.UintSize+1)
				for k := range w {
					w[k] = big.Word(r.Uint64())
				}
				X.SetBits(w)
				X.Rsh(X, uint(len(w))*bits.UintSize-(W-lead))
			}
			if i%2 == 1 {
				X.Neg(X)
			}
			m := int64(4 + r.IntN(12))
			pw := fixedPowers(X, W, m)
			for k := int64(1); k <= m; k++ {
				// D = |p_k·2^(W(k−1)) − X^k|, the error in units of
				// 2^−W scaled by 2^(W(k−1)).
				exact := new(big.Int).Exp(X, big.NewInt(k), nil)
				D := new(big.Int).Lsh(&pw[k], W*uint(k-1))
				D.Sub(D, exact).Abs(D)
				// D < (k−1)(1 + 2^−32)·2^(W(k−1)).
				lim := new(big.Int).Lsh(big.NewInt((k-1)*(1<<32+1)), W*uint(k-1))
				if new(big.Int).Lsh(D, 32).Cmp(lim) >= 0 && !(k == 1 && D.Sign() == 0) {
					t.Fatalf("W %d, case %d: x^%d off by %v units of 2^−W, bound %d·(1 + 2^−32)",
						W, i, k, new(big.Int).Rsh(D, W*uint(k-1)), k-1)
				}
				// |p_k| ≤ |x|^k: |p_k|·2^(W(k−1)) ≤ |X^k|.
				if new(big.Int).Lsh(new(big.Int).Abs(&pw[k]), W*uint(k-1)).CmpAbs(exact) > 0 {
					t.Fatalf("W %d, case %d: |p_%d| above |x|^%d", W, i, k, k)
				}
				// Below 2^−8: within 1.1 units (expMP's claim).
				if lead >= 8 && new(big.Int).Mul(D, big.NewInt(10)).Cmp(
					new(big.Int).Lsh(big.NewInt(11), W*uint(k-1))) >= 0 {
					t.Fatalf("W %d, case %d, |x| < 2^−%d: x^%d off by more than 1.1 units", W, i, lead, k)
				}
			}
		}
	}
}
