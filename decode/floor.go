// This file computes lower bounds on the queries of any multi-query
// attack against a scorer model (the information floor), and of the block
// codes among them; doc.go's "How far from the floor" explains them.

package decode

import (
	"context"
	"errors"
	"math"
	"math/big"
)

// Floor holds lower bounds on the queries that recover N labels of K
// classes from a noise-free scorer model, each for a class of attacks
// (see doc.go, "How far from the floor"):
//
//   - AnyCode, for every attack, adaptive or not: no query can answer
//     more than ScoreBits bits.
//   - BlockCount, for every block code: a query whose other unknown
//     points are neutral answers at most the number of scores its block's
//     sums can reach; for a score rounded to decimals, at most what the
//     variance bound on distinct rounding steps allows (roundedFits).
//   - BlockSeparated, for every block code whose block sums must lie at
//     least one reported spacing apart (ours: its brackets must not
//     overlap), by the Erdős–Moser variance bound and, for K = 2,
//     Frenkel's bound.
//
// The bounds are optimistic on purpose (every rounding in the attack's
// favour), so each is a true lower bound for its class.
type Floor struct {
	N, K int
	// ScoreBits is log2 of the number of scores the server can report
	// for some labeling: the values of the format (or of its decimals) in
	// [tmin, tmax], tmin and tmax the smallest and largest term one point
	// can give.
	ScoreBits float64
	// AnyCode is ⌈N·log2 K / ScoreBits⌉.
	AnyCode int
	// BlockCount and BlockSeparated are the queries of the best block
	// code in each class: blocks as large as the class allows, one after
	// the other, known points at their smallest term.
	BlockCount, BlockSeparated int
	// FirstCount, FirstSeparated are the largest first blocks (labels in
	// the first query, all N unknown) of each class.
	FirstCount, FirstSeparated int
	// AnyBackground (and BackgroundBits, what the first query can carry)
	// is AnyCode with the scores that only few labelings can reach left
	// out, for every code on its worst labeling: with c labelings left,
	// at most e^s of them have an exact sum below s (the rows' product
	// measure, Gibbs's inequality counted), so all but a few get a score
	// at or above about ln c/N, and only the reportable scores from there
	// to tmax count (see backgroundFloor). It is at least AnyCode. Unlike
	// AnyCode it counts the background of the unknown points' terms,
	// which keeps a score in a few binades.
	AnyBackground  int
	BackgroundBits float64
	// TMin, TMax and TNeutral are the smallest and largest term of one
	// point and the neutral (uniform) row's term; W = TMax − TMin bounds
	// what one point's label moves the sum.
	TMin, TMax, TNeutral float64
}

// FloorMulti returns the floors of opt's model for opt.N labels of opt.K
// classes (opt's strategy is ignored). It returns an error for a model
// with noise, whose scores carry fewer bits than the format's.
func FloorMulti(ctx context.Context, opt MultiOptions) (*Floor, error) {
	a, tmin, err := floorState(opt)
	if err != nil {
		return nil, err
	}
	tn, _ := a.neutral.t[0].Float64()
	f := &Floor{N: a.n, K: a.k, TMin: tmin, TMax: a.tTop, TNeutral: tn}
	w := f.TMax - f.TMin
	lk := math.Log2(float64(a.k))
	f.ScoreBits = a.log2Values(f.TMin, f.TMax)
	f.AnyCode = int(math.Ceil(float64(a.n) * lk / f.ScoreBits))
	n := float64(a.n)
	// largest memoizes Frenkel's lower bound C(kb−1, ⌊(kb−1)/2⌋) [Fre98]
	// on max_j w_j/δ for kb reals w_j whose 2^kb subset sums are pairwise
	// at least δ apart (the proof holds for real weights with gap δ; see
	// subsetsum.MinLargestBound), a binomial in big.Int asked for at
	// every block size of every query.
	largest := map[int]float64{}
	// s0 is the smallest sum of the terms outside a block of kb points
	// with nUnk unknown: the others neutral, the known ones at tmin.
	s0 := func(nUnk, kb int) float64 {
		return float64(nUnk-kb)*f.TNeutral + float64(a.n-nUnk+kb)*f.TMin
	}
	// fitsCount: K^kb labelings need K^kb reportable scores among those
	// the block's sums can reach, in [s0, s0 + kb·W] (divided by N), and
	// for a score rounded to decimals K^kb distinct steps of N·10^−D
	// (roundedFits).
	fitsCount := func(nUnk, kb int) bool {
		lo := s0(nUnk, kb)
		if a.m.Decimals >= 0 && !roundedFits(kb, a.k, w, n*math.Pow(10, -float64(a.m.Decimals))) {
			return false
		}
		return float64(kb)*lk <= a.log2Values(lo/n, (lo+float64(kb)*w)/n)
	}
	// fitsSep: sums at least δ apart, δ the smallest spacing of reported
	// scores at or above the smallest sum, times N: the variance bound
	// K^(2kb) ≤ 1 + 3·kb·(W/δ)², and for K = 2 max weight ≥ δ·L(kb).
	p, emin := a.precEmin()
	fitsSep := func(nUnk, kb int) bool {
		_, e := math.Frexp(s0(nUnk, kb) / n)
		sp := math.Ldexp(1, max(e-1, emin)-p+1)
		if a.m.Decimals >= 0 {
			sp = max(sp, math.Pow(10, -float64(a.m.Decimals)))
		}
		r := w / (n * sp)
		if 2*float64(kb)*lk > math.Log2(1+3*float64(kb)*r*r) {
			return false
		}
		if a.k == 2 && largest[kb] == 0 { // a binomial is at least 1
			largest[kb], _ = new(big.Float).SetInt(new(big.Int).Binomial(int64(kb-1), int64((kb-1)/2))).Float64()
		}
		return a.k > 2 || largest[kb] <= r
	}
	if f.FirstCount, f.BlockCount, err = blockWalk(ctx, a.n, fitsCount, nil); err != nil {
		return nil, err
	}
	if f.FirstSeparated, f.BlockSeparated, err = blockWalk(ctx, a.n, fitsSep, nil); err != nil {
		return nil, err
	}
	if f.AnyBackground, f.BackgroundBits, err = a.backgroundFloor(ctx, f); err != nil {
		return nil, err
	}
	return f, nil
}

// roundedFits reports whether a block code can decode kb labels of K
// classes from one score whose N·score is reported in steps of delta
// (δ = N·10^−D for a mean rounded to D decimals), one point moving the
// sum by at most w (ln((1−ε)/ε) for a clip at ε). A block code decodes
// its kb labels from their one score with every other point's term
// fixed, so the reported value is f = round((c + s)/δ) for a constant c
// and the block's sum s, and the K^kb block labelings need K^kb distinct
// integers f. Under uniform labels those have variance at least
// (K^(2kb) − 1)/12, while f = (c + s)/δ − φ with |φ| ≤ 1/2 has deviation
// at most sd(s)/δ + 1/2 ≤ √kb·w/(2δ) + 1/2 (Popoviciu: each of the kb
// independent terms lies in an interval of width w): the Erdős–Moser
// variance argument [Fre98] with the rounding's offset added (the float
// summation moves s by far less than δ). Choosing the offset c does not
// help: it is already free in the bound. For the 1e−15 clip at 5
// decimals it allows 16 binary labels at N = 198, 9 at N = 25,000.
func roundedFits(kb, k int, w, delta float64) bool {
	lhs := 0.5*math.Log2(math.Exp2(2*float64(kb)*math.Log2(float64(k)))-1) - 0.5*math.Log2(12)
	return lhs <= math.Log2(math.Sqrt(float64(kb))*w/(2*delta)+0.5)
}

// log2Values returns log2 of (an upper bound on) the number of scores the
// server can report in [x, y], 0 ≤ x ≤ y: values of the model's format
// (binary, p bits of significand: a binade [2^e, 2^(e+1)) holds 2^(p−1)
// values, spaced 2^(e−p+1)), or multiples of 10^−D for a score rounded to
// D decimals, whichever is fewer.
func (a *multi) log2Values(x, y float64) float64 {
	// Widen by the sum's relative error: the attack's own rounding might
	// reach just outside [x, y].
	x, y = x*(1-0x1p-20), y*(1+0x1p-20)
	p, emin := a.precEmin()
	_, ey := math.Frexp(y) // y < 2^ey
	ey--
	// All the binades from x's (or the subnormals') to y's.
	ex := emin - 1
	if x > 0 {
		_, e := math.Frexp(x)
		ex = max(e-1, emin-1)
	}
	v := math.Log2(float64(ey-ex+1)) + float64(p-1)
	if x > 0 && ex == ey {
		// One binade: (y − x)/spacing + 1.
		v = min(v, math.Log2((y-x)/math.Ldexp(1, ex-p+1)+1))
	}
	return a.capDecimals(v, x, y)
}

// capDecimals returns v, or for a score rounded to decimals log2 of the
// multiples of 10^−D in [x, y] if that is less.
func (a *multi) capDecimals(v, x, y float64) float64 {
	if a.m.Decimals < 0 {
		return v
	}
	p := math.Pow(10, float64(a.m.Decimals))
	return min(v, math.Log2(math.Floor(y*p)-math.Ceil(x*p)+1))
}

// log2Count is log2Values with the values of a window that straddles
// binades counted binade by binade (log2Values counts whole binades).
func (a *multi) log2Count(x, y float64) float64 {
	x, y = x*(1-0x1p-20), y*(1+0x1p-20)
	p, emin := a.precEmin()
	var cnt float64
	for lo := x; lo < y; {
		_, e := math.Frexp(lo) // lo in [2^(e−1), 2^e)
		e = max(e, emin)
		hi := min(y, math.Ldexp(1, e))
		if lo <= 0 {
			hi = min(y, math.Ldexp(1, emin))
		}
		cnt += (hi-lo)/math.Ldexp(1, max(e-1, emin)-p+1) + 1
		lo = hi
	}
	return a.capDecimals(math.Log2(max(cnt, 1)), x, y)
}

// precEmin returns the significand bits and least normal exponent of the
// model's score (an exact server: Prec bits, and float64's range, which
// holds every score a float64 prediction gives).
func (a *multi) precEmin() (p, emin int) {
	if a.m.Exact {
		return int(a.m.Prec), -1022
	}
	return int(a.m.Loss.Format.Prec()), int(a.m.Loss.Format.Emin())
}

// blockWalk walks an attack on n points whose every block is the largest
// kb with fits(nUnk, kb) (a prefix of the sizes; at least 1), then
// more(nUnk, kb) if more is not nil, nUnk the points left before it: it
// returns the first block's size and the number of blocks, or ctx's
// error.
func blockWalk(ctx context.Context, n int, fits func(nUnk, kb int) bool, more func(nUnk, kb int) int) (first, count int, err error) {
	for nUnk := n; nUnk > 0; count++ {
		if count%1024 == 0 && ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		kb := 1
		for kb < nUnk && fits(nUnk, kb+1) {
			kb++
		}
		if more != nil {
			kb = more(nUnk, kb)
		}
		if nUnk == n {
			first = kb
		}
		nUnk -= kb
	}
	return first, count, nil
}

// floorState returns the state the floors read for opt's model (no
// emulation, no strategy's setup) and the least term of a point at its
// label's row; an error for a model with noise.
func floorState(opt MultiOptions) (a *multi, tmin float64, err error) {
	if opt.Noise.Kind != 0 {
		return nil, 0, errors.New("decode: the information floor is for noise-free scorers")
	}
	opt.NoEmulation = true
	opt.Strategy = Primes // no setup work
	if a, err = newMulti(opt.N, opt.K, opt); err != nil {
		return nil, 0, err
	}
	tmin = math.Inf(1)
	for c := range a.k {
		v, _ := a.known[c].t[c].Float64()
		tmin = min(tmin, v)
	}
	return a, tmin, nil
}
