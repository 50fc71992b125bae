package discrete

// This file implements the rank attack on ROC AUC (unrounded, or rounded
// finely enough for its blocks): one
// ranking reads a weighted sum of labels, Σ yᵢ·2ρᵢ (ρ the midranks), so a
// block of m unknown rows placed among known rows at ranks whose
// weights have distinct subset sums is read whole by one query.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"slices"
)

// rankMaxBlock bounds a rank query's block (its decoding enumerates 2^m
// labelings).
const rankMaxBlock = 16

// rankLayout is one rank query: the block rows sit above pos[j] known
// rows (pos increasing), every unknown row outside the block is tied at
// the bottom.
type rankLayout struct {
	m   int
	pos []int // known rows below block row j
}

// rankWeights returns twice the midrank of block row j above the tied
// rest, less that of the rest: 2ρ_j − (r + 1) with r rows in the rest.
func (l rankLayout) weights(r int) []int64 {
	w := make([]int64, l.m)
	for j, p := range l.pos {
		// ρ_j = r + p + j + 1 (strict above the rest, the known rows
		// below it and the block rows below it).
		w[j] = 2*int64(r+p+j+1) - int64(r+1)
	}
	return w
}

// rankDesign returns the largest block that k known rows can space out
// with the unknown rows outside it (u − m of them) tied below, whose 2^m
// sums of weights lie at least sep apart (sep = 1 reads exact sums; a
// rounded release needs more than one rounding unit of 2U), m ≤ u.
func rankDesign(k, u int, sep int64) rankLayout {
	best := rankLayout{m: 1, pos: []int{k}}
	step := int((sep + 1) / 2) // ranks a unit of weight 2^j takes
	for m := 2; m <= min(u, rankMaxBlock); m++ {
		// Block row j sits step·(2^j − 1) ranks above block row 0 (the
		// known rows between are the gaps), so that the weights are an
		// offset plus at least sep·(2^j − 1); the other known rows go
		// below the block, raising the offset.
		pos := make([]int, m)
		for j := 1; j < m; j++ {
			pos[j] = step*(1<<j-1) - j
		}
		if pos[m-1] > k {
			break
		}
		for j := range pos {
			pos[j] += k - pos[m-1]
		}
		l := rankLayout{m: m, pos: pos}
		if !separatedSums(l.weights(u-m), sep) {
			break
		}
		best = l
	}
	return best
}

// separatedSums reports whether the 2^len(w) subset sums of w lie at
// least sep apart.
func separatedSums(w []int64, sep int64) bool {
	sums := make([]int64, 1<<len(w))
	for s := 1; s < len(sums); s++ {
		j := 0
		for s>>j&1 == 0 {
			j++
		}
		sums[s] = sums[s&^(1<<j)] + w[j]
	}
	slices.Sort(sums)
	for i := 1; i < len(sums); i++ {
		if sums[i]-sums[i-1] < sep {
			return false
		}
	}
	return true
}

// rankSep is the least gap of 2U that o's rounding always tells apart:
// 1 unrounded; above one rounding unit of 2U = AUC·2n₀n₁ (at most N²/2)
// otherwise.
func rankSep(o Options) int64 {
	if o.Decimals < 0 {
		return 1
	}
	n := float64(max(o.N, 2))
	return int64(math.Floor(n*n/2*math.Pow(10, -float64(o.Decimals)))) + 1
}

// rankApplies reports whether the rank attack's blocks can be read at
// o's rounding: a rounding unit of 2U below N/8 (5 decimals for N up to
// about 3,500; unrounded always), without noise.
func rankApplies(o Options) bool {
	if o.Tau > 0 || o.Repeats > 1 || o.Hidden {
		return false
	}
	sep := rankSep(o)
	return sep == 1 || sep <= int64(o.N/8)
}

// rankPlan counts the rank attack's queries: the baseline, then one per
// block as the known rows grow (the layouts depend on counts only).
func rankPlan(o Options) int {
	sep := rankSep(o)
	q, k, u := 1, 1, o.N-1
	for u > 0 {
		l := rankDesign(k, u, sep)
		q++
		k += l.m
		u -= l.m
	}
	return q
}

// A rankHyp is one class count the first query left, with the labels
// the blocks decode to under it.
type rankHyp struct {
	t      int
	labels []int
}

// rank is the rank attack. The baseline (row 0 first) reads y₀ and the
// class count T (exactly when unrounded; else a few candidates, each
// decoded on its own until the labels must add up to it). Then, while
// rows are unknown, a block of m of them is ranked among the known rows
// (rankDesign), the other unknown rows tied at the bottom: twice the
// Mann–Whitney count is 2U = Σ yᵢ·2ρᵢ − T(T + 1), the known rows' part
// known, the tied rest's (T − known positives − the block's)·(r + 1), so
// the release reads the block's weighted sum, whose 2^m values lie more
// than a rounding unit apart: m labels a query, m growing as log₂ of the
// known rows. The queries do not depend on the answers.
func (r *run) rank(ctx context.Context) (err error) {
	n := r.n
	sep := rankSep(r.o)
	cands, err := r.baseline(ctx)
	if err != nil {
		return err
	}
	var hyps []rankHyp
	for _, c := range cands {
		y := make([]int, n)
		for i := range y {
			y[i] = -1
		}
		y[0] = c.y0
		hyps = append(hyps, rankHyp{t: c.total, labels: y})
	}
	known := []int{0}
	isKnown := make([]bool, n)
	isKnown[0] = true
	for len(known) < n {
		var unknown []int
		for i := range n {
			if !isKnown[i] {
				unknown = append(unknown, i)
			}
		}
		l := rankDesign(len(known), len(unknown), sep)
		block, rest := unknown[:l.m], unknown[l.m:]
		rr := len(rest)
		// Ranks from the bottom: the rest tied at 1..rr, then the known
		// rows (in the order they became known) and the block rows
		// interleaved.
		lv := make([]int, n) // level from the top, as levelPred wants
		rho2 := make([]int64, n)
		pos := rr
		ki, bj := 0, 0
		for ki < len(known) || bj < l.m {
			var row int
			if bj < l.m && l.pos[bj] == ki {
				row, bj = block[bj], bj+1
			} else {
				row, ki = known[ki], ki+1
			}
			pos++
			rho2[row] = 2 * int64(pos)
			lv[row] = n - pos
		}
		for _, x := range rest {
			rho2[x] = int64(rr + 1)
			lv[x] = n - 1
		}
		v, err := r.score(ctx, r.levelPred(lv))
		if err != nil {
			return err
		}
		var next []rankHyp
		for _, h := range hyps {
			t := h.t
			den := 2 * int64(t) * int64(n-t)
			base := -int64(t) * int64(t+1)
			k1 := 0
			for _, x := range known {
				if h.labels[x] == 1 {
					base += rho2[x]
					k1++
				}
			}
			found, hits := 0, 0
			for z := range 1 << l.m {
				s, u2 := 0, base
				for j := range l.m {
					if z>>j&1 == 1 {
						s++
						u2 += rho2[block[j]]
					}
				}
				inRest := t - k1 - s
				if inRest < 0 || inRest > rr {
					continue
				}
				u2 += int64(inRest) * int64(rr+1)
				if r.matches(big.NewRat(u2, den), v) {
					found, hits = z, hits+1
				}
			}
			switch {
			case hits > 1:
				return fmt.Errorf("discrete: query %d: %w", r.res.Queries, &AmbiguousError{Query: r.res.Queries, Candidates: hits})
			case hits == 1:
				for j, x := range block {
					h.labels[x] = found >> j & 1
				}
				next = append(next, h)
			}
		}
		if len(next) == 0 {
			return fmt.Errorf("discrete: query %d: no labeling of rows %v explains AUC %s: %w", r.res.Queries, block, v.FloatString(10), errInconsistent)
		}
		hyps = next
		for _, x := range block {
			isKnown[x] = true
			known = append(known, x)
		}
	}
	var final []rankHyp
	for _, h := range hyps {
		ones := 0
		for _, y := range h.labels {
			ones += y
		}
		if ones == h.t {
			final = append(final, h)
		}
	}
	switch len(final) {
	case 0:
		return fmt.Errorf("discrete: no class count explains every score: %w", errInconsistent)
	case 1:
	default:
		return fmt.Errorf("discrete: %d class counts explain every score: %w", len(final), &AmbiguousError{Query: r.res.Queries, Candidates: len(final)})
	}
	for i, y := range final[0].labels {
		r.setLabel(i, y)
	}
	r.total = final[0].t
	return nil
}
