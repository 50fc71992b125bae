// This file implements fixed-point reciprocals and quotients by Newton's
// iteration on FFT products.

package bigmul

import "math/big"

// directRecipBits is the precision below which [Recip] divides directly
// (math/big's schoolbook/Burnikel–Ziegler division) instead of recursing.
// With the Newton step's correction a short product, TestCalibrateRecip
// (2026-11-28, thread CPU, medians of 11, two runs on a loaded machine):
// 4096 ÷ 2048 at 3,000–15,000 bits 1.04–1.37 (where the ladders differ),
// 1.0 at 3·10^4; 1024 and 3000 lose at some ladders. A variable so that
// tests can force the Newton path at small sizes.
var directRecipBits uint = 2048

// Recip returns v with |v − 2^(B+n)/x| < 3, where x > 0 has B = x.BitLen()
// bits: an (n+1)-bit fixed-point reciprocal of x. It uses Newton's
// iteration v ← v + v·(1 − x·v) on a doubling precision ladder [MCA,
// §3.4.1], with x truncated to the precision of each step, so its cost is
// a few multiplications at n bits. It panics if x ≤ 0.
//
// Error, in units of the result (recipTop, by induction on n): below
// directRecipBits the quotient is floored, < 1. A Newton step at n takes
// v_m within 1.1 units of r = 2^(h+m)/x_h, m = n/2+8 (the recursion's
// bound plus 2^−6 for its truncation of x_h to m+8 bits), so v_m = r(1+δ)
// with |δ| < 1.1·2^(1−m) (r ≥ 2^m), and e = 2^(h+m) − x_h·v_m = −2^(h+m)·δ
// exactly, |e| < 2^(h+2). The exact step would give 2^(n−m)·r·(1 − δ²),
// within 2^(n+1)·δ² < 2^−10 of R = 2^(h+n)/x_h. Computed: e floored to
// its top n−m+8 bits (drop ≤ h+2−(n−m+8) bits) costs below
// 2^drop·v_m·2^(n−m)/2^(h+m) ≤ 2^−5; the product e·v_m shifted by
// MulHigh, below 1 + 2^−32. So v is within 1 + 2^−5 + 2^−10 + 2^−32 <
// 1.04 units of R, and Recip, which truncates x to h = n+8 bits (a
// relative 2^(1−h)), adds 2^(n+1)·2^(1−h) = 2^−6: below 1.06 < 3 in all.
func Recip(x *big.Int, n uint) *big.Int {
	if x.Sign() <= 0 {
		panic("bigmul: Recip of a non-positive integer")
	}
	B := uint(x.BitLen())
	h := min(B, n+8)
	xh := new(big.Int).Rsh(x, B-h)
	return recipTop(xh, h, n)
}

// recipTop returns v ≈ 2^(h+n)/xh for xh of exactly h bits (error < 3).
func recipTop(xh *big.Int, h, n uint) *big.Int {
	if n <= directRecipBits {
		v := new(big.Int).Lsh(big.NewInt(1), h+n)
		return v.Quo(v, xh)
	}
	m := n/2 + 8
	// v_m ≈ 2^(h'+m)/x_h' with x_h' the top h' = min(h, m+8) bits of xh;
	// as a reciprocal of xh it is 2^(h+m)/xh up to the truncation.
	hm := min(h, m+8)
	vm := recipTop(new(big.Int).Rsh(xh, h-hm), hm, m)
	// e = 2^(h+m) − xh·vm: about 2^(h+m)·2^−m = 2^h in size, signed.
	e := Mul(new(big.Int), xh, vm)
	e.Sub(new(big.Int).Lsh(big.NewInt(1), h+m), e)
	// v = vm·2^(n−m) + vm·e·2^(n−m)/2^(h+m). Only the top n−m+4 bits of e
	// matter: drop the rest before multiplying.
	drop := uint(0)
	if eb := uint(e.BitLen()); eb > n-m+8 {
		drop = eb - (n - m + 8)
	}
	e.Rsh(e, drop) // floors toward −∞ for negative e: within 2^drop below
	// t = e·vm·2^(n−m)/2^(h+m−drop): only its top half is kept, so the
	// short product (within 1 + 2^−32 units, toward zero).
	var t *big.Int
	if sh := int(h+m) - int(n-m) - int(drop); sh >= 0 {
		t = MulHigh(e, e, vm, uint(sh))
	} else {
		t = Mul(e, e, vm)
		t.Lsh(t, uint(-sh))
	}
	v := vm.Lsh(vm, n-m)
	return v.Add(v, t)
}

// QuoFixed returns q with |x·2^n/y − q| < 2 for x ≥ 0 and y > 0: the
// quotient of x by y with n fraction bits (n = 0: the integer quotient, to
// be corrected by at most 1 either way). It
// multiplies x by a Newton reciprocal of y [MCA, §3.4.1] instead of
// dividing, so its cost is a few FFT multiplications. It panics if y ≤ 0
// or x < 0.
func QuoFixed(x, y *big.Int, n uint) *big.Int {
	if y.Sign() <= 0 || x.Sign() < 0 {
		panic("bigmul: QuoFixed needs x ≥ 0 and y > 0")
	}
	if x.Sign() == 0 {
		return new(big.Int)
	}
	B := uint(y.BitLen())
	// x·2^n/y < 2^(X+n−B+1), X = bits of x: a reciprocal with that many
	// bits plus 4 guard bits.
	X := uint(x.BitLen())
	qb := int(X) + int(n) - int(B) + 1
	if qb <= 0 {
		return new(big.Int) // x·2^n/y < 1
	}
	// v = 2^(B+g)/y + δ, |δ| < 3; then x·v/2^(B+g−n) is off by
	// x·|δ|/2^(B+g−n) < 3·2^(qb−1−g) = 3/32. The product's low half is
	// not needed: q = ⌊MulHigh(x, v, sh−2)/4⌋ is below x·v/2^sh by less
	// than (1 + 2^−32)/4 + 3/4 (MulHigh, then the floor), so x·2^n/y − q
	// lies in (−3/32, 1 + 2^−34 + 3/32): within 2.
	g := uint(qb) + 4
	v := Recip(y, g)
	sh := int(B) + int(g) - int(n)
	if sh >= 2 {
		t := MulHigh(new(big.Int), x, v, uint(sh-2))
		return t.Rsh(t, 2)
	}
	t := Mul(new(big.Int), x, v)
	if sh >= 0 {
		return t.Rsh(t, uint(sh))
	}
	return t.Lsh(t, uint(-sh))
}
