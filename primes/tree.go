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

// Remainders returns x mod m for every leaf m of t, in leaf order, by a
// remainder tree [Ber04, §18]: x is reduced modulo the root, then each
// node's remainder modulo its children, so the work is O(M(n) log n) for
// an n-bit root instead of N divisions of the full x. x must not be
// negative. The leaves must be positive.
func (t *ProductTree) Remainders(x *big.Int) []*big.Int {
	top := len(t.levels) - 1
	cur := []*big.Int{new(big.Int).Mod(x, t.levels[top][0])}
	for lv := top - 1; lv >= 0; lv-- {
		nodes := t.levels[lv]
		nxt := make([]*big.Int, len(nodes))
		work := func(lo, hi int) {
			for i := lo; i < hi; i++ {
				r := cur[i/2]
				if r.Cmp(nodes[i]) < 0 {
					nxt[i] = r
				} else {
					nxt[i] = new(big.Int).Mod(r, nodes[i])
				}
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
		cur = nxt
	}
	return cur
}
