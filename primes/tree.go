// This file implements product and remainder trees.

package primes

import (
	"math/big"
	"sync"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// ProductTree is the binary tree of partial products of a list of positive
// integers [Ber04, §12]: the leaves are the integers, each inner node the
// product of its children, the root the product of all.
//
// Only the levels whose nodes have more than scaledCutBits bits are kept:
// below them a node is the product of a handful of small leaves,
// and keeping a million tiny big.Ints costs more (allocation, GC marking,
// fresh pages) than the remainder tree saves by reusing them. The first
// kept level holds the products of 2^c consecutive leaves.
type ProductTree struct {
	leaves []*big.Int
	c      uint         // levels[0][j] = Π leaves[j·2^c : (j+1)·2^c]
	levels [][]*big.Int // levels[0] … the root; levels[0] is the leaves if c = 0
}

// parallelBits is the size of a tree level's nodes above which a level is
// computed by two goroutines (2 cores on the reference machine); below it
// goroutine overhead outweighs the work.
const parallelBits = 1 << 14

// maxGroupLog bounds c, the log of the number of leaves multiplied
// linearly into one node of the first kept level.
const maxGroupLog = 8

// groupLog returns c: the smallest c ≤ maxGroupLog such that the product
// of the first 2^c leaves exceeds scaledCutBits bits, judged from bit
// lengths (a product of k numbers has at most the sum of their lengths).
func groupLog(xs []*big.Int) uint {
	c, sum := uint(0), 0
	for i, x := range xs {
		if sum > scaledCutBits || c >= maxGroupLog {
			break
		}
		sum += x.BitLen()
		if i+1 > 1<<c {
			c++
		}
	}
	return c
}

// parallel runs work(lo, hi) over [0, n), split in two halves on two
// goroutines when big is true.
func parallel(n int, big bool, work func(lo, hi int)) {
	if n >= 2 && big {
		var wg sync.WaitGroup
		h := n / 2 &^ 1
		wg.Go(func() { work(0, h) })
		work(h, n)
		wg.Wait()
		return
	}
	work(0, n)
}

// groups returns the products of 2^c consecutive leaves, each by a linear
// product (the leaves are small by choice of c).
func groups(xs []*big.Int, c uint) []*big.Int {
	if c == 0 {
		return xs
	}
	g := make([]*big.Int, (len(xs)+(1<<c)-1)>>c)
	parallel(len(g), len(g) >= 1024, func(lo, hi int) {
		for j := lo; j < hi; j++ {
			leaves := xs[j<<c : min(len(xs), (j+1)<<c)]
			p := new(big.Int).Set(leaves[0])
			for _, x := range leaves[1:] {
				p.Mul(p, x)
			}
			g[j] = p
		}
	})
	return g
}

// up returns the next level of a product tree: the products of pairs, an
// odd last node carried up unchanged.
func up(cur []*big.Int) []*big.Int {
	nxt := make([]*big.Int, (len(cur)+1)/2)
	parallel(len(nxt), cur[0].BitLen() > parallelBits, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if 2*i+1 < len(cur) {
				nxt[i] = bigmul.Mul(new(big.Int), cur[2*i], cur[2*i+1])
			} else {
				nxt[i] = cur[2*i]
			}
		}
	})
	return nxt
}

// NewProductTree builds the product tree of xs. It panics if xs is empty.
// The leaves are referenced, not copied.
func NewProductTree(xs []*big.Int) *ProductTree {
	if len(xs) == 0 {
		panic("primes: NewProductTree of no integers")
	}
	c := groupLog(xs)
	t := &ProductTree{leaves: xs, c: c, levels: [][]*big.Int{groups(xs, c)}}
	for cur := t.levels[0]; len(cur) > 1; {
		cur = up(cur)
		t.levels = append(t.levels, cur)
	}
	return t
}

// Root returns the product of all leaves. The caller must not modify it.
func (t *ProductTree) Root() *big.Int { return t.levels[len(t.levels)-1][0] }

// Len returns the number of leaves.
func (t *ProductTree) Len() int { return len(t.leaves) }

// Product returns the product of xs by a product tree, keeping only the
// level being built (Product(nil) = 1).
func Product(xs []*big.Int) *big.Int {
	if len(xs) == 0 {
		return big.NewInt(1)
	}
	cur := groups(xs, groupLog(xs))
	for len(cur) > 1 {
		cur = up(cur)
	}
	if len(xs) == 1 {
		return new(big.Int).Set(cur[0])
	}
	return cur[0]
}

// Remainders returns x mod m for every leaf m of t, in leaf order. x must
// not be negative; the leaves must be positive.
//
// It is Bernstein's scaled remainder tree [Ber04, scaled remainder trees]:
// instead of the remainder x mod P at each node P (a division per node),
// it carries the fraction y_P = frac(x/P) as a fixed-point number with
// bits(P) + g fraction bits, and for a node P = P₀·P₁ gets its children's
// fractions by one multiplication each, y_P₀ = frac(y_P·P₁), y_P₁ =
// frac(y_P·P₀) (exactly: frac(x/P₀) = frac(P₁·x/P)). Only the root needs a
// division, done by a Newton reciprocal (bigmul.QuoFixed). At the first
// kept level (nodes just above scaledCutBits) the remainder r =
// round(y_P·P) is recovered, and each leaf below takes r mod leaf by
// math/big's division of a short number.
//
// Each child's product is a middle product: only bits bits(P) + g down to
// bits(P₁) + … of y_P·P₀ are kept, so it is taken modulo 2^N − 1 with N ≥
// bits(P) + g (bigmul.MulWrap): writing the product as H·2^N + L, the
// residue is H + L, and H < 2^bits(P₁) adds at most 2 units of the kept
// window, whose last bit is bit bits(P) − bits(P₀) ≥ bits(P₁) − 1, plus a
// carry; a wrap past 2^N − 1 changes only the discarded integer part (and
// the last bit).
//
// Error: each level truncates once (one unit of 2^−(bits+g)), adds at most
// 3 units from the wrapped product, and scales the error it receives by
// P₁·2^(bits(P₀)−bits(P)) < 2, so after L levels the fraction is within
// 4·2^(L+1) = 2^(L+3) units; g = L + 18 guard bits keep round(y·P)
// within 2^−14 of the integer x mod P. The result is exact, and
// TestProductAndRemainderTrees checks it against direct division.
func (t *ProductTree) Remainders(x *big.Int) []*big.Int {
	top := len(t.levels) - 1
	root := t.levels[top][0]
	r := x
	if x.Cmp(root) >= 0 {
		r = modNewton(x, root)
	}
	rs := []*big.Int{r}
	if top > 0 {
		rs = t.scaled(r, top)
	}
	// Leaves below the first kept level: x mod leaf = (x mod node) mod leaf.
	if t.c == 0 && top > 0 {
		return rs
	}
	out := make([]*big.Int, len(t.leaves))
	parallel(len(out), len(out) >= 1<<16, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			r := rs[i>>t.c]
			if r.Cmp(t.leaves[i]) < 0 {
				out[i] = r
			} else {
				out[i] = new(big.Int).Mod(r, t.leaves[i])
			}
		}
	})
	return out
}

// scaled runs the scaled remainder tree from r = x mod root (0 ≤ r < root)
// down to levels[0] and returns x mod each node of levels[0].
func (t *ProductTree) scaled(r *big.Int, top int) []*big.Int {
	root := t.levels[top][0]
	g := uint(top) + 18
	// y at the root: r/root with bits(root)+g fraction bits, truncated.
	ys := []*big.Int{bigmul.QuoFixed(r, root, uint(root.BitLen())+g)}
	for lv := top - 1; lv >= 0; lv-- {
		parents, nodes := t.levels[lv+1], t.levels[lv]
		nxt := make([]*big.Int, len(nodes))
		parallel(len(nodes), nodes[0].BitLen() > parallelBits, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				bp := uint(parents[i/2].BitLen()) + g
				if i^1 >= len(nodes) { // an odd node carried up unchanged
					nxt[i] = ys[i/2]
					continue
				}
				// frac(y·sibling), kept to bits(node)+g fraction bits:
				// a middle product, taken modulo 2^N − 1, N ≥ bp.
				v, _ := bigmul.MulWrap(new(big.Int), ys[i/2], nodes[i^1], max(bp, uint(nodes[i^1].BitLen())))
				v.Rsh(v, bp-(uint(nodes[i].BitLen())+g))
				nxt[i] = lowBits(v, uint(nodes[i].BitLen())+g)
			}
		})
		ys = nxt
	}
	// Back to integers: x mod P = round(y·P/2^(bits(P)+g)) mod P.
	nodes := t.levels[0]
	rs := make([]*big.Int, len(nodes))
	parallel(len(nodes), len(nodes) >= 1024, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			p := nodes[i]
			b := uint(p.BitLen()) + g
			v := bigmul.Mul(new(big.Int), ys[i], p)
			v.Add(v, new(big.Int).Lsh(big.NewInt(1), b-1))
			v.Rsh(v, b)
			if v.Cmp(p) >= 0 { // y just below 1 for x mod P = 0
				v.Sub(v, p)
			}
			rs[i] = v
		}
	})
	return rs
}

// scaledCutBits is the node size in bits below which a product tree keeps
// no levels and Remainders leaves the scaled tree for math/big's division:
// each leaf then takes (x mod node) mod leaf directly, which costs the
// node's length in words per leaf, so the groups must stay short; above
// it a million tiny stored nodes cost allocation and GC marking.
// TestCalibrateCut (go test ./primes -run CalibrateCut -calibrate -v) on
// the 2-core reference machine, 2026-11-22, first 200,000 primes, CPU
// medians of 5: build / remainders 167/509 ms at 2^6, 110/462 at 2^7,
// 99/484 at 2^8, 119/630 at 2^9, 91/689 at 2^11.
var scaledCutBits = 1 << 8

// modNewton returns x mod m for x ≥ 0, m > 0 with the quotient from a
// Newton reciprocal (within 1 of ⌊x/m⌋) and at most two corrections.
func modNewton(x, m *big.Int) *big.Int {
	q := bigmul.QuoFixed(x, m, 0)
	r := bigmul.Mul(q, q, m)
	r.Sub(x, r)
	for r.Sign() < 0 {
		r.Add(r, m)
	}
	for r.Cmp(m) >= 0 {
		r.Sub(r, m)
	}
	return r
}

// lowBits truncates z ≥ 0 to its n low bits in place and returns it.
func lowBits(z *big.Int, n uint) *big.Int {
	w := z.Bits()
	k := int(n / 64)
	if k >= len(w) {
		return z
	}
	w = w[:k+1]
	w[k] &= big.Word(1)<<(n%64) - 1
	return z.SetBits(w) // SetBits normalizes
}
