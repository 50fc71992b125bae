package fpa

// This file holds the integer square root of the wide paths (significands
// beyond 64 bits): Newton's iteration from a float64 seed for radicands up
// to 400 bits, and above that a recursion that halves the precision, so
// that the cost is about two full-width divisions; big.Int.Sqrt starts
// from a power of two, runs a full-width division per step and allocates.
// [MCA]: see small.go.

import (
	"math"
	"math/big"
)

// isqrtLevels bounds isqrtRec's recursion: 2^isqrtLevels·400 bits is
// beyond the widest format's 2·10^6-bit radicand.
const isqrtLevels = 16

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

// isqrtRec sets r to ⌊√M⌋ for M ≥ 2^104 and returns r, halving the
// precision recursively [MCA, §1.5.1]: with k = ⌊L/4⌋ (L = M's bit
// length) and r1 = ⌊√⌊M/4^k⌋⌋, r0 = (r1+1)·2^k lies in [√M, √M + 2^k],
// so one Newton step leaves r ≥ ⌊√M⌋ (AM–GM) and within
// (r0−√M)²/(2·r0) + 1 ≤ 2^(2k−L/2+1) + 1 ≤ 3 of it; the loop at the end
// steps down. The cost is about two full-width divisions instead of
// isqrt's ⌈log2(L/100)⌉. lv holds each level's ⌊M/4^k⌋; q, t and u are
// temporaries. None may alias M or r.
func isqrtRec(r, M *big.Int, lv []big.Int, q, t, u *big.Int) *big.Int {
	L := M.BitLen()
	if L <= 400 || len(lv) == 0 {
		return isqrt(r, M, q, t, u)
	}
	k := uint(L / 4)
	isqrtRec(r, lv[0].Rsh(M, 2*k), lv[1:], q, t, u)
	r.Add(r, bigOne)
	r.Lsh(r, k)
	q.QuoRem(M, r, t)
	r.Add(r, q)
	r.Rsh(r, 1)
	for u.Mul(r, r).Cmp(M) > 0 {
		r.Sub(r, bigOne)
	}
	return r
}
