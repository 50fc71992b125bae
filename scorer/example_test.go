package scorer_test

import (
	"fmt"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/scorer"
)

// A float32 server's mean log-loss of three predictions, and the rigorous
// bound on its distance to the exact loss. The confident wrong prediction
// p = 1 is clipped to 1−eps computed in float32, 1 − 2^−23, so its term is
// −ln 2^−23 ≈ 15.94, not −ln 10^−7 ≈ 16.12.
func ExampleFloatLoss() {
	l := scorer.FloatLoss{Loss: fpa.Loss{Format: fpa.Binary32, Sum: fpa.SumOptions{Order: fpa.Pairwise}}, Eps: "1e-7"}
	p := make([]fpa.Float, 3)
	for i, v := range []float64{0.9, 0.2, 1} {
		p[i].SetFloat64(v)
	}
	score, terms, err := l.Binary(nil, []int{1, 0, 0}, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	bound, _ := l.TermBound(terms)
	fmt.Println(score.Text('g', 7))
	fmt.Println(bound.Text('e', 1))
	// Output:
	// 5.42363
	// 3.2e-06
}
