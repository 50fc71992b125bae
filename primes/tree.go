// This file implements product and remainder trees.

package primes

import (
	"math/big"
	"sync"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// ProductTree is the binary tree of partial products of a list of positive
// integers [Ber04, §12]: the leaves are the integers, each inner node the
// product of its children, the root the product of all. Level 0 holds the
// leaves, the last level the root.
type ProductTree struct {
	levels [][]*big.Int
}

// parallelBits is the size of a tree level's nodes above which a level is
// computed by two goroutines (2 cores on the reference machine); below it
// goroutine overhead outweighs the work.
const parallelBits = 1 << 14

// NewProductTree builds the product tree of xs. It panics if xs is empty.
// The leaves are referenced, not copied.
func NewProductTree(xs []*big.Int) *ProductTree {
	if len(xs) == 0 {
		panic("primes: NewProductTree of no integers")
	}
	t := &ProductTree{levels: [][]*big.Int{xs}}
	for cur := xs; len(cur) > 1; {
		nxt := make([]*big.Int, (len(cur)+1)/2)
		work := func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if 2*i+1 < len(cur) {
					nxt[i] = bigmul.Mul(new(big.Int), cur[2*i], cur[2*i+1])
				} else {
					nxt[i] = cur[2*i]
				}
			}
		}
		if len(nxt) >= 2 && cur[0].BitLen() > parallelBits {
			var wg sync.WaitGroup
			h := len(nxt) / 2
			wg.Go(func() { work(0, h) })
			work(h, len(nxt))
			wg.Wait()
		} else {
			work(0, len(nxt))
		}
		t.levels = append(t.levels, nxt)
		cur = nxt
	}
	return t
}

// Root returns the product of all leaves. The caller must not modify it.
func (t *ProductTree) Root() *big.Int { return t.levels[len(t.levels)-1][0] }

// Len returns the number of leaves.
func (t *ProductTree) Len() int { return len(t.levels[0]) }

// Product returns the product of xs by a product tree.
func Product(xs []*big.Int) *big.Int {
	if len(xs) == 0 {
		return big.NewInt(1)
	}
	return new(big.Int).Set(NewProductTree(xs).Root())
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
// division, done by a Newton reciprocal (bigmul.QuoFixed). At small nodes
// (below scaledCutBits) the remainder r = round(y_P·P) is recovered and the
// classical remainder tree [Ber04, §18] finishes with math/big's division.
//
// Error: each level truncates once (one unit of 2^−(bits+g)) and scales the
// error it receives by P₁·2^(bits(P₀)−bits(P)) < 2, so after L levels the
// fraction is within 2^(L+2) units; g = L + 16 guard bits keep round(y·P)
// within 2^−14 of the integer x mod P. The result is exact, and
// TestProductAndRemainderTrees checks it against direct division.
func (t *ProductTree) Remainders(x *big.Int) []*big.Int {
	top := len(t.levels) - 1
	root := t.levels[top][0]
	r := x
	if x.Cmp(root) >= 0 {
		r = modNewton(x, root)
	}
	if top == 0 || root.BitLen() <= scaledCutBits {
		return t.classical(top, []*big.Int{r})
	}
	g := uint(top) + 16
	// y at the root: r/root with bits(root)+g fraction bits, truncated.
	ys := []*big.Int{bigmul.QuoFixed(r, root, uint(root.BitLen())+g)}
	for lv := top - 1; lv >= 0; lv-- {
		parents, nodes := t.levels[lv+1], t.levels[lv]
		nxt := make([]*big.Int, len(nodes))
		work := func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p := parents[i/2]
				bp := uint(p.BitLen()) + g
				if i^1 >= len(nodes) { // an odd node carried up unchanged
					nxt[i] = ys[i/2]
					continue
				}
				// frac(y·sibling), kept to bits(node)+g fraction bits.
				v := bigmul.Mul(new(big.Int), ys[i/2], nodes[i^1])
				v.Rsh(v, bp-(uint(nodes[i].BitLen())+g))
				nxt[i] = lowBits(v, uint(nodes[i].BitLen())+g)
			}
		}
		if len(nodes) >= 2 && nodes[0].BitLen() > parallelBits {
			var wg sync.WaitGroup
			h := len(nodes) / 2 &^ 1
			wg.Go(func() { work(0, h) })
			work(h, len(nodes))
			wg.Wait()
		} else {
			work(0, len(nodes))
		}
		ys = nxt
		if lv == 0 || nodes[0].BitLen() <= scaledCutBits {
			// Back to integers: x mod P = round(y·P/2^(bits(P)+g)) mod P.
			rs := make([]*big.Int, len(nodes))
			for i, p := range nodes {
				b := uint(p.BitLen()) + g
				v := bigmul.Mul(new(big.Int), ys[i], p)
				v.Add(v, new(big.Int).Lsh(big.NewInt(1), b-1))
				v.Rsh(v, b)
				if v.Cmp(p) >= 0 { // y just below 1 for x mod P = 0
					v.Sub(v, p)
				}
				rs[i] = v
			}
			return t.classical(lv, rs)
		}
	}
	panic("unreachable")
}

// scaledCutBits is the node size in bits below which Remainders leaves the
// scaled tree for math/big's division: below a few machine words a
// multiplication and a division of the operands cost about the same, and
// the scaled tree's guard bits are then a large share of each operand.
// BenchmarkRemainderTree measured 2^11 within a few percent of the best
// of 2^9 … 2^14 on the reference machine.
var scaledCutBits = 1 << 11

// classical finishes a remainder tree from the remainders rs of the nodes
// of level lv down to the leaves, by math/big division [Ber04, §18].
func (t *ProductTree) classical(lv int, rs []*big.Int) []*big.Int {
	for lv--; lv >= 0; lv-- {
		nodes := t.levels[lv]
		nxt := make([]*big.Int, len(nodes))
		for i := range nodes {
			r := rs[i/2]
			if r.Cmp(nodes[i]) < 0 {
				nxt[i] = r
			} else {
				nxt[i] = new(big.Int).Mod(r, nodes[i])
			}
		}
		rs = nxt
	}
	return rs
}

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
