// This file implements ln(a/b) for a/b near 1 by the atanh series, the
// short series that follows a multi-prime argument reduction (logmp.go).

package apa

import (
	"math/big"
	"math/bits"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// logNear1 sets z to ln(a/b) for exact a, b > 0 with a/b near 1 and returns
// e such that |z − ln(a/b)| < 2^e, below 2^(2−W); ok is false (z unset) if
// a/b is not within a factor of about 1.06 of 1.
//
// With d = a − b and n = a + b (both exact), s = d/n and
//
//	ln(a/b) = 2·atanh(s) = 2s·Σ_{k≥0} v^k/(2k+1),   v = s²,
//
// a series in v that gains −log2 v = b bits a term: after a reduction to
// |a/b − 1| ≈ 2^-R, b ≈ 2R+2. S = Σ_{k<N} v^k/(2k+1) is summed in fixed
// point (integers scaled by 2^W', W' below) by rectangular splitting [MCA,
// §4.4.3]: the powers v, …, v^m, then blocks B_j = Σ_{i<m} v^i/(2(jm+i)+1)
// combined by Horner's rule in v^m, S = B_0 + v^m(B_1 + v^m(B_2 + …)). The
// inner levels are multiplied by (v^m)^j < 2^(−bmj) at the end, so level j
// runs at scale W_j = W' − bmj: its block and its product by v^m shrink
// with j (precision falls term by term, as in a plain sum), and the m + N/m
// products are of falling size.
//
// Error, proven. ε_j = 2^(−W_j), ε = ε_0; every operation floors a
// non-negative value. (i) s: a quotient with absolute error below
// 2^(−max(W, W')−2). (ii) V = s̃²/ε by a short product (below it by
// less than 1 + 2^−32 units, bigmul.MulHigh): |Vε − v| < 2^(−W−2)·(2|s|+1)
// + (1 + 2^−32)·ε < 2ε, so e_v ≤ 2 and, with b = W' − bitlen(V+3),
// both v and Vε are below 2^(−b) (b ≥ 8 here). (iii) Powers by short
// products of lower ones at scale W' (fixedPowers: truncated, within
// (1 + 2^−32)·ε):
// err(v^i) ≤ (2i−1)·E·ε with E = e_v + 1 = 3 (by induction,
// err(v^(a+c)) ≤ err(v^a) + err(v^c) + (1 + 2^−32)·ε as all values are
// below 1, and (2a−1)E + (2c−1)E + 1 + 2^−32 ≤ (2i−1)E), and the
// computed powers never exceed (Vε)^i < 2^(−bi). (iv) A
// block at level j: each term floors v^i to ε_j, T_i = ⌊ṽ^i/ε_j⌋ within
// ((2i−1)E + 1)·ε_j of v^i; a run of terms i ∈ G with D = lcm(2k+1) in
// one word is summed exactly as Σ T_i·(D/(2k+1)) and divided by D with
// one floor, so the run is within Σ_G ((2i−1)E + 1)/(2k+1)·ε_j + ε_j of
// its exact sum, below Σ_G ((2i−1)E + 2)·ε_j (the bound of one floor a
// term, which runs only tighten); the block's m terms below
// (m²E + 2m)·ε_j. (v) Horner: acc_j = B_j + acc_(j+1)·ṽ^m at ε_j by a short
// product (below it by less than 1 + 2^−32 units), with ṽ^m (v^m floored
// to ε_j) within ((2m−1)E + 1)·ε_j of v^m, |ṽ^m| < 2^(−bm) and the exact
// tail A_(j+1) = Σ_(l>j) v^(m(l−j−1))·B_l ≤ 1/(1−v) < 1.01: err_j/ε_j ≤
// err_(j+1)/ε_(j+1) + m²E + 2m + 1.01((2m−1)E + 1) + 1 + 2^−32 ≤
// err_(j+1)/ε_(j+1) + (m+3)²·E (3m² + 8.06m − 1.01 against
// 3m² + 18m + 27), since err_(j+1)·2^(−bm) = (err_(j+1)/ε_(j+1))·ε_j. Over J+1 levels, with the tail Σ_(k≥N) v^k/(2k+1)
// ≤ 1.01·v^N < ε/2 for bN ≥ W'+1: |S̃ − S| < ES·ε, ES = (J+1)(m+3)²·3 + 1.
// (vi) z = 2s̃·S̃: |2s̃S̃ − 2sS| ≤ 2|s̃ − s|·1.01 + 2|s|·ES·ε <
// 2^(−W) + 2^(1 − ⌊b/2⌋ + log2 ES − W') (|s| = √v < 2^(−b/2)); z is
// computed to 2^(−W−4) by a short product, (1 + 2^−32)·2^(−W−4), then
// truncated to 2^(−W−2) absolute: with t the larger of the two terms,
// 2t + 2^(−W−2) + 1.01·2^(−W−4) < 4t. W' = max(W − ⌊b′/2⌋ + log2(ES) + 4,
// b′ + 8, 32), b′ = −2·log2|s| bound ≤ b, puts the second term below
// 2^(−W): the series runs about R bits below W, as the factor s restores
// them (above W only for short reductions). The bound returned is
// 2^(2 + max(−W, 1 − ⌊b/2⌋ + log2 ES − W')) with the measured b: below
// 2^(2−W) (TestLogNear1Bound checks both).
func logNear1(z, a, b *xf, W uint) (errExp int64, ok bool) {
	var d, n xf
	d.sub(a, b, 0)
	if d.sign() == 0 {
		z.setInt64(0)
		return -1 << 40, true
	}
	n.add(a, b, 0)
	// |s| < 2^st; st ≤ −5 keeps v < 2^-10 (b ≥ 8 below with margin).
	st := d.top() - n.top() + 1
	if st > -5 {
		return 0, false
	}
	if st < -int64(W)-4 {
		// |s| < 2^(−W−4): ln(a/b) = 2s + O(s³), and 2s itself is below
		// 2^(−W−3); z = 0 is within 2^(−W−2).
		z.setInt64(0)
		return -int64(W) - 2, true
	}
	// v < 2^(2·st): b ≥ bEst = −2·st fixes ES, then the scale W' of
	// the series (above W only for short reductions, b ≤ 2·log2 ES).
	bEst := -2 * st
	_, _, es0 := atanhPlan(W, bEst)
	Wp := max(int64(W)-bEst/2+int64(bits.Len64(es0))+4, bEst+8, 32)
	// quo's relative error 2^(6−wq) on |s| < 2^st: below 2^(−max(W,W')−2).
	Wq := max(int64(W), Wp)
	wq := uint(max(Wq+st+8, 32))
	var s xf
	quoShort(&s, &d, &n, wq)
	// V = s̃²·2^W' truncated, by a short product (step ii).
	var V big.Int
	if sh := 2*s.e + Wp; sh >= 0 {
		V.Mul(&s.m, &s.m)
		V.Lsh(&V, uint(sh))
	} else {
		bigmul.MulHigh(&V, &s.m, &s.m, uint(-sh))
	}
	var V3 big.Int
	V3.Add(&V, big.NewInt(3))
	bb := Wp - int64(V3.BitLen())
	if bb < 8 {
		return 0, false
	}
	S, es := atanhSum(&V, uint(Wp), bb)
	// z = 2·s̃·S̃·2^(−W'), to 2^(−W−4) by a short product where that
	// drops bits, then truncated to 2^(−W−2) absolute (step vi).
	if sh := Wp - s.e - 1 - int64(W) - 4; sh > 0 {
		bigmul.MulHigh(&z.m, &s.m, S, uint(sh))
		z.e = -int64(W) - 4
	} else {
		var sf xf
		sf.m.Set(S)
		sf.e = -Wp
		z.mulExact(&s, &sf)
		z.e++
	}
	if t := z.top() + int64(W) + 2; t >= 1 {
		z.trunc(uint(t))
	} else {
		z.setInt64(0)
	}
	// The terms of (vi): 2^(−W), 2^(1−⌊b/2⌋+log2 ES−W'), 2^(−W−2), 2^(−W−3.98).
	e2 := 1 - bb/2 + int64(bits.Len64(es)) - Wp
	return max(-int64(W), e2) + 2, true
}

// atanhPlan returns the number of terms N, the block length m and the
// error bound ES (in units of the scale) of atanhSum at scale W for
// v < 2^(−b).
func atanhPlan(W uint, b int64) (N, m int64, es uint64) {
	N = (int64(W) + 1 + b - 1) / b
	if N < 1 {
		N = 1
	}
	m = 1
	for m*m < N {
		m++
	}
	J := (N - 1) / m
	es = uint64(J+1)*uint64((m+3)*(m+3))*3 + 1
	return N, m, es
}

// atanhSum returns ⌊Σ_{k<N} v^k/(2k+1)⌋ at scale 2^W for v = V·2^(−W) <
// 2^(−b), b ≥ 8, and the error bound ES in units of 2^(−W) (logNear1's
// derivation, steps iii–v). N and m come from atanhPlan.
func atanhSum(V *big.Int, W uint, b int64) (*big.Int, uint64) {
	N, m, es := atanhPlan(W, b)
	// Scratch with room for the widest level (scale W) from the start, so
	// that the shifts and sums below reuse their words level after level.
	nw := int(W)/bits.UintSize + 3
	var acc, blk, t, vm big.Int
	for _, x := range []*big.Int{&acc, &blk, &t, &vm} {
		x.SetBits(make([]big.Word, 0, nw))
	}
	pw := fixedPowers(V, W, m) // pw[i] ≈ v^i at scale W
	J := (N - 1) / m
	var wd wordDiv
	for j := J; j >= 0; j-- {
		Wj := int64(W) - b*m*j // ≥ 0: bm·J ≤ b(N−1) < W+1
		sh := uint(int64(W) - Wj)
		// B_j at scale W_j, its terms in groups over a common
		// denominator D (lcm of the group's 2k+1, one word): one
		// division and one floor a group (step iv).
		k0 := j * m
		iEnd := min(m, N-k0)
		for i := int64(1); i < iEnd; i++ {
			if uint(pw[i].BitLen()) <= sh {
				iEnd = i // this and the later terms floor to 0
				break
			}
		}
		blk.SetBits(blk.Bits()[:0])
		for i := int64(0); i < iEnd; {
			D, g := oddLcmRun(k0+i, k0+iEnd)
			t.SetBits(t.Bits()[:0])
			for l := i; l < g-k0; l++ {
				addMulShr(&t, &pw[l], sh, D/uint64(2*(k0+l)+1))
			}
			wd.quo(&t, D)
			blk.Add(&blk, &t)
			i = g - k0
		}
		if j == J {
			acc.Set(&blk)
			continue
		}
		// acc ← B_j + ⌊acc·ṽ^m⌋ at scale W_j (acc at W_(j+1)).
		vm.Rsh(&pw[m], sh)
		bigmul.MulHigh(&acc, &acc, &vm, uint(Wj-b*m))
		acc.Add(&acc, &blk)
	}
	return &acc, es
}

// oddLcmRun returns a common multiple D of 2k+1 for k from k0 up to the
// largest g ≤ kEnd (g > k0) that keeps D within a word (64 bits), and g:
// atanhSum divides a run of terms by D at once. D grows by the product
// while that fits (no gcd for short series), then by the least common
// multiple.
func oddLcmRun(k0, kEnd int64) (D uint64, g int64) {
	D = uint64(2*k0 + 1)
	for g = k0 + 1; g < kEnd; g++ {
		d := uint64(2*g + 1)
		hi, l := bits.Mul64(D, d)
		if hi != 0 {
			a, b := D, d
			for b != 0 {
				a, b = b, a%b
			}
			if hi, l = bits.Mul64(D/a, d); hi != 0 {
				break
			}
		}
		D = l
	}
	return D, g
}

// addMulShr adds ⌊x/2^sh⌋·c to z, for x, z ≥ 0, reusing z's words.
func addMulShr(z, x *big.Int, sh uint, c uint64) {
	xs := x.Bits()
	ws := int(sh / bits.UintSize)
	if ws >= len(xs) {
		return
	}
	if bits.UintSize == 32 { // the word loop below takes 64-bit words
		var t big.Int
		t.Rsh(x, sh)
		t.Mul(&t, new(big.Int).SetUint64(c))
		z.Add(z, &t)
		return
	}
	bs := sh % bits.UintSize
	xs = xs[ws:]
	n := len(xs)
	zs := z.Bits()
	if len(zs) < n+1 {
		if cap(zs) < n+1 {
			zs = append(make([]big.Word, 0, n+n/4+2), zs...)
		}
		clear(zs[len(zs) : n+1])
		zs = zs[:n+1]
	}
	var mc, ac uint64 // the product's carry word, the sum's carry bit
	for i := range n {
		w := uint64(xs[i]) >> bs
		if i+1 < n {
			w |= uint64(xs[i+1]) << (64 - bs) // 0 when bs = 0
		}
		hi, lo := bits.Mul64(w, c)
		lo, cc := bits.Add64(lo, mc, 0)
		mc = hi + cc
		var s uint64
		s, ac = bits.Add64(uint64(zs[i]), lo, ac)
		zs[i] = big.Word(s)
	}
	s, c2 := bits.Add64(uint64(zs[n]), mc, ac)
	zs[n] = big.Word(s)
	for i := n + 1; c2 != 0; i++ {
		if i == len(zs) {
			zs = append(zs, 0)
		}
		s, c2 = bits.Add64(uint64(zs[i]), 0, c2)
		zs[i] = big.Word(s)
	}
	z.SetBits(zs)
}

// fixedPowers returns x^0, …, x^m at scale 2^W for x = X·2^-W (atanhSum's
// and expSeriesFixed's). Each power above x is the product of two lower
// ones, x^⌊i/2⌋·x^⌈i/2⌉, shifted right by W by bigmul.MulHigh: truncated
// toward zero, below the exact product of the two in magnitude by less
// than 1 + 2^−32 units of 2^−W (its low half is not computed). So for
// |x| ≤ 1, with the computed powers p_a of error err_a: err_(a+c) ≤ err_a
// + err_c + 1 + 2^−32, and |p_i| ≤ |x|^i (TestFixedPowersBound).
func fixedPowers(X *big.Int, W uint, m int64) []big.Int {
	return fixedPowersInto(make([]big.Int, m+1), X, W)
}

// fixedPowersInto is fixedPowers into pw (x^0 … x^(len(pw)−1)), reusing
// its words, and returns pw.
func fixedPowersInto(pw []big.Int, X *big.Int, W uint) []big.Int {
	m := len(pw) - 1
	if m >= 0 {
		pw[0].Lsh(bigOne, W)
	}
	if m >= 1 {
		pw[1].Set(X)
	}
	for i := 2; i <= m; i++ {
		bigmul.MulHigh(&pw[i], &pw[i/2], &pw[i-i/2], W)
	}
	return pw
}

// quoShort sets z to x/y (y > 0) with a relative error below 2^(3−wp)
// (within xf.quo's 2^(6−wp), which logNear1's analysis assumes). It
// divides the operands truncated to wp+4 bits (each a relative
// 2^(−wp−3)) by bigmul.QuoFixed below quoKMBits (math/big's direct
// division where it beats a Newton reciprocal) and by quoKM above (a
// half-precision reciprocal and one correction): either quotient q, of
// at least wp+1 bits, is within 2 units, 2^(1−wp) relative, and the final
// truncation to wp bits adds 2^(1−wp): in all below
// 2^(−wp)·(2 + 1/4 + 2) < 2^(3−wp).
func quoShort(z, x, y *xf, wp uint) *xf {
	var xt, yt xf
	xt.truncOf(x, wp+4)
	yt.truncOf(y, wp+4)
	neg := xt.m.Sign() < 0
	xt.m.Abs(&xt.m)
	f := max(int64(wp)+2+int64(yt.m.BitLen())-int64(xt.m.BitLen()), 0)
	if wp >= quoKMBits {
		quoKM(&z.m, &xt.m, &yt.m, uint(f))
	} else {
		z.m.Set(bigmul.QuoFixed(&xt.m, &yt.m, uint(f)))
	}
	z.e = xt.e - yt.e - f
	if neg {
		z.m.Neg(&z.m)
	}
	return z.trunc(wp)
}

// quoKMBits is the quotient precision from which quoShort divides by
// quoKM instead of bigmul.QuoFixed (a variable for tests). Log, quoKM ÷
// QuoFixed, same run, CPU medians of 7: 0.95 at 5·10^3 and 10^4 bits,
// 0.97 at 3·10^4, 0.96 at 10^5; below 4,096 bits no difference (1.00 ±
// 0.02 at 10^3–3·10^3).
var quoKMBits uint = 4096

// quoKM sets z to q with |q − X·2^f/Y| < 2 for X > 0, Y > 0 (QuoFixed's
// contract) by Karp and Markstein's division [MCA, §3.4.1]: a reciprocal
// to only about half the quotient's n bits, a first quotient q0 from it,
// and one correction by the exact residual, instead of a reciprocal to n
// bits and a product at n bits.
//
// Error, with Q = X·2^f/Y < 2^n (n = bits(X) + f − B + 1, B = bits(Y)),
// h = ⌈n/2⌉ + 8:
// r = Recip(Y, h) = (2^(B+h)/Y)(1 + η) with |η| < 3·2^−h (|r − 2^(B+h)/Y|
// < 3, 2^(B+h)/Y > 2^h). q0 = 2^c·⌊Xh·r/2^e⌋, Xh = ⌊X/2^sx⌋ with h+4
// bits (sx = bits(X) − h − 4, or 0), c = min(n − h − 2, f) (or 0), e =
// B + h − sx − f + c, the product by bigmul.MulHigh (below it by less
// than 1 + 2^−32 units): |Q − q0| < 2^(sx+f)/Y (Xh's truncation) +
// Q·3·2^−h (η) + (1 + 2^−32)·2^c < 2^(n−h)·(1/16 + 3 + 0.26) < 2^(n−h+2).
// The residual ρ = X·2^f − q0·Y is exact, ρ/Y = Q − q0, and q = q0 +
// ρ·r/2^(B+h) + θ = Q + (Q − q0)·η + θ: |(Q − q0)·η| < 2^(n−2h+4)·3/4 ≤
// 3/4·2^−12 (n − 2h ≤ −16). ρ is floored to 2^sd before its product, sd =
// B − 5 − c (or 0), which lowers q by below 2^(sd+c)·r/2^(B+h) <
// 2^(sd+c+1−B)·(1 + 3·2^−h) < 1/8; the product, by MulHigh, is truncated
// toward zero, |θ| < 1 + 2^−32 (either sign, as ρ): in all |q − Q| <
// 1.13 + 0.001: within 2.
func quoKM(z, X, Y *big.Int, f uint) {
	B := int64(Y.BitLen())
	Xb := int64(X.BitLen())
	n := Xb + int64(f) - B + 1
	if n <= 64 {
		z.Set(bigmul.QuoFixed(X, Y, f))
		return
	}
	h := (n+1)/2 + 8
	r := bigmul.Recip(Y, uint(h))
	sx := max(Xb-h-4, 0)
	c := max(min(n-h-2, int64(f)), 0)
	var xh, q0, rho big.Int
	xh.Rsh(X, uint(sx))
	if e := B + h - sx - int64(f) + c; e >= 0 {
		bigmul.MulHigh(&q0, &xh, r, uint(e))
	} else {
		bigmul.Mul(&q0, &xh, r)
		q0.Lsh(&q0, uint(-e))
	}
	// ρ/2^c = X·2^(f−c) − q0'·Y, exact.
	bigmul.Mul(&rho, &q0, Y)
	xh.Lsh(X, uint(int64(f)-c))
	rho.Sub(&xh, &rho)
	sd := max(B-5-c, 0)
	rho.Rsh(&rho, uint(sd)) // floors toward −∞
	bigmul.MulHigh(&xh, &rho, r, uint(B+h-c-sd))
	q0.Lsh(&q0, uint(c))
	z.Add(&q0, &xh)
}
