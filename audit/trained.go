package audit

// This file trains the default honest teams for real, where the
// competition's labels are an embedded data set with features: the
// teams train on the data set's other half (package passive's logistic
// regression and MLP, in Go) and submit their checkpoints.

import (
	"context"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/labelinf/labelinf/passive"
)

// trainedSets maps an embedded label set with features to the passive
// data set and which half of it the competition's holdout is.
var trainedSets = map[string]struct {
	dataset string
	test    bool // the holdout is the data set's test table
}{
	"adult_test":  {"adult", true},
	"adult_train": {"adult", false},
}

// TrainedTeams returns honest teams trained for real for a competition
// whose holdout labels are the embedded label set name, or nil if name
// has no features to train on. The teams fit on the other half of the
// data set (features one-hot encoded and standardised on it) and submit,
// in order:
//
//   - logreg-λ: logistic regression down a regularisation path (λ from
//     1 to 10⁻⁴), 8 submissions;
//   - logreg-rows: λ = 10⁻³ on the first 1/32, 1/16, …, all training
//     rows, 6 submissions;
//   - mlp-epochs: an MLP (one hidden layer of 32) checkpointed after 1,
//     2, 3, 4, 6 and 8 epochs (one seed: each checkpoint is the same
//     training run stopped there), 6 submissions;
//   - mlp-64-32: an MLP of two hidden layers (64, 32) after 1, 2 and 4
//     epochs, 3 submissions;
//   - near-ties: λ = 10⁻³ on every row, then resubmitted with λ 1.05,
//     1.1 and 0.95 × 10⁻³: near-ties of its own best, 4 submissions.
//
// Training is deterministic (Newton's method; the MLPs' seed derives
// from seed).
func TrainedTeams(ctx context.Context, name string, labels []int, seed uint64) ([]Team, error) {
	ts, ok := trainedSets[name]
	if !ok {
		return nil, nil
	}
	d, err := passive.LoadDataset("", ts.dataset)
	if err != nil {
		return nil, fmt.Errorf("audit: honest teams: %w", err)
	}
	train, hold := d.Train, d.Test
	if !ts.test {
		train, hold = d.Test, d.Train
	}
	if !slices.Equal(hold.Labels, labels) {
		return nil, fmt.Errorf("audit: honest teams: the labels of %s's table differ from the label set %s", ts.dataset, name)
	}
	rows := func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	all := rows(train.Rows())
	enc := passive.NewEncoder(train, all)
	x := enc.Encode(train, all)
	xh := enc.Encode(hold, rows(hold.Rows()))
	predict := func(c passive.Classifier) []float64 {
		p := c.Prob1(nil, xh)
		return p
	}
	var out []Team
	sub := func(tm *Team, label string, c passive.Classifier) {
		tm.Subs = append(tm.Subs, Honest{Name: tm.Name + "#" + label, Pred: predict(c)})
	}
	logreg := func(x *mat.Dense, y []int, lambda float64) (*passive.LogReg, error) {
		return passive.TrainLogReg(ctx, x, y, passive.LogRegOptions{Lambda: lambda, MaxIter: 50, Tol: 1e-10})
	}
	{
		tm := Team{Name: "logreg-λ"}
		for _, l := range []float64{1, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001, 1e-4} {
			m, err := logreg(x, train.Labels, l)
			if err != nil {
				return nil, fmt.Errorf("audit: honest team %s: %w", tm.Name, err)
			}
			sub(&tm, fmt.Sprintf("λ=%g", l), m)
		}
		out = append(out, tm)
	}
	{
		tm := Team{Name: "logreg-rows"}
		n := train.Rows()
		for _, f := range []int{32, 16, 8, 4, 2, 1} {
			k := n / f
			xs := x.Slice(0, k, 0, x.RawMatrix().Cols).(*mat.Dense)
			m, err := logreg(xs, train.Labels[:k], 1e-3)
			if err != nil {
				return nil, fmt.Errorf("audit: honest team %s: %w", tm.Name, err)
			}
			sub(&tm, fmt.Sprintf("rows=%d", k), m)
		}
		out = append(out, tm)
	}
	for _, mt := range []struct {
		name   string
		hidden []int
		epochs []int
	}{{"mlp-epochs", []int{32}, []int{1, 2, 3, 4, 6, 8}}, {"mlp-64-32", []int{64, 32}, []int{1, 2, 4}}} {
		tm := Team{Name: mt.name}
		for _, e := range mt.epochs {
			m, err := passive.TrainMLP(ctx, x, train.Labels, passive.MLPOptions{Hidden: mt.hidden, Epochs: e, Seed: seed ^ hash64(mt.name)})
			if err != nil {
				return nil, fmt.Errorf("audit: honest team %s: %w", tm.Name, err)
			}
			sub(&tm, fmt.Sprintf("epoch=%d", e), m)
		}
		out = append(out, tm)
	}
	{
		tm := Team{Name: "near-ties"}
		for _, l := range []float64{1e-3, 1.05e-3, 1.1e-3, 0.95e-3} {
			m, err := logreg(x, train.Labels, l)
			if err != nil {
				return nil, fmt.Errorf("audit: honest team %s: %w", tm.Name, err)
			}
			sub(&tm, fmt.Sprintf("λ=%g", l), m)
		}
		out = append(out, tm)
	}
	return out, nil
}
