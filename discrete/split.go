package discrete

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// SplitFlip recovers the labels of the rows a public/private split
// scores (Kaggle's public leaderboard), without knowing which rows they
// are or how many: the score is the metric on the m public rows alone,
// so moving row i changes it by a multiple of 1/m if i is public and
// leaves it exactly as it was if i is private.
//
// Accuracy (K classes): the all-class-0 prediction is the baseline; row i
// moved to class 1 raises the count of right public rows by one (label
// 1), lowers it by one (label 0) or leaves it (label ≥ 2, or a private
// row); for K > 2 the rows left are moved to classes 2, 3, … in turn, and
// a row no class moves is private. The Brier score (binary): the baseline
// ½ everywhere (each public row ¼), row i at 0 adds yᵢ − ¼ (of 1/m), so up
// for label 1, down for 0, unchanged for a private row; K > 2 one-hot
// rows score 2(1 − accuracy), read as accuracy with the sign turned.
//
// A label is claimed only from a release that moved, in the direction
// only that label gives; a rounding coarser than 1/m leaves rows
// unclaimed, never claims a wrong one. With o.Check the claimed labels
// are submitted (class 0 on the other rows, which a private row does not
// score) and the score must be perfect: then every public row was
// claimed and every claim is right. Noise is not modelled here (o.Tau
// and o.Repeats must be 0 and 1). Queries: N + 1 for K = 2 (+ the check);
// for K > 2 up to 1 + N(K − 1).
func SplitFlip(ctx context.Context, s scorer.Server, o Options) (*decode.Result, error) {
	if o.Strategy != Auto && o.Strategy != Flip {
		return nil, fmt.Errorf("discrete: split flip is a flip attack, not %v", o.Strategy)
	}
	o.Strategy = Flip
	if err := o.validate(); err != nil {
		return nil, err
	}
	if o.Metric == AUC {
		return nil, errors.New("discrete: split flip reads accuracy and the Brier score, not roc-auc")
	}
	if o.Tau != 0 || o.Repeats > 1 {
		return nil, errors.New("discrete: split flip does not model noise")
	}
	if s.N() != o.N {
		return nil, fmt.Errorf("discrete: the server has %d rows, the options %d", s.N(), o.N)
	}
	n, k := o.N, o.K
	res := &decode.Result{Labels: make([]int, n), Known: make([]bool, n)}
	for i := range res.Labels {
		res.Labels[i] = -1
	}
	w := 1
	if k > 2 {
		w = k
	}
	// up: a higher score means more right rows (accuracy; the binary
	// Brier score's ½ → 0 move is read by its own rule below).
	up := o.Metric == Accuracy
	pred := make([]float64, n*w)
	set := func(i, c int) { // row i predicts class c (baseline: class 0, or ½ for binary Brier)
		switch {
		case w == 1 && o.Metric == Brier && c < 0:
			pred[i] = 0.5
		case w == 1 && o.Metric == Brier:
			pred[i] = 0 // weighs yᵢ − ¼
		case w == 1:
			pred[i] = float64(max(c, 0))
		default:
			row := pred[i*w : (i+1)*w]
			for j := range row {
				row[j] = 0
			}
			row[max(c, 0)] = 1
		}
	}
	for i := range n {
		set(i, -1)
	}
	q := 0
	score := func() (*big.Rat, error) {
		if o.MaxQueries > 0 && q >= o.MaxQueries {
			return nil, ErrBudget
		}
		q++
		if o.Progress != nil {
			defer func() { o.Progress(count(res.Known), q) }()
		}
		return s.Score(ctx, &scorer.Pred{K: k, P: pred})
	}
	finish := func(err error) (*decode.Result, error) {
		res.Queries = q
		return res, err
	}
	base, err := score()
	if err != nil {
		return finish(err)
	}
	pending := make([]int, 0, n)
	for i := range n {
		pending = append(pending, i)
	}
	classes := []int{1}
	if k > 2 {
		classes = classes[:0]
		for c := 1; c < k; c++ {
			classes = append(classes, c)
		}
	}
	for _, c := range classes {
		var still []int
		for _, i := range pending {
			set(i, c)
			v, err := score()
			set(i, -1)
			if err != nil {
				return finish(err)
			}
			d := v.Cmp(base)
			switch {
			case d == 0:
				still = append(still, i) // private, or a label this class does not move
			case w == 1 && o.Metric == Brier:
				// ½ → 0 adds (yᵢ − ¼)/m: up for 1, down for 0.
				res.Labels[i], res.Known[i] = boolInt(d > 0), true
			case (d > 0) == up:
				res.Labels[i], res.Known[i] = c, true // one more right row: the label is c
			case c == 1:
				res.Labels[i], res.Known[i] = 0, true // one fewer: it was right at class 0
			default:
				// Down for a class c ≥ 2 means label 0, which class 1
				// already read: the score is not the metric assumed.
				return finish(fmt.Errorf("discrete: split flip: row %d at class %d lowered the score: %w", i, c, decode.ErrInconsistent))
			}
		}
		pending = still
		if len(pending) == 0 || w == 1 {
			break
		}
	}
	if !o.Check {
		return finish(nil)
	}
	claimed := 0
	for i := range n {
		c := res.Labels[i]
		if !res.Known[i] {
			c = 0
		}
		if w == 1 && o.Metric == Brier {
			pred[i] = float64(c)
		} else {
			set(i, c)
		}
		if res.Known[i] {
			claimed++
		}
	}
	if claimed == 0 {
		return finish(errors.New("discrete: split flip: no row moved the score (every row private, or the rounding coarser than one row)"))
	}
	v, err := score()
	if err != nil {
		return finish(err)
	}
	res.Checked = true
	perfect := big.NewRat(1, 1)
	if o.Metric == Brier {
		perfect = new(big.Rat)
	}
	if v.Cmp(perfect) != 0 {
		for i := range res.Known {
			res.Known[i] = false
		}
		return finish(fmt.Errorf("discrete: split flip: the check scored %s, not %s: some public row unclaimed or a claim wrong: %w", v.RatString(), perfect.RatString(), decode.ErrInconsistent))
	}
	res.CheckDecisive = true
	return finish(nil)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func count(b []bool) int {
	k := 0
	for _, v := range b {
		if v {
			k++
		}
	}
	return k
}
