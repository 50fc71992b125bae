// This file builds the results of the single-query attacks.

package single

import "github.com/labelinf/labelinf/decode"

// newResult returns a result of n labels, all unknown.
func newResult(n int) *decode.Result {
	r := &decode.Result{Labels: make([]int, n), Known: make([]bool, n)}
	for i := range r.Labels {
		r.Labels[i] = -1
	}
	return r
}

// allKnown returns a verified result holding labels.
func allKnown(labels []int) *decode.Result {
	r := &decode.Result{Labels: labels, Known: make([]bool, len(labels)), Verified: true}
	for i := range r.Known {
		r.Known[i] = true
	}
	return r
}
