package defence

import (
	"context"
	"errors"
	"fmt"
	"math/big"
)

// Board is an in-process leaderboard: private labels, a metric, a chain
// and optionally a budget. It is the simulator the attacks of package
// adaptive run against in tests and in the audit's in-process mode; the
// HTTP server composes the same Chain with its own metrics and database.
//
// A prediction covers the training rows first (their labels are public;
// only Thresholdout reads them), then the holdout rows in the chain's
// order.
type Board struct {
	metric Metric
	y      []int // holdout labels
	train  []int // training labels (public)
	chain  *Chain
	budget *Budget
}

// BoardOptions configures [NewBoard].
type BoardOptions struct {
	Metric Metric
	// Labels are the holdout labels (0 or 1), as many as the chain's rows.
	Labels []int
	// Train are the training labels (0 or 1); nil for none.
	Train []int
	Chain *Chain
	// Budget, if non-nil, refuses submissions over the limits with a
	// *LimitError (nothing else is spent or computed).
	Budget *Budget
}

// NewBoard returns a board. It returns an error if a label is not 0 or 1,
// or the labels do not match the chain's rows.
func NewBoard(o BoardOptions) (*Board, error) {
	if o.Metric == nil || o.Chain == nil {
		return nil, errors.New("defence: board needs a metric and a chain")
	}
	if len(o.Labels) != o.Chain.Rows() {
		return nil, fmt.Errorf("defence: %d labels for a chain of %d rows", len(o.Labels), o.Chain.Rows())
	}
	for _, ys := range [][]int{o.Labels, o.Train} {
		for i, v := range ys {
			if v != 0 && v != 1 {
				return nil, fmt.Errorf("defence: label %d is %d; want 0 or 1", i, v)
			}
		}
	}
	return &Board{
		metric: o.Metric,
		y:      append([]int(nil), o.Labels...),
		train:  append([]int(nil), o.Train...),
		chain:  o.Chain,
		budget: o.Budget,
	}, nil
}

// Rows returns the number of prediction values a submission must carry.
func (b *Board) Rows() int { return len(b.train) + len(b.y) }

// Chain returns the board's chain.
func (b *Board) Chain() *Chain { return b.chain }

// Submit scores pred for the anonymous team "" and returns the released
// score, exactly. It implements adaptive.Leaderboard.
func (b *Board) Submit(ctx context.Context, pred []float64) (*big.Rat, error) {
	r, err := b.SubmitAs(ctx, "", pred)
	if err != nil {
		return nil, err
	}
	return r.Score, nil
}

// Team returns a view of the board that submits as team.
func (b *Board) Team(team string) *TeamBoard { return &TeamBoard{b: b, team: team} }

// TeamBoard submits to a Board under one team name.
type TeamBoard struct {
	b    *Board
	team string
}

// Submit implements adaptive.Leaderboard for the team.
func (t *TeamBoard) Submit(ctx context.Context, pred []float64) (*big.Rat, error) {
	r, err := t.b.SubmitAs(ctx, t.team, pred)
	if err != nil {
		return nil, err
	}
	return r.Score, nil
}

// SubmitAs scores pred for team and returns the full release. The order
// of checks is the server's: the context, the prediction's shape and
// domain (label-independent), the budget, then scoring.
func (b *Board) SubmitAs(ctx context.Context, team string, pred []float64) (Released, error) {
	if err := ctx.Err(); err != nil {
		return Released{}, err
	}
	sub, err := b.submission(team, pred)
	if err != nil {
		return Released{}, err
	}
	if b.budget != nil {
		if d := b.budget.Spend(team); !d.OK() {
			return Released{}, &LimitError{Decision: d}
		}
	}
	return b.chain.Release(sub)
}

// PrivateScore returns pred's exact score on the private rows of the
// chain's Split; ErrNotClosed before the competition closes.
func (b *Board) PrivateScore(pred []float64) (*big.Rat, error) {
	sp := b.chain.Split()
	if sp == nil {
		return nil, errors.New("defence: the board has no public/private split")
	}
	sub, err := b.submission("", pred)
	if err != nil {
		return nil, err
	}
	return sp.PrivateScore(sub)
}

// submission validates pred and builds the chain's input.
func (b *Board) submission(team string, pred []float64) (Submission, error) {
	if len(pred) != b.Rows() {
		return Submission{}, fmt.Errorf("defence: %d predictions; want %d", len(pred), b.Rows())
	}
	if err := b.metric.Check(pred); err != nil {
		return Submission{}, err
	}
	nt := len(b.train)
	tp, hp := pred[:nt:nt], pred[nt:]
	sub := Submission{Team: team}
	if b.chain.NeedsPred() {
		sub.Pred = CanonicalPred(pred)
	}
	l := make([]float64, len(hp))
	switch err := b.metric.PerRow(l, hp, b.y); {
	case err == nil:
		// The metrics here score the exact mean of their per-row losses,
		// which is the chain's default: no Mean needed.
		sub.Losses = l
	case errors.Is(err, ErrNoPerRow):
		sub.Mean = func(rows []int) (*big.Rat, error) { return b.metric.Score(hp, b.y, rows) }
	default:
		return Submission{}, err
	}
	if nt > 0 {
		all := make([]int, nt)
		for i := range all {
			all[i] = i
		}
		ts, err := b.metric.Score(tp, b.train, all)
		if err != nil {
			return Submission{}, err
		}
		sub.TrainScore = ts
	}
	return sub, nil
}
