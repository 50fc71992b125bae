// This file implements product and remainder trees.

package primes

import (
	"math/big"
	"math/bits"
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
	leaves *leafSet
	c      uint         // levels[0][j] = Π leaves[j·2^c : (j+1)·2^c]
	levels [][]*big.Int // levels[0] … the root; levels[0] is the leaves if c = 0
}

// parallelBits is the size of a tree level, in bits over all its nodes,
// above which a level is computed by two goroutines (2 cores on the
// reference machine); below it goroutine overhead outweighs the work.
const parallelBits = 1 << 16

// maxGroupLog bounds c, the log of the number of leaves multiplied
// linearly into one node of the first kept level.
const maxGroupLog = 8

// groupLog returns c: the smallest c ≤ maxGroupLog such that 2^c leaves of
// the mean bit length exceed scaledCutBits bits. The mean, not the first
// leaves, decides: the first primes are much shorter than the rest.
func groupLog(ls *leafSet) uint {
	n := ls.len()
	sum := 0
	for i := range n {
		sum += ls.bitLen(i)
	}
	c := uint(0)
	for c < maxGroupLog && sum<<c <= scaledCutBits*n {
		c++
	}
	return c
}

// parallel runs work(lo, hi) over [0, n), split in two halves on two
// goroutines when big is true.
func parallel(n int, big bool, work func(lo, hi int)) {
	if n >= 2 && big {
		var wg sync.WaitGroup
		h := n / 2 &^ 1
		if h == 0 {
			h = 1
		}
		wg.Go(func() { work(0, h) })
		work(h, n)
		wg.Wait()
		return
	}
	work(0, n)
}

// groups returns the products of 2^c consecutive leaves, each by a linear
// product (the leaves are small by choice of c). For c = 0 and big leaves
// it returns the leaves themselves.
func groups(ls *leafSet, c uint) []*big.Int {
	n := ls.len()
	if c == 0 && ls.big != nil {
		return ls.big
	}
	g := make([]*big.Int, (n+(1<<c)-1)>>c)
	parallel(len(g), n >= 1<<14, func(lo, hi int) {
		var a, b, tmp big.Int
		for j := lo; j < hi; j++ {
			s, e := j<<c, min(n, (j+1)<<c)
			cur, nxt := &a, &b
			cur.Set(ls.value(s, &tmp))
			for i := s + 1; i < e; i++ {
				// Alternating accumulators: no aliasing, so each product
				// reuses the other's words.
				nxt.Mul(cur, ls.value(i, &tmp))
				cur, nxt = nxt, cur
			}
			g[j] = new(big.Int).Set(cur)
		}
	})
	return g
}

// levelBits is the size of a level, estimated from its first node.
func levelBits(cur []*big.Int) int { return len(cur) * cur[0].BitLen() }

// up returns the next level of a product tree: the products of pairs, an
// odd last node carried up unchanged.
func up(cur []*big.Int) []*big.Int {
	nxt := make([]*big.Int, (len(cur)+1)/2)
	parallel(len(nxt), levelBits(cur) > parallelBits, func(lo, hi int) {
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
	return newTree(bigLeaves(xs))
}

// NewPowerTree builds the product tree of the powers ps[i]^e, keeping the
// bases as words: no big.Int per leaf. Its [ProductTree.Multiplicities]
// reads the multiplicity of each ps[i] up to e. It panics if ps is empty,
// an entry is 0 or e < 1. ps is referenced, not copied.
func NewPowerTree(ps []uint64, e int) *ProductTree {
	if len(ps) == 0 {
		panic("primes: NewPowerTree of no integers")
	}
	if e < 1 {
		panic("primes: NewPowerTree with exponent below 1")
	}
	for _, p := range ps {
		if p == 0 {
			panic("primes: NewPowerTree with a zero base")
		}
	}
	return newTree(powerLeaves(ps, uint(e)))
}

func newTree(ls *leafSet) *ProductTree {
	c := groupLog(ls)
	t := &ProductTree{leaves: ls, c: c, levels: [][]*big.Int{groups(ls, c)}}
	for cur := t.levels[0]; len(cur) > 1; {
		cur = up(cur)
		t.levels = append(t.levels, cur)
	}
	return t
}

// Root returns the product of all leaves. The caller must not modify it.
func (t *ProductTree) Root() *big.Int { return t.levels[len(t.levels)-1][0] }

// Len returns the number of leaves.
func (t *ProductTree) Len() int { return t.leaves.len() }

// Product returns the product of xs by a product tree, keeping only the
// level being built (Product(nil) = 1).
func Product(xs []*big.Int) *big.Int {
	if len(xs) == 0 {
		return big.NewInt(1)
	}
	return product(bigLeaves(xs))
}

// product returns the product of the (at least one) leaves of ls.
func product(ls *leafSet) *big.Int {
	cur := groups(ls, groupLog(ls))
	for len(cur) > 1 {
		cur = up(cur)
	}
	if ls.big != nil && ls.len() == 1 {
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
// round(y_P·P) is recovered, and each leaf below takes r mod leaf: by word
// division for word leaves, by math/big's division of a short number
// otherwise.
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
//
// The results are fresh integers, not shared with x, t or each other.
func (t *ProductTree) Remainders(x *big.Int) []*big.Int {
	rs := t.nodeRemainders(x)
	n := t.Len()
	ls := t.leaves
	if t.c == 0 && ls.big != nil {
		return rs // levels[0] is the leaves
	}
	out := make([]*big.Int, n)
	if ls.fits {
		ws := make([]uint64, n)
		t.wordRemainders(rs, ws)
		slab := make([]big.Int, n)
		for i, w := range ws {
			out[i] = slab[i].SetUint64(w)
		}
		return out
	}
	parallel(n, n >= 1<<14, func(lo, hi int) {
		var tmp big.Int
		for i := lo; i < hi; i++ {
			m := ls.value(i, &tmp)
			out[i] = new(big.Int).Mod(rs[i>>t.c], m)
		}
	})
	return out
}

// Residues writes x mod m for every leaf m of t into dst (grown to Len()
// if it is shorter) and returns it. It is [ProductTree.Remainders] for a
// tree from [NewPowerTree] whose every leaf is below 2^64, without a
// big.Int per leaf. x must not be negative. It panics if a leaf is 2^64
// or more.
func (t *ProductTree) Residues(x *big.Int, dst []uint64) []uint64 {
	if !t.leaves.fits {
		panic("primes: Residues of a tree with a leaf of 2^64 or more")
	}
	n := t.Len()
	if cap(dst) < n {
		dst = make([]uint64, n)
	}
	dst = dst[:n]
	t.wordRemainders(t.nodeRemainders(x), dst)
	return dst
}

// wordRemainders sets dst[i] = rs[i>>c] mod leaf i for word leaves.
func (t *ProductTree) wordRemainders(rs []*big.Int, dst []uint64) {
	ls := t.leaves
	parallel(len(dst), len(dst) >= 1<<14, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = modWord(rs[i>>t.c].Bits(), ls.word(i))
		}
	})
}

// nodeRemainders returns x mod P for every node P of levels[0], as fresh
// integers.
func (t *ProductTree) nodeRemainders(x *big.Int) []*big.Int {
	if x.Sign() < 0 {
		panic("primes: remainders of a negative integer")
	}
	top := len(t.levels) - 1
	root := t.levels[top][0]
	var r *big.Int
	if x.Cmp(root) >= 0 {
		r = modNewton(x, root)
	} else {
		r = new(big.Int).Set(x)
	}
	if top == 0 {
		return []*big.Int{r}
	}
	return t.scaled(r, top)
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
		parallel(len(nodes), levelBits(nodes) > parallelBits, func(lo, hi int) {
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
	parallel(len(nodes), levelBits(nodes) > parallelBits, func(lo, hi int) {
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
	k := int(n / bits.UintSize)
	if k >= len(w) {
		return z
	}
	w = w[:k+1]
	w[k] &= big.Word(1)<<(n%bits.UintSize) - 1
	return z.SetBits(w) // SetBits normalizes
}
