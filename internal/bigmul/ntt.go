// This file implements integer multiplication by number-theoretic
// transforms over three 62-bit primes and the Chinese remainder theorem
// (the "three-prime FFT" [MCA, §2.3.3], [Pol71]).
//
// An operand is cut into b-bit pieces (b ≤ 86), the pieces' cyclic
// convolution of length L (a power of two, or 3·2^k by a split plan, see
// nttPlan and ntt_split.go) is computed modulo each prime
// p_i = c_i·2^40 + 1 by a transform, a pointwise product and an inverse
// transform, and the three residues of each convolution coefficient are
// combined by Garner's algorithm into the exact coefficient, which is below
// L·2^(2b) < p_1·p_2·p_3 ≈ 2^184.2. The coefficients are then added at bit
// offsets j·b. Arithmetic modulo p uses Shoup's precomputed quotients for
// the fixed twiddle factors [Sho], Harvey's lazy reduction in [0, 4p) for
// the butterflies [Har14] and Montgomery's reduction for the pointwise
// products [Mon85].
//
// The forward transform splits X^(2m) − c into (X^m − r)(X^m + r), r² = c,
// Cooley–Tukey style, in place, from natural order to bit-reversed order;
// the inverse undoes the splits Gentleman–Sande style. Both run two stages
// at a time (radix 4); the butterflies of a pair of stages are
// forward4Stage and inverse4Stage (ntt_stage.go, and ntt_amd64.s on amd64,
// which keeps a butterfly's values in registers: 0.90× the CPU time of
// the Go stages for a whole product from 1.5·10^5 to 2·10^6 bits; with
// AVX-512, eight butterflies at once on every stage of 32 points or more:
// a radix-4 butterfly in 0.9 ns instead of 3.1 at 2^14 points). The twiddle for
// block k of stage s is ω_(2^(s+1))^brev_s(k), which does not depend on the
// transform length, so one table serves every length.
//
// [Pol71]: J. M. Pollard, "The fast Fourier transform in a finite field",
// Math. Comp. 25 (1971) 365–374.
// [Sho]: V. Shoup, NTL, "mulmod_precon" (precomputed-quotient modular
// multiplication).
// [Har14]: D. Harvey, "Faster arithmetic for number-theoretic transforms",
// J. Symbolic Comput. 60 (2014) 113–119.
// [Mon85]: P. L. Montgomery, "Modular multiplication without trial
// division", Math. Comp. 44 (1985) 519–521.

package bigmul

import (
	"math/big"
	"math/bits"
	"sync"
	"sync/atomic"
)

// nttPrimes are the three primes c·2^40 + 1 below ⌊2^64/6⌋ (so that 6p
// fits in a word: the piece reduction sums values below 6p), with a
// primitive root g of each. TestNTTPrimes checks primality and the roots.
var nttPrimes = [3]struct{ p, g uint64 }{
	{3074426925796556801, 3},
	{3074412632145395713, 5},
	{3074399438005862401, 11},
}

// log2M is a lower bound of log2(p_1·p_2·p_3) = 184.24…
const log2M = 184

// maxPieceBits is the widest piece: a piece spans at most two words.
const maxPieceBits = 86

// prime holds one prime's constants and its lazily grown twiddle tables.
type prime struct {
	p, g   uint64
	pinv   uint64 // p^−1 mod 2^64, for Montgomery's reduction
	r2     uint64 // 2^128 mod p
	w64    uint64 // 2^64 mod p, for pieces wider than a word
	w64pre uint64

	mu  sync.Mutex
	tab atomic.Pointer[twiddles]
}

// twiddles holds, for k in [1, n), the forward factor w[k] =
// ω_(2^(s+1))^brev_s(k − 2^s) with s = ⌊log2 k⌋ and its Shoup quotient
// ⌊w·2^64/p⌋; the inverse factors are derived from them (inv). Immutable
// once published.
type twiddles struct {
	n     int // the longest transform the table serves
	w, wp []uint64
	// iw and iwp hold the inverse factors inv(s, k) at index 2^s + k, for
	// transforms up to min(n, invTableMax): inverse4 reads them as
	// forward4 reads w, instead of deriving each factor by two bit
	// reversals (11% of apa's Log CPU at 10^6 bits). Longer transforms
	// derive them (inv), so that the table's memory stays bounded.
	iw, iwp []uint64
}

// invTableMax is the longest transform whose inverse factors are
// tabulated: 2^18 entries, 4 MiB for the three primes' two arrays.
const invTableMax = 1 << 18

// invAt returns the inverse factor of block k of stage s, from the table
// when it has it.
func (t *twiddles) invAt(s, k int, p uint64) (w, wp uint64) {
	if i := 1<<s + k; i < len(t.iw) {
		return t.iw[i], t.iwp[i]
	}
	return t.inv(s, k, p)
}

// inv returns the inverse twiddle of block k of stage s and its Shoup
// quotient, from the forward table: with j = brev_s(k) > 0,
// ω_(2^(s+1))^−j = −ω_(2^(s+1))^(2^s − j), the forward factor of block
// k' = brev_s(2^s − j), negated; and the quotient of p − w is
// 2^64 − 1 − ⌊w·2^64/p⌋ (w·2^64/p is not an integer), i.e. ^wp.
func (t *twiddles) inv(s, k int, p uint64) (w, wp uint64) {
	if k == 0 {
		return 1, t.wp[1<<s]
	}
	j := bits.Reverse64(uint64(k)) >> (64 - s)
	kk := bits.Reverse64((1<<s)-j) >> (64 - s)
	i := 1<<s + int(kk)
	return p - t.w[i], ^t.wp[i]
}

var primes3 [3]*prime

func init() {
	for i, c := range nttPrimes {
		q := &prime{p: c.p, g: c.g}
		// Newton's iteration for the inverse modulo 2^64: each step
		// doubles the number of correct low bits (p is odd, so p·p ≡ 1
		// mod 8 gives 3 bits to start).
		inv := c.p
		for range 5 {
			inv *= 2 - c.p*inv
		}
		q.pinv = inv
		_, q.w64 = bits.Div64(1, 0, c.p) // 2^64 mod p (1 < p)
		q.w64pre = shoupPre(q.w64, c.p)
		_, q.r2 = bits.Div64(q.w64, 0, c.p)
		primes3[i] = q
	}
	garnerConsts = newGarnerConsts()
}

// shoupPre returns ⌊w·2^64/p⌋ for w < p.
func shoupPre(w, p uint64) uint64 {
	q, _ := bits.Div64(w, 0, p)
	return q
}

// mulShoup returns y·w mod p in [0, 2p) for any y, given wp =
// shoupPre(w, p) [Sho]: q = ⌊y·wp/2^64⌋ is ⌊y·w/p⌋ or one less.
func mulShoup(y, w, wp, p uint64) uint64 {
	q, _ := bits.Mul64(y, wp)
	return y*w - q*p
}

// mulMont returns a·b·2^−64 mod p in [0, p) for a, b < p [Mon85].
func (q *prime) mulMont(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	m := lo * q.pinv
	mh, _ := bits.Mul64(m, q.p)
	r := hi - mh
	if hi < mh {
		r += q.p
	}
	return r
}

// powMod returns a^e mod p by square-and-multiply on Montgomery forms.
func (q *prime) powMod(a, e uint64) uint64 {
	am := q.mulMont(a%q.p, q.r2) // a·2^64 mod p
	rm := q.mulMont(1, q.r2)     // 2^64 mod p
	for ; e > 0; e >>= 1 {
		if e&1 == 1 {
			rm = q.mulMont(rm, am)
		}
		am = q.mulMont(am, am)
	}
	return q.mulMont(rm, 1)
}

// table returns twiddles for transforms of length up to n (a power of two
// ≥ 2), computing and publishing a larger table if needed. Safe for
// concurrent use.
func (q *prime) table(n int) *twiddles {
	if t := q.tab.Load(); t != nil && t.n >= n {
		return t
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if t := q.tab.Load(); t != nil && t.n >= n {
		return t
	}
	t := &twiddles{n: n}
	t.w = make([]uint64, n)
	t.wp = make([]uint64, n)
	pow := make([]uint64, n/2)
	for s := 0; 1<<s < n; s++ {
		// ω = ω_(2^(s+1)); the stage's 2^s factors are ω^brev_s(k), k < 2^s.
		m := 1 << s
		om := q.powMod(q.g, (q.p-1)>>(s+1))
		bp := shoupPre(om, q.p)
		pow[0] = 1
		for k := 1; k < m; k++ {
			v := mulShoup(pow[k-1], om, bp, q.p)
			if v >= q.p {
				v -= q.p
			}
			pow[k] = v
		}
		for k := range m {
			r := uint64(0) // brev_s(k)
			if s > 0 {
				r = bits.Reverse64(uint64(k)) >> (64 - s)
			}
			t.w[m+k] = pow[r]
			t.wp[m+k] = shoupPre(pow[r], q.p)
		}
	}
	ni := min(n, invTableMax)
	t.iw, t.iwp = make([]uint64, ni), make([]uint64, ni)
	for s := 0; 1<<s < ni; s++ {
		for k := range 1 << s {
			t.iw[1<<s+k], t.iwp[1<<s+k] = t.inv(s, k, q.p)
		}
	}
	q.tab.Store(t)
	return t
}

// forward transforms a (length n, a power of two, values in [0, 4p)) in
// place into bit-reversed order, values in [0, 4p) [Har14]. It runs the
// stages two at a time (radix 4) after a first radix-2 stage, whose
// twiddle is 1, when log2 n is odd.
func (q *prime) forward(a []uint64, t *twiddles) {
	n := len(a)
	lg := bits.TrailingZeros(uint(n))
	s := 0
	if lg%2 == 1 {
		q.radix2One(a)
		s = 1
	}
	for ; s < lg; s += 2 {
		q.forward4(a, t, s)
	}
}

// radix2One runs stage 0 of forward, whose twiddle is 1: a[j], a[j+n/2] =
// a[j] + a[j+n/2], a[j] − a[j+n/2], lazily reduced.
func (q *prime) radix2One(a []uint64) {
	p2 := 2 * q.p
	h := len(a) / 2
	lo, hi := a[:h], a[h:]
	hi = hi[:len(lo)]
	for j, x := range lo {
		if x >= p2 {
			x -= p2
		}
		y := hi[j]
		if y >= p2 {
			y -= p2
		}
		lo[j] = x + y
		hi[j] = x - y + p2
	}
}

// forward4 runs stages s and s+1 of forward together: for each block k of
// stage s, quarters A, B, C, D become, with w1 the block's twiddle and w2,
// w3 its halves' twiddles, A' = A + w1·C, C' = A − w1·C (same for B, D),
// then A” = A' ± w2·B', C” = C' ± w3·D'. Inputs and outputs in [0, 4p).
// The butterflies are forward4Stage's (ntt_amd64.s, or ntt_stage.go).
func (q *prime) forward4(a []uint64, t *twiddles, s int) {
	blocks := 1 << s
	qs := len(a) >> (s + 2) // quarter size
	forward4Stage(a, t.w[blocks:2*blocks], t.wp[blocks:2*blocks],
		t.w[2*blocks:4*blocks], t.wp[2*blocks:4*blocks], blocks, qs, q.p)
}

// inverse undoes forward up to the factor n: from bit-reversed order,
// values in [0, 2p), to natural order, values in [0, 2p). It mirrors
// forward: radix-4 steps from the finest stages up, then a last radix-2
// stage 0 (twiddle 1) when log2 n is odd.
func (q *prime) inverse(a []uint64, t *twiddles) {
	n := len(a)
	lg := bits.TrailingZeros(uint(n))
	s := lg - 2
	for ; s >= 0; s -= 2 {
		q.inverse4(a, t, s)
	}
	if s == -1 {
		p2 := 2 * q.p
		h := n / 2
		lo, hi := a[:h], a[h:]
		hi = hi[:len(lo)]
		for j, x := range lo {
			y := hi[j]
			sum := x + y
			if sum >= p2 {
				sum -= p2
			}
			lo[j] = sum
			hi[j] = x - y + p2
			if hi[j] >= p2 {
				hi[j] -= p2
			}
		}
	}
}

// inverse4 undoes forward4's stages s+1 and s: A' = A” + B”, B' =
// (A” − B”)·w2^−1, C' = C” + D”, D' = (C” − D”)·w3^−1, then A = A'
// + C', C = (A' − C')·w1^−1 (same for B, D). Values in [0, 2p). With the
// factors tabulated, the butterflies are inverse4Stage's (ntt_amd64.s, or
// ntt_stage.go); longer transforms derive them (inverse4Derived) and
// run the same stages.
func (q *prime) inverse4(a []uint64, t *twiddles, s int) {
	blocks := 1 << s
	qs := len(a) >> (s + 2)
	if 4*blocks > len(t.iw) {
		q.inverse4Derived(a, t, s)
		return
	}
	inverse4Stage(a, t.iw[blocks:2*blocks], t.iwp[blocks:2*blocks],
		t.iw[2*blocks:4*blocks], t.iwp[2*blocks:4*blocks], blocks, qs, q.p)
}

// inverse4Derived is inverse4 for transforms longer than the inverse
// table: the factors of derivedChunk blocks at a time are derived from
// the forward table into a buffer, and the blocks run through
// inverse4Stage (assembly where it runs, else ntt_stage.go's loop).
func (q *prime) inverse4Derived(a []uint64, t *twiddles, s int) {
	blocks := 1 << s
	qs := len(a) >> (s + 2)
	var w, wp [derivedChunk]uint64
	var w2, wp2 [2 * derivedChunk]uint64
	for k0 := 0; k0 < blocks; k0 += derivedChunk {
		c := min(derivedChunk, blocks-k0)
		for i := range c {
			k := k0 + i
			w[i], wp[i] = t.invAt(s, k, q.p)
			w2[2*i], wp2[2*i] = t.invAt(s+1, 2*k, q.p)
			w2[2*i+1], wp2[2*i+1] = t.invAt(s+1, 2*k+1, q.p)
		}
		inverse4Stage(a[4*qs*k0:4*qs*(k0+c)], w[:c], wp[:c], w2[:2*c], wp2[:2*c], c, qs, q.p)
	}
}

// derivedChunk is the number of blocks whose factors inverse4Derived
// derives at a time (a multiple of 8, for the AVX-512 stages).
const derivedChunk = 64

// reduce4 maps x in [0, 4p) to [0, p).
func reduce4(x, p uint64) uint64 {
	if x >= 2*p {
		x -= 2 * p
	}
	if x >= p {
		x -= p
	}
	return x
}

// pointwise sets a[j] = a[j]·b[j]·2^−64 mod p in [0, p), for a, b in [0, 4p).
func (q *prime) pointwise(a, b []uint64) {
	b = b[:len(a)]
	if useAVX512 && stageAsm {
		k := len(a) &^ 7
		pointwiseAVX512(a[:k], b[:k], q.p, q.pinv)
		a, b = a[k:], b[k:]
	}
	p := q.p
	for j, x := range a {
		a[j] = q.mulMont(reduce4(x, p), reduce4(b[j], p))
	}
}

// square sets a[j] = a[j]²·2^−64 mod p in [0, p), for a in [0, 4p).
func (q *prime) square(a []uint64) {
	if useAVX512 && stageAsm {
		k := len(a) &^ 7
		pointwiseAVX512(a[:k], a[:k], q.p, q.pinv)
		a = a[k:]
	}
	p := q.p
	for j, x := range a {
		x = reduce4(x, p)
		a[j] = q.mulMont(x, x)
	}
}

// nttPlan is the piece width and transform length for a product of
// operands of xb and yb bits.
//
// A plan with h = n/2 > 0 (a split plan) holds n + h = 3n/2 coefficients:
// the product is computed modulo X^n − 1 by the length-n transform and
// modulo X^h − i (i a primitive 4th root of unity, so X^h − i divides
// X^(2n) − 1 and is prime to X^n − 1) by a twisted length-h transform, and
// rebuilt by the Chinese remainder theorem for polynomials (convSplit).
// It costs about 3/4 of the length-2n transform it replaces, which smooths
// the power-of-two steps of the plain plan.
type nttPlan struct {
	b uint // bits per piece, ≤ maxPieceBits
	n int  // transform length, a power of two
	h int  // 0, or n/2 for a split plan
}

// coeffs returns the number of coefficients the plan's convolution holds.
func (pl nttPlan) coeffs() int { return pl.n + pl.h }

// cost returns the plan's work in units of one point of one butterfly
// stage of a plain plan: n·log2 n for a plain plan, and splitCost(n)
// times that of the plain plan of length 2n for a split plan.
func (pl nttPlan) cost() float64 {
	if pl.h > 0 {
		return splitCost(pl.n) * float64(2*pl.n) * float64(bits.TrailingZeros(uint(pl.n))+1)
	}
	return float64(pl.n) * float64(bits.TrailingZeros(uint(pl.n)))
}

// splitCosts is the CPU time of a split plan of length n + n/2 relative
// to the plain plan of length 2n, for n ≤ 512 and above; above 1,
// planFor keeps the plain plan. Refitted 2026-11-28 on the medians of
// TestCalibrateSplit (go test ./internal/bigmul -run CalibrateSplit
// -calibrate -v: each product on one thread, split and plain alternated,
// eleven sizes from 3·10^4 to 4·10^6 bits, three runs). Where AVX-512
// runs the butterflies (and the split's fold and join), the plain
// transform of length 1024 got cheaper than the split's extra passes:
// 1.09–1.22 at n = 512 (two operands of 470–520 words: Mul of 500 words,
// plain ÷ split 0.91–0.94 in one run), 0.74–1.07 above (median 0.86).
// With the scalar stages 0.85–0.98 at every length (median 0.89), where
// the single constant before, 0.88, came from. The transforms alone
// would give 0.72; the pieces, the CRT and the twists are the rest.
var splitCosts = splitCostTable()

// splitCostTable returns splitCosts for this CPU.
func splitCostTable() [2]float64 {
	if useAVX512 {
		return [2]float64{1.12, 0.86}
	}
	return [2]float64{0.89, 0.89}
}

// splitCost returns splitCosts' entry for a split plan of length n + n/2.
func splitCost(n int) float64 {
	if n <= 512 {
		return splitCosts[0]
	}
	return splitCosts[1]
}

// planFor returns the cheapest transform that holds the full product of
// an xb-bit and a yb-bit operand without wrap-around: ⌈xb/b⌉ + ⌈yb/b⌉
// − 1 pieces at most n (or n + n/2 for a split plan), and N·2^(2b) <
// p_1·p_2·p_3 with N the next power of two at or above that count.
func planFor(xb, yb uint) nttPlan { return planHeadroom(xb, yb, 0) }

// planHeadroom is planFor with g bits of headroom in the bound on the
// coefficients: N·2^(2b+g) < p_1·p_2·p_3, for pieces of one operand that
// are sums of up to 2^g pieces (a [Held] operand).
func planHeadroom(xb, yb, g uint) nttPlan {
	pl, sp, ok := planPair(xb, yb, g)
	if ok && sp.cost() < pl.cost() {
		return sp
	}
	return pl
}

// planPair returns the plans planHeadroom weighs: the plain plan at the
// first length n that holds the product, and the split plan of length
// n/2 + n/4 under the same bound (its coefficient count is below n) if
// it holds the product too (ok; never below n = 8).
func planPair(xb, yb, g uint) (plain, split nttPlan, ok bool) {
	fits := func(b, cap uint) bool { return (xb+b-1)/b+(yb+b-1)/b-1 <= cap }
	for lg := uint(1); ; lg++ {
		n := uint(1) << lg
		bmax := min(uint(maxPieceBits), (log2M-lg-g)/2)
		// The smallest b with ⌈xb/b⌉ + ⌈yb/b⌉ − 1 ≤ n.
		b := (xb + yb + n - 1) / n
		for b <= bmax && !fits(b, n) {
			b++
		}
		if b > bmax {
			continue
		}
		plain = nttPlan{b: max(b, 1), n: int(n)}
		if lg < 3 {
			return plain, nttPlan{}, false
		}
		hn := n / 2
		cap := hn + hn/2
		bs := (xb + yb + cap - 1) / cap
		for bs <= bmax && !fits(bs, cap) {
			bs++
		}
		if bs <= bmax {
			return plain, nttPlan{b: max(bs, 1), n: int(hn), h: int(hn / 2)}, true
		}
		return plain, nttPlan{}, false
	}
}

// pieces writes the b-bit pieces of x (little-endian words) into a,
// reduced into [0, 4p), and zeroes the rest of a.
func (q *prime) pieces(a []uint64, x []big.Word, b uint) {
	p := q.p
	nb := bitLen(x)
	word := func(i uint) uint64 {
		if i < uint(len(x)) {
			return uint64(x[i])
		}
		return 0
	}
	i := 0
	if b == 64 {
		for ; i < len(x); i++ {
			v := uint64(x[i])
			if v >= 4*p {
				v -= 4 * p
			}
			a[i] = v
		}
	} else {
		mask := uint64(1)<<(b%64) - 1
		for off := uint(0); off < nb; off, i = off+b, i+1 {
			w, s := off/64, off%64
			lo, hi := word(w), word(w+1)
			if s != 0 {
				lo = lo>>s | hi<<(64-s)
				hi = hi>>s | word(w+2)<<(64-s)
			}
			if b < 64 {
				a[i] = lo & mask // < 2^63 < 4p
				continue
			}
			hi &= mask
			if lo >= 4*p {
				lo -= 4 * p
			}
			v := lo + mulShoup(hi, q.w64, q.w64pre, p) // < 6p
			if v >= 4*p {
				v -= 4 * p
			}
			a[i] = v
		}
	}
	clear(a[i:])
}

// garner returns the integer v < p_1·p_2·p_3 with v ≡ r_i mod p_i, r_i <
// p_i, as three words, little-endian [MCA, §2.7].
func garner(r1, r2, r3 uint64, c *crtConsts) (v0, v1, v2 uint64) {
	P2, P3 := primes3[1].p, primes3[2].p
	// k2 = (r2 − r1)·p1^−1 mod p2.
	a := r1
	if a >= P2 {
		a -= P2
	}
	k2 := mulShoup(r2-a+P2, c.p1inv2, c.p1inv2p, P2)
	if k2 >= P2 {
		k2 -= P2
	}
	// k3 = (r3 − r1 − p1·k2)·(p1·p2)^−1 mod p3.
	a = r1
	if a >= P3 {
		a -= P3
	}
	t := mulShoup(k2, c.p1mod3, c.p1mod3p, P3) // [0, 2p3)
	u := r3 + 3*P3 - a - t                     // > 0, < 4p3
	k3 := mulShoup(u, c.p12inv3, c.p12inv3p, P3)
	if k3 >= P3 {
		k3 -= P3
	}
	return garnerJoin(r1, k2, k3, c)
}

// garnerJoin returns v = x1 + p1·k2 + p1·p2·k3 as three words,
// little-endian: garner's last step.
func garnerJoin(r1, k2, k3 uint64, c *crtConsts) (v0, v1, v2 uint64) {
	P1 := primes3[0].p
	h, l := bits.Mul64(P1, k2)
	var cy uint64
	l, cy = bits.Add64(l, r1, 0)
	h += cy
	// p1·p2·k3: (p12hi·2^64 + p12lo)·k3.
	h1, l1 := bits.Mul64(c.p12lo, k3)
	h2, l2 := bits.Mul64(c.p12hi, k3)
	v0, cy = bits.Add64(l, l1, 0)
	m, c2 := bits.Add64(h1, l2, 0)
	v1, cy = bits.Add64(h, m, cy)
	v2 = h2 + c2 + cy
	return v0, v1, v2
}

// garnerTable returns garnerPrepAVX512's constants, each replicated over
// 8 words: p1, p2, p3; the scale factors sc[i] with their Shoup quotients
// and the quotients' high halves; likewise p1^−1 mod p2, p1 mod p3 and
// (p1·p2)^−1 mod p3; and 3·p3.
func garnerTable(sc, scp [3]uint64, c *crtConsts) *[22 * 8]uint64 {
	var t [22 * 8]uint64
	vals := []uint64{primes3[0].p, primes3[1].p, primes3[2].p}
	for i := range 3 {
		vals = append(vals, sc[i], scp[i], scp[i]>>32)
	}
	vals = append(vals, c.p1inv2, c.p1inv2p, c.p1inv2p>>32, c.p1mod3, c.p1mod3p, c.p1mod3p>>32,
		c.p12inv3, c.p12inv3p, c.p12inv3p>>32, 3*primes3[2].p)
	for k, v := range vals {
		for l := range 8 {
			t[8*k+l] = v
		}
	}
	return &t
}

// crtConsts are Garner's constants for the three primes.
type crtConsts struct {
	p1inv2, p1inv2p   uint64 // p_1^−1 mod p_2 and its Shoup quotient
	p1mod3, p1mod3p   uint64 // p_1 mod p_3
	p12inv3, p12inv3p uint64 // (p_1·p_2)^−1 mod p_3
	p12hi, p12lo      uint64 // p_1·p_2
}

var garnerConsts *crtConsts

// newGarnerConsts computes Garner's constants; run by init after primes3.
func newGarnerConsts() *crtConsts {
	P1, P2, P3 := nttPrimes[0].p, nttPrimes[1].p, nttPrimes[2].p
	c := &crtConsts{}
	q2, q3 := primes3[1], primes3[2]
	c.p1inv2 = q2.powMod(P1%P2, P2-2)
	c.p1inv2p = shoupPre(c.p1inv2, P2)
	c.p1mod3 = P1 % P3
	c.p1mod3p = shoupPre(c.p1mod3, P3)
	c.p12hi, c.p12lo = bits.Mul64(P1, P2)
	_, p12mod3 := bits.Div64(c.p12hi%P3, c.p12lo, P3)
	c.p12inv3 = q3.powMod(p12mod3, P3-2)
	c.p12inv3p = shoupPre(c.p12inv3, P3)
	return c
}

// nttParallelLen is the transform length from which the three primes'
// transforms run on three goroutines: the CPU time is the same, the wall
// time on two or more cores about half. Below it, goroutine start-up is
// not worth it.
var nttParallelLen = 1 << 13

// bufPool recycles transform buffers (a *[]uint64), so that a sequence of
// large products does not allocate and clear a buffer for each.
var bufPool sync.Pool

func getBuf(n int) *[]uint64 {
	if v, ok := bufPool.Get().(*[]uint64); ok && cap(*v) >= n {
		*v = (*v)[:n]
		return v
	}
	b := make([]uint64, n)
	return &b
}

// conv computes the cyclic convolution of length pl.n of the b-bit pieces
// of x and y (y == nil: of x with itself) modulo each of the three primes,
// into buf[i·n:(i+1)·n] for prime i, scaled by n·2^−64 (see assemble).
func conv(buf []uint64, x, y []big.Word, pl nttPlan) {
	if pl.h > 0 {
		convSplit(buf, x, y, pl)
		return
	}
	n := pl.n
	pieces3([3][]uint64{buf[:n], buf[n : 2*n], buf[2*n : 3*n]}, x, pl.b)
	var by *[]uint64
	if y != nil {
		by = getBuf(3 * n)
		defer bufPool.Put(by)
		b := *by
		pieces3([3][]uint64{b[:n], b[n : 2*n], b[2*n : 3*n]}, y, pl.b)
	}
	one := func(i int) {
		q := primes3[i]
		a := buf[i*n : (i+1)*n]
		t := q.table(n)
		q.forward(a, t)
		if y == nil {
			q.square(a)
		} else {
			b := (*by)[i*n : (i+1)*n]
			q.forward(b, t)
			q.pointwise(a, b)
		}
		q.inverse(a, t)
	}
	runPrimes(n, one)
}

// runPrimes runs one(0), one(1), one(2): on three goroutines from the
// transform length nttParallelLen, else in sequence.
func runPrimes(n int, one func(i int)) {
	if n < nttParallelLen {
		for i := range primes3 {
			one(i)
		}
		return
	}
	var wg sync.WaitGroup
	for i := range primes3 {
		wg.Go(func() { one(i) })
	}
	wg.Wait()
}

// nttMul returns the product of the non-negative magnitudes x and y
// (little-endian words; y == nil squares x) by the three-prime transform.
func nttMul(x, y []big.Word) []big.Word {
	yw := y
	if y == nil {
		yw = x
	}
	xb, yb := bitLen(x), bitLen(yw)
	if xb == 0 || yb == 0 {
		return nil
	}
	return nttMulPlan(x, y, planFor(xb, yb))
}

// nttMulPlan is nttMul with the plan given (it must hold the product).
func nttMulPlan(x, y []big.Word, pl nttPlan) []big.Word {
	yw := y
	if y == nil {
		yw = x
	}
	xb, yb := bitLen(x), bitLen(yw)
	if xb == 0 || yb == 0 {
		return nil
	}
	bp := getBuf(3 * pl.coeffs())
	conv(*bp, x, y, pl)
	z := make([]big.Word, (xb+yb+63)/64+1)
	assemble(z, *bp, pl.coeffs(), pl.n, pl.b, int(xb/pl.b+yb/pl.b+2))
	bufPool.Put(bp)
	return z
}

// chunkPlan returns, for a product of a long operand by a yb-bit one, the
// transform and the chunk of the long operand, in words, that minimize the
// transforms' length per chunk bit: each chunk's product with y must fit
// the transform without wrap-around. ok is false if no chunk of at least
// twice y's length fits (then a single transform is as good).
func chunkPlan(yb uint) (pl nttPlan, chunkWords int, ok bool) {
	best := 0.0
	for lg := uint(1); lg < 40; lg++ {
		n := uint(1) << lg
		b := min(uint(maxPieceBits), (log2M-lg)/2)
		ny := (yb + b - 1) / b
		if ny+1 > n {
			continue
		}
		cw := int((n - ny) * b / 64) // chunk pieces + ny − 1 ≤ n
		if uint(cw)*64 < 2*yb {
			continue
		}
		cost := float64(n) * float64(lg) / float64(cw)
		if !ok || cost < best {
			best, pl, chunkWords, ok = cost, nttPlan{b: b, n: int(n)}, cw, true
		}
		if uint(cw)*64 > 16*yb {
			break
		}
	}
	return pl, chunkWords, ok
}

// nttMulChunked returns x·y for a long x and a short y > 0 by cutting x
// into chunks and multiplying each by y with one transform of y per prime,
// kept for every chunk (transform reuse).
func nttMulChunked(x, y []big.Word, pl nttPlan, chunkWords int) []big.Word {
	n := pl.n
	xb, yb := bitLen(x), bitLen(y)
	z := make([]big.Word, (xb+yb+63)/64+1)
	ty := getBuf(3 * n)
	pieces3([3][]uint64{(*ty)[:n], (*ty)[n : 2*n], (*ty)[2*n : 3*n]}, y, pl.b)
	for i, q := range primes3 {
		q.forward((*ty)[i*n:(i+1)*n], q.table(n))
	}
	buf := getBuf(3 * n)
	part := make([]big.Word, chunkWords+len(y)+2)
	for lo := 0; lo < len(x); lo += chunkWords {
		c := x[lo:min(lo+chunkWords, len(x))]
		cb := bitLen(c)
		if cb == 0 {
			continue
		}
		pieces3([3][]uint64{(*buf)[:n], (*buf)[n : 2*n], (*buf)[2*n : 3*n]}, c, pl.b)
		runPrimes(n, func(i int) {
			q := primes3[i]
			a := (*buf)[i*n : (i+1)*n]
			t := q.table(n)
			q.forward(a, t)
			q.pointwise(a, (*ty)[i*n:(i+1)*n])
			q.inverse(a, t)
		})
		clear(part)
		assemble(part, *buf, n, n, pl.b, int(cb/pl.b+yb/pl.b+2))
		// z[lo:] += part; the carry stops inside z (z holds x·y).
		var cy uint64
		k := lo
		for _, w := range part {
			if k >= len(z) {
				break
			}
			var s uint64
			s, cy = bits.Add64(uint64(z[k]), uint64(w), cy)
			z[k] = big.Word(s)
			k++
		}
		for ; cy != 0 && k < len(z); k++ {
			var s uint64
			s, cy = bits.Add64(uint64(z[k]), 0, cy)
			z[k] = big.Word(s)
		}
	}
	bufPool.Put(ty)
	bufPool.Put(buf)
	return z
}

// wrapPlan returns the shortest transform whose cyclic convolution gives
// products modulo 2^N − 1 with N = n·b ≥ minBits.
func wrapPlan(minBits uint) nttPlan {
	for lg := uint(1); ; lg++ {
		n := uint(1) << lg
		bmax := min(uint(maxPieceBits), (log2M-lg)/2)
		if b := (minBits + n - 1) / n; b <= bmax {
			return nttPlan{b: max(b, 1), n: int(n)}
		}
	}
}

// nttMulWrap returns x·y mod 2^N − 1 and N, for N = n·b ≥ minBits chosen
// by wrapPlan, and x, y < 2^N (y == nil squares x): the cyclic
// convolution of the pieces is the product modulo 2^(n·b) − 1, as 2^(n·b)
// ≡ 1 [MCA, §2.3.3, wrap-around trick]. The result is in [0, 2^N − 1].
func nttMulWrap(x, y []big.Word, minBits uint) ([]big.Word, uint) {
	pl := wrapPlan(minBits)
	N := uint(pl.n) * pl.b
	bp := getBuf(3 * pl.n)
	conv(*bp, x, y, pl)
	// Coefficients below n·2^(2b+log2 n): the sum is below 2^(N+2b+64).
	z := make([]big.Word, (N+2*pl.b+64+63)/64+2)
	assemble(z, *bp, pl.n, pl.n, pl.b, pl.n)
	bufPool.Put(bp)
	return foldMersenne(z, N), N
}

// foldMersenne reduces z (little-endian words) modulo 2^N − 1 by adding
// the bits above N to the bits below until it is below 2^N.
func foldMersenne(z []big.Word, N uint) []big.Word {
	v := new(big.Int).SetBits(z)
	foldInt(v, N)
	return v.Bits()
}

// lowBitsInPlace truncates v ≥ 0 to its n low bits.
func lowBitsInPlace(v *big.Int, n uint) {
	const W = bits.UintSize // big.Word's size: MulWrap folds on 32-bit platforms too
	w := v.Bits()
	if uint(len(w))*W <= n {
		return
	}
	w = w[:(n+W-1)/W]
	if r := n % W; r != 0 {
		w[len(w)-1] &= 1<<r - 1
	}
	v.SetBits(w)
}

// assemble adds coefficient j (the CRT of buf's three residues, prime i's
// at buf[i·L + j], scaled by the inverse transform's n^−1 and Montgomery's
// 2^64) at bit offset j·b of z, for j < min(L, terms).
func assemble(z []big.Word, buf []uint64, L, n int, b uint, terms int) {
	r1, r2, r3 := buf[:L], buf[L:2*L], buf[2*L:3*L]
	r2, r3 = r2[:len(r1)], r3[:len(r1)]
	var sc, scp [3]uint64
	for i, q := range primes3 {
		// The residues are 2^−64·n·c_j: multiply by 2^64·n^−1.
		ninv := q.powMod(uint64(n), q.p-2)
		sc[i] = q.mulMont(ninv, q.r2) // n^−1·2^64 mod p
		scp[i] = shoupPre(sc[i], q.p)
	}
	c := garnerConsts
	P1, P2, P3 := primes3[0].p, primes3[1].p, primes3[2].p
	// acc holds the pending sum of the bits at and above word pos, four
	// words wide.
	var a0, a1, a2, a3 uint64
	pos := 0
	terms = min(terms, L)
	prep := 0 // coefficients below prep hold x1, k2, k3 already
	if useAVX512 && stageAsm {
		prep = terms &^ 7
		garnerPrepAVX512(r1[:prep], r2[:prep], r3[:prep], garnerTable(sc, scp, c))
	}
	for j := range terms {
		off := uint(j) * b
		for int(off/64) > pos {
			if pos < len(z) {
				z[pos] = big.Word(a0)
			}
			a0, a1, a2, a3 = a1, a2, a3, 0
			pos++
		}
		var v0, v1, v2 uint64
		if j < prep {
			v0, v1, v2 = garnerJoin(r1[j], r2[j], r3[j], c)
		} else {
			x1 := reduce2(mulShoup(r1[j], sc[0], scp[0], P1), P1)
			x2 := reduce2(mulShoup(r2[j], sc[1], scp[1], P2), P2)
			x3 := reduce2(mulShoup(r3[j], sc[2], scp[2], P3), P3)
			v0, v1, v2 = garner(x1, x2, x3, c)
		}
		s := off % 64
		var v3 uint64
		if s != 0 {
			v3 = v2 >> (64 - s)
			v2 = v2<<s | v1>>(64-s)
			v1 = v1<<s | v0>>(64-s)
			v0 <<= s
		}
		var cy uint64
		a0, cy = bits.Add64(a0, v0, 0)
		a1, cy = bits.Add64(a1, v1, cy)
		a2, cy = bits.Add64(a2, v2, cy)
		a3, _ = bits.Add64(a3, v3, cy)
	}
	for _, a := range []uint64{a0, a1, a2, a3} {
		if pos < len(z) {
			z[pos] = big.Word(a)
		}
		pos++
	}
}

// reduce2 maps x in [0, 2p) to [0, p).
func reduce2(x, p uint64) uint64 {
	if x >= p {
		x -= p
	}
	return x
}

// bitLen returns the bit length of the little-endian magnitude x.
func bitLen(x []big.Word) uint {
	for i := len(x) - 1; i >= 0; i-- {
		if x[i] != 0 {
			return uint(i)*64 + uint(bits.Len64(uint64(x[i])))
		}
	}
	return 0
}

// pieces3 writes the b-bit pieces of x into dst[i] reduced into [0, 4p_i)
// for the three primes at once (each piece is cut from x once), and zeroes
// the rest of each dst[i]; the dst[i] have equal lengths. It gives the
// words q.pieces gives.
func pieces3(dst [3][]uint64, x []big.Word, b uint) {
	a0 := dst[0]
	a1, a2 := dst[1][:len(a0)], dst[2][:len(a0)]
	nb := bitLen(x)
	cnt := int((nb + b - 1) / b)
	if b <= 64 {
		primes3[0].pieces(a0, x, b)
		if b < 64 {
			// The pieces are below 2^63 < 4p for every prime: the same words.
			copy(a1, a0)
			copy(a2, a0)
		} else {
			primes3[1].pieces(a1, x, b)
			primes3[2].pieces(a2, x, b)
		}
		return
	}
	q0, q1, q2 := primes3[0], primes3[1], primes3[2]
	f0, f1, f2 := 4*q0.p, 4*q1.p, 4*q2.p
	mask := uint64(1)<<(b-64) - 1
	// piece reduces the piece lo + hi·2^64 (hi ≤ mask) for the three primes.
	piece := func(i int, lo, hi uint64) {
		hi &= mask
		v := lo
		if v >= f0 {
			v -= f0
		}
		v += mulShoup(hi, q0.w64, q0.w64pre, q0.p) // < 6p
		if v >= f0 {
			v -= f0
		}
		a0[i] = v
		v = lo
		if v >= f1 {
			v -= f1
		}
		v += mulShoup(hi, q1.w64, q1.w64pre, q1.p)
		if v >= f1 {
			v -= f1
		}
		a1[i] = v
		v = lo
		if v >= f2 {
			v -= f2
		}
		v += mulShoup(hi, q2.w64, q2.w64pre, q2.p)
		if v >= f2 {
			v -= f2
		}
		a2[i] = v
	}
	i := 0
	off := uint(0)
	// While three words are in x, read them directly (64 < b ≤ 86: a piece
	// spans at most three words).
	for ; i < cnt; i, off = i+1, off+b {
		w, s := off/64, off%64
		if w+2 >= uint(len(x)) {
			break
		}
		lo, hi := uint64(x[w]), uint64(x[w+1])
		if s != 0 {
			h2 := uint64(x[w+2])
			lo = lo>>s | hi<<(64-s)
			hi = hi>>s | h2<<(64-s)
		}
		piece(i, lo, hi)
	}
	word := func(j uint) uint64 {
		if j < uint(len(x)) {
			return uint64(x[j])
		}
		return 0
	}
	for ; i < cnt; i, off = i+1, off+b {
		w, s := off/64, off%64
		lo, hi := word(w), word(w+1)
		if s != 0 {
			lo = lo>>s | hi<<(64-s)
			hi = hi>>s | word(w+2)<<(64-s)
		}
		piece(i, lo, hi)
	}
	clear(a0[i:])
	clear(a1[i:])
	clear(a2[i:])
}
