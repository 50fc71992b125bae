package discrete

// This file implements the binary attacks' one kind of query: a subset
// sum Σ_{i∈S} yᵢ, read from accuracy, ROC AUC or the Brier score.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
)

// The subset query on S (|S| = s rows, o = Σ_{i∈S} yᵢ of them positive,
// T = Σ yᵢ in all, N rows):
//
//   - accuracy: predict 1 on S and 0 elsewhere (never the tie p = ½):
//     (N − T − s + 2o)/N;
//   - ROC AUC: predict 1 on S and 0 elsewhere: the Mann–Whitney count is
//     2U = N·o + T(N − T − s) (ties ½), so AUC = 2U/(2T(N − T)), linear in
//     o given T [Whitehill16];
//   - Brier: predict 0 on S and ½ elsewhere: each term is exactly 0, ¼ or
//     1 and every partial sum a multiple of ¼ below 2^51, so scikit-learn's
//     float64 score is fl((o + (N − s)/4)/N), one correctly rounded
//     division.
//
// Each is nondecreasing in o, as [run.count] needs.
func (r *run) subsetScore(s, o int) *big.Rat {
	n, t := int64(r.n), int64(r.total)
	switch r.o.Metric {
	case Accuracy:
		return big.NewRat(n-t-int64(s)+2*int64(o), n)
	case AUC:
		if t <= 0 || t >= n {
			return big.NewRat(1, 2)
		}
		return new(big.Rat).SetFrac(big.NewInt(n*int64(o)+t*(n-t-int64(s))), new(big.Int).Mul(big.NewInt(2*t), big.NewInt(n-t)))
	}
	sum := float64(o) + float64(r.n-s)/4
	return new(big.Rat).SetFloat64(sum / float64(r.n))
}

// subsetPred is the prediction of the subset query on rows in S.
func (r *run) subsetPred(in func(i int) bool) []float64 {
	p := make([]float64, r.n)
	on, off := 1.0, 0.0
	if r.o.Metric == Brier {
		on, off = 0, 0.5
	}
	for i := range p {
		if in(i) {
			p[i] = on
		} else {
			p[i] = off
		}
	}
	return p
}

// send sends the subset query on rows and returns the released score.
func (r *run) send(ctx context.Context, rows []int) (*big.Rat, error) {
	in := make([]bool, r.n)
	for _, i := range rows {
		in[i] = true
	}
	return r.score(ctx, r.subsetPred(func(i int) bool { return in[i] }))
}

// A candidate is what the baseline query left possible: T = Σ y and, for
// AUC, the label of row 0 (−1: not read).
type candidate struct{ total, y0 int }

// baseline sends the first query and returns the (T, y₀) it leaves
// possible: accuracy from the all-0 prediction (S empty), Brier from the
// all-0 prediction (S every row); AUC from S = {0}: row 0 above all
// others gives AUC = ½ + 1/(2T) if y₀ = 1, ½ − 1/(2(N − T)) if y₀ = 0, so
// y₀ is read at once and T within the rounding; the subset sums that
// follow are decoded under each candidate and the labels must add up to
// its T.
func (r *run) baseline(ctx context.Context) ([]candidate, error) {
	var v *big.Rat
	var err error
	if r.o.Metric == AUC {
		v, err = r.send(ctx, []int{0})
	} else {
		v, err = r.score(ctx, make([]float64, r.n))
	}
	if err != nil {
		return nil, err
	}
	var out []candidate
	for t := range r.n + 1 {
		switch r.o.Metric {
		case Accuracy:
			if r.matches(big.NewRat(int64(r.n-t), int64(r.n)), v) {
				out = append(out, candidate{t, -1})
			}
		case Brier:
			if r.matches(new(big.Rat).SetFloat64(float64(t)/float64(r.n)), v) {
				out = append(out, candidate{t, -1})
			}
		case AUC:
			if t == 0 || t == r.n {
				continue
			}
			r.total = t
			for o := range 2 {
				if o <= t && 1-o <= r.n-t && r.matches(r.subsetScore(1, o), v) {
					out = append(out, candidate{t, o})
				}
			}
			r.total = -1
		}
	}
	if len(out) == 0 {
		what := "class count"
		if r.o.Metric == AUC {
			what = "class count and label of row 0 (AUC needs both classes)"
		}
		return nil, fmt.Errorf("discrete: query 1: no %s explains the score %s: %w", what, v.FloatString(8), errInconsistent)
	}
	return out, nil
}

// binary runs the flip or group attack: the baseline, then subset
// queries that do not depend on its answer, decoded under each candidate
// the baseline left; exactly one candidate must explain every score.
func (r *run) binary(ctx context.Context, st Strategy) error {
	cands, err := r.baseline(ctx)
	if err != nil {
		return err
	}
	rows := make([]int, 0, r.n)
	for i := range r.n {
		if r.o.Metric != AUC || i != 0 {
			rows = append(rows, i)
		}
	}
	if len(cands) == 1 {
		return r.progressive(ctx, st, cands[0], rows)
	}
	// The queries: flip weighs every row but the last (T gives it);
	// group weighs the design's rows block by block.
	var sets [][]int
	var blocks []block
	if st == Flip {
		// The last row is T minus the others, except for AUC, whose
		// baseline leaves T within the rounding only: there every row is
		// weighed and the sum picks T.
		last := len(rows) - 1
		if r.o.Metric == AUC {
			last = len(rows)
		}
		for _, i := range rows[:last] {
			sets = append(sets, []int{i})
		}
	} else {
		pl := r.o.planner()
		blocks, _ = pl.plan(len(rows))
		for _, b := range blocks {
			for _, q := range b.sent {
				var set []int
				for _, c := range b.d.rows[q] {
					if int(c) < b.width {
						set = append(set, rows[b.lo+int(c)])
					}
				}
				sets = append(sets, set)
			}
		}
	}
	vals := make([]*big.Rat, len(sets))
	for j, set := range sets {
		if vals[j], err = r.send(ctx, set); err != nil {
			return err
		}
	}
	// A candidate is ruled out only if no labeling explains the scores
	// under it; one whose scores are ambiguous may be the truth, so the
	// whole attack is then ambiguous.
	var found [][]int
	var firstErr error
	for _, c := range cands {
		y, err := r.decodeBinary(c, st, rows, sets, blocks, vals)
		if err != nil {
			var ae *AmbiguousError
			if errors.As(err, &ae) {
				return err
			}
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		found = append(found, y)
		if len(found) > 1 {
			break
		}
	}
	switch len(found) {
	case 0:
		return firstErr
	case 1:
		for i, y := range found[0] {
			r.setLabel(i, y)
		}
		r.total = 0
		for _, y := range found[0] {
			r.total += y
		}
		return nil
	}
	return fmt.Errorf("discrete: two labelings explain every score: %w", &AmbiguousError{Query: 1, Candidates: 2})
}

// decodeBinary decodes the subset sums under candidate c.
func (r *run) decodeBinary(c candidate, st Strategy, rows []int, sets [][]int, blocks []block, vals []*big.Rat) ([]int, error) {
	r.total = c.total
	defer func() { r.total = -1 }()
	y := make([]int, r.n)
	ones := 0
	if c.y0 >= 0 {
		y[0], ones = c.y0, c.y0
	}
	sums := make([]int, len(sets))
	for j, set := range sets {
		s := len(set)
		o, err := r.count(0, s, func(o int) *big.Rat { return r.subsetScore(s, o) }, vals[j])
		if err != nil {
			var ae *AmbiguousError
			if errors.As(err, &ae) {
				ae.Query = j + 2
			}
			return nil, err
		}
		sums[j] = o
	}
	if st == Flip {
		for j, set := range sets {
			y[set[0]] = sums[j]
			ones += sums[j]
		}
		if len(sets) == len(rows) {
			if ones != c.total {
				return nil, fmt.Errorf("discrete: the decoded labels hold %d positives, the class count %d: %w", ones, c.total, errInconsistent)
			}
			return y, nil
		}
		last := c.total - ones
		if last != 0 && last != 1 {
			return nil, fmt.Errorf("discrete: the class count %d leaves %d for the last row: %w", c.total, last, errInconsistent)
		}
		y[rows[len(rows)-1]] = last
		return y, nil
	}
	j := 0
	for _, b := range blocks {
		ans := make([]int, len(b.d.rows))
		for _, q := range b.sent {
			ans[q] = sums[j]
			j++
		}
		x, err := b.d.decode(ans)
		if err != nil {
			return nil, fmt.Errorf("discrete: rows %d to %d: %w: %w", b.lo, b.lo+b.width-1, err, errInconsistent)
		}
		for col := b.width; col < len(x); col++ {
			if x[col] != 0 {
				return nil, fmt.Errorf("discrete: rows %d to %d: a virtual row decodes to 1: %w", b.lo, b.lo+b.width-1, errInconsistent)
			}
		}
		for col := range b.width {
			y[rows[b.lo+col]] = x[col]
			ones += x[col]
		}
	}
	if ones != c.total {
		return nil, fmt.Errorf("discrete: the decoded labels hold %d positives, the class count %d: %w", ones, c.total, errInconsistent)
	}
	return y, nil
}

// unknown returns the rows not yet known.
func (r *run) unknown() []int {
	var out []int
	for i, k := range r.res.Known {
		if !k {
			out = append(out, i)
		}
	}
	return out
}

// knownOnes counts the known rows of label 1.
func (r *run) knownOnes() int {
	c := 0
	for i, k := range r.res.Known {
		if k && r.res.Labels[i] == 1 {
			c++
		}
	}
	return c
}

// progressive runs flip or group when the baseline left one candidate:
// each query (flip) or block of the design (group) is decoded as soon as
// it is answered, so that an attack stopped by Options.MaxQueries keeps
// what it has read. A score no labeling explains unsets every label
// (the server is not the model); an ambiguous one or the budget keeps
// them.
func (r *run) progressive(ctx context.Context, st Strategy, c candidate, rows []int) (err error) {
	r.total = c.total
	if c.y0 >= 0 {
		r.setLabel(0, c.y0)
	}
	defer func() {
		var ae *AmbiguousError
		if err != nil && !errors.As(err, &ae) && !errors.Is(err, ErrBudget) {
			for i := range r.res.Known {
				r.res.Known[i] = false
			}
		}
	}()
	count := func(set []int) (int, error) {
		v, err := r.send(ctx, set)
		if err != nil {
			return 0, err
		}
		s := len(set)
		return r.count(0, s, func(o int) *big.Rat { return r.subsetScore(s, o) }, v)
	}
	if st == Flip {
		last := len(rows) - 1
		if r.o.Metric == AUC {
			last = len(rows)
		}
		for _, i := range rows[:last] {
			y, err := count([]int{i})
			if err != nil {
				return err
			}
			r.setLabel(i, y)
		}
		if last < len(rows) {
			y := c.total - r.knownOnes()
			if y != 0 && y != 1 {
				return fmt.Errorf("discrete: the class count %d leaves %d for the last row: %w", c.total, y, errInconsistent)
			}
			r.setLabel(rows[last], y)
		}
	} else {
		pl := r.o.planner()
		blocks, _ := pl.plan(len(rows))
		for _, b := range blocks {
			ans := make([]int, len(b.d.rows))
			for _, q := range b.sent {
				var set []int
				for _, col := range b.d.rows[q] {
					if int(col) < b.width {
						set = append(set, rows[b.lo+int(col)])
					}
				}
				if ans[q], err = count(set); err != nil {
					return err
				}
			}
			x, err := b.d.decode(ans)
			if err != nil {
				return fmt.Errorf("discrete: rows %d to %d: %w: %w", b.lo, b.lo+b.width-1, err, errInconsistent)
			}
			for col := b.width; col < len(x); col++ {
				if x[col] != 0 {
					return fmt.Errorf("discrete: rows %d to %d: a virtual row decodes to 1: %w", b.lo, b.lo+b.width-1, errInconsistent)
				}
			}
			for col := range b.width {
				r.setLabel(rows[b.lo+col], x[col])
			}
		}
	}
	if got := r.knownOnes(); got != c.total {
		return fmt.Errorf("discrete: the decoded labels hold %d positives, the class count %d: %w", got, c.total, errInconsistent)
	}
	return nil
}
