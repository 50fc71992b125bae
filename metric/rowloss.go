package metric

// This file gives the metrics that have one a per-row loss, what the
// parameter-free Ladder's paired test and noise keyed on the losses read
// (defence.Submission.Losses): for the log-loss models the clipped
// per-row cross-entropy (serve computes it), for accuracy the 0/1 loss and
// for the Brier score the per-sample squared error. ROC AUC has none (a
// row's share of it depends on every other row's rank): on it serve runs
// the fixed-step Ladder, which reads the score alone, and refuses the
// others.

import "github.com/labelinf/labelinf/scorer"

// A rowLosser is a metric with a per-row loss (lower is better) whose
// mean over the rows scored is its score (accuracy: 1 − the score).
type rowLosser interface {
	// RowLosses writes the loss of every row into dst (len(labels)
	// values); pred has passed Check.
	RowLosses(dst []float64, labels []int, pred []float64, k int)
}

// RowLosses is accuracy's 0/1 loss, scikit-learn's zero_one_loss per
// sample: 1 where the predicted class (Score's rule, ties included) is
// not the label, else 0. Their mean is 1 − accuracy.
func (a accuracy) RowLosses(dst []float64, labels []int, pred []float64, k int) {
	for i, y := range labels {
		dst[i] = 1
		if a.class(pred, i, k) == y {
			dst[i] = 0
		}
	}
}

// RowLosses is the Brier score's per-sample squared error, the terms
// scikit-learn's brier_score_loss averages (scorer.BrierRows): (y − p)²
// for two classes, Σₖ (1[y = k] − pₖ)² for K.
func (brier) RowLosses(dst []float64, labels []int, pred []float64, k int) {
	// Check has accepted pred and the labels were validated when loaded.
	_ = scorer.BrierRows(dst, labels, pred, k)
}

var (
	_ rowLosser = accuracy{}
	_ rowLosser = brier{}
)

// RowLosses writes metric m's per-row loss of pred into dst, as serve
// passes it to the defence chain (accuracy's 0/1 loss, the Brier score's
// squared error), and reports whether m has one here (false for ROC AUC
// and for the log-loss models, whose per-row losses the chain's caller
// computes with the model's clipping). pred must have passed m.Check.
func RowLosses(m Metric, dst []float64, labels []int, pred []float64, k int) bool {
	rl, ok := m.(rowLosser)
	if ok {
		rl.RowLosses(dst, labels, pred, k)
	}
	return ok
}

// HasRowLosses reports whether [RowLosses] writes metric m's per-row
// losses (accuracy, the Brier score).
func HasRowLosses(m Metric) bool {
	_, ok := m.(rowLosser)
	return ok
}
