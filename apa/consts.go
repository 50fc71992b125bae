// This file implements the constants π and ln 2 by binary splitting.

package apa

import (
	"math/big"
	"math/bits"
	"sync"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// Consts is a cache of the constants π and ln 2 that [Log], [Exp] and the
// other functions of this package need at the working precision. The
// package-level functions compute them afresh on every call (apa keeps no
// global mutable state); a caller that evaluates many functions at high
// precision holds one Consts and calls its methods instead, so that the
// constants are computed once, at the highest precision asked so far, and
// then only truncated. The zero value is an empty cache ready to use. A
// Consts is safe for concurrent use by many goroutines; it must not be
// copied after first use. Results never depend on the cache: every method
// returns exactly what the package-level function of the same name returns.
// Up to tableBits (524,288 = 2^19) bits neither computes anything: π and
// ln 2 are read from a generated table (consttab.go, 256 KiB of hexadecimal,
// checked by TestConstTable), so a single call at up to 2^19 bits does not
// pay for them (at 413,000 bits, the exact single query for N = 25,000,
// they cost about 30% of the run's CPU). A Consts also keeps the
// logarithms of the primes 2 … 37 that [Exp] reduces its argument by
// (mpreduce.go): up to 4096 bits they come from a table computed once per
// process; above, a Consts computes them at the second call that wants
// them, so that a single call (the package-level functions) does not pay
// for them and takes the path that needs only π and ln 2.
type Consts struct {
	mu              sync.Mutex
	piPrec, ln2Prec uint
	pi, ln2         xf

	// The logarithms of the primes of the multi-prime argument reduction
	// (mpreduce.go), to plPrec bits after the point; pl is nil until then.
	plPrec uint
	pl     *[mpN]xf
	plAsks int // calls that wanted them above plPrec (primeLogsWorth)
}

// cachePrec is the precision at which a constant is computed when wp bits
// are asked: a little more, so that the next Ziv step (wp·3/2 at most) or a
// later call at slightly higher precision reuses it.
func cachePrec(wp uint) uint { return wp + wp/8 + 64 }

// has reports whether both constants are cached to at least wp bits (or
// in the generated table, consttab.go).
func (c *Consts) has(wp uint) bool {
	if tableServes(wp) {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.piPrec >= wp && c.ln2Prec >= wp
}

// getPi sets z to π with a relative error below 2^(2-wp) and returns z.
func (c *Consts) getPi(z *xf, wp uint) *xf {
	if tableServes(wp) {
		return z.truncOf(tablePi(), wp)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.piPrec < wp {
		p := cachePrec(wp)
		computePi(&c.pi, p)
		c.piPrec = p
	}
	return z.truncOf(&c.pi, wp)
}

// getLn2 sets z to ln 2 with a relative error below 2^(2-wp) and returns z.
func (c *Consts) getLn2(z *xf, wp uint) *xf {
	if tableServes(wp) {
		return z.truncOf(tableLn2(), wp)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ln2Prec < wp {
		p := cachePrec(wp)
		computeLn2(&c.ln2, p)
		c.ln2Prec = p
	}
	return z.truncOf(&c.ln2, wp)
}

// consts is the view of a [Consts] that one top-level call uses: it can
// start computing the constants on a second goroutine (prefetch) while the
// caller's AGM or Newton ladder runs, and the getters wait for it.
type consts struct {
	shared *Consts // never nil once in use; a fresh Consts for the package-level functions

	wg      sync.WaitGroup // a prefetch in flight
	pending bool
}

func (c *consts) cache() *Consts {
	if c.shared == nil {
		c.shared = new(Consts)
	}
	return c.shared
}

// prefetch starts computing π and ln 2 to wp bits on another goroutine, if
// they are not cached at that precision, so that they are ready when the
// AGM that needs them ends. The getters wait for it.
func (c *consts) prefetch(wp uint) {
	c.wait()
	sh := c.cache()
	if sh.has(wp) {
		return
	}
	c.pending = true
	c.wg.Go(func() {
		var t xf
		sh.getPi(&t, wp)
		sh.getLn2(&t, wp)
	})
}

func (c *consts) wait() {
	if c.pending {
		c.wg.Wait()
		c.pending = false
	}
}

// getPi returns π with a relative error below 2^(2-wp).
func (c *consts) getPi(wp uint) *xf {
	c.wait()
	return c.cache().getPi(new(xf), wp)
}

// getLn2 returns ln 2 with a relative error below 2^(2-wp).
func (c *consts) getLn2(wp uint) *xf {
	c.wait()
	return c.cache().getLn2(new(xf), wp)
}

// chudnovskyC324 is 640320³/24, the ratio constant of the Chudnovsky series.
var chudnovskyC324 = new(big.Int).Div(new(big.Int).Exp(big.NewInt(640320), big.NewInt(3), nil), big.NewInt(24))

// bsPi evaluates the Chudnovsky series terms [a, b) by binary splitting
// [HP98, §2], returning P, Q, T.
func bsPi(a, b int64) (p, q, t *big.Int) {
	if b-a <= leafTerms {
		// Fold the terms in one by one: (P, Q, T) ← (P·p_k, Q·q_k,
		// q_k·T + P·t_k), the combination rule below with a one-term
		// right half. With t_k = ±p_k·(A + Bk), P·t_k = ±P_new·(A + Bk),
		// and q_k = k³·C: every step multiplies by words, in place.
		p, q, t = big.NewInt(1), big.NewInt(1), new(big.Int)
		var u big.Int
		for k := a; k < b; k++ {
			if k == 0 {
				t.SetInt64(13591409) // p_0 = q_0 = 1
				continue
			}
			uk := uint64(k)
			mulWordsInPlace(t, uk*uk, uk)
			mulWordInPlace(t, chudnovskyC324.Uint64())
			mulWordsInPlace(q, uk*uk, uk)
			mulWordInPlace(q, chudnovskyC324.Uint64())
			mulWordsInPlace(p, (6*uk-5)*(2*uk-1), 6*uk-1)
			mulWordTo(&u, p, uint64(13591409+545140134*k))
			if k&1 == 1 {
				t.Sub(t, &u)
			} else {
				t.Add(t, &u)
			}
		}
		return p, q, t
	}
	m := (a + b) / 2
	var pam, qam, tam, pmb, qmb, tmb *big.Int
	if b-a > 4096 { // large halves: evaluate them on both cores
		var wg sync.WaitGroup
		wg.Go(func() { pam, qam, tam = bsPi(a, m) })
		pmb, qmb, tmb = bsPi(m, b)
		wg.Wait()
	} else {
		pam, qam, tam = bsPi(a, m)
		pmb, qmb, tmb = bsPi(m, b)
	}
	// T = Qmb·Tam + Pam·Tmb; P = Pam·Pmb; Q = Qam·Qmb.
	t = bigmul.Mul(new(big.Int), qmb, tam)
	t.Add(t, bigmul.Mul(tmb, pam, tmb))
	p = bigmul.Mul(pam, pam, pmb)
	q = bigmul.Mul(qam, qam, qmb)
	return p, q, t
}

// mulWordInPlace sets z to z·w, reusing z's words (no allocation unless
// z grows past its capacity). The sign of z is kept.
func mulWordInPlace(z *big.Int, w uint64) {
	if bits.UintSize == 32 { // the word loop below takes 64-bit words
		z.Mul(z, new(big.Int).SetUint64(w))
		return
	}
	neg := z.Sign() < 0
	ws := z.Bits()
	var carry uint64
	for i, x := range ws {
		hi, lo := bits.Mul64(uint64(x), w)
		lo, c := bits.Add64(lo, carry, 0)
		ws[i] = big.Word(lo)
		carry = hi + c
	}
	if carry != 0 {
		ws = append(ws, big.Word(carry))
	}
	z.SetBits(ws)
	if neg {
		z.Neg(z)
	}
}

// mulWordsInPlace sets z to z·v·w, in one pass if v·w fits a word. The
// callers' factors fit a word each: their term index k stays below 2^27
// for any precision below maxZivPrec, so 12k² and k² are below 2^60.
func mulWordsInPlace(z *big.Int, v, w uint64) {
	if hi, lo := bits.Mul64(v, w); hi == 0 {
		mulWordInPlace(z, lo)
		return
	}
	mulWordInPlace(z, v)
	mulWordInPlace(z, w)
}

// mulWordTo sets z to x·w for x ≥ 0, in z's own words; z must not be x.
func mulWordTo(z, x *big.Int, w uint64) {
	if bits.UintSize == 32 { // the word loop below takes 64-bit words
		z.Mul(x, new(big.Int).SetUint64(w))
		return
	}
	xs := x.Bits()
	zs := z.Bits()
	if cap(zs) < len(xs)+1 {
		zs = make([]big.Word, len(xs)+1, len(xs)+len(xs)/4+2)
	}
	zs = zs[:len(xs)+1]
	var carry uint64
	for i, v := range xs {
		hi, lo := bits.Mul64(uint64(v), w)
		lo, c := bits.Add64(lo, carry, 0)
		zs[i] = big.Word(lo)
		carry = hi + c
	}
	zs[len(xs)] = big.Word(carry)
	z.SetBits(zs) // normalizes
}

// leafTerms is the number of series terms below which the binary
// splittings of this file fold terms in linearly instead of recursing: the
// leaves then cost a few word-sized multiplications instead of three
// allocations each. The sums only grow to leafTerms·(bits per term) bits,
// a few words. 16 is a judgement; TestConstantsMatchReferences and
// TestLn2AndEAgainstIndependentSeries check the results.
const leafTerms = 16

// computePi sets z to π with a relative error below 2^(2-wp), by the
// Chudnovsky series, 1/π = 12 Σ (−1)^k (6k)! (13591409 + 545140134k) /
// ((3k)! (k!)³ 640320^(3k+3/2)), which gains log10(151931373056000) ≈ 14.18
// decimal digits (47.11 bits) per term [HP98, §2].
func computePi(z *xf, wp uint) {
	n := int64(wp)/47 + 2
	_, q, t := bsPi(0, n)
	// π = 426880·√10005·Q / T.
	var num, den, s, c xf
	c.setInt64(10005)
	s.sqrt(&c, wp+8)
	num.setInt(q)
	num.mulInt64(&num, 426880, wp+8)
	num.mul(&num, &s, wp+8)
	den.setInt(t)
	z.quo(&num, &den, wp+4)
	z.trunc(wp)
}

// bsAtanh evaluates Σ_{k∈[a,b)} 1/((2k+1)·q^(2k)) by binary splitting:
// with the term ratio 1/q², P(a,b) is 1, so it returns Q = q^(2(b−a)),
// B = Π(2k+1) and T with Σ = T/(B·Q) [HP98, §2].
func bsAtanh(a, b int64, q2 *big.Int) (qq, bb, t *big.Int) {
	if b-a <= leafTerms {
		// Fold the terms in one by one: with the term k as right half
		// (Q_k = q² or 1 for k = 0, B_k = 2k+1, T_k = 1), T ← B_k·Q_k·T + B,
		// B ← B·B_k, Q ← Q·Q_k; every product is by a word, in place.
		qq, bb, t = big.NewInt(1), big.NewInt(1), new(big.Int)
		q2w := q2.Uint64()
		for k := a; k < b; k++ {
			bk := uint64(2*k + 1)
			if k > 0 {
				mulWordsInPlace(t, bk, q2w)
				mulWordInPlace(qq, q2w)
			} else {
				mulWordInPlace(t, bk)
			}
			t.Add(t, bb)
			mulWordInPlace(bb, bk)
		}
		return qq, bb, t
	}
	m := (a + b) / 2
	var ql, bl, tl, qr, br, tr *big.Int
	if b-a > 4096 {
		var wg sync.WaitGroup
		wg.Go(func() { ql, bl, tl = bsAtanh(a, m, q2) })
		qr, br, tr = bsAtanh(m, b, q2)
		wg.Wait()
	} else {
		ql, bl, tl = bsAtanh(a, m, q2)
		qr, br, tr = bsAtanh(m, b, q2)
	}
	// T = Br·Qr·Tl + Bl·Tr; Q = Ql·Qr; B = Bl·Br.
	t = bigmul.Mul(new(big.Int), br, qr)
	bigmul.Mul(t, t, tl)
	t.Add(t, bigmul.Mul(tr, bl, tr))
	qq = bigmul.Mul(ql, ql, qr)
	bb = bigmul.Mul(bl, bl, br)
	return qq, bb, t
}

// atanhInv sets z to atanh(1/q) = Σ 1/((2k+1) q^(2k+1)) for an integer
// q ≥ 2, with a relative error below 2^(2-wp).
//
// The sum's exact binary splitting ends in integers far longer than wp:
// B = Π(2k+1) has about n·log2(2n) bits for n terms, T as many as B·Q, so
// at 2.9·10^8 bits (the exact single query at N = 10^7) its last merge
// and the product B·Q each multiply into 1.2·10^9 bits, whose transform
// buffers and twiddle tables were the largest block of that run's memory.
// Only wp bits of the quotient matter, so the two halves are split
// exactly and merged in floating point at w = wp+16 bits: with (Q, B, T)
// of each half as bsAtanh returns them,
//
//	Σ = T/(B·Q) = T_l/(B_l·Q_l) + T_r/(B_r·Q_r·Q_l),
//
// every quantity positive. Error, relative, in units of 2^-w: Q_l·q 1,
// B_l·Q_l·q 3 more, T_l over it 2^6 more; B_r·Q_r 3, T_r over it 2^6 + 3,
// that over Q_l·q 2^6 + 1 more; the sum of the two positive terms 2 more:
// below 2^8 in all, 2^(-8-wp), and the truncation to wp bits adds
// 2^(1-wp).
func atanhInv(z *xf, q int64, wp uint) {
	// Terms until q^(-2k) < 2^-(wp+4).
	bitsPerTerm := 2 * log2Floor(q)
	n := int64(wp+8)/bitsPerTerm + 2
	q2 := big.NewInt(q * q)
	if n <= 2*floatMergeTerms {
		qq, bb, t := bsAtanh(0, n, q2)
		var num, den xf
		num.setInt(t)
		den.setInt(bigmul.Mul(qq, qq, bb))
		den.mulInt64(&den, q, 0)
		z.quo(&num, &den, wp+4)
		z.trunc(wp)
		return
	}
	m := n / 2
	var ql, bl, tl, qr, br, tr *big.Int
	var wg sync.WaitGroup
	wg.Go(func() { ql, bl, tl = bsAtanh(0, m, q2) })
	qr, br, tr = bsAtanh(m, n, q2)
	wg.Wait()
	w := wp + 16
	var a, b, c, d, u, v xf
	d.mulInt64(a.setInt(ql), q, w) // Q_l·q
	c.mul(a.setInt(br), b.setInt(qr), w)
	u.quo(a.setInt(tr), &c, w) // Σ of the right half, from its first term
	u.quo(&u, &d, w)
	c.mul(a.setInt(bl), &d, w)
	v.quo(a.setInt(tl), &c, w)
	z.add(&v, &u, w)
	z.trunc(wp)
}

// floatMergeTerms is the half length, in terms, from which atanhInv merges
// its two halves in floating point instead of exactly: below it the
// integers are shorter than the floating-point operations' guard bits.
const floatMergeTerms = 4096

// log2Floor returns ⌊log2 q⌋ for q ≥ 1.
func log2Floor(q int64) int64 {
	n := int64(0)
	for q > 1 {
		q >>= 1
		n++
	}
	return n
}

// computeLn2 sets z to ln 2 with a relative error below 2^(2-wp), by the
// Machin-like formula ln 2 = 18·atanh(1/26) − 2·atanh(1/4801) +
// 8·atanh(1/8749) [OEIS A002162].
func computeLn2(z *xf, wp uint) {
	w := wp + 8
	var a, b, c xf
	atanhInv(&a, 26, w)
	atanhInv(&b, 4801, w)
	atanhInv(&c, 8749, w)
	a.mulInt64(&a, 18, w)
	b.mulInt64(&b, 2, w)
	c.mulInt64(&c, 8, w)
	z.sub(&a, &b, w)
	z.add(z, &c, w)
	z.trunc(wp)
}
