package fpa

// This file implements summation in a format, in the orders numerical
// libraries use, and the rounding-error bounds of each order.

import (
	"fmt"
	"math"
	"math/big"
)

// Order is a summation algorithm.
type Order int

const (
	// Recursive sums left to right, s = (…((x₁+x₂)+x₃)…)+xₙ: a C loop,
	// Python's sum, torch on CPU for short vectors.
	Recursive Order = iota
	// Pairwise is numpy's pairwise summation (numpy/_core/src/umath/
	// loops_utils.h.src, pairwise_sum): below 8 terms a loop; up to Block
	// terms 8 accumulators over strided terms, combined as
	// ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the remainder added in
	// turn; above Block the halves (split at a multiple of 8) are summed
	// recursively and added.
	Pairwise
	// Kahan is compensated summation [Kahan65]: y = x−c, t = s+y,
	// c = (t−s)−y, s = t.
	Kahan
	// Cascade is PyTorch's CPU sum of a contiguous tensor (cascade_sum,
	// see [CascadeSum]) with Lanes-wide vector accumulators.
	Cascade
)

func (o Order) String() string {
	switch o {
	case Recursive:
		return "recursive"
	case Pairwise:
		return "pairwise"
	case Kahan:
		return "kahan"
	case Cascade:
		return "cascade"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// SumOptions says how a sum is computed. The zero value is recursive
// summation of the whole array.
type SumOptions struct {
	Order Order
	// Block is Pairwise's leaf size, a multiple of 8 of at least 16; 0 means
	// numpy's PW_BLOCKSIZE, 128.
	Block int
	// Chunk, if positive, sums the array in consecutive chunks of Chunk
	// terms (the last may be shorter), each by Order, and adds the chunk
	// sums left to right to an accumulator starting at 0: numpy's
	// buffered reduction over an array longer than its buffer (8192).
	Chunk int
	// Lanes is Cascade's vector width in elements; 0 means
	// [CascadeLanes] (8: float32 on AVX2).
	Lanes int
}

func (o SumOptions) validate() error {
	switch {
	case o.Order < Recursive || o.Order > Cascade:
		return fmt.Errorf("fpa: unknown summation order %d", int(o.Order))
	case o.Block != 0 && (o.Block < 16 || o.Block%8 != 0):
		// numpy splits a pairwise sum of n > Block terms at n/2 rounded
		// down to a multiple of 8: with Block = 8 and 8 < n < 16 that is
		// 0, and the recursion never ends. From 16 on both halves hold
		// at least 8 terms.
		return fmt.Errorf("fpa: pairwise block %d is not a multiple of 8 of at least 16", o.Block)
	case o.Chunk < 0:
		return fmt.Errorf("fpa: chunk %d is negative", o.Chunk)
	case o.Lanes < 0 || o.Lanes > 64:
		return fmt.Errorf("fpa: %d lanes outside [0, 64]", o.Lanes)
	}
	return nil
}

func (o SumOptions) lanes() int {
	if o.Lanes == 0 {
		return CascadeLanes
	}
	return o.Lanes
}

func (o SumOptions) block() int {
	if o.Block == 0 {
		return 128
	}
	return o.Block
}

// Sum sets z to the sum of xs computed in z's format and mode (z must have
// a format) by the algorithm opt describes, and returns z. The sum of no
// terms is +0. It returns an error only for invalid options.
func Sum(z *Float, xs []Float, opt SumOptions) (*Float, error) {
	if err := opt.validate(); err != nil {
		return z, err
	}
	z.result()
	if opt.Chunk <= 0 || opt.Chunk >= len(xs) {
		z.sum(xs, opt)
		return z, nil
	}
	acc := (&Float{f: z.f, mode: z.mode}).SetZero(false)
	var part Float
	part.f, part.mode = z.f, z.mode
	for i := 0; i < len(xs); i += opt.Chunk {
		part.sum(xs[i:min(i+opt.Chunk, len(xs))], opt)
		acc.Add(acc, &part)
	}
	return z.Set(acc), nil
}

func (z *Float) sum(xs []Float, opt SumOptions) {
	switch opt.Order {
	case Pairwise:
		z.pairwise(xs, opt.block())
	case Kahan:
		z.kahan(xs)
	case Cascade:
		zero := (&Float{f: z.f, mode: z.mode}).SetZero(false)
		z.Set(CascadeSum(len(xs), opt.lanes(), func(i int) *Float { return &xs[i] },
			func(a, b *Float) *Float { return (&Float{f: z.f, mode: z.mode}).Add(a, b) }, zero))
	default:
		z.SetZero(false)
		for i := range xs {
			z.Add(z, &xs[i])
		}
	}
}

// pairwise is numpy's pairwise_sum.
func (z *Float) pairwise(xs []Float, block int) {
	n := len(xs)
	switch {
	case n < 8:
		z.SetZero(false)
		for i := range xs {
			z.Add(z, &xs[i])
		}
	case n <= block:
		var r [8]Float
		for j := range r {
			r[j].f, r[j].mode = z.f, z.mode
			r[j].Set(&xs[j])
		}
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j].Add(&r[j], &xs[i+j])
			}
		}
		r[0].Add(&r[0], &r[1])
		r[2].Add(&r[2], &r[3])
		r[4].Add(&r[4], &r[5])
		r[6].Add(&r[6], &r[7])
		r[0].Add(&r[0], &r[2])
		r[4].Add(&r[4], &r[6])
		z.Add(&r[0], &r[4])
		for ; i < n; i++ {
			z.Add(z, &xs[i])
		}
	default:
		n2 := n / 2
		n2 -= n2 % 8
		var right Float
		right.f, right.mode = z.f, z.mode
		right.pairwise(xs[n2:], block)
		z.pairwise(xs[:n2], block)
		z.Add(z, &right)
	}
}

// kahan is compensated summation.
func (z *Float) kahan(xs []Float) {
	var s, c, y, t Float
	for _, v := range []*Float{&s, &c, &y, &t} {
		v.f, v.mode = z.f, z.mode
	}
	s.SetZero(false)
	c.SetZero(false)
	for i := range xs {
		y.Sub(&xs[i], &c)
		t.Add(&s, &y)
		c.Sub(&t, &s)
		c.Sub(&c, &y)
		s.Set(&t)
	}
	z.Set(&s)
}

// Depths returns, for a sum of n terms by opt, how many rounded additions
// each term passes through (dst[i] for term i, dst reused if long enough).
// Additions to an exact zero (the accumulator's first term) are exact and
// not counted. The computed sum of recursive and pairwise summation is
// Σ xᵢ·Πⱼ(1+δⱼ) over term i's additions, |δⱼ| ≤ u [Higham02, §4.2], so
// |error| ≤ Σ γ(dᵢ)·|xᵢ| with γ(k) = k·u/(1−k·u). For Kahan the depths
// are not meaningful; see [SumBound].
func Depths(dst []int, n int, opt SumOptions) []int {
	if cap(dst) < n {
		dst = make([]int, n)
	}
	dst = dst[:n]
	clear(dst)
	if opt.Chunk <= 0 || opt.Chunk >= n {
		depthsOf(dst, opt)
		return dst
	}
	for i := 0; i < n; i += opt.Chunk {
		part := dst[i:min(i+opt.Chunk, n)]
		depthsOf(part, opt)
		if i > 0 { // acc + part: one more rounding for everything so far
			for j := range dst[:min(i+opt.Chunk, n)] {
				dst[j]++
			}
		}
	}
	return dst
}

func depthsOf(d []int, opt SumOptions) {
	switch opt.Order {
	case Pairwise:
		pairDepths(d, opt.block())
		return
	case Cascade:
		cascadeDepths(d, opt.lanes())
		return
	}
	// Recursive: term 0 joins an exact zero; term i ≥ 1 then passes through
	// the additions i..n−1.
	n := len(d)
	for i := range d {
		d[i] = n - max(i, 1)
	}
}

func pairDepths(d []int, block int) {
	n := len(d)
	switch {
	case n < 8:
		for i := range d {
			d[i] = n - max(i, 1)
		}
	case n <= block:
		full := n - n%8
		per := full / 8
		for i := range full {
			// Accumulator j starts at xs[j] exactly and adds per−1 terms;
			// term k of it passes through per−max(k,1) of them, then 3
			// combining additions, then the n%8 remainder additions.
			k := i / 8
			d[i] = per - max(k, 1) + 3 + n%8
		}
		for i := full; i < n; i++ {
			d[i] = n - i
		}
	default:
		n2 := n / 2
		n2 -= n2 % 8
		pairDepths(d[:n2], block)
		pairDepths(d[n2:], block)
		for i := range d {
			d[i]++
		}
	}
}

// gamma returns γ(k) = k·u/(1−k·u) rounded up, u = 2^uExp, or +Inf when
// k·u ≥ 1.
func gamma(k int, uExp int64) *big.Float {
	ku := new(big.Float).SetPrec(64).SetMode(big.ToPositiveInf).SetMantExp(big.NewFloat(float64(k)), int(uExp))
	den := new(big.Float).SetPrec(64).SetMode(big.ToNegativeInf).Sub(big.NewFloat(1), ku)
	if den.Sign() <= 0 {
		return new(big.Float).SetInf(false)
	}
	return new(big.Float).SetPrec(64).SetMode(big.ToPositiveInf).Quo(ku, den)
}

// cascadeDepths runs [CascadeSum] on nodes of the summation tree instead of
// values, then counts each term's rounded additions: the internal nodes
// above it. An addition to an accumulator still at its exact zero is
// exact and makes no node.
func cascadeDepths(d []int, lanes int) {
	n := len(d)
	type node struct{ l, r int } // children, −1−i for term i
	var nodes []node
	const zero = math.MinInt
	root := CascadeSum(n, lanes, func(i int) int { return -1 - i }, func(a, b int) int {
		switch {
		case a == zero:
			return b
		case b == zero:
			return a
		}
		nodes = append(nodes, node{a, b})
		return len(nodes) - 1
	}, zero)
	if root == zero {
		return
	}
	// Depth-first from the root, with an explicit stack.
	type item struct{ id, depth int }
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.id < 0 {
			d[-1-it.id] = it.depth
			continue
		}
		nd := nodes[it.id]
		stack = append(stack, item{nd.l, it.depth + 1}, item{nd.r, it.depth + 1})
	}
}
