package fpa_test

import (
	"fmt"
	"math/big"

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

// The rigorous bound on how far a float32 server's mean of 1,000 log terms,
// each at most 16.2 (−ln 10^−7 ≈ 16.12, Keras's clipped worst case),
// summed pairwise as numpy does, can be from the exact mean. The
// evaluation itself, with the clipping, is scorer.FloatLoss's.
func ExampleLoss() {
	l := fpa.Loss{Format: fpa.Binary32, Sum: fpa.SumOptions{Order: fpa.Pairwise}}
	bound, err := l.Bound(1000, big.NewFloat(16.2))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bound.Text('e', 1))
	// Output:
	// 1.7e-05
}

// 1/3 in a 16-bit format of 5 exponent and 10 fraction bits (binary16),
// rounded up, then its logarithm in the same format, rounded to nearest:
// each as an exact hex float, the shortest decimal that identifies it,
// and the direction of its rounding. This is the package doc's example.
func Example() {
	f := fpa.Format{ExpBits: 5, FracBits: 10} // binary16
	one := fpa.New(f).SetInt64(1)
	three := fpa.New(f).SetInt64(3)
	q := fpa.New(f).SetMode(fpa.ToPositiveInf).Quo(one, three)
	fmt.Println(q.Text('x', -1), q.Text('g', -1), q.Acc())
	l := fpa.New(f).Log(q)
	fmt.Println(l.Text('x', -1), l.Text('g', -1), l.Acc())
	// Output:
	// 0x1.558p-02 0.3335 Above
	// -0x1.19p+00 -1.098 Above
}
