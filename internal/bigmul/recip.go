// This file implements fixed-point reciprocals and quotients by Newton's
// iteration on FFT products.

package bigmul

import "math/big"

// directRecipBits is the precision below which [Recip] divides directly
// (math/big's schoolbook/Burnikel–Ziegler division) instead of recursing:
// at a few thousand bits, where bigmul is Karatsuba too, division and one
// Newton step cost about the same. A variable so that tests can force the
// Newton path at small sizes.
var directRecipBits uint = 4096

// Recip returns v with |v − 2^(B+n)/x| < 3, where x > 0 has B = x.BitLen()
// bits: an (n+1)-bit fixed-point reciprocal of x. It uses Newton's
// iteration v ← v + v·(1 − x·v) on a doubling precision ladder [MCA,
// §3.4.1], with x truncated to the precision of each step, so its cost is
// a few multiplications at n bits. It panics if x ≤ 0.
//
// Error: with x truncated to h = n+8 leading bits (x_h ≤ x/2^(B−h) <
// x_h + 1) and v_m within 3 units of 2^(h+m)/x_h at precision m = n/2+8,
// one Newton step leaves a relative error below 9·2^(−2m) + 2^(1−h), i.e.
// below 2^−n·(9·2^−16 + 2^−7) units' worth, plus 1 for the final floor and
// 2^(1−h)·2^(n+1) < 1/32 from the truncation of x.
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
	e.Rsh(e, drop) // floors toward −∞ for negative e: off by one unit, absorbed
	t := Mul(e, e, vm)
	sh := int(h+m) - int(n-m) - int(drop)
	if sh >= 0 {
		t.Rsh(t, uint(sh))
	} else {
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
	// v = 2^(B+g)/y + δ, |δ| < 3; then q = ⌊x·v/2^(B+g−n)⌋ is off by
	// x·|δ|/2^(B+g−n) < 3·2^(qb−1−g) = 3/32 plus the floor.
	g := uint(qb) + 4
	v := Recip(y, g)
	t := Mul(new(big.Int), x, v)
	sh := int(B) + int(g) - int(n)
	if sh >= 0 {
		return t.Rsh(t, uint(sh))
	}
	return t.Lsh(t, uint(-sh))
}
