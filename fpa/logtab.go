package fpa

// This file holds the fast path of Log and Log1p for formats of 121 to
// logFixMax bits (a 1,000-bit format among them): a table-driven argument
// reduction in fixed point on big.Int, then a short Taylor series, with
// the table's logarithms and ln 2 computed once; the result is accepted
// when its error interval decides the round-to-odd value at Prec+2 bits
// (Ziv's test [Ziv91]), otherwise the caller falls back to apa.
//
// The reduction is the multiplicative, table-driven one of Wong and Goto
// [Muller16, ch. 6]: v = 2^e·m, m ∈ [1, 2); level 0 multiplies m
// by c = N/2^16 ≈ 1/(1 + k/256) (a 17-bit integer N, k = round((m−1)·256)),
// leaving |m·c − 1| < 2^−8.9; level i ≥ 1 multiplies the current 1+d by
// 1 − k·2^−J, J = 8i+8, k = round(d·2^J), leaving |d| < 2^−J (below
// 2^−(J+1)+|k|·2^−J·|d|); each multiplication is by a small integer, O(n),
// and ln m = ln(1+d) − ln c − Σ ln(1 − k·2^−J) with the logarithms looked
// up. After logTabLevels levels, |d| < 2^−(8·logTabLevels+8), and ln(1+d)
// = d − d²/2 + d³/3 − … needs about G/(8·logTabLevels+8) terms.

import (
	"math"
	"math/big"
	"math/bits"
	"sync/atomic"
)

const (
	// logTabLevels is the number of reduction levels after level 0;
	// level i cancels 8 bits of d, to |d| < 2^−(8i+8).
	logTabLevels = 14
	// logTabK bounds |k| in levels ≥ 1 (the analysis gives |k| ≤ 256; a
	// larger k makes setLogFix report false).
	logTabK = 512
	// logTabBits is the number of fraction bits of the stored logarithms
	// (the working precision G ≤ logFixMax+2+72+31 stays below it).
	logTabBits = expFixLn2Bits
)

// logTab holds ⌊ln c·2^logTabBits⌋-like fixed-point logarithms, computed
// on first use: level 0 at index k ∈ [0, 256], ln(N_k/2^16); level i ≥ 1
// at index k+logTabK, ln(1 − k·2^−(8i+8)).
var logTab [logTabLevels + 1][2*logTabK + 1]atomic.Pointer[big.Int]

// logTabN returns level 0's multiplier N_k = round(2^24/(256+k)), in
// [2^15, 2^16].
func logTabN(k int64) int64 { return (1<<25/(256+k) + 1) / 2 }

// logTabEntry returns the stored logarithm of level i at k, computing it
// on first use (concurrent first uses compute the same value). Its error is
// below 2^(11−logTabBits): each series term is truncated (one unit), and
// there are fewer than 800 terms.
func logTabEntry(i int, k int64) *big.Int {
	idx := k
	if i > 0 {
		idx += logTabK
	}
	if p := logTab[i][idx].Load(); p != nil {
		return p
	}
	S, P, t, nb := new(big.Int), new(big.Int), new(big.Int), new(big.Int)
	if i == 0 {
		// ln(N/2^16) = 2·atanh(a/b), a = N − 2^16, b = N + 2^16, |a/b| ≤ 1/3:
		// Σ (a/b)^(2n+1)/(2n+1).
		N := logTabN(k)
		a, b := N-1<<16, N+1<<16
		P.Lsh(bigOne, logTabBits)
		P.Mul(P, big.NewInt(a))
		P.Quo(P, big.NewInt(b))
		a2, b2 := big.NewInt(a*a), big.NewInt(b*b)
		for n := int64(1); P.Sign() != 0; n += 2 {
			S.Add(S, t.Quo(P, nb.SetInt64(n)))
			P.Mul(P, a2)
			P.Quo(P, b2)
		}
		S.Lsh(S, 1)
	} else {
		// ln(1 − u) = −Σ u^n/n, u = k·2^−J, |u| ≤ 2^−7.
		J := uint(8*i + 8)
		kb := big.NewInt(k)
		P.Lsh(kb, logTabBits-J)
		for n := int64(1); P.Sign() != 0; n++ {
			S.Sub(S, t.Quo(P, nb.SetInt64(n)))
			P.Mul(P, kb)
			P.Rsh(P, J)
		}
	}
	logTab[i][idx].Store(S)
	return S
}

// logTabAt adds or subtracts (sub) the stored logarithm of level i at k,
// cut to G fraction bits, to R.
func logTabAt(R, tmp *big.Int, i int, k int64, G int64, sub bool) {
	tmp.Rsh(logTabEntry(i, k), uint(logTabBits-G))
	if sub {
		R.Sub(R, tmp)
	} else {
		R.Add(R, tmp)
	}
}

// logFixMax bounds the formats of the table-driven logarithm (its
// working precision must stay below logTabBits).
const logFixMax = expFixMax

// logFixArg reports whether the table-driven logarithm applies to z's
// format: wider than the ln128 path, at most logFixMax bits.
func (z *Float) logFixArg() bool {
	p := z.f.Prec()
	return p > ln128Max && p <= logFixMax
}

// setLogFix sets z to ln v for an exact v > 0 whose logarithm is an
// irrational number with |ln v| ≥ 2^−20, if the computed value decides
// the rounding; it reports false, leaving z alone, otherwise.
//
// Everything runs in fixed point with G = q+72+max(len(|e|), 8) fraction
// bits, q = Prec+2, v = 2^e·m. The absolute error, in units u = 2^−G: 1 for
// m's truncation to G bits; about 1 for each of the 15 levels' truncated
// products (1+d stays within 1 ± 2^−8); 1 for each of the 15 looked-up
// logarithms; |e| for e·ln 2 (ln 2 truncated to G bits); 3 for each of the
// fewer than 20 series terms (as expCore's: the cut multiplier and the
// truncated product and quotient), and below 1 for the tail after the last
// nonzero term. In all below (|e|+130)·u ≤ 2^(max(len(|e|),8)+1−G), that is
// below 2^−(q+51) relative to |ln v| ≥ 2^−20; the test takes a radius of
// 2^−(q+32).
func (z *Float) setLogFix(v *big.Float) bool {
	q := int64(z.oddPrec())
	vm, ve := bigParts(v) // v = vm·2^ve
	n := int64(vm.BitLen())
	e := ve + n - 1 // v = 2^e·m, m = vm/2^(n−1) ∈ [1, 2)
	ea := e
	if ea < 0 {
		ea = -ea
	}
	G := q + 72 + max(int64(bits.Len64(uint64(ea))), 8)
	if G >= logTabBits {
		return false
	}
	// A float64 estimate of ln v keeps out arguments too near 1.
	mf, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(vm), int(-(n - 1))).Float64()
	if y0 := math.Log(mf) + float64(e)*math.Ln2; math.Abs(y0) < 0x1p-19 {
		return false
	}
	// Y = m·2^G, truncated.
	Y := new(big.Int)
	if sh := G - (n - 1); sh >= 0 {
		Y.Lsh(vm, uint(sh))
	} else {
		Y.Rsh(vm, uint(-sh))
	}
	R := new(big.Int).Mul(expFixLn2At(G), big.NewInt(e)) // e·ln 2
	tmp, D, kb := new(big.Int), new(big.Int), new(big.Int)
	one := new(big.Int).Lsh(bigOne, uint(G))
	// Level 0: k = round((m−1)·256), Y ← Y·N_k/2^16, ln m = ln Y − ln(N_k/2^16).
	k := tmp.Rsh(tmp.Add(Y, tmp.Lsh(bigOne, uint(G-9))), uint(G-8)).Int64() - 256
	Y.Mul(Y, kb.SetInt64(logTabN(k)))
	Y.Rsh(Y, 16)
	logTabAt(R, tmp, 0, k, G, true)
	// Levels 1…: k = round(d·2^J), Y ← Y − Y·k·2^−J.
	for i := 1; i <= logTabLevels; i++ {
		J := int64(8*i + 8)
		D.Sub(Y, one)
		k := tmp.Rsh(tmp.Add(D, tmp.Lsh(bigOne, uint(G-J-1))), uint(G-J)).Int64()
		if k == 0 {
			continue
		}
		if k > logTabK || k < -logTabK {
			return false
		}
		tmp.Mul(Y, kb.SetInt64(k))
		Y.Sub(Y, tmp.Rsh(tmp, uint(J)))
		logTabAt(R, tmp, i, k, G, true)
	}
	// ln(1+d) = d − d²/2 + d³/3 − …, d = D·2^−G.
	D.Sub(Y, one)
	if D.BitLen() > int(G)-8*logTabLevels-8 {
		return false // the reduction did not reach |d| < 2^−(8L+8)
	}
	R.Add(R, D)
	P, Dj, nb := new(big.Int).Set(D), new(big.Int), new(big.Int)
	for j := int64(2); P.Sign() != 0; j++ {
		// P·D·2^−G with D cut to the bits that reach the units.
		c := max(0, G-int64(P.BitLen())-4)
		tmp.Mul(P, Dj.Rsh(D, uint(c)))
		P.Rsh(tmp, uint(G-c))
		tmp.Quo(P, nb.SetInt64(j))
		if j%2 == 0 {
			R.Sub(R, tmp)
		} else {
			R.Add(R, tmp)
		}
	}
	return z.setDecided(new(big.Float).SetInt(R), -G, int(q+32))
}
