package fpa

import (
	"math/big"
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
	words := func(x *big.Int) [4]uint64 {
		var a [4]uint64
		for i, w := range x.Bits() {
			a[i] = uint64(w)
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
