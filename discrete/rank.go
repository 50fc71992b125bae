package discrete

// This file implements the rank attack on an unrounded ROC AUC: one
// ranking reads a weighted sum of labels, Σ yᵢ·2ρᵢ (ρ the midranks), so a
// block of m unknown rows placed among known rows at ranks whose
// weights have distinct subset sums is read whole by one query.

import (
	"context"
	"fmt"
	"math"
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
// with r unknown rows left tied below, whose 2^m sums of weights are
// distinct, and m ≤ u (the unknown rows).
func rankDesign(k, r, u int) rankLayout {
	best := rankLayout{m: 1, pos: []int{k}}
	for m := 2; m <= min(u, rankMaxBlock); m++ {
		// Gaps of 2^(j−1) − 1 known rows between block rows j − 1 and j
		// make the weights an offset plus 2^j − 1 (each rank is 2 in
		// 2ρ); the rest of the known rows go below the block, raising
		// the offset.
		gaps := 0
		for j := 1; j < m; j++ {
			gaps += 1<<(j-1) - 1
		}
		if gaps > k {
			break
		}
		pos := make([]int, m)
		pos[0] = k - gaps
		for j := 1; j < m; j++ {
			pos[j] = pos[j-1] + 1<<(j-1) - 1
		}
		l := rankLayout{m: m, pos: pos}
		if !distinctSums(l.weights(r - m + 1)) {
			break
		}
		best = l
	}
	return best
}

// distinctSums reports whether the 2^len(w) subset sums of w differ.
func distinctSums(w []int64) bool {
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
		if sums[i] == sums[i-1] {
			return false
		}
	}
	return true
}

// rankApplies reports whether the released AUC pins twice the
// Mann–Whitney count: unrounded (a float64 tells every 2U apart for N up
// to millions), or rounded finer than 1/(2N²).
func rankApplies(o Options) bool {
	if o.Tau > 0 || o.Repeats > 1 || o.Hidden {
		return false
	}
	n := float64(max(o.N, 2))
	return o.Decimals < 0 || math.Pow(10, -float64(o.Decimals)) < 1/(2*n*n)
}

// rankPlan counts the rank attack's queries: the baseline, then one per
// block as the known rows grow (the layouts depend on counts only).
func rankPlan(n int) int {
	q, k, u := 1, 1, n-1
	for u > 0 {
		l := rankDesign(k, u-1, u)
		q++
		k += l.m
		u -= l.m
	}
	return q
}

// rank is the rank attack. The baseline (row 0 first) reads y₀ and the
// class count T, exactly when unrounded. Then, while rows are unknown, a
// block of m of them is ranked among the known rows (rankDesign), the
// other unknown rows tied at the bottom: twice the Mann–Whitney count is
// 2U = Σ yᵢ·2ρᵢ − T(T + 1), the known rows' part known, the tied rest's
// (T − known positives − the block's)·(r + 1), so the release reads the
// block's weighted sum, whose 2^m values are distinct: m labels a query,
// m growing as log₂ of the known rows.
func (r *run) rank(ctx context.Context) (err error) {
	n := r.n
	defer func() {
		if err != nil {
			for i := range r.res.Known {
				r.res.Known[i] = false
			}
		}
	}()
	cands, err := r.baseline(ctx)
	if err != nil {
		return err
	}
	if len(cands) != 1 {
		return fmt.Errorf("discrete: the first query leaves %d class counts: %w", len(cands), &AmbiguousError{Query: 1, Candidates: len(cands)})
	}
	t := cands[0].total
	r.total = t
	r.setLabel(0, cands[0].y0)
	den := 2 * int64(t) * int64(n-t)
	for {
		var known, unknown []int
		for i := range n {
			if r.res.Known[i] {
				known = append(known, i)
			} else {
				unknown = append(unknown, i)
			}
		}
		if len(unknown) == 0 {
			break
		}
		l := rankDesign(len(known), len(unknown)-1, len(unknown))
		block, rest := unknown[:l.m], unknown[l.m:]
		rr := len(rest)
		// Ranks from the bottom: the rest tied at 1..rr, then the known
		// rows and the block rows interleaved.
		lv := make([]int, n) // level from the top, as levelPred wants
		rho2 := make([]int64, n)
		pos := rr // rows below the next one placed
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
			lv[x] = n - 1 // tied at the bottom (levels need not be contiguous)
		}
		base := -int64(t) * int64(t+1)
		k1 := 0
		for _, x := range known {
			if r.res.Labels[x] == 1 {
				base += rho2[x]
				k1++
			}
		}
		v, err := r.score(ctx, r.levelPred(lv))
		if err != nil {
			return err
		}
		vf, _ := v.Float64()
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
			if float64(u2)/float64(den) == vf {
				found, hits = z, hits+1
			}
		}
		switch {
		case hits == 0:
			return fmt.Errorf("discrete: query %d: no labeling of rows %v explains AUC %s: %w", r.res.Queries, block, v.FloatString(10), errInconsistent)
		case hits > 1:
			return fmt.Errorf("discrete: query %d: %w", r.res.Queries, &AmbiguousError{Query: r.res.Queries, Candidates: hits})
		}
		for j, x := range block {
			r.setLabel(x, found>>j&1)
		}
	}
	if got := r.knownOnes(); got != t {
		return fmt.Errorf("discrete: the decoded labels hold %d positives, the class count %d: %w", got, t, errInconsistent)
	}
	return nil
}
