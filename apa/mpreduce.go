// This file implements multi-prime argument reduction: v = Σ e_i·ln p_i + r
// with small integers e_i over the first primes and a tiny r.

package apa

import (
	"math"
	"math/big"
	"math/bits"
	"sync"
)

// Multi-prime argument reduction [Joh22] writes a real v as
//
//	v = Σ_i e_i·ln p_i + r,   p_i the first mpN primes, e_i integers,
//
// with |r| far below 1 (2^-R for R from about 30 to a few hundred bits), so
// that e^v = Π p_i^e_i · e^r, where Π p_i^e_i is a rational whose height
// grows only like the e_i, and e^r is a short series; and ln x, with v an
// estimate of ln x, is Σ e_i·ln p_i + ln(x/Π p_i^e_i), the last argument
// within 2^-R of 1. The logarithms ln p_i are constants, cached per
// precision in [Consts] like π and ln 2.
//
// The API, for the functions of this package:
//
//   - mpPrimes: the primes 2, 3, …, 37 (mpN = 12 of them).
//   - (*consts).primeLogs(wp): ln p_i for every i, each with an absolute
//     error below 2^-wp, fixed point (exponent ≥ −wp−1), from the cache
//     (computed once per precision; see computePrimeLogs). The hot paths
//     take (*Consts).primeLogsSrc(wp), the read-only cached array, and
//     floor only the logarithms they multiply (primeLogAt) into one
//     scratch, instead of copying all twelve.
//   - mpFindExps(v, R): the exponents e_i alone, found in float64 and
//     640-bit arithmetic from v's leading bits, such that |v − Σ e_i·ln
//     p_i| is about 2^-R or less (not guaranteed: the size of r is measured
//     by mpReduce, never assumed). Cheap: microseconds.
//   - mpReduce(red, v, R, wp, c): the exponents and r = v − Σ e_i·ln p_i
//     to wp bits after the point, with the proven bounds red.rTop (|r| <
//     2^rTop) and red.errExp (|r − (v − Σ e_i·ln p_i)| < 2^errExp, v taken
//     as exact).
//   - mpPowProd(z, e, sign, wp): z = Π p_i^|e_i| over the i with
//     sign·e_i > 0, with a proven relative error bound (exact when short).
//
// How the exponents are found. Stage 0 takes e_2 = round(v/ln 2). Each
// later stage s reduces the residual t = v − Σ e_i·ln p_i against n
// generators γ_j = Σ_i G_ji·ln p_i (stage 1: the ln p_i themselves;
// stage s+1: the short vectors of stage s, near-relations of size about
// 2^-36·|γ|): in the lattice of rows (u_j, K·γ_j/S), u_j the unit vector,
// S = max|γ_j| and K = 2^mpStageBits, reduced once by LLL (float64, at
// first use, from 640-bit logarithms), Babai's nearest plane finds the
// lattice point nearest the target (0, …, 0, K·t/S); its first n
// coordinates m_j are the multiples of the generators, and e ← e + m·G.
// Each stage gains about mpStageBits·(n−1)/n bits and multiplies the
// size of the exponents by about 2^(mpStageBits/n). The construction
// follows the idea of [Joh22] (a precomputed reduced lattice, Babai's
// algorithm in float64); the staging and the choice of K are ours.
//
// Two metrics. The plain stages (mpStageAt, Log's) measure a row's
// integer part by its multiples u_j of the generators, so a short row can
// stand for long exponents once the generators have grown. The height
// stages (mpStageHeightAt, Exp's from 6,000 bits) measure it by the
// exponents it stands for, each weighted by log2 p_i (2's nearly free:
// its power is a shift), so that Babai's point keeps Π p_i^|e_i|, the
// bits of Exp's P and Q, short: median bits of P·Q per bit of reach 6 /
// 89 / 1,000 against 12 / 312 / 3,700 at R = 60 / 100 / 140
// (TestMpHeightMetric). Same lattice, same exactness (mpReduce measures r
// whatever the exponents); the height stages end near 2^-190.
//
// [Joh22] F. Johansson, "Computing elementary functions using multi-prime
// argument reduction", arXiv:2207.02501, 2022.

// mpN is the number of primes of the reduction.
const mpN = 12

// mpPrimes are the primes of the reduction, in order.
var mpPrimes = [mpN]int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}

// mpStageBits is log2 K, the scale of each stage's lattice.
const mpStageBits = 36

// mpMaxStages bounds the stages mpFindExps runs.
const mpMaxStages = 8

// mpLowBits is the precision of the logarithms and residuals used to find
// the exponents: enough for mpMaxStages stages (288 bits of reduction)
// with exponents up to 2^60.
const mpLowBits = 640

// computePrimeLogs sets dst[i] to ln p_i with an absolute error below
// 2^-(wp+2) each, on the grid 2^-(wp+8). For odd p,
//
//	ln p = (ln(p−1) + ln(p+1) + 2·atanh(1/(2p²−1)))/2,
//
// since p²/(p²−1) = (1+y)/(1−y) for y = 1/(2p²−1), and p∓1 factor over
// the smaller primes (for every p ≤ 37). The atanh series converge at
// 2·log2(2p²−1) ≥ 8 bits per term. Error, in units u = 2^-w, w = wp+8:
// ln 2 (relative 2^(−2−w)) floored to the grid, below 1.25u; 2·atanh
// (relative 2^(−2−w) of a value below 0.2, doubled, then floored), below
// 1.1u; a sum of grid values is exact, and halving it then flooring adds
// u/2; so ε(p) ≤ (ε(p−1) + ε(p+1) + 1.1)/2 + 1/2 with ε(n) the sum of
// ε(q) over n's prime factors with multiplicity. mpPrimeLogErr evaluates
// the recursion: below 40u (TestPrimeLogErr), so below 2^(−wp−2).
func computePrimeLogs(dst *[mpN]xf, wp uint, c *Consts) {
	w := wp + 8
	grid := -int64(w)
	c.getLn2(&dst[0], w+4)
	dst[0].toGrid(grid)
	// The atanh terms are independent: compute them on two goroutines.
	var at [mpN]xf
	var wg sync.WaitGroup
	half := func(lo, step int) {
		for i := lo; i < mpN; i += step {
			p := mpPrimes[i]
			atanhInv(&at[i], 2*p*p-1, w+4)
			at[i].e++ // 2·atanh, exact
			at[i].toGrid(grid)
		}
	}
	wg.Go(func() { half(1, 2) })
	half(2, 2)
	wg.Wait()
	for i := 1; i < mpN; i++ {
		p := mpPrimes[i]
		var s xf
		s.set(&at[i])
		for _, n := range [2]int64{p - 1, p + 1} {
			for j := 0; j < i && n > 1; j++ {
				for n%mpPrimes[j] == 0 {
					n /= mpPrimes[j]
					s.add(&s, &dst[j], 0)
				}
			}
		}
		s.e-- // halve, exact
		s.toGrid(grid)
		dst[i].set(&s)
	}
}

// mpPrimeLogErr returns the bound, in units of 2^-(wp+8), of the error
// of computePrimeLogs' ln p_i (the recursion of its comment).
func mpPrimeLogErr() [mpN]float64 {
	var eps [mpN]float64
	eps[0] = 1.25
	for i := 1; i < mpN; i++ {
		p := mpPrimes[i]
		s := 1.1
		for _, n := range [2]int64{p - 1, p + 1} {
			for j := 0; j < i && n > 1; j++ {
				for n%mpPrimes[j] == 0 {
					n /= mpPrimes[j]
					s += eps[j]
				}
			}
		}
		eps[i] = s/2 + 0.5
	}
	return eps
}

// getPrimeLogs sets dst to the logarithms of mpPrimes, each with an
// absolute error below 2^-wp, on the grid 2^-(wp+1), from the cache.
func (c *Consts) getPrimeLogs(dst *[mpN]xf, wp uint) {
	src := c.primeLogsSrc(wp)
	for i := range dst {
		primeLogAt(&dst[i], src, i, wp)
	}
}

// primeLogsSrc returns the logarithms of mpPrimes, each within
// 2^-(wp+2): the process-wide table (within 2^-(mpTabBits+2)) up to
// mpTabBits, else the cache's array, computed or extended here. The array
// is read-only: a cache that grows replaces its array, never writes into
// it, so a caller may read it without the lock.
func (c *Consts) primeLogsSrc(wp uint) *[mpN]xf {
	if wp <= mpTabBits {
		mpTabInit()
		return &mpTab
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plPrec < wp {
		p := cachePrec(wp)
		// computePrimeLogs takes ln 2 through c.getLn2, which locks c.mu:
		// compute into a fresh array with the lock released.
		c.mu.Unlock()
		fresh := new([mpN]xf)
		computePrimeLogs(fresh, p, c)
		c.mu.Lock()
		if c.plPrec < p {
			c.pl = fresh
			c.plPrec = p
		}
	}
	return c.pl
}

// primeLogAt sets z to ln p_i from src (primeLogsSrc(wp'), wp' ≥ wp)
// floored to the grid 2^-(wp+1) and returns z: src[i] is within
// 2^-(wp+2), and the floor adds below 2^-(wp+1), so z is within 2^-wp.
func primeLogAt(z *xf, src *[mpN]xf, i int, wp uint) *xf {
	return z.truncOf(&src[i], uint(max(src[i].top()+int64(wp)+1, 1)))
}

// mpSlack bounds the bits mpReduce asks beyond its wp (2 + log2 Σ|e_i|,
// with |x| < 2^33 for Exp: Σ|e_i| < 2^40).
const mpSlack = 48

// primeLogsWorth reports whether the prime logarithms at wp + mpSlack bits
// are at hand (the table or the cache) or worth computing: at the second
// call that asks for them, so that one call with a fresh cache (the
// package-level functions) takes the path that needs only π and ln 2 (read
// from a table up to 2^19 bits), while a caller that keeps its Consts pays
// for them once.
func (c *Consts) primeLogsWorth(wp uint) bool {
	if wp+mpSlack <= mpTabBits {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.plPrec >= wp+mpSlack {
		return true
	}
	c.plAsks++
	return c.plAsks > 1
}

// primeLogs returns ln p_i for every i < mpN, each with an absolute error
// below 2^-wp, on the grid 2^-(wp+1) (positive values: floored).
func (c *consts) primeLogs(wp uint) *[mpN]xf {
	c.wait()
	var l [mpN]xf
	c.cache().getPrimeLogs(&l, wp)
	return &l
}

// mpStage is one stage of the exponent search: an LLL-reduced basis of the
// lattice of rows (u_j, K·γ_j/S) over the stage's generators γ_j.
type mpStage struct {
	gen   [mpN][mpN]int64       // γ_j = Σ_i gen[j][i]·ln p_i
	coef  [mpN][mpN]int64       // reduced basis row j = Σ_k coef[j][k]·(row k)
	row   [mpN][mpN + 1]float64 // reduced basis rows
	star  [mpN][mpN + 1]float64 // their Gram–Schmidt vectors
	norm2 [mpN]float64          // |star_j|²
	scale float64               // K/S: the last coordinate of row j is scale·Σ_k coef[j][k]·γ_k
	// wt, if not nil, measures a row's integer part by the exponents it
	// stands for, Σ_k coef[j][k]·gen[k][i]·wt[i] for i < mpN (the height
	// metric, mpHeightWt), instead of by its coefficients coef[j].
	wt *[mpN]float64
}

// mpTabBits is the precision of the process-wide table of the prime
// logarithms, computed once at first use (under a millisecond) and never
// changed: below it neither a Consts nor a package-level call computes
// them (a cold Exp at 53 bits would otherwise pay 11 atanh series).
const mpTabBits = 4096

var (
	mpLowOnce, mpTabOnce sync.Once
	mpStageOnce          [mpMaxStages]sync.Once
	mpStageTab           [mpMaxStages]*mpStage // nil past the last stage
	mpTab                [mpN]xf               // ln p_i within 2^-(mpTabBits+2), read-only after mpTabInit
	mpLogLow             [mpN]xf               // ln p_i within 2^-(mpLowBits+2), read-only after mpInit
)

// mpInit computes the low-precision logarithms that find the exponents,
// once per process (about 0.1 ms).
func mpInit() {
	mpLowOnce.Do(func() {
		var c Consts
		computePrimeLogs(&mpLogLow, mpLowBits, &c)
		mpLowFixInit()
	})
}

// mpTabInit computes the table of prime logarithms, once per process.
func mpTabInit() {
	mpTabOnce.Do(func() {
		var c Consts
		computePrimeLogs(&mpTab, mpTabBits, &c)
	})
}

// mpStageAt returns stage s's reduced lattice, computed at its first use
// (about 0.4 ms each: a call at 53 bits needs one stage), or nil if the
// stages end before s.
func mpStageAt(s int) *mpStage { return mpStageOf(s, false) }

// mpStageHeightAt is mpStageAt for the lattices reduced in the height
// metric (mpHeightWt): Babai there finds exponents whose rational Π p_i^e_i
// over the odd primes is shorter for the same reach (Exp's P and Q).
func mpStageHeightAt(s int) *mpStage { return mpStageOf(s, true) }

var (
	mpStageHOnce [mpMaxStages]sync.Once
	mpStageHTab  [mpMaxStages]*mpStage
)

// mpHeightWt weighs exponent i by log2 p_i, the bits p_i^|e_i| adds to P
// or Q; 2's power is a shift, nearly free: a small weight keeps the
// lattice full rank.
var mpHeightWt = [mpN]float64{0.25, 1.585, 2.322, 2.807, 3.459, 3.700, 4.087, 4.248, 4.524, 4.858, 4.954, 5.209}

func mpStageOf(s int, height bool) *mpStage {
	if s >= mpMaxStages {
		return nil
	}
	once, tab := &mpStageOnce[s], &mpStageTab[s]
	if height {
		once, tab = &mpStageHOnce[s], &mpStageHTab[s]
	}
	once.Do(func() {
		mpInit()
		var gen [mpN][mpN]int64
		if s == 0 {
			for i := range gen {
				gen[i][i] = 1
			}
		} else {
			prev := mpStageOf(s-1, height)
			if prev == nil {
				return
			}
			// This stage's generators are the previous stage's reduced
			// rows.
			for j := range gen {
				for k := 0; k < mpN; k++ {
					if c := prev.coef[j][k]; c != 0 {
						for i := 0; i < mpN; i++ {
							gen[j][i] += c * prev.gen[k][i]
						}
					}
				}
			}
		}
		var wt *[mpN]float64
		if height {
			wt = &mpHeightWt
		}
		*tab = newStage(&gen, wt)
	})
	return *tab
}

// genValue sets z to Σ_i g[i]·ln p_i at mpLowBits, exactly (the sum of
// the exact products of mpLogLow), by word arithmetic on the logarithms
// aligned to one exponent (mpLowFix): no allocation but z's words.
func genValue(z *xf, g *[mpN]int64) *xf {
	if bits.UintSize != 64 {
		return genValueXf(z, g)
	}
	// Positive and negative terms apart; each term is below 2^(64·
	// mpLowWords+64) and there are mpN < 2^4 of them: mpLowWords+2 words
	// hold either sum.
	var pos, neg [mpLowWords + 2]uint64
	nz := false
	for i, gi := range g {
		if gi == 0 {
			continue
		}
		nz = true
		acc, a := &pos, uint64(gi)
		if gi < 0 {
			acc, a = &neg, -uint64(gi)
		}
		var carry uint64
		for k, w := range mpLowFix[i] {
			hi, lo := bits.Mul64(w, a)
			lo, c := bits.Add64(lo, acc[k], 0)
			hi += c
			lo, c = bits.Add64(lo, carry, 0)
			acc[k] = lo
			carry = hi + c
		}
		for k := mpLowWords; carry != 0; k++ {
			acc[k], carry = bits.Add64(acc[k], carry, 0)
		}
	}
	if !nz {
		return z.setInt64(0)
	}
	// z = pos − neg, as a sign and magnitude.
	var d [mpLowWords + 2]uint64
	sign := 1
	a, b := &pos, &neg
	for k := len(pos) - 1; k >= 0; k-- {
		if pos[k] != neg[k] {
			if pos[k] < neg[k] {
				sign, a, b = -1, &neg, &pos
			}
			break
		}
	}
	var borrow uint64
	for k := range d {
		d[k], borrow = bits.Sub64(a[k], b[k], borrow)
	}
	n := len(d)
	for n > 0 && d[n-1] == 0 {
		n--
	}
	ws := z.m.Bits()
	if cap(ws) < n {
		ws = make([]big.Word, n)
	}
	ws = ws[:n]
	for k := range ws {
		ws[k] = big.Word(d[k])
	}
	z.m.SetBits(ws)
	if sign < 0 {
		z.m.Neg(&z.m)
	}
	z.e = mpLowExp
	return z
}

// genValueXf is genValue by xf arithmetic (32-bit platforms; the reference
// of TestGenValue).
func genValueXf(z *xf, g *[mpN]int64) *xf {
	z.setInt64(0)
	var t xf
	for i, gi := range g {
		if gi != 0 {
			t.mulInt64(&mpLogLow[i], gi, 0)
			z.add(z, &t, 0)
		}
	}
	return z
}

// mpLowWords is the number of 64-bit words of mpLowFix's entries.
const mpLowWords = (mpLowBits + 8 + 8 + 63) / 64

var (
	mpLowFix [mpN][mpLowWords]uint64 // mpLogLow[i] = mpLowFix[i]·2^mpLowExp, read-only after mpInit
	mpLowExp int64
)

// mpLowFixInit sets mpLowFix and mpLowExp from mpLogLow (in mpInit).
func mpLowFixInit() {
	mpLowExp = mpLogLow[0].e
	for i := range mpLogLow {
		mpLowExp = min(mpLowExp, mpLogLow[i].e)
	}
	for i := range mpLogLow {
		var m big.Int
		m.Lsh(&mpLogLow[i].m, uint(mpLogLow[i].e-mpLowExp))
		if m.Sign() < 0 || m.BitLen() > 64*mpLowWords {
			panic("apa: mpLogLow out of mpLowFix's range")
		}
		for k := range mpLowFix[i] {
			var t big.Int
			t.Rsh(&m, uint(64*k))
			mpLowFix[i][k] = t.Uint64() // low 64 bits (32-bit platforms too)
		}
	}
}

// newStage reduces the lattice of the generators gen, or returns nil if
// their entries grow too large for int64 products in later stages.
func newStage(gen *[mpN][mpN]int64, wt *[mpN]float64) *mpStage {
	st := &mpStage{gen: *gen, wt: wt}
	var vals [mpN]float64
	smax := 0.0
	for j := range gen {
		for _, g := range gen[j] {
			if absInt64(g) > 1<<40 {
				return nil
			}
		}
		var v xf
		vals[j] = genValue(&v, &gen[j]).float64()
		smax = max(smax, math.Abs(vals[j]))
	}
	if smax == 0 {
		return nil
	}
	st.scale = math.Ldexp(1/smax, mpStageBits)
	for j := range st.coef {
		st.coef[j][j] = 1
	}
	st.lll(&vals)
	return st
}

// lastCoord returns the exact (to float64) last coordinate of basis row j.
func (st *mpStage) lastCoord(j int) float64 {
	var g [mpN]int64
	for k := 0; k < mpN; k++ {
		if c := st.coef[j][k]; c != 0 {
			for i := 0; i < mpN; i++ {
				g[i] += c * st.gen[k][i]
			}
		}
	}
	var v xf
	return st.scale * genValue(&v, &g).float64()
}

func (st *mpStage) setRows() {
	for j := 0; j < mpN; j++ {
		for k := 0; k < mpN; k++ {
			st.row[j][k] = float64(st.coef[j][k])
		}
		if st.wt != nil {
			var e [mpN]float64
			for k := 0; k < mpN; k++ {
				if c := st.coef[j][k]; c != 0 {
					for i := range e {
						e[i] += float64(c) * float64(st.gen[k][i])
					}
				}
			}
			for i := range e {
				st.row[j][i] = e[i] * st.wt[i]
			}
		}
		st.row[j][mpN] = st.lastCoord(j)
	}
	st.gramSchmidt()
}

func (st *mpStage) gramSchmidt() {
	for j := 0; j < mpN; j++ {
		st.star[j] = st.row[j]
		for k := 0; k < j; k++ {
			mu := dot(&st.row[j], &st.star[k]) / st.norm2[k]
			for i := range st.star[j] {
				st.star[j][i] -= mu * st.star[k][i]
			}
		}
		st.norm2[j] = dot(&st.star[j], &st.star[j])
	}
}

func dot(a, b *[mpN + 1]float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// lll reduces the basis (δ = 0.99) by the textbook algorithm of Lenstra,
// Lenstra and Lovász, recomputing the Gram–Schmidt basis after every change
// (12 dimensions: cheap). The integer part of each row is kept exact in
// coef; the last coordinate is recomputed from 640-bit values after every
// size reduction, so float64 rounding cannot accumulate. Only the quality
// of the reduction depends on float64, never the correctness of a result.
func (st *mpStage) lll(vals *[mpN]float64) {
	st.setRows()
	k := 1
	for iter := 0; k < mpN && iter < 20000; iter++ {
		changed := false
		for j := k - 1; j >= 0; j-- {
			mu := dot(&st.row[k], &st.star[j]) / st.norm2[j]
			q := math.Round(mu)
			if q == 0 {
				continue
			}
			qi := int64(q)
			for i := range st.coef[k] {
				st.coef[k][i] -= qi * st.coef[j][i]
			}
			for i := range st.row[k] {
				st.row[k][i] -= q * st.row[j][i]
			}
			changed = true
		}
		if changed {
			st.row[k][mpN] = st.lastCoord(k)
			st.gramSchmidt()
		}
		mu := dot(&st.row[k], &st.star[k-1]) / st.norm2[k-1]
		if st.norm2[k] >= (0.99-mu*mu)*st.norm2[k-1] {
			k++
			continue
		}
		st.coef[k], st.coef[k-1] = st.coef[k-1], st.coef[k]
		st.row[k], st.row[k-1] = st.row[k-1], st.row[k]
		st.gramSchmidt()
		k = max(k-1, 1)
	}
	st.setRows()
}

// babai returns the multiples m of the stage's generators whose combination
// is nearest t (Babai's nearest plane), t a float64 residual.
func (st *mpStage) babai(t float64) (m [mpN]int64) {
	var y [mpN + 1]float64
	y[mpN] = st.scale * t
	for j := mpN - 1; j >= 0; j-- {
		c := math.Round(dot(&y, &st.star[j]) / st.norm2[j])
		if c == 0 {
			continue
		}
		for i := range y {
			y[i] -= c * st.row[j][i]
		}
		ci := int64(c)
		for k := range m {
			m[k] += ci * st.coef[j][k]
		}
	}
	return m
}

// mpFindExps returns exponents e with |v − Σ e_i·ln p_i| about 2^-R or
// less, found from v's leading bits (|v| < 2^60; ok is false otherwise),
// and the number of bits the reduction reached, measured at 640 bits
// (within 2^-600 of the truth). Each stage gains about 33 bits and
// multiplies the exponents by about 10: at R = 100, |e_i| up to about 2^10,
// at R = 230 about 2^22 (TestMpReduce). A stage that does not shrink the
// residual (already below its reach) is skipped.
func mpFindExps(v *xf, R uint) (e [mpN]int64, reached int64, ok bool) {
	return mpFindExpsWith(v, R, mpStageAt)
}

// mpFindExpsWith is mpFindExps on the stages of stageAt.
func mpFindExpsWith(v *xf, R uint, stageAt func(int) *mpStage) (e [mpN]int64, reached int64, ok bool) {
	mpInit()
	if v.sign() == 0 {
		return e, mpLowBits - 40, true
	}
	if v.top() > 60 {
		return e, 0, false
	}
	// t = v − Σ e_i·ln p_i at 640 bits after the point (v truncated there).
	var vt xf
	vt.truncOf(v, uint(max(v.top()+mpLowBits+8, 1)))
	var gs xf // genValue's result, its words reused from call to call
	residual := func(e *[mpN]int64, t *xf) *xf {
		genValue(&gs, e)
		return t.sub(&vt, &gs, 0)
	}
	var t, nt xf
	e[0] = int64(math.Round(vt.float64() / math.Ln2))
	residual(&e, &t)
	for s := 0; ; s++ {
		if t.sign() == 0 || -t.top() >= int64(R) {
			break
		}
		st := stageAt(s)
		if st == nil {
			break
		}
		m := st.babai(t.float64())
		if m == ([mpN]int64{}) {
			continue // t is already below this stage's reach
		}
		ne := e
		for j, mj := range m {
			if mj == 0 {
				continue
			}
			for i := range ne {
				ne[i] += mj * st.gen[j][i]
			}
		}
		residual(&ne, &nt)
		if nt.sign() != 0 && nt.top() >= t.top() {
			continue // no gain (float64 rounding near the stage's limit)
		}
		e = ne
		t.set(&nt)
	}
	if t.sign() == 0 {
		return e, mpLowBits - 40, true
	}
	return e, -t.top(), true
}

// mpReduction is the result of mpReduce.
type mpReduction struct {
	e      [mpN]int64 // exponents: v = Σ e_i·ln p_i + r
	r      xf         // r, to the grid 2^-(wp+1)
	rTop   int64      // |r| < 2^rTop (r ≠ 0), and |v − Σ e_i·ln p_i| < 2^rTop + 2^errExp
	errExp int64      // |r − (v − Σ e_i·ln p_i)| < 2^errExp
	sumE   int64      // Σ |e_i|
}

// mpReduce sets red to the reduction of v (taken as exact, |v| < 2^60) by
// the exponents of mpFindExps(v, R): red.r = v − Σ e_i·ln p_i with an
// absolute error below 2^-wp (red.errExp = −wp). It returns false if |v|
// is too large.
//
// Error: the logarithms come from the cache to w = wp + 2 + log2(Σ|e_i|)
// bits after the point, each within 2^-w, on the grid 2^-(w+1); the
// products e_i·L_i and their sum with v are exact, so the sum is within
// Σ|e_i|·2^-w ≤ 2^(−wp−2) of v − Σ e_i·ln p_i, v's bits below 2^-(w+2)
// dropped add below 2^(−wp−4), truncating toward zero to the grid
// 2^-(wp+1) adds below 2^-(wp+1): below 2^-wp in all.
func mpReduce(red *mpReduction, v *xf, R, wp uint, c *consts) bool {
	return mpReduceWith(red, v, R, wp, c, mpStageAt)
}

// mpReduceWith is mpReduce with the exponents of mpFindExpsWith(v, R,
// stageAt).
func mpReduceWith(red *mpReduction, v *xf, R, wp uint, c *consts, stageAt func(int) *mpStage) bool {
	e, _, ok := mpFindExpsWith(v, R, stageAt)
	if !ok {
		return false
	}
	red.e = e
	red.sumE = 0
	for _, ei := range e {
		red.sumE += absInt64(ei)
	}
	w := wp + 2 + uint(bits.Len64(uint64(red.sumE)))
	var s, t xf
	// v's bits below 2^-(w+2) are dropped: below 2^-(w+2) ≤ 2^-(wp+4).
	s.truncOf(v, uint(max(v.top()+int64(w)+2, 1)))
	if red.sumE == absInt64(e[0]) {
		// Only ln 2 (or nothing: |v| tiny): from the π/ln 2 cache or
		// table, within 0.7·2^-w (relative 2^-(w+2)); no prime logs.
		if e[0] != 0 {
			t.mulInt64(c.getLn2(w+2), e[0], 0)
			s.sub(&s, &t, 0)
		}
	} else {
		c.wait()
		src := c.cache().primeLogsSrc(w)
		s.sub(&s, primeLogSum(&t, src, &e, w), 0)
	}
	red.r.truncOf(&s, uint(max(s.top()+int64(wp)+1, 1)))
	if g := -int64(wp) - 1; red.r.sign() != 0 && red.r.e < g {
		red.r.toGrid(g) // an r with few bits (v short): floors, below 2^g
	}
	red.errExp = -int64(wp)
	red.rTop = red.r.top()
	if red.r.sign() == 0 {
		red.rTop = -int64(wp)
	}
	return true
}

// primeLogSum sets z to Σ e_i·L_i, each ln p_i of src floored to the grid
// 2^-(w+1) as primeLogAt does, exactly, and returns z: the positive and the
// negative multiples summed in one fused shift·word·add pass each over the
// words of ln p_i (addMulShr: no copy of L_i, no product).
func primeLogSum(z *xf, src *[mpN]xf, e *[mpN]int64, w uint) *xf {
	var pos, neg, t, Li xf
	g := -int64(w) - 1
	pos.e, neg.e = g, g
	z.setInt64(0)
	for i, ei := range e {
		if ei == 0 {
			continue
		}
		acc := &pos
		if ei < 0 {
			acc = &neg
		}
		if L := &src[i]; L.e <= g && L.m.Sign() > 0 {
			addMulShr(&acc.m, &L.m, uint(g-L.e), uint64(absInt64(ei)))
		} else { // a coarser value (not met: the cache holds w+2 bits or more)
			t.mulInt64(primeLogAt(&Li, src, i, w), ei, 0)
			z.add(z, &t, 0)
		}
	}
	z.add(z, &pos, 0)
	return z.sub(z, &neg, 0)
}

// mpPowProd sets z to Π p_i^|e_i| over the i with sign·e_i > 0 (z = 1 if
// there are none) and returns k such that the relative error of z is below
// 2^k; exact reports whether z is exact (k is then meaningless).
//
// It powers all the primes at once, from the top bit of the largest
// exponent down: z ← z²·Π{p_i : bit b of |e_i| set}, the product of the
// primes a single word (2·3·…·37 < 2^43). Each step truncates to w = wp +
// L + 4 bits, L the number of steps: a square with truncated operands and
// result is within 6·2^-w relative (xf.mul: 3 ulps of w bits), the product
// by the word within 2^(1−w) more; so the relative error ε obeys ε_{b+1} ≤
// 2ε_b + ε_b² + 8·2^-w, ε_L ≤ 2^(L+3.1−w) while that stays below 2^-8:
// below 2^(−wp) in all. While z is shorter than w bits nothing is
// truncated and z is exact.
func mpPowProd(z *xf, e *[mpN]int64, sign int, wp uint) (k int64, exact bool) {
	var ex [mpN]uint64
	var top uint64
	for i, ei := range e {
		if (sign > 0 && ei > 0) || (sign < 0 && ei < 0) {
			ex[i] = uint64(absInt64(ei))
			top |= ex[i]
		}
	}
	z.setInt64(1)
	L := bits.Len64(top)
	w := wp + uint(L) + 4
	exact = true
	for b := L - 1; b >= 0; b-- {
		if z.m.BitLen() > 1 {
			z.mul(z, z, w)
		}
		word := uint64(1)
		for i, x := range ex {
			if x>>uint(b)&1 != 0 {
				word *= uint64(mpPrimes[i])
			}
		}
		if word != 1 {
			mulWordInPlace(&z.m, word)
			z.trunc(w)
		}
		if exact && z.m.BitLen() >= int(w) {
			exact = false
		}
	}
	return -int64(wp), exact
}
