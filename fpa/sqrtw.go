package fpa

// This file holds the square root of the n-word formats (see nword.go):
// Zimmermann's recursive SqrtRem [Zim99], [MCA, Algorithm 1.12] on the
// significand's words, down to sqrtRem256 on four words, instead of
// Newton's iteration with full-width divisions and squarings.

import (
	"math/big"
	"sync"
)

// sqrtLevels bounds sqrtRemW's recursion: radicands of 4·2^sqrtLevels
// words (2·2,048-bit significands need 128 words, 5 levels).
const sqrtLevels = 6

// sqrtScratch holds sqrtRemW's integers, one set per level.
type sqrtScratch struct {
	M     big.Int // the radicand
	s, r  [sqrtLevels + 1]big.Int
	t, q  big.Int
	u, q2 big.Int
}

var sqrtPool = sync.Pool{New: func() any { return new(sqrtScratch) }}

// sqrtW sets z to the rounded √(m·2^e) for a nonzero significand m of an
// n-word format (z.f.nw()). m is shifted to M = m·2^s of N words, N a
// power of two times 4, with M's top word at least 2^62 and e−s even;
// N·32 ≥ Prec+2 bits of r = ⌊√M⌋ carry the rounding, and the remainder
// M − r² is the sticky bit.
func (z *Float) sqrtW(m *big.Int, e int64) {
	p := int64(z.f.Prec())
	N := int64(4)
	for 32*N < p+2 {
		N *= 2
	}
	lm := int64(m.BitLen())
	s := 64*N - lm // M's leading bit on bit 64N−1
	if (e-s)&1 != 0 {
		s-- // on bit 64N−2: the top word is still ≥ 2^62
	}
	sc := sqrtPool.Get().(*sqrtScratch)
	M := sc.M.Lsh(m, uint(s))
	sqrtRemW(sc, 0, M.Bits())
	r, rem := &sc.s[0], &sc.r[0]
	z.roundW(false, r.Bits(), (e-s)/2, rem.Sign() != 0)
	for _, t := range []*big.Int{&sc.M, &sc.t, &sc.q, &sc.u, &sc.q2} {
		if cap(t.Bits()) > maxPooledWords {
			t.SetBits(nil)
		}
	}
	sqrtPool.Put(sc)
}

// sqrtRemW sets sc.s[l] to ⌊√M⌋ and sc.r[l] to M − ⌊√M⌋² for the natural
// number M of N = 4·2^j words (least significant first), its top word at
// least 2^62, by SqrtRem [MCA, Algorithm 1.12] with β = 2^(64h), h = N/4:
// M = a3·β³ + a2·β² + a1·β + a0, (s', r') = SqrtRem(a3·β + a2),
// (q, u) = DivRem(r'·β + a1, 2s'), s = s'·β + q, r = u·β + a0 − q², and
// if r < 0, r += 2s − 1 and s −= 1. M's words are only read.
func sqrtRemW(sc *sqrtScratch, l int, M []big.Word) {
	s, r := &sc.s[l], &sc.r[l]
	if len(M) == 4 {
		rh, rl, r2, r1, r0 := sqrtRem256(uint64(M[3]), uint64(M[2]), uint64(M[1]), uint64(M[0]))
		s.SetBits(append(s.Bits()[:0], big.Word(rl), big.Word(rh)))
		r.SetBits(append(r.Bits()[:0], big.Word(r0), big.Word(r1), big.Word(r2)))
		return
	}
	h := len(M) / 4
	sqrtRemW(sc, l+1, M[2*h:])
	s1, r1 := &sc.s[l+1], &sc.r[l+1]
	var a1, a0 big.Int // read-only views of M's words
	a1.SetBits(M[h : 2*h])
	a0.SetBits(M[:h])
	t, q, u := &sc.t, &sc.q, &sc.u
	t.Lsh(r1, uint(64*h))
	t.Add(t, &a1)
	s.Lsh(s1, 1) // 2s', for the division
	q.QuoRem(t, s, u)
	s.Lsh(s1, uint(64*h))
	s.Add(s, q)
	r.Lsh(u, uint(64*h))
	r.Add(r, &a0)
	r.Sub(r, sc.q2.Mul(q, q))
	if r.Sign() < 0 {
		r.Add(r, s)
		r.Add(r, s)
		r.Sub(r, bigOne)
		s.Sub(s, bigOne)
	}
}
