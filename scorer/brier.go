package scorer

// This file implements the Brier score as scikit-learn computes it.

import (
	"errors"
	"fmt"
	"math"
)

// Brier returns the Brier score of pred (n rows of k values, row-major;
// binary, k ≤ 2: one probability of class 1 per row) against labels, in
// float64 as scikit-learn computes it:
//
//   - binary: brier_score_loss (scikit-learn 1.2–1.6):
//     np.average((y − p)²), each term (y − p)² rounded twice in float64
//     (the difference, the square), summed by numpy's pairwise sum over
//     buffers of 8,192, divided by N. Bit for bit Debian 12's
//     scikit-learn 1.2.1 (serve's libraries test).
//   - K classes: the multiclass Brier score of scikit-learn ≥ 1.7
//     (brier_score_loss with scale_by_half=False, which it picks for
//     K > 2): np.average(np.sum((onehot(y) − P)², axis=1)), the mean over
//     rows of Σₖ (1[y = k] − pₖ)², in [0, 2]. Debian 12's scikit-learn
//     1.2.1 has no multiclass Brier score; the row sum is numpy's
//     reduction of a row of K values (its pairwise sum: left to right
//     below 8 values), and serve's libraries test checks it against
//     that numpy expression bit for bit.
//
// The score is linear in the labels: row i contributes pᵢ² + yᵢ(1 − 2pᵢ)
// (binary), so a prediction of 0, ½ or 1 weighs a label by +1, 0 or −1
// (package discrete's additive queries).
//
// It returns an error if the lengths disagree or a value is not a finite
// number in [0, 1] (scikit-learn raises on a probability outside [0, 1]).
func Brier(labels []int, pred []float64, k int) (float64, error) {
	n := len(labels)
	if n == 0 {
		return 0, errors.New("scorer: Brier score of no rows")
	}
	w := max(k, 2)
	if k <= 2 {
		w = 1
	}
	if len(pred) != n*w {
		return 0, fmt.Errorf("scorer: Brier score: %d values for %d rows of %d", len(pred), n, w)
	}
	terms := make([]float64, n)
	if err := BrierRows(terms, labels, pred, k); err != nil {
		return 0, err
	}
	s := sumNative(terms, numpySum) / float64(n)
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return 0, errors.New("scorer: Brier score is not finite")
	}
	return s, nil
}

// BrierRows writes into dst the Brier score's term of every row, the
// per-sample squared error scikit-learn averages (see [Brier], which is
// their numpy mean): (y − p)² for two classes, Σₖ (1[y = k] − pₖ)² for K.
// It returns [Brier]'s errors for bad lengths, labels or values.
func BrierRows(dst []float64, labels []int, pred []float64, k int) error {
	n := len(labels)
	w := max(k, 2)
	if k <= 2 {
		w = 1
	}
	if len(pred) != n*w || len(dst) != n {
		return fmt.Errorf("scorer: Brier score: %d values and %d terms for %d rows of %d", len(pred), len(dst), n, w)
	}
	terms := dst
	var row [8]float64
	for i, y := range labels {
		if y < 0 || y >= max(k, 2) {
			return fmt.Errorf("scorer: Brier score: label %d of row %d outside [0, %d)", y, i, max(k, 2))
		}
		if w == 1 {
			p := pred[i]
			if !(p >= 0 && p <= 1) {
				return fmt.Errorf("scorer: Brier score: value %d (%v) is not a probability", i, p)
			}
			d := float64(y) - p
			terms[i] = d * d
			continue
		}
		rt := row[:0]
		if w > len(row) {
			rt = make([]float64, 0, w)
		}
		for j, p := range pred[i*w : (i+1)*w] {
			if !(p >= 0 && p <= 1) {
				return fmt.Errorf("scorer: Brier score: value %d (%v) is not a probability", i*w+j, p)
			}
			var t float64
			if j == y {
				t = 1
			}
			d := t - p
			rt = append(rt, d*d)
		}
		terms[i] = numpyRowSum(rt)
	}
	return nil
}

// numpyRowSum is numpy's add.reduce of one short contiguous row, as
// np.sum(a, axis=1) runs it on a C-ordered (n, K) float64 array: its
// pairwise_sum over the whole row (left to right below 8 values). Checked
// against numpy 1.24 for K = 3, 9, 12, 17 and 30: pairwise over the whole
// row matches every row, the first value plus a pairwise sum of the rest
// about half.
func numpyRowSum(x []float64) float64 {
	return pairwise(x, 128)
}
