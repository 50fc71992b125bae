package audit

// This file defines what the audit attacks: a Target, one served
// competition under one defence setting, and its in-process
// implementation.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"sync"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/libm"
	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/serve"
)

// A Target is one competition under one defence cell, as a submitter
// sees it: a prediction in (one probability of class 1 per holdout row,
// in the server's row order), the released score out, exactly: the
// decimal the leaderboard shows, as a rational, or, for a cell that does
// not round, the float64 labelinf serve writes (the nearest to the
// released value), exactly. Implementations: the in-process simulation
// [InProcess] and [Loopback], HTTP clients of a real labelinf serve on
// 127.0.0.1; both release the same scores for the same seed, so that the
// report is byte-identical.
type Target interface {
	// Rows is the number of rows; a submission carries Rows values (one
	// probability of class 1 per row), or Rows·K for K > 2 classes.
	Rows() int
	// Submit scores pred for team and returns the released score.
	Submit(ctx context.Context, team string, pred []float64) (*big.Rat, error)
	// Close releases the target's resources.
	Close() error
}

// A Spec is one cell of a competition, what a [TargetFactory] opens a
// target for.
type Spec struct {
	// Labels are the private labels in row order.
	Labels []int
	// Model is the metric, unrounded (the cell's Round stage rounds);
	// Metric and Clip name it as the config does (labelinf serve's
	// competition fields). Model is nil for a metric that is not a
	// binary log-loss model (accuracy, roc-auc, brier, or K > 2), which
	// the target scores with serve's metric.
	Model        *scorer.Model
	Metric, Clip string
	// K is the number of classes (0 means 2); a prediction holds K
	// values per row for K > 2.
	K    int
	Cell Cell
	// Seed is the cell's simulation seed: every random stream of the
	// defences (noise, subsets) derives from it as
	// [defence.Settings.SimulationChain] derives them.
	Seed [32]byte
}

// A TargetFactory opens a fresh target (empty leaderboard, fresh
// defence state) for one cell of a competition.
type TargetFactory func(ctx context.Context, s Spec) (Target, error)

// InProcess is the in-process target factory: the metric's model scores
// the rows in scope exactly as the modelled library does
// ([scorer.Model.Eval], which labelinf serve also uses), and the cell's
// [defence.Settings.SimulationChain] releases the score, given what
// labelinf serve gives its chain (the team, the prediction's canonical
// bytes, the float64 per-row log-losses capped at [serve.MaxRowLoss]).
// An unrounded release is returned as the nearest float64, as serve
// writes it. Submission limits are not enforced here: the audit accounts
// for them in days.
//
// A metric other than a binary log-loss model (Spec.Model nil) is scored
// by serve's metric (metric.Parse), K-class rows included, and a
// defence that needs per-row losses is refused for the metrics serve
// refuses it for (the parameter-free Ladder and noise keyed on the
// losses of roc-auc: no per-row loss there); accuracy's and the Brier
// score's per-row losses are serve's (metric.RowLosses).
func InProcess(ctx context.Context, s Spec) (Target, error) {
	ch, err := s.Cell.Defence.SimulationChain(len(s.Labels), s.Seed, nil)
	if err != nil {
		return nil, err
	}
	d := s.Cell.Defence
	perRow := d.Ladder != nil || d.Thresholdout != nil || (d.Noise != nil && d.Noise.Key == "losses")
	t := &inProcess{labels: s.Labels, model: s.Model, chain: ch, perRow: perRow, k: max(s.K, 2)}
	if s.Model != nil && t.k == 2 {
		t.eps = epsOf(s.Model)
		return t, nil
	}
	name := s.Metric
	if name == "" {
		name = DefaultMetric
	}
	if t.metric, err = metric.Parse(name, s.Clip); err != nil {
		return nil, err
	}
	if _, isLog := t.metric.(interface{ Model(int) string }); isLog {
		// A K-class log-loss: the per-row losses clip as serve's do.
		m, err := scorer.ParseModel(name)
		if err != nil {
			return nil, err
		}
		t.eps = epsOf(m)
		if s.Clip == "none" {
			t.eps = 1e-300
		} else if s.Clip != "" {
			if e, err := strconv.ParseFloat(s.Clip, 64); err == nil && e > 0 {
				t.eps = e
			}
		}
	} else if err := checkMetricDefence(s); err != nil {
		return nil, err
	} else {
		// Accuracy's 0/1 loss and the Brier score's squared error feed the
		// Ladder as serve's do; the fixed-step Ladder on ROC AUC reads the
		// score alone.
		t.perRow = t.perRow && metric.HasRowLosses(t.metric)
	}
	return t, nil
}

// checkMetricDefence returns a *MetricDefenceError if labelinf serve
// refuses the cell's defence on the spec's metric: the parameter-free
// Ladder and noise keyed on the losses need a per-row loss, which the
// log-loss metrics, accuracy (0/1) and the Brier score have and ROC AUC
// has not (serve/defence.go); the fixed-step Ladder reads the score alone.
func checkMetricDefence(s Spec) error {
	d := s.Cell.Defence
	if (d.Ladder == nil || d.Ladder.Kind == "fixed") && (d.Noise == nil || d.Noise.Key != "losses") {
		return nil
	}
	name := s.Metric
	if name == "" {
		name = DefaultMetric
	}
	m, err := metric.Parse(name, s.Clip)
	if err != nil {
		return err
	}
	if _, isLog := m.(interface{ Model(int) string }); isLog {
		return nil
	}
	if metric.HasRowLosses(m) {
		return nil
	}
	return &MetricDefenceError{Metric: m.Name()}
}

// A MetricDefenceError is a cell whose defence needs a per-row loss
// (the Ladder, noise keyed on the losses, Thresholdout) on a metric that
// has none in labelinf serve (accuracy, roc-auc, brier): serve refuses
// to start such a competition, so no host can run the cell.
type MetricDefenceError struct{ Metric string }

func (e *MetricDefenceError) Error() string {
	return fmt.Sprintf("audit: labelinf serve refuses this defence on metric %s (it needs a per-row loss): not a setting a host can run", e.Metric)
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
	model  *scorer.Model // binary log-loss; nil: metric scores
	metric metric.Metric
	k      int
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
	p := &scorer.Pred{K: t.k, P: pred}
	if err := p.Check(len(t.labels), t.k); err != nil {
		return nil, err
	}
	for _, v := range pred {
		if !(v >= 0 && v <= 1) {
			return nil, errProb
		}
	}
	if t.metric != nil {
		if err := t.metric.Check(pred, len(t.labels), t.k); err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		}
	}
	sub := defence.Submission{Team: team, HigherIsBetter: t.metric != nil && !t.metric.LowerIsBetter()}
	if t.chain.NeedsPred() {
		sub.Pred = defence.CanonicalPred(pred)
	}
	// Per-row losses for the mechanisms that need them (the
	// parameter-free Ladder's paired test, noise keyed on the losses),
	// as labelinf serve computes them.
	if t.perRow {
		l := make([]float64, len(t.labels))
		if t.metric != nil && metric.RowLosses(t.metric, l, t.labels, pred, t.k) {
			// accuracy's 0/1 loss, the Brier score's squared error
		} else if t.k == 2 {
			if err := (defence.LogLoss{Eps: t.eps}).PerRow(l, pred, t.labels); err != nil {
				return nil, err
			}
		} else {
			for i, y := range t.labels {
				l[i] = -libm.GoLog(math.Min(math.Max(pred[i*t.k+y], t.eps), 1-t.eps))
			}
		}
		for i, v := range l {
			l[i] = min(v, serve.MaxRowLoss)
		}
		sub.Losses = l
	}
	sub.Mean = func(rows []int) (*big.Rat, error) { return t.mean(pred, rows) }
	r, err := t.chain.Release(sub)
	if err != nil {
		return nil, err
	}
	if r.Decimals < 0 {
		return new(big.Rat).SetFloat64(r.Float64()), nil
	}
	return r.Score, nil
}

// errInfinite is an infinite score (serve releases "inf").
var errInfinite = errors.New("audit: infinite score")

// mean is the model's score of pred on rows (all rows when rows covers
// them in order).
func (t *inProcess) mean(pred []float64, rows []int) (*big.Rat, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	per := 1
	if t.k > 2 {
		per = t.k
	}
	labels, p := t.labels, pred
	if len(rows) != len(t.labels) {
		t.sub, t.subp = t.sub[:0], t.subp[:0]
		for _, i := range rows {
			t.sub = append(t.sub, t.labels[i])
			t.subp = append(t.subp, pred[i*per:(i+1)*per]...)
		}
		labels, p = t.sub, t.subp
	}
	if t.metric == nil {
		return t.model.EvalScratch(&t.sc, labels, &scorer.Pred{K: 2, P: p})
	}
	v := t.metric.Score(labels, p, t.k)
	if v.Inf {
		return nil, errInfinite
	}
	return v.R, nil
}

// asMetricDefence is errors.As for a *MetricDefenceError.
func asMetricDefence(err error, target **MetricDefenceError) bool {
	return errors.As(err, target)
}

// refusedCell reports an attack on a cell whose target cannot exist:
// labelinf serve refuses the defence on this metric.
func refusedCell(name string, err error) (*AttackResult, bool) {
	var me *MetricDefenceError
	if !asMetricDefence(err, &me) {
		return nil, false
	}
	return &AttackResult{Attack: name, Outcome: "not run", Note: me.Error()}, true
}
