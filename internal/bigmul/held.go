// This file implements an operand held in transform form across products.

package bigmul

import (
	"math/big"
	"math/bits"
)

// Held is a non-negative integer A kept as its number-theoretic transform,
// for a sequence of products A·y in which A itself grows by the operands:
// [Held.MulAdd] sets z = A·y and then A ← A + y. The transform is linear,
// so the new A's transform is the sum of the two transforms, and each step
// pays for the transforms of y and of the product only: two of a product's
// three. The arithmetic-geometric mean is the use: a' = a + b (the mean
// unhalved, scaled by 2 per step) and the product a·b for b' = 2√(ab).
//
// The sum's pieces are not carried: after k additions a coefficient of A is
// below (k+1)·2^b, not 2^b, so the transform is planned with g bits of
// headroom (at most 2^g − 1 additions) and the pieces are narrower by g/2
// bits than [Mul]'s. A Held is for one goroutine.
type Held struct {
	pl         nttPlan
	buf        []uint64 // 3·coeffs: prime i's transform at [i·L, (i+1)·L)
	ab, yb     uint     // A's bit length bound, and the widest y planned
	adds, maxK int      // additions so far, and the most the headroom allows
}

// heldGrowth is the headroom of a Held, in bits: up to 31 additions.
const heldGrowth = 5

// NewHeld returns A = x held in transform form for products by operands
// of at most yb bits while A stays below xb bits (xb ≥ bits(x)), or nil
// when Mul would not multiply such operands by one transform (below the
// transform's size, math/big and Toom are faster; then multiply with
// [Mul]). x must be non-negative.
func NewHeld(x *big.Int, xb, yb uint) *Held {
	if x.Sign() < 0 {
		panic("bigmul: NewHeld needs x ≥ 0")
	}
	if bits.UintSize != 64 || min(xb, yb) < uint(nttMinWords)*64 || uint(x.BitLen()) > xb {
		return nil
	}
	// Only where Mul itself would take one transform, and the headroom
	// leaves the plan within half again of Mul's (MulAdd pays two thirds).
	st, mpl, _ := choose(int(xb+63)/64, int(yb+63)/64, false)
	pl := planHeadroom(xb, yb, heldGrowth)
	if st != byNTT || 2*pl.cost() > 3*mpl.cost() {
		return nil
	}
	L := pl.coeffs()
	h := &Held{pl: pl, buf: make([]uint64, 3*L), ab: uint(x.BitLen()), yb: yb,
		maxK: 1<<heldGrowth - 1}
	pieces3([3][]uint64{h.buf[:L], h.buf[L : 2*L], h.buf[2*L:]}, x.Bits(), pl.b)
	runPrimes(pl.n, func(i int) { h.fwd(primes3[i], h.buf[i*L:(i+1)*L]) })
	return h
}

// Fits reports whether MulAdd can take a y of yb bits now: its pieces and
// A's (after the addition too) within the plan, and the headroom not used
// up. When it cannot, the caller starts a new Held from A.
func (h *Held) Fits(yb uint) bool {
	b := h.pl.b
	nab := max(h.ab, yb) + 1
	return h.adds < h.maxK && yb <= h.yb &&
		(nab+b-1)/b+(yb+b-1)/b-1 <= uint(h.pl.coeffs())
}

// MulAdd sets z = A·y and A ← A + y, and returns z; y must be
// non-negative and Fits(bits(y)) true (it panics otherwise).
func (h *Held) MulAdd(z, y *big.Int) *big.Int {
	yb := uint(y.BitLen())
	if y.Sign() < 0 || !h.Fits(yb) {
		panic("bigmul: Held.MulAdd beyond its plan")
	}
	trace(Product{XWords: int(h.ab+63) / 64, YWords: len(y.Bits())})
	if yb == 0 {
		return z.SetInt64(0)
	}
	pl := h.pl
	L := pl.coeffs()
	bp := getBuf(3 * L)
	prod := *bp
	pieces3([3][]uint64{prod[:L], prod[L : 2*L], prod[2*L:]}, y.Bits(), pl.b)
	runPrimes(pl.n, func(i int) {
		q := primes3[i]
		a := h.buf[i*L : (i+1)*L]
		c := prod[i*L : (i+1)*L]
		h.fwd(q, c)
		// A·y·2^−64 into c, A + y into a.
		tp := getBuf(L)
		yt := *tp
		copy(yt, c)
		q.pointwise(c, a)
		p := q.p
		yt = yt[:len(a)]
		for j, x := range a {
			a[j] = addMod(reduce4(x, p), reduce4(yt[j], p), p)
		}
		bufPool.Put(tp)
		t := q.table(pl.n)
		if pl.h > 0 {
			q.inverse(c[:pl.n], t)
			q.inverse(c[pl.n:], t)
			q.splitJoin(c, pl.n, q.newSplitTables(pl.n))
		} else {
			q.inverse(c, t)
		}
	})
	ab := h.ab
	w := make([]big.Word, (ab+yb+63)/64+1)
	assemble(w, prod, L, pl.n, pl.b, int(ab/pl.b+yb/pl.b+2))
	bufPool.Put(bp)
	z.SetBits(w)
	h.ab = max(ab, yb) + 1
	h.adds++
	return z
}

// fwd transforms the pieces in a (length L = coeffs) as conv does: for a
// split plan, the fold into the two residues and their transforms.
func (h *Held) fwd(q *prime, a []uint64) {
	pl := h.pl
	t := q.table(pl.n)
	if pl.h > 0 {
		q.splitFold(a, pl.n, q.newSplitTables(pl.n))
		q.forward(a[:pl.n], t)
		q.forward(a[pl.n:], t)
		return
	}
	q.forward(a, t)
}
