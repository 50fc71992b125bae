package discrete

// This file implements the K-class attack: flipping one row at a time
// away from a constant prediction.

import (
	"context"
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/decode"
)

// errInconsistent is decode's: no labeling explains the scores.
var errInconsistent = decode.ErrInconsistent

// rightScore is the exact released score, before rounding, of a K-class
// one-hot prediction that puts right rows on their label: accuracy
// right/N; the multiclass Brier score 2(N − right)/N, as scikit-learn
// computes it (each row's term is exactly 0 or 2, every sum exact, one
// correctly rounded division).
func (r *run) rightScore(right int) *big.Rat {
	if r.o.Metric == Brier {
		return new(big.Rat).SetFloat64(float64(2*(r.n-right)) / float64(r.n))
	}
	return big.NewRat(int64(right), int64(r.n))
}

// rights sends the one-hot prediction of classes cls and returns how many
// rows it puts on their label, in [lo, hi].
func (r *run) rights(ctx context.Context, cls []int, lo, hi int) (int, error) {
	k := r.o.K
	p := make([]float64, r.n*k)
	for i, c := range cls {
		p[i*k+c] = 1
	}
	v, err := r.score(ctx, p)
	if err != nil {
		return 0, err
	}
	f := r.rightScore
	if r.o.Metric == Brier {
		// Nonincreasing in right: count wrong rows instead.
		g, err := r.count(r.n-hi, r.n-lo, func(w int) *big.Rat { return f(r.n - w) }, v)
		return r.n - g, err
	}
	return r.count(lo, hi, f, v)
}

// kflip learns n₀ from the all-class-0 prediction, then moves one row at
// a time to class 1: the count of right rows changes by −1 (label 0), +1
// (label 1) or 0 (a label ≥ 2); rows of labels ≥ 2 are then moved to
// class 2, 3, … in turn, each query saying yes or no, and the last class
// is what remains. For K = 3: N + 1 queries.
func (r *run) kflip(ctx context.Context) error {
	k := r.o.K
	cls := make([]int, r.n)
	n0, err := r.rights(ctx, cls, 0, r.n)
	if err != nil {
		return err
	}
	var rest []int
	for i := range r.n {
		cls[i] = 1
		got, err := r.rights(ctx, cls, max(n0-1, 0), min(n0+1, r.n))
		cls[i] = 0
		if err != nil {
			return err
		}
		switch got - n0 {
		case -1:
			r.setLabel(i, 0)
		case 1:
			r.setLabel(i, 1)
		default:
			if k == 3 {
				r.setLabel(i, 2)
			} else {
				rest = append(rest, i)
			}
		}
	}
	for _, i := range rest {
		y := k - 1
		for c := 2; c < k-1; c++ {
			cls[i] = c
			got, err := r.rights(ctx, cls, n0, n0+1)
			cls[i] = 0
			if err != nil {
				return err
			}
			if got == n0+1 {
				y = c
				break
			}
		}
		r.setLabel(i, y)
	}
	zeros := 0
	for _, y := range r.res.Labels {
		if y == 0 {
			zeros++
		}
	}
	if zeros != n0 {
		return fmt.Errorf("discrete: the decoded labels hold %d of class 0, the scores %d: %w", zeros, n0, errInconsistent)
	}
	return nil
}

// kgroup is the coin-weighing design for K classes: after n₀ from the
// all-class-0 prediction, each weighing S of the design is sent K − 1
// times, S on class c (c = 1, …, K − 1) and every other row on class 0,
// whose count of right rows is n₀ − a₀ + a_c (a_c: the rows of S of
// label c); with Σ_c a_c = |S| the K − 1 answers give every a_c. Each
// class indicator is then a binary coin-weighing problem on the same
// design, decoded as the binary group attack decodes (block by block,
// every answer checked): (K − 1)·q + 1 queries for the design's q
// weighings (625 for K = 3 at N = 1,000, against flip's 1,002).
func (r *run) kgroup(ctx context.Context) error {
	k, n := r.o.K, r.n
	cls := make([]int, n)
	n0, err := r.rights(ctx, cls, 0, n)
	if err != nil {
		return err
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	pl := r.o.planner()
	blocks, _ := pl.plan(n)
	for _, b := range blocks {
		// ans[c][q]: a_c of weighing q, c = 0 … K−1.
		ans := make([][]int, k)
		for c := range ans {
			ans[c] = make([]int, len(b.d.rows))
		}
		for _, q := range b.sent {
			var set []int
			for _, col := range b.d.rows[q] {
				if int(col) < b.width {
					set = append(set, rows[b.lo+int(col)])
				}
			}
			diff := make([]int, k) // a_c − a_0, diff[0] = 0
			for c := 1; c < k; c++ {
				for _, i := range set {
					cls[i] = c
				}
				got, err := r.rights(ctx, cls, max(n0-len(set), 0), min(n0+len(set), n))
				for _, i := range set {
					cls[i] = 0
				}
				if err != nil {
					return err
				}
				diff[c] = got - n0
			}
			// Σ_c (a_0 + diff_c) = |S|.
			sum := 0
			for _, d := range diff {
				sum += d
			}
			if (len(set)-sum)%k != 0 {
				return fmt.Errorf("discrete: weighing of %d rows: class counts do not add up: %w", len(set), errInconsistent)
			}
			a0 := (len(set) - sum) / k
			for c := range k {
				ans[c][q] = a0 + diff[c]
				if ans[c][q] < 0 || ans[c][q] > len(set) {
					return fmt.Errorf("discrete: weighing of %d rows: %d of class %d: %w", len(set), ans[c][q], c, errInconsistent)
				}
			}
		}
		lab := make([]int, b.width)
		for i := range lab {
			lab[i] = -1
		}
		for c := range k {
			x, err := b.d.decode(ans[c])
			if err != nil {
				return fmt.Errorf("discrete: rows %d to %d, class %d: %w: %w", b.lo, b.lo+b.width-1, c, err, errInconsistent)
			}
			for col, v := range x {
				switch {
				case v == 0:
				case col >= b.width:
					return fmt.Errorf("discrete: rows %d to %d: a virtual row decodes to class %d: %w", b.lo, b.lo+b.width-1, c, errInconsistent)
				case lab[col] >= 0:
					return fmt.Errorf("discrete: row %d decodes to classes %d and %d: %w", rows[b.lo+col], lab[col], c, errInconsistent)
				default:
					lab[col] = c
				}
			}
		}
		for col, y := range lab {
			if y < 0 {
				return fmt.Errorf("discrete: row %d decodes to no class: %w", rows[b.lo+col], errInconsistent)
			}
			r.setLabel(rows[b.lo+col], y)
		}
	}
	zeros := 0
	for _, y := range r.res.Labels {
		if y == 0 {
			zeros++
		}
	}
	if zeros != n0 {
		return fmt.Errorf("discrete: the decoded labels hold %d of class 0, the scores %d: %w", zeros, n0, errInconsistent)
	}
	return nil
}
