package fpa

// This file holds the square root of the n-word formats (see nword.go):
// Zimmermann's recursive SqrtRem [Zim99], [MCA, Algorithm 1.12] on the
// significand's words, down to sqrtRem256 on four words, instead of
// Newton's iteration with full-width divisions and squarings.

import (
	"math/big"
	"sync"
)

// sqrtWords bounds sqrtRemN's radicands: 128 words, enough for
// 2·(2,048+2)-bit radicands of the widest n-word format.
const sqrtWords = 4 * nwMaxWords

// sqrtScratch is sqrtW's workspace: the radicand, the root, the
// remainder, and words that each level of sqrtRemN carves its
// temporaries from.
type sqrtScratch struct {
	M, s, r [sqrtWords + 2]big.Word
	work    [4 * sqrtWords]big.Word
}

var sqrtPool = sync.Pool{New: func() any { return new(sqrtScratch) }}

// sqrtW sets z to the rounded √(m·2^e) for a nonzero significand m of an
// n-word format (z.f.nw()). m is shifted to M = m·2^s of N words, N a
// power of two times 4, with M's top word at least 2^62 and e−s even;
// N·32 ≥ Prec+2 bits of r = ⌊√M⌋ carry the rounding, and the remainder
// M − r² is the sticky bit.
func (z *Float) sqrtW(x *Float) {
	m, e := &x.hi, x.exp
	p := int64(z.f.Prec())
	N := int64(4)
	for 32*N < p+2 {
		N *= 2
	}
	mw := m.Bits()
	lm := int64(m.BitLen())
	s := 64*N - lm // M's leading bit on bit 64N−1
	if (e-s)&1 != 0 {
		s-- // on bit 64N−2: the top word is still ≥ 2^62
	}
	if N > sqrtWords || s < 0 {
		z.sqrtBig(x)
		return
	}
	sc := sqrtPool.Get().(*sqrtScratch)
	M := sc.M[:N]
	clear(M)
	wo, bo := int(s>>6), uint(s&63)
	shlVU(sc.M[wo:wo+len(mw)+1], mw, bo)
	root, rem := sc.s[:N/2], sc.r[:N/2+1]
	sqrtRemN(root, rem, M, sc.work[:])
	z.roundW(false, root, (e-s)/2, bitLenW(rem) != 0)
	sqrtPool.Put(sc)
}

// sqrtRemN sets s (N/2 words) to ⌊√M⌋ and r (N/2+1 words) to M − s² for
// the natural number M of N = 4·2^j words (least significant first), its
// top word at least 2^62, by SqrtRem [MCA, Algorithm 1.12] with
// β = 2^(64h), h = N/4: M = a3·β³ + a2·β² + a1·β + a0,
// (s', r') = SqrtRem(a3·β + a2), (q, u) = DivRem(r'·β + a1, 2s'),
// s = s'·β + q, r = u·β + a0 − q², and if r < 0, r += 2s − 1 and s −= 1.
// s' (h words, top bit set) is formed in s's top half; r' ≤ 2s' and
// q ≤ β; the division halves r'·β + a1 (below β², so 2h words) and
// divides it by s' (divW). work holds the temporaries (5N/2+4 words at
// this level, its tail the deeper levels'). M is only read.
func sqrtRemN(s, r, M, work []big.Word) {
	N := len(M)
	s, r = s[:N/2], r[:N/2+1]
	if N == 4 {
		rh, rl, r2, r1, r0 := sqrtRem256(uint64(M[3]), uint64(M[2]), uint64(M[1]), uint64(M[0]))
		s[0], s[1] = big.Word(rl), big.Word(rh)
		r[0], r[1], r[2] = big.Word(r0), big.Word(r1), big.Word(r2)
		return
	}
	h := N / 4
	r1, U, q, T := work[:h+1], work[h+1:3*h+2], work[3*h+2:4*h+3], work[4*h+3:6*h+5]
	rest := work[6*h+5:]
	s1 := s[h:]
	sqrtRemN(s1, r1, M[2*h:], rest)
	// U = (r'·β + a1) >> 1 on 2h+1 words (the top one zero).
	copy(U[:h], M[h:2*h])
	copy(U[h:], r1)
	a1odd := U[0] & 1
	shrVU(U[:2*h], U, 1)
	U[2*h] = 0
	divW(q, U, s1) // q ≤ β: h+1 words; the remainder in U[:h]
	// T = u·β + a0 with u = 2·rem + (a1 & 1): 2h+2 words.
	copy(T[:h], M[:h])
	shlVU(T[h:2*h+1], U[:h], 1)
	T[h] |= a1odd
	T[2*h+1] = 0
	// T −= q² (q = β exactly when q[h] = 1: q² = β²), two's complement.
	if q[h] != 0 {
		var b big.Word
		T[2*h], b = subWW(T[2*h], 1, 0)
		T[2*h+1] -= b
	} else {
		Q2 := rest[:2*h]
		sqrW(Q2, q[:h])
		b := subVV(T[:2*h], Q2)
		T[2*h], b = subWW(T[2*h], 0, b)
		T[2*h+1] -= b
	}
	// s = s'·β + q; a carry out of s (s = β², only when q = β) is undone
	// by the correction below, which then always runs.
	copy(s[:h], q[:h])
	if q[h] != 0 {
		for i := h; i < 2*h; i++ {
			s[i]++
			if s[i] != 0 {
				break
			}
		}
	}
	if int64(T[2*h+1]) < 0 { // r < 0: s −= 1, r += 2s + 1 (the new s)
		for i := range s {
			s[i]--
			if s[i] != ^big.Word(0) {
				break
			}
		}
		var c, prev big.Word
		for i := range s {
			w := s[i]<<1 | prev>>wTop
			if i == 0 {
				w |= 1
			}
			prev = s[i]
			T[i], c = addWW(T[i], w, c)
		}
		T[2*h], c = addWW(T[2*h], prev>>wTop, c)
		T[2*h+1] += c
	}
	copy(r, T[:2*h+1])
}
