// Package metric scores a prediction against labels as labelinf serve
// does: the log-loss models of package scorer (float64-sklearn,
// float32-keras, torch-bce, leaderboard, fpa:E,M, with the configured
// clipping), accuracy, ROC AUC and the Brier score. serve scores
// submissions with it, the audit and the discrete attacks' simulator
// (discrete.Sim) score with it, so that a simulated competition and a
// served one are one arithmetic.
//
// A [Metric] checks a prediction (n rows of k values, row-major; binary:
// one probability of class 1 per row) without looking at the labels, so
// that a rejection says nothing about them, and scores it exactly: a
// [Value] is a rational, or +Inf for a log-loss with a probability of 0
// on the true class and no clipping. Accuracy counts a row right when
// its predicted class (numpy's argmax, the first class of largest
// probability: a binary p = 0.5 is class 0) is its label; ROC AUC is the
// Mann–Whitney statistic with ties counting ½, equal to scikit-learn's
// trapezoidal roc_auc_score [Fawcett06, §7]; the Brier score is
// scikit-learn's brier_score_loss in its float64 arithmetic
// (scorer.Brier), taken as the rational it is. [RowLosses] gives the
// per-row losses whose mean is the score, where the metric has them.
//
// Metric sits below serve (which adds the database, the defences and
// HTTP), so that what only scores links neither SQLite nor PostgreSQL.
//
// # References
//
//   - [Fawcett06] T. Fawcett, "An introduction to ROC analysis", Pattern
//     Recognition Letters 27 (2006) 861–874.
package metric
