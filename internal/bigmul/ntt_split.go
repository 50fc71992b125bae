// This file implements the split convolution of length 3n/2: a product
// modulo X^n − 1 and one modulo X^(n/2) − i, joined by the Chinese
// remainder theorem for polynomials.

package bigmul

import "math/big"

// splitTables holds, for one prime and one cyclic length n (h = n/2), the
// constants of convSplit: i = ζ^h, a primitive 4th root of unity, with its
// Shoup quotient, and ζ and ζ^−1 in Montgomery form (times 2^64 mod p), ζ
// a primitive 2n-th root of unity. The twist factors ζ^±j are generated
// as the folds and joins walk j (one Montgomery product each), not
// tabulated: a table of them per length held 4·h words per prime for
// every length ever used, a fifth of the live heap of the exact single
// query at N = 10^6, for a linear pass that is a small part of a product.
type splitTables struct {
	i, ip       uint64
	zetaM, zinM uint64 // ζ·2^64 mod p, ζ^−1·2^64 mod p
}

// newSplitTables computes q's constants for the cyclic length n (a power
// of two ≥ 2 dividing (p−1)/2).
func (q *prime) newSplitTables(n int) *splitTables {
	p := q.p
	h := n / 2
	zeta := q.powMod(q.g, (p-1)/uint64(2*n))
	zinv := q.powMod(zeta, p-2)
	st := &splitTables{i: q.powMod(zeta, uint64(h))}
	st.ip = shoupPre(st.i, p)
	st.zetaM = q.mulMont(zeta, q.r2)
	st.zinM = q.mulMont(zinv, q.r2)
	return st
}

// addMod and subMod are a ± b mod p for a, b < p.
func addMod(a, b, p uint64) uint64 {
	s := a + b
	if s >= p {
		s -= p
	}
	return s
}

func subMod(a, b, p uint64) uint64 {
	if a >= b {
		return a - b
	}
	return a - b + p
}

// halfMod returns a/2 mod p for a < p (p odd).
func halfMod(a, p uint64) uint64 {
	if a&1 == 0 {
		return a >> 1
	}
	return a>>1 + p>>1 + 1
}

// splitFold turns a[0 : n+h], the pieces P_j of an operand (values in
// [0, 4p), h = n/2), into a[0:n] = P mod X^n − 1 and a[n:n+h] = the
// twisted residue (P mod X^h − i)(ζ·Y), whose cyclic convolutions of
// length n and h the transforms compute. X^n ≡ 1 folds P_(n+j) onto P_j;
// X^h ≡ i folds P_(h+j) and P_(n+j) = P_(2h+j) onto P_j with factors i and
// i² = −1; the twist multiplies coefficient j by ζ^j, since (ζY)^h = i.
// Values out are in [0, 2p).
func (q *prime) splitFold(a []uint64, n int, st *splitTables) {
	p := q.p
	h := n / 2
	lo, mid, hi := a[:h], a[h:n], a[n:n+h]
	mid, hi = mid[:len(lo)], hi[:len(lo)]
	if useAVX512 && stageAsm && h%8 == 0 {
		splitFoldAVX512(lo, mid, hi, q.splitTable(st, false))
		return
	}
	z := q.w64 // ζ^j·2^64 mod p
	for j, u := range lo {
		u = reduce4(u, p)
		v := reduce2(mulShoup(mid[j], st.i, st.ip, p), p)
		w := reduce4(hi[j], p)
		c := subMod(addMod(u, v, p), w, p)
		hi[j] = q.mulMont(c, z) // c·ζ^j
		z = q.mulMont(z, st.zetaM)
		lo[j] = addMod(u, w, p)
	}
}

// splitJoin rebuilds the n + h coefficients of the product from a[0:n] =
// n·2^−64·(product mod X^n − 1) and a[n:n+h] = h·2^−64·(twisted product
// mod Y^h − 1), both in [0, 2p) as the inverse transforms leave them. With
// A the first residue and B = 2·ζ^−j·a[n+j] the second one, both at the
// scale n·2^−64, the product is A + (X^n − 1)·U with U = (A mod (X^h − i)
// − B)/2, since X^n − 1 ≡ i² − 1 = −2 modulo X^h − i. The result, in
// [0, p) at the scale n·2^−64, replaces a.
func (q *prime) splitJoin(a []uint64, n int, st *splitTables) {
	p := q.p
	h := n / 2
	lo, mid, hi := a[:h], a[h:n], a[n:n+h]
	mid, hi = mid[:len(lo)], hi[:len(lo)]
	if useAVX512 && stageAsm && h%8 == 0 {
		splitJoinAVX512(lo, mid, hi, q.splitTable(st, true))
		return
	}
	z := q.w64 // ζ^−j·2^64 mod p
	for j, x := range lo {
		x = reduce2(x, p)
		y := reduce2(mid[j], p)
		// B/2 = ζ^−j·a[n+j]; a[n+j] < 2p, and 2p·p < p·2^64 is within
		// Montgomery's range.
		b2 := q.mulMont(hi[j], z)
		z = q.mulMont(z, st.zinM)
		ared := addMod(x, reduce2(mulShoup(y, st.i, st.ip, p), p), p)
		u := subMod(halfMod(ared, p), b2, p)
		lo[j] = subMod(x, u, p)
		mid[j] = y
		hi[j] = u
	}
}

// convSplit is conv for a split plan (pl.h = pl.n/2): it leaves in
// buf[i·L : (i+1)·L], L = n + h, the n + h coefficients of the product of
// the pieces of x and y (y == nil: x²) modulo prime i, scaled by n·2^−64
// as conv's.
func convSplit(buf []uint64, x, y []big.Word, pl nttPlan) {
	n, h := pl.n, pl.h
	L := n + h
	pieces3([3][]uint64{buf[:L], buf[L : 2*L], buf[2*L : 3*L]}, x, pl.b)
	var by *[]uint64
	if y != nil {
		by = getBuf(3 * L)
		defer bufPool.Put(by)
		b := *by
		pieces3([3][]uint64{b[:L], b[L : 2*L], b[2*L : 3*L]}, y, pl.b)
	}
	runPrimes(n, func(i int) {
		q := primes3[i]
		r := q.newSplitTables(n)
		a := buf[i*L : (i+1)*L]
		t := q.table(n)
		q.splitFold(a, n, r)
		q.forward(a[:n], t)
		q.forward(a[n:], t)
		if y == nil {
			q.square(a)
		} else {
			b := (*by)[i*L : (i+1)*L]
			q.splitFold(b, n, r)
			q.forward(b[:n], t)
			q.forward(b[n:], t)
			q.pointwise(a, b)
		}
		q.inverse(a[:n], t)
		q.inverse(a[n:], t)
		q.splitJoin(a, n, r)
	})
}

// splitTable returns the constants of splitFoldAVX512 (inv false) or
// splitJoinAVX512 (inv true), each over 8 words: p, 2p, 2^32 − 1, p^−1
// mod 2^64, p>>32, i with its Shoup quotient and the quotient>>32, the
// twist factors ζ^±k·2^64 mod p of lanes k < 8, the step ζ^±8·2^64 mod
// p, (p+1)/2 and 1 (for halving).
func (q *prime) splitTable(st *splitTables, inv bool) *[12 * 8]uint64 {
	var t [12 * 8]uint64
	zm := st.zetaM
	if inv {
		zm = st.zinM
	}
	z := q.w64
	for k := range 8 {
		t[8*8+k] = z
		z = q.mulMont(z, zm)
	}
	vals := [12]uint64{q.p, 2 * q.p, 1<<32 - 1, q.pinv, q.p >> 32, st.i, st.ip, st.ip >> 32, 0, z, (q.p + 1) / 2, 1}
	for k, v := range vals {
		if k == 8 {
			continue
		}
		for l := range 8 {
			t[8*k+l] = v
		}
	}
	return &t
}
