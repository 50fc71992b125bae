package metric

// The log-loss metrics are the attacker's models of a scoring library
// (scorer.Model), so that a served competition and the model an attacker
// assumes (labelinf attack -assume NAME) are one thing. Accuracy and ROC AUC are
// computed here exactly, as rationals; the Brier score is scikit-learn's
// float64 arithmetic (scorer.Brier), its result taken as the rational it
// is.

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"sync"

	"github.com/labelinf/labelinf/scorer"
)

// Metric names that are not log-loss models.
const (
	Accuracy = "accuracy"
	AUC      = "roc-auc"
	Brier    = "brier"
	// AccuracyV1 is accuracy with the binary tie rule of labelinf
	// releases before the scikit-learn rule (p = 0.5 counted as class 1),
	// kept only so that a competition whose board was scored with it can
	// finish under it (serve.CheckRules).
	AccuracyV1 = "accuracy-v1"
)

// A Metric scores a prediction against labels. Check looks at the
// prediction alone (never the labels), so that a rejection it causes says
// nothing about them; Score runs only on a prediction Check accepted.
type Metric interface {
	// Name is the configured name.
	Name() string
	// Rule identifies the scoring rule for a board with k classes: two
	// metrics with one Rule score every prediction alike. It is stored
	// with a competition's scores (serve.CheckRules), so that no board mixes
	// two rules; a release that changes a metric's arithmetic gives it a
	// new Rule.
	Rule(k int) string
	// LowerIsBetter orders the leaderboard.
	LowerIsBetter() bool
	// DefaultDecimals is the rounding the modelled library applies (−1:
	// none).
	DefaultDecimals() int
	// Check reports whether pred (n rows of k values, row-major; binary: one
	// probability of class 1 per row) is a valid input.
	Check(pred []float64, n, k int) error
	// Score returns the exact score of pred against labels. A loss that is
	// infinite (a probability of exactly 0 on the true class with no
	// clipping) is Inf, not an error.
	Score(labels []int, pred []float64, k int) Value
}

// A Value is an exact score: a rational, or +Inf.
type Value struct {
	R   *big.Rat // nil when Inf
	Inf bool
}

// rowSumTol is the tolerance on |Σ row − 1| for a library that does not
// renormalise: a float32 softmax row of K ≤ 1000 classes sums to 1 within
// K·2^−24 ≈ 6e−5; 1e−4 accepts those and rejects anything a user meant
// differently.
const rowSumTol = 1e-4

// Parse returns the metric called name with the given clipping: name
// is accuracy, roc-auc, brier or a scorer model name that labelinf attack -assume
// accepts (float64-sklearn, float32-keras, torch-bce, leaderboard, fpa:E,M).
// clip "" keeps the model's clipping, "none" removes it, a decimal number
// replaces ε (clip to [ε, 1−ε]); clip applies to log-loss only.
func Parse(name, clip string) (Metric, error) {
	switch name {
	case Accuracy, AccuracyV1:
		if clip != "" {
			return nil, errors.New("metric: clip applies to log-loss metrics only")
		}
		return accuracy{v1: name == AccuracyV1}, nil
	case AUC:
		if clip != "" {
			return nil, errors.New("metric: clip applies to log-loss metrics only")
		}
		return auc{}, nil
	case Brier:
		if clip != "" {
			return nil, errors.New("metric: clip applies to log-loss metrics only")
		}
		return brier{}, nil
	}
	m, err := scorer.ParseModel(name)
	if err != nil {
		return nil, fmt.Errorf("metric: %w", err)
	}
	// The model as components, clip override applied: what GET
	// /v1/competitions/{id} publishes so that an attacker (labelinf plan,
	// attack) can plan for exactly the served model.
	sp, specErr := scorer.ParseSpec(name)
	if m.Exact {
		return nil, fmt.Errorf("metric %q: arbitrary-precision scorers are a research tool, not a served metric", name)
	}
	switch clip {
	case "":
	case "none":
		m.Loss.Eps = ""
		sp.Clip = ""
	default:
		e, err := parseDecimal(clip)
		if err != nil || e.Sign() <= 0 || e.Cmp(big.NewRat(1, 2)) >= 0 {
			return nil, fmt.Errorf("metric: clip %q: want none or a number in (0, 0.5)", clip)
		}
		m.Loss.Eps = clip
		sp.Clip = clip
	}
	def := m.Decimals
	m.Decimals = -1 // the Releaser rounds
	// A Model caches its parsed clipping constants at ParseModel; after
	// changing Loss, build it anew from its exported fields.
	m, err = scorer.NewModel(scorer.Model{Name: m.Name, Exact: m.Exact, Prec: m.Prec, Loss: m.Loss, Decimals: m.Decimals, Desc: m.Desc})
	if err != nil {
		return nil, fmt.Errorf("metric %q: %w", name, err)
	}
	l := &LogLoss{m: m, def: def}
	if specErr == nil {
		if _, err := sp.Model(); err == nil {
			l.spec, l.hasSpec = sp, true
		}
	}
	return l, nil
}

// LogLoss is a log-loss metric: a mean cross-entropy computed as its
// scorer.Model says.
type LogLoss struct {
	m   *scorer.Model
	def int
	// spec is m as components (hasSpec: m has such a form), the served
	// decimals aside.
	spec    scorer.Spec
	hasSpec bool
}

// Model returns the served model in the composed syntax of
// scorer.ParseSpec, rounded to decimals (−1: unrounded), or "" if it has
// no such form. It depends on the configuration alone, never on the
// labels.
func (l *LogLoss) Model(decimals int) string {
	if !l.hasSpec {
		return ""
	}
	sp := l.spec
	sp.Decimals = decimals
	return sp.String()
}

func (l *LogLoss) Name() string { return l.m.Name }

// Eps is the clipping ε as configured (scorer.Loss.Eps), "" for none.
func (l *LogLoss) Eps() string { return l.m.Loss.Eps }

// Rule is the model's name and its clipping: the arithmetic.
func (l *LogLoss) Rule(k int) string    { return "log-loss " + l.m.Name + " clip=" + l.m.Loss.Eps }
func (l *LogLoss) LowerIsBetter() bool  { return true }
func (l *LogLoss) DefaultDecimals() int { return l.def }

func (l *LogLoss) Check(pred []float64, n, k int) error {
	if err := checkProbs(pred); err != nil {
		return err
	}
	if k > 2 && !l.m.Loss.Renormalize {
		return checkRowSums(pred, k)
	}
	return nil
}

// scratchPool holds the per-row buffers of scorer.Model.EvalScratch.
var scratchPool = sync.Pool{New: func() any { return new(scorer.Scratch) }}

func (l *LogLoss) Score(labels []int, pred []float64, k int) Value {
	// The model was validated when built and the labels when loaded; the
	// prediction's length and finiteness are checked here (Check has
	// checked its range), as Eval would.
	p := &scorer.Pred{K: k, P: pred}
	if err := p.Check(len(labels), k); err != nil {
		return Value{Inf: true}
	}
	sc := scratchPool.Get().(*scorer.Scratch)
	r, err := l.m.EvalScratch(sc, labels, p)
	scratchPool.Put(sc)
	if err != nil {
		// After Check, the model fails only on an infinite or NaN term (a
		// probability of 0 on the true class with no clipping) or an
		// overflowing sum: an infinite loss.
		return Value{Inf: true}
	}
	return Value{R: r}
}

// accuracy is the fraction of rows whose predicted class is the label,
// as scikit-learn's accuracy_score(y, model.predict(X)) counts it: the
// predicted class of a row is numpy's argmax of its probabilities, the
// first class of largest probability. A binary row [1−p, p] is class 1
// iff p > 1/2 (exactly: 1−p is exact for p ≥ 1/2), so p = 0.5 is class 0
// (a tree's 50/50 leaf, LogisticRegression's decision_function = 0).
// v1 is the rule of labelinf releases before this one, which counted a
// binary p = 0.5 as class 1 (K > 2 is the same under both).
type accuracy struct{ v1 bool }

func (a accuracy) Name() string {
	if a.v1 {
		return AccuracyV1
	}
	return Accuracy
}

// Rule names the binary tie rule; K > 2 has one rule.
func (a accuracy) Rule(k int) string {
	switch {
	case k > 2:
		return "accuracy argmax"
	case a.v1:
		return "accuracy binary p>=0.5"
	}
	return "accuracy binary p>0.5"
}

func (accuracy) LowerIsBetter() bool  { return false }
func (accuracy) DefaultDecimals() int { return 5 }
func (accuracy) Check(pred []float64, n, k int) error {
	return checkProbs(pred)
}

func (a accuracy) Score(labels []int, pred []float64, k int) Value {
	right := 0
	for i, y := range labels {
		if a.class(pred, i, k) == y {
			right++
		}
	}
	return Value{R: big.NewRat(int64(right), int64(len(labels)))}
}

// class is row i's predicted class.
func (a accuracy) class(pred []float64, i, k int) int {
	var c int
	if k <= 2 {
		if pred[i] > 0.5 || a.v1 && pred[i] == 0.5 {
			c = 1
		}
		return c
	}
	row := pred[i*k : (i+1)*k]
	for j, v := range row {
		if v > row[c] {
			c = j
		}
	}
	return c
}

// auc is the area under the ROC curve of a binary prediction: the
// probability that a random positive row scores above a random negative
// one, ties counting ½ (the Mann–Whitney statistic, which equals
// scikit-learn's trapezoidal roc_auc_score [Fawcett06, §7]), exactly.
type auc struct{}

func (auc) Name() string         { return AUC }
func (auc) Rule(k int) string    { return AUC }
func (auc) LowerIsBetter() bool  { return false }
func (auc) DefaultDecimals() int { return 5 }
func (auc) Check(pred []float64, n, k int) error {
	if k != 2 {
		return fmt.Errorf("roc-auc needs a binary competition, this one has %d classes", k)
	}
	for i, v := range pred {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &ValueError{Index: i, Value: v, Reason: "not finite"}
		}
	}
	return nil
}

func (auc) Score(labels []int, pred []float64, k int) Value {
	idx := make([]int, len(pred))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return pred[idx[a]] < pred[idx[b]] })
	// Twice the Mann–Whitney U: for each positive, 2·(negatives below) +
	// (negatives tied).
	var u2, pos, neg int64
	for i := 0; i < len(idx); {
		j := i
		var p, q int64
		for ; j < len(idx) && pred[idx[j]] == pred[idx[i]]; j++ {
			if labels[idx[j]] == 1 {
				p++
			} else {
				q++
			}
		}
		u2 += p * (2*neg + q)
		pos += p
		neg += q
		i = j
	}
	if pos == 0 || neg == 0 {
		// Config validation refuses such splits; keep Score total anyway.
		return Value{R: big.NewRat(1, 2)}
	}
	r := new(big.Rat).SetFrac(big.NewInt(u2), new(big.Int).Mul(big.NewInt(2*pos), big.NewInt(neg)))
	return Value{R: r}
}

// brier is scikit-learn's Brier score (scorer.Brier: brier_score_loss
// for two classes, the multiclass form of scikit-learn ≥ 1.7 for K > 2,
// whose rows must sum to 1 as there).
type brier struct{}

func (brier) Name() string         { return Brier }
func (brier) Rule(k int) string    { return Brier }
func (brier) LowerIsBetter() bool  { return true }
func (brier) DefaultDecimals() int { return 5 }
func (brier) Check(pred []float64, n, k int) error {
	if err := checkProbs(pred); err != nil {
		return err
	}
	if k > 2 {
		return checkRowSums(pred, k)
	}
	return nil
}

func (brier) Score(labels []int, pred []float64, k int) Value {
	s, err := scorer.Brier(labels, pred, k)
	if err != nil {
		// Check has accepted pred and the labels were validated when
		// loaded: unreachable, and no label-dependent answer either way.
		return Value{Inf: true}
	}
	return Value{R: new(big.Rat).SetFloat64(s)}
}

// A ValueError says which submitted value is invalid and why.
type ValueError struct {
	Index  int
	Value  float64
	Reason string
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("value %d (%v) is %s", e.Index, e.Value, e.Reason)
}

// checkProbs reports the first value that is not a finite number in [0, 1].
func checkProbs(pred []float64) error {
	for i, v := range pred {
		if !(v >= 0 && v <= 1) {
			reason := "outside [0, 1]"
			if math.IsNaN(v) || math.IsInf(v, 0) {
				reason = "not finite"
			}
			return &ValueError{Index: i, Value: v, Reason: reason}
		}
	}
	return nil
}

// checkRowSums reports the first row whose sum is not 1 within rowSumTol.
func checkRowSums(pred []float64, k int) error {
	for i := 0; i+k <= len(pred); i += k {
		var s float64
		for _, v := range pred[i : i+k] {
			s += v
		}
		if math.Abs(s-1) > rowSumTol {
			return fmt.Errorf("row %d sums to %v, want 1 (within %g): this metric does not renormalise", i/k, s, rowSumTol)
		}
	}
	return nil
}

// parseDecimal parses a decimal number exactly.
func parseDecimal(s string) (*big.Rat, error) {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("metric: %q is not a number", s)
	}
	return r, nil
}
