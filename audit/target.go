package audit

// This file defines what the audit attacks: a Target, one served
// competition under one defence setting, and its in-process
// implementation.

import (
	"context"
	"errors"
	"math/big"
	"strconv"
	"sync"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/scorer"
)

// A Target is one competition under one defence cell, as a submitter
// sees it: a prediction in (one probability of class 1 per holdout row,
// in the server's row order), the released score out, exactly (the
// decimal the leaderboard shows, as a rational). Implementations: the
// in-process [InProcess]; a loopback HTTP client of labelinf serve plugs
// in through [Options.Targets] and must release the same scores for the
// same seed, so that the report is byte-identical.
type Target interface {
	// Rows is the number of prediction values a submission carries.
	Rows() int
	// Submit scores pred for team and returns the released score.
	Submit(ctx context.Context, team string, pred []float64) (*big.Rat, error)
	// Close releases the target's resources.
	Close() error
}

// A TargetFactory opens a fresh target (empty leaderboard, fresh
// defence state) for one cell of a competition. Labels are the private
// labels in row order, model the metric (unrounded: the cell's Round
// stage rounds), seed the cell's simulation seed: every random stream
// of the defences (noise, subsets, split) must derive from it as
// [defence.Settings.SimulationChain] derives them.
type TargetFactory func(ctx context.Context, labels []int, model *scorer.Model, cell Cell, seed [32]byte) (Target, error)

// InProcess is the in-process target factory: the metric's model scores
// the rows in scope exactly as the modelled library does
// ([scorer.Model.Eval], which labelinf serve also uses), and the cell's
// [defence.Settings.SimulationChain] releases the score. Submission limits
// are not enforced here: the audit accounts for them in days.
func InProcess(ctx context.Context, labels []int, model *scorer.Model, cell Cell, seed [32]byte) (Target, error) {
	ch, err := cell.Defence.SimulationChain(len(labels), seed, nil)
	if err != nil {
		return nil, err
	}
	d := cell.Defence
	perRow := d.Ladder != nil || d.Thresholdout != nil || (d.Noise != nil && d.Noise.Key == "losses")
	return &inProcess{labels: labels, model: model, chain: ch, eps: epsOf(model), perRow: perRow}, nil
}

// errProb rejects a prediction outside [0, 1], before any scoring.
var errProb = errors.New("audit: a prediction value is outside [0, 1]")

// epsOf returns the model's clipping ε as a float64, 1e-300 if it does
// not clip (so that a per-row loss stays finite).
func epsOf(m *scorer.Model) float64 {
	if m.Loss.Eps == "" {
		return 1e-300
	}
	e, err := strconv.ParseFloat(m.Loss.Eps, 64)
	if err != nil || !(e > 0) {
		return 1e-300
	}
	return e
}

var _ TargetFactory = InProcess

type inProcess struct {
	labels []int
	model  *scorer.Model
	chain  *defence.Chain
	eps    float64
	perRow bool
	mu     sync.Mutex
	sc     scorer.Scratch
	sub    []int
	subp   []float64
}

func (t *inProcess) Rows() int    { return len(t.labels) }
func (t *inProcess) Close() error { return nil }

func (t *inProcess) Submit(ctx context.Context, team string, pred []float64) (*big.Rat, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := &scorer.Pred{K: 2, P: pred}
	if err := p.Check(len(t.labels), 2); err != nil {
		return nil, err
	}
	for _, v := range pred {
		if !(v >= 0 && v <= 1) {
			return nil, errProb
		}
	}
	sub := defence.Submission{Team: team}
	if t.chain.NeedsPred() {
		sub.Pred = defence.CanonicalPred(pred)
	}
	// Per-row losses for the mechanisms that need them (the
	// parameter-free Ladder's paired test, noise keyed on the losses).
	if t.perRow {
		l := make([]float64, len(pred))
		if err := (defence.LogLoss{Eps: t.eps}).PerRow(l, pred, t.labels); err != nil {
			return nil, err
		}
		sub.Losses = l
	}
	sub.Mean = func(rows []int) (*big.Rat, error) { return t.mean(pred, rows) }
	r, err := t.chain.Release(sub)
	if err != nil {
		return nil, err
	}
	return r.Score, nil
}

// mean is the model's score of pred on rows (all rows when rows covers
// them in order).
func (t *inProcess) mean(pred []float64, rows []int) (*big.Rat, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(rows) == len(t.labels) {
		return t.model.EvalScratch(&t.sc, t.labels, &scorer.Pred{K: 2, P: pred})
	}
	t.sub, t.subp = t.sub[:0], t.subp[:0]
	for _, i := range rows {
		t.sub = append(t.sub, t.labels[i])
		t.subp = append(t.subp, pred[i])
	}
	return t.model.EvalScratch(&t.sc, t.sub, &scorer.Pred{K: 2, P: t.subp})
}
