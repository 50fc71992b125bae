package scorer

// This file keeps a float server's summation tree with its partial sums,
// so that an attacker who changes a few terms between two emulations
// recomputes only the partial sums on their paths to the root: O(k·(B +
// log N)) for k changed terms of a pairwise sum with leaves of B terms,
// instead of O(N). The arithmetic is sumNative's, operation for operation
// (its leaves are computed by the very same function), so the sum is bit
// for bit the one Report gives on the whole buffer.

import (
	"math"

	"github.com/labelinf/labelinf/fpa"
)

// The kinds of sumNode.
const (
	nodeLeaf  = iota // pairwise(x[lo:hi], block)
	nodeSplit        // kids[0] + kids[1]
	nodeElems        // s = 0; s += x[i] for i in [lo, hi): recursive order
	nodeKids         // s = 0; s += kid for each kid: chunks in turn
	nodeWhole        // sumOrder(x[lo:hi]) recomputed whole (an empty cascade)
	nodeChain        // s = 0; s += item for each item, a term or a kid: PyTorch's accumulators
)

type sumNode[T float] struct {
	kind   int
	lo, hi int
	kids   []int
	parent int // −1 at the root
	pos    int // index among the parent's kids
	val    T
	dirty  bool
	prefix []T   // nodeElems, nodeKids, nodeChain: the running sum after each item
	first  int   // nodeElems, nodeKids, nodeChain: first item whose prefix is stale
	items  []int // nodeChain: a kid's node index, or −1−i for term i
}

// sumTree is the summation tree of sumNative over x.
type sumTree[T float] struct {
	x     []T
	block int
	lanes int
	nodes []sumNode[T]
	owner []int // owner[i]: the leaf, nodeElems or nodeChain node holding x[i]
	tpos  []int // nodeChain owners: the item index of x[i] in its chain
	root  int   // the node whose value is the sum
}

func newSumTree[T float](x []T, opt fpa.SumOptions) *sumTree[T] {
	t := &sumTree[T]{x: x, block: opt.Block, lanes: opt.Lanes, owner: make([]int, len(x))}
	if t.block == 0 {
		t.block = 128
	}
	if t.lanes == 0 {
		t.lanes = fpa.CascadeLanes
	}
	n := len(x)
	if opt.Chunk <= 0 || opt.Chunk >= n {
		t.root = t.order(0, n, -1, 0, opt.Order)
		return t
	}
	root := t.add(sumNode[T]{kind: nodeKids, lo: 0, hi: n, parent: -1})
	for i, j := 0, 0; i < n; i, j = i+opt.Chunk, j+1 {
		k := t.order(i, min(i+opt.Chunk, n), root, j, opt.Order)
		t.nodes[root].kids = append(t.nodes[root].kids, k)
	}
	t.nodes[root].prefix = make([]T, len(t.nodes[root].kids))
	return t
}

func (t *sumTree[T]) add(nd sumNode[T]) int {
	nd.dirty = true
	t.nodes = append(t.nodes, nd)
	return len(t.nodes) - 1
}

// order builds sumOrder's tree over x[lo:hi] (pairwise, cascade or
// recursive; the emulator refuses Kahan).
func (t *sumTree[T]) order(lo, hi, parent, pos int, o fpa.Order) int {
	switch o {
	case fpa.Pairwise:
		return t.pairwise(lo, hi, parent, pos)
	case fpa.Cascade:
		return t.cascade(lo, hi, parent, pos)
	}
	k := t.add(sumNode[T]{kind: nodeElems, lo: lo, hi: hi, parent: parent, pos: pos, prefix: make([]T, hi-lo)})
	for i := lo; i < hi; i++ {
		t.owner[i] = k
	}
	return k
}

// cascade builds the tree of PyTorch's cascade sum over x[lo:hi]: every
// accumulator of fpa.CascadeSum, from the zero it starts or is reset at
// to the moment it is added to another (or is the result), is a chain
// node of the terms and accumulators added to it in turn. It runs
// fpa.CascadeSum itself on node handles, so the tree is its order by
// construction; an accumulator still zero when added adds nothing (s + 0
// is s: the chains start at +0, so s is never −0).
func (t *sumTree[T]) cascade(lo, hi, parent, pos int) int {
	if hi == lo {
		return t.add(sumNode[T]{kind: nodeWhole, lo: lo, hi: hi, parent: parent, pos: pos})
	}
	if t.tpos == nil {
		t.tpos = make([]int, len(t.x))
	}
	const zero = math.MinInt
	first := len(t.nodes)
	root := fpa.CascadeSum(hi-lo, t.lanes, func(i int) int { return -1 - (lo + i) }, func(a, b int) int {
		if b == zero {
			return a
		}
		if a == zero {
			a = t.add(sumNode[T]{kind: nodeChain, lo: lo, hi: hi, parent: -1})
		}
		nd := &t.nodes[a]
		if b >= 0 {
			t.nodes[b].parent, t.nodes[b].pos = a, len(nd.items)
		} else {
			t.owner[-1-b], t.tpos[-1-b] = a, len(nd.items)
		}
		nd.items = append(nd.items, b)
		return a
	}, zero)
	t.nodes[root].parent, t.nodes[root].pos = parent, pos
	for k := first; k < len(t.nodes); k++ {
		if t.nodes[k].kind == nodeChain {
			t.nodes[k].prefix = make([]T, len(t.nodes[k].items))
		}
	}
	return root
}

// pairwise builds pairwise's tree: a leaf at most block long (or under
// 8), else the halves split at a multiple of 8.
func (t *sumTree[T]) pairwise(lo, hi, parent, pos int) int {
	n := hi - lo
	if n < 8 || n <= t.block {
		k := t.add(sumNode[T]{kind: nodeLeaf, lo: lo, hi: hi, parent: parent, pos: pos})
		for i := lo; i < hi; i++ {
			t.owner[i] = k
		}
		return k
	}
	k := t.add(sumNode[T]{kind: nodeSplit, lo: lo, hi: hi, parent: parent, pos: pos})
	n2 := n / 2
	n2 -= n2 % 8
	l := t.pairwise(lo, lo+n2, k, 0)
	r := t.pairwise(lo+n2, hi, k, 1)
	t.nodes[k].kids = []int{l, r}
	return k
}

// set changes x[i] to v and marks its path stale.
func (t *sumTree[T]) set(i int, v T) {
	if math.Float64bits(float64(t.x[i])) == math.Float64bits(float64(v)) {
		return
	}
	t.x[i] = v
	k, item := t.owner[i], i-t.nodes[t.owner[i]].lo
	if t.nodes[k].kind == nodeChain {
		item = t.tpos[i]
	}
	for k >= 0 {
		nd := &t.nodes[k]
		if nd.kind == nodeElems || nd.kind == nodeKids || nd.kind == nodeChain {
			nd.first = min(nd.first, item)
		}
		if nd.dirty {
			// The path above is already stale, and its chains' first
			// items are at most this path's.
			return
		}
		nd.dirty = true
		k, item = nd.parent, nd.pos
	}
}

// sum returns sumNative(x, opt) for the tree's options.
func (t *sumTree[T]) sum() T {
	if len(t.nodes) == 0 {
		return 0
	}
	return t.eval(t.root)
}

func (t *sumTree[T]) eval(k int) T {
	nd := &t.nodes[k]
	if !nd.dirty {
		return nd.val
	}
	switch nd.kind {
	case nodeLeaf:
		nd.val = pairwise(t.x[nd.lo:nd.hi], t.block)
	case nodeWhole:
		nd.val = cascade(t.x[nd.lo:nd.hi], t.lanes)
	case nodeChain:
		var s T
		if nd.first > 0 {
			s = nd.prefix[nd.first-1]
		}
		for j := nd.first; j < len(nd.items); j++ {
			if it := nd.items[j]; it < 0 {
				s += t.x[-1-it]
			} else {
				s += t.eval(it)
				nd = &t.nodes[k] // eval does not grow t.nodes, but keep nd fresh
			}
			nd.prefix[j] = s
		}
		nd.val, nd.first = s, len(nd.prefix)
	case nodeSplit:
		l, r := nd.kids[0], nd.kids[1]
		nd.val = t.eval(l) + t.eval(r)
	case nodeElems:
		var s T
		if nd.first > 0 {
			s = nd.prefix[nd.first-1]
		}
		for j := nd.first; j < len(nd.prefix); j++ {
			s += t.x[nd.lo+j]
			nd.prefix[j] = s
		}
		nd.val, nd.first = s, len(nd.prefix)
	case nodeKids:
		var s T
		if nd.first > 0 {
			s = nd.prefix[nd.first-1]
		}
		for j := nd.first; j < len(nd.kids); j++ {
			s += t.eval(nd.kids[j])
			nd.prefix[j] = s
		}
		nd.val, nd.first = s, len(nd.prefix)
	}
	nd.dirty = false
	return nd.val
}

// NewCachedTerms returns a buffer of n terms, all +0, that keeps the
// server's summation tree: [Emulator.Report] on it recomputes only the
// partial sums that the terms Set since the last Report feed, with the
// same result as on an uncached buffer.
func (e *Emulator) NewCachedTerms(n int) *Terms {
	t := e.NewTerms(n)
	if e.m.Loss.ExactSum {
		return t // math.fsum's exact sum has no tree to cache
	}
	if t.f64 != nil {
		t.c64 = newSumTree(t.f64, e.m.Loss.Sum)
	} else {
		t.c32 = newSumTree(t.f32, e.m.Loss.Sum)
	}
	return t
}
