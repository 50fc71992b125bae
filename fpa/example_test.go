package fpa_test

import (
	"fmt"

	"github.com/labelinf/labelinf/fpa"
)

// Rounding 1/3 in binary16 in two directions, and the hex form.
func ExampleFloat_Quo() {
	one := fpa.New(fpa.Binary16).SetInt64(1)
	three := fpa.New(fpa.Binary16).SetInt64(3)
	up := fpa.New(fpa.Binary16).SetMode(fpa.ToPositiveInf).Quo(one, three)
	down := fpa.New(fpa.Binary16).SetMode(fpa.ToNegativeInf).Quo(one, three)
	fmt.Println(up.Text('x', -1), up.Acc())
	fmt.Println(down.Text('x', -1), down.Acc())
	// Output:
	// 0x1.558p-02 Above
	// 0x1.554p-02 Below
}

// A float32 server's mean log-loss of three predictions, and the rigorous
// bound on its distance to the exact loss. The confident wrong prediction
// p = 1 is clipped to 1−eps computed in float32, 1 − 2^−23, so its term is
// −ln 2^−23 ≈ 15.94, not −ln 10^−7 ≈ 16.12.
func ExampleLoss() {
	l := fpa.Loss{Format: fpa.Binary32, Eps: "1e-7", Sum: fpa.SumOptions{Order: fpa.Pairwise}}
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
