package fpa

// This file holds the square root of the wide paths (significands beyond
// 64 bits) for formats up to sqrtNewtonMax bits, where Newton's iteration
// from a float64 seed beats big.Int.Sqrt, which starts from a power of
// two and allocates on each step. [MCA]: see small.go.

import (
	"math"
	"math/big"
)

// sqrtNewtonMax bounds the precision of the Newton square root; above it
// big.Int.Sqrt's cost is dominated by the same full-width divisions.
const sqrtNewtonMax = 8192

// isqrt sets r to ⌊√M⌋ for M ≥ 2^104 and returns r, with q, t and u as
// temporaries (none may alias M or r). The seed is √ of M's leading 62
// bits in float64, relative error below 2^−50; each Newton step
// r ← ⌊(r + ⌊M/r⌋)/2⌋ about doubles the correct bits, and any step
// leaves r ≥ ⌊√M⌋ (AM–GM), so once the error is below one unit the loop
// at the end only steps down [MCA, §1.5.1].
func isqrt(r, M, q, t, u *big.Int) *big.Int {
	L := M.BitLen()
	sh := L - 62
	if sh&1 != 0 {
		sh++
	}
	top := t.Rsh(M, uint(sh)).Uint64()
	seed := uint64(math.Ldexp(math.Sqrt(float64(top)), 21))
	r.SetUint64(seed)
	r.Lsh(r, uint(sh/2-21))
	rootBits := (L + 1) / 2
	for good := 50; good < rootBits+2; good = 2*good - 2 {
		q.QuoRem(M, r, t) // QuoRem: Quo would allocate the remainder
		r.Add(r, q)
		r.Rsh(r, 1)
	}
	// One more step makes r ≥ ⌊√M⌋ even if the seed was below it.
	q.QuoRem(M, r, t)
	r.Add(r, q)
	r.Rsh(r, 1)
	for u.Mul(r, r).Cmp(M) > 0 {
		r.Sub(r, bigOne)
	}
	return r
}
