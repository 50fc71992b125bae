package discrete

// This file implements the swap attack behind a public/private split
// (Options.Hidden): known rows raised past each other (risePath) read the
// rows the split hides.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
)

// A risePath raises the positives pos through the negatives neg (both
// known), from every negative above every positive to the reverse, by
// half-steps: stage j moves pos[j] up past neg[len−1], …, neg[0]. 2U
// rises by one a step: monotone over 2·|pos|·|neg| half-steps.
type risePath struct{ pos, neg []int }

func (p risePath) states() int64 { return 2 * int64(len(p.pos)) * int64(len(p.neg)) }

// fill writes state h into lv, levels from base.
func (p risePath) fill(lv []int, h int64, base int) {
	nn := len(p.neg)
	s := h / 2
	j, off := int(s/int64(nn)), int(s%int64(nn))
	if j >= len(p.pos) {
		j, off = len(p.pos), 0
	}
	// Top to bottom: pos[0..j) (already risen), the negatives with
	// pos[j] inserted off places above the bottom of them, then
	// pos[j+1..).
	lvl := base
	for _, r := range p.pos[:j] {
		lv[r] = lvl
		lvl++
	}
	for i, r := range p.neg {
		if j < len(p.pos) && i == nn-off {
			lv[p.pos[j]] = lvl
			lvl++
		}
		lv[r] = lvl
		lvl++
	}
	if j < len(p.pos) {
		if off == 0 {
			lv[p.pos[j]] = lvl
			lvl++
		}
		if h%2 == 1 {
			// Tied with the negative it passes next: neg[nn−off−1].
			lv[p.pos[j]] = lv[p.neg[nn-off-1]]
		}
		for _, r := range p.pos[j+1:] {
			lv[r] = lvl
			lvl++
		}
	}
}

// swapHidden is the pair swap where a public/private split may hide rows
// (Options.Hidden): the score is the AUC of the public rows only, which
// a private row never moves, so a row must be read with a probe that
// moves 2U whatever its label if it is public.
//
//  1. Random halves S of the rows are ranked strictly above the other
//     half G, tied at the bottom, until the path reversing S (as in
//     [run.swap]) has ends that release different values; a binary
//     search finds its edge E⁺, E⁻.
//  2. Each row x of G is moved just above G: 2U moves by n₀(G∖x) if x is
//     a public positive, by −n₁(G∖x) if a public negative, by 0 if
//     private (counts of public rows). A release of v⁻ from E⁺ reads
//     a public 0; else one of v⁺ from E⁻ a public 1; else x is private
//     (or G∖x lacks the other class: unknown either way).
//  3. The public rows read are ranked, every negative above every
//     positive, above the rest tied; raising the positives through the
//     negatives by half-steps raises 2U by one a step over 2·n₁·n₀ steps,
//     which crosses an edge when that exceeds a rounding unit; a binary
//     search finds it and the rest are read as in 2.
//
// A row is reported only when a probe crossed an edge for it; private
// rows stay unknown. At most 2N + 4·log₂N + 64 queries (public
// negatives take one probe, public positives and private rows two).
func (r *run) swapHidden(ctx context.Context) (err error) {
	n := r.n
	defer func() {
		var ae *AmbiguousError
		if err != nil && !errors.As(err, &ae) && !errors.Is(err, ErrBudget) {
			for i := range r.res.Known {
				r.res.Known[i] = false
			}
		}
	}()
	same := func(a, b *big.Rat) bool {
		if r.pow != nil {
			return a.Cmp(b) == 0
		}
		fa, _ := a.Float64()
		fb, _ := b.Float64()
		return fa == fb
	}
	query := func(lv []int) (*big.Rat, error) { return r.score(ctx, r.levelPred(lv)) }
	type edge struct {
		hi, lo        []int
		vPlus, vMinus *big.Rat
	}
	var edges []edge
	// search finds an edge between states 0 and last of fill, whose
	// releases v0 and vEnd differ.
	search := func(fill func(lv []int, h int64), last int64, v0, vEnd *big.Rat) (edge, error) {
		state := func(h int64) []int {
			lv := make([]int, n)
			fill(lv, h)
			return lv
		}
		lo, hi := int64(0), last
		vlo, vhi := v0, vEnd
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			v, err := query(state(mid))
			if err != nil {
				return edge{}, err
			}
			if same(v, v0) {
				lo, vlo = mid, v
			} else {
				hi, vhi = mid, v
			}
		}
		e := edge{hi: state(hi), lo: state(lo), vPlus: vhi, vMinus: vlo}
		if vhi.Cmp(vlo) < 0 {
			e.hi, e.lo, e.vPlus, e.vMinus = e.lo, e.hi, vlo, vhi
		}
		return e, nil
	}
	// read probes the rows of g (tied at level top + 1) at edge e, each
	// moved to level top.
	read := func(e edge, g []int, top int) error {
		// probe reports whether x moved to level top crosses the edge:
		// 2U below E⁺'s releases less than v⁺, above E⁻'s more than v⁻
		// (the rounding is monotone; the move may cross several values).
		probe := func(atHi bool, x int) (bool, error) {
			base := e.lo
			if atHi {
				base = e.hi
			}
			from := base[x]
			base[x] = top
			v, err := query(base)
			base[x] = from
			if err != nil {
				return false, err
			}
			if atHi {
				return !same(v, e.vPlus) && v.Cmp(e.vPlus) < 0, nil
			}
			return !same(v, e.vMinus) && v.Cmp(e.vMinus) > 0, nil
		}
		for _, x := range g {
			down, err := probe(true, x)
			if err != nil {
				return err
			}
			if down {
				r.setLabel(x, 0)
				continue
			}
			up, err := probe(false, x)
			if err != nil {
				return err
			}
			if up {
				r.setLabel(x, 1)
			}
		}
		return nil
	}

	// 1. A half S whose reversal crosses an edge.
	var found bool
	var sRows, gRows []int
	for t := range swapTries / 2 {
		perm := rand.New(rand.NewPCG(0x5a4c, uint64(t))).Perm(n)
		m := (n + 1) / 2
		sRows, gRows = perm[:m], perm[m:]
		path := swapPath{sRows}
		fill := func(lv []int, h int64) {
			path.fill(lv, h, 0)
			for _, x := range gRows {
				lv[x] = m + 1
			}
		}
		lv := make([]int, n)
		fill(lv, 0)
		v0, err := query(lv)
		if err != nil {
			return err
		}
		fill(lv, swapStates(m))
		vEnd, err := query(lv)
		if err != nil {
			return err
		}
		if same(v0, vEnd) {
			continue
		}
		e, err := search(fill, swapStates(m), v0, vEnd)
		if err != nil {
			return err
		}
		edges = append(edges, e)
		if err := read(e, gRows, m); err != nil {
			return err
		}
		found = true
		break
	}
	if !found {
		return fmt.Errorf("discrete: %d random halves of the ranking never crossed a rounding edge: %w", swapTries/2, &AmbiguousError{Query: r.res.Queries, Candidates: 2})
	}

	// 3. The public rows read raise an edge for the others.
	// The rows of G that no probe moved are private (or public with no
	// other class left in G∖x): they stay unknown, tied with the rest.
	var pos, neg, rest, unread []int
	inS := make([]bool, n)
	for _, x := range sRows {
		inS[x] = true
	}
	for i := range n {
		switch {
		case !r.res.Known[i] && inS[i]:
			rest = append(rest, i)
		case !r.res.Known[i]:
			unread = append(unread, i)
		case r.res.Labels[i] == 1:
			pos = append(pos, i)
		default:
			neg = append(neg, i)
		}
	}
	if len(rest) > 0 {
		if len(pos) == 0 || len(neg) == 0 {
			return fmt.Errorf("discrete: the first half read %d positives and %d negatives: no edge to raise: %w", len(pos), len(neg), &AmbiguousError{Query: r.res.Queries, Candidates: 2})
		}
		path := risePath{pos, neg}
		k := len(pos) + len(neg)
		fill := func(lv []int, h int64) {
			path.fill(lv, h, 0)
			for _, x := range rest {
				lv[x] = k + 1
			}
			for _, x := range unread {
				lv[x] = k + 1
			}
		}
		lv := make([]int, n)
		fill(lv, 0)
		v0, err := query(lv)
		if err != nil {
			return err
		}
		fill(lv, path.states())
		vEnd, err := query(lv)
		if err != nil {
			return err
		}
		if same(v0, vEnd) {
			return fmt.Errorf("discrete: %d positives raised through %d negatives never crossed a rounding edge: %w", len(pos), len(neg), &AmbiguousError{Query: r.res.Queries, Candidates: 2})
		}
		e, err := search(fill, path.states(), v0, vEnd)
		if err != nil {
			return err
		}
		edges = append(edges, e)
		if err := read(e, rest, k); err != nil {
			return err
		}
	}

	// The labels read must explain every edge (over the rows read).
	for _, e := range edges {
		for _, s := range []struct {
			lv []int
			v  *big.Rat
		}{{e.hi, e.vPlus}, {e.lo, e.vMinus}} {
			u2, p, q := auc2UKnown(r.res.Labels, r.res.Known, s.lv)
			if err := r.explainsEdge(u2, p, q, s.v, "the rows read"); err != nil {
				return err
			}
		}
	}
	r.total = r.knownOnes()
	return nil
}

// auc2UKnown is auc2U over the rows known only.
func auc2UKnown(y []int, known []bool, lv []int) (u2, pos, neg int64) {
	yy := make([]int, 0, len(y))
	ll := make([]int, 0, len(y))
	for i, k := range known {
		if k {
			yy = append(yy, y[i])
			ll = append(ll, lv[i])
		}
	}
	return auc2U(yy, ll)
}
