package fpa

import (
	"math/big"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// TestSqrtRem256 checks sqrtRem256 against big.Int.Sqrt on random
// radicands with a3 ≥ 2^62, on perfect squares and their neighbours, and
// on the extremes 2^254 and 2^256−1, where q = β and s = 2^128 arise.
func TestSqrtRem256(t *testing.T) {
	r := testrand.New(t)
	n := 300_000
	if testing.Short() {
		n = 30_000
	}
	check := func(a [4]uint64) {
		t.Helper()
		M := new(big.Int)
		for i := 3; i >= 0; i-- {
			M.Lsh(M, 64).Or(M, new(big.Int).SetUint64(a[i]))
		}
		want := new(big.Int).Sqrt(M)
		rh, rl, r2, r1, r0 := sqrtRem256(a[3], a[2], a[1], a[0])
		got := new(big.Int).SetUint64(rh)
		got.Lsh(got, 64).Or(got, new(big.Int).SetUint64(rl))
		rem := new(big.Int).SetUint64(r2)
		rem.Lsh(rem, 64).Or(rem, new(big.Int).SetUint64(r1))
		rem.Lsh(rem, 64).Or(rem, new(big.Int).SetUint64(r0))
		wantRem := new(big.Int).Sub(M, new(big.Int).Mul(want, want))
		if got.Cmp(want) != 0 || rem.Cmp(wantRem) != 0 {
			t.Fatalf("sqrtRem256(%x) = %x, rem %x; want %x, rem %x", a, got, rem, want, wantRem)
		}
	}
	words := func(x *big.Int) [4]uint64 { // x < 2^256, in 64-bit limbs
		var a [4]uint64
		t, m := new(big.Int), new(big.Int).SetUint64(^uint64(0))
		for i := range a {
			a[i] = t.Rsh(x, uint(64*i)).And(t, m).Uint64()
		}
		return a
	}
	check([4]uint64{0, 0, 0, 1 << 62})
	check([4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)})
	check([4]uint64{0, 0, ^uint64(0), ^uint64(0)})
	check([4]uint64{0, 0, 0, ^uint64(0)})
	lo := new(big.Int).Lsh(bigOne, 127)
	for i := range n {
		var a [4]uint64
		for j := range a {
			a[j] = r.Uint64()
		}
		a[3] |= 1 << 62
		switch i % 4 {
		case 1: // a square, or one off: s = R ± small
			R := new(big.Int).SetUint64(r.Uint64())
			R.Lsh(R, 64).Or(R, new(big.Int).SetUint64(r.Uint64()))
			R.SetBit(R, 127, 1)
			if i%8 == 1 {
				R.Or(R, new(big.Int).Sub(lo, bigOne)) // 2^128−1 and neighbours
			}
			S := new(big.Int).Mul(R, R)
			S.Add(S, big.NewInt(int64(r.IntN(5))-2))
			if S.BitLen() <= 256 {
				a = words(S)
			}
		case 2: // the 128-bit top square root close to 2^64
			a[3] = ^uint64(0) >> r.IntN(3)
		}
		if a[3] >= 1<<62 {
			check(a)
		}
	}
}

// TestSqrtRemN checks sqrtRemN against big.Int.Sqrt, root and remainder,
// at every radicand size of the n-word formats, on random radicands,
// perfect squares and their neighbours, and the extremes 2^(64N−2) and
// 2^(64N)−1.
func TestSqrtRemN(t *testing.T) {
	nwOnly(t)
	r := testrand.New(t)
	n := 3000
	if testing.Short() {
		n = 300
	}
	var work [4 * sqrtWords]big.Word
	for N := 8; N <= sqrtWords; N *= 2 {
		one := new(big.Int).Lsh(bigOne, uint(64*N))
		for i := range n {
			M := new(big.Int).Rand(r2(r), one)
			switch i % 5 {
			case 0:
				M.Sub(one, bigOne)
			case 1:
				M.Rsh(one, 2)
			case 2, 3: // a square or one off, with roots of ones and zeros
				R := new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(32*N)))
				if i%10 == 2 {
					R.Sub(new(big.Int).Lsh(bigOne, uint(32*N)), big.NewInt(int64(1+r.IntN(3))))
				}
				R.SetBit(R, 32*N-1, 1)
				M.Mul(R, R)
				M.Add(M, big.NewInt(int64(r.IntN(3))-1))
			}
			M.SetBit(M, 64*N-2, 1)
			if M.BitLen() > 64*N {
				continue
			}
			words := make([]big.Word, N)
			copy(words, M.Bits())
			s, rem := make([]big.Word, N/2), make([]big.Word, N/2+1)
			sqrtRemN(s, rem, words, work[:])
			want := new(big.Int).Sqrt(M)
			wantRem := new(big.Int).Sub(M, new(big.Int).Mul(want, want))
			got := new(big.Int).SetBits(s)
			gotRem := new(big.Int).SetBits(rem)
			if got.Cmp(want) != 0 || gotRem.Cmp(wantRem) != 0 {
				t.Fatalf("N=%d sqrtRemN(%x) = %x, rem %x; want %x, rem %x", N, M, got, gotRem, want, wantRem)
			}
		}
	}
}

// TestDivW checks divW against big.Int.QuoRem and divShortW's error
// bound (at most 2 units) on random operands, on remainders whose top
// words equal the divisor's, on divisors of the form 2^(64n−1) + small,
// on dividends just below V·β^nq (u's top word equal to v's: q̂ = 2^64−1)
// and on divisors with all-ones low words under multiples of their top
// words (add-backs), and the assembly against divShortGo word for word at
// a random cut P.
func TestDivW(t *testing.T) {
	nwOnly(t)
	r := testrand.New(t)
	n := 20_000
	if testing.Short() {
		n = 1200
	}
	for i := range n {
		nv := 2 + r.IntN(17)
		nq := 1 + r.IntN(18)
		V := new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(64*nv)))
		V.SetBit(V, 64*nv-1, 1)
		if i%4 == 0 {
			V.Lsh(bigOne, uint(64*nv-1))
			V.Add(V, new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(r.IntN(64*nv-1)))))
		}
		// U < V·β^nq, built so that its top words often match V's.
		U := new(big.Int).Rand(r2(r), new(big.Int).Lsh(V, uint(64*nq)))
		if i%3 == 0 {
			top := new(big.Int).Lsh(V, uint(64*(nq-1)))
			U.Add(top, new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(64*(nq-1)+r.IntN(64)))))
			if U.Cmp(new(big.Int).Lsh(V, uint(64*nq))) >= 0 {
				U.Sub(U, V)
			}
		}
		switch i % 5 {
		case 1: // V·β^nq − small: u's top word equals v's (q̂ = 2^64−1)
			U.Lsh(V, uint(64*nq))
			U.Sub(U, new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(1+r.IntN(64*nq)))))
			U.Sub(U, bigOne)
		case 2: // V's low words all ones, U a multiple of V's top two
			// words with zero low words: q̂ one too large, add-backs
			T := new(big.Int).Rsh(V, uint(64*(nv-2)))
			V.Lsh(T, uint(64*(nv-2)))
			V.Add(V, new(big.Int).Sub(new(big.Int).Lsh(bigOne, uint(64*(nv-2))), bigOne))
			K := new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(64*nq)))
			U.Mul(T, K).Lsh(U, uint(64*(nv-2)))
		}
		u := make([]big.Word, nq+nv)
		copy(u, U.Bits())
		v := make([]big.Word, nv)
		copy(v, V.Bits())
		us := append([]big.Word(nil), u...)
		qs := make([]big.Word, nq)
		divShortW(qs, us, v, max(0, nv-2))
		// The assembly (where the CPU has it) and math/bits give the
		// same words, for every cut P.
		P := r.IntN(nv - 1)
		ua, ug := append([]big.Word(nil), u...), append([]big.Word(nil), u...)
		qa, qg := make([]big.Word, nq), make([]big.Word, nq)
		divShortW(qa, ua, v, P)
		divShortGo(qg, ug, v, P)
		if !slices.Equal(qa, qg) || !slices.Equal(ua, ug) {
			t.Fatalf("divShortW(%x / %x, P=%d) = %x rem %x; divShortGo %x rem %x", U, V, P, qa, ua, qg, ug)
		}
		q := make([]big.Word, nq)
		divW(q, u, v)
		wantQ, wantR := new(big.Int).QuoRem(U, V, new(big.Int))
		if new(big.Int).SetBits(q).Cmp(wantQ) != 0 || new(big.Int).SetBits(u).Cmp(wantR) != 0 {
			t.Fatalf("divW(%x / %x) = %x rem %x; want %x rem %x", U, V, q, u, wantQ, wantR)
		}
		// The short division is within 2 units of the quotient.
		if d := new(big.Int).Sub(new(big.Int).SetBits(qs), wantQ); d.CmpAbs(big.NewInt(2)) > 0 {
			t.Fatalf("divShortW(%x / %x) = %x, off by %v", U, V, qs, d)
		}
	}
}
