package metric

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func randLabels(r *rand.Rand, n, k int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = r.IntN(k)
	}
	return out
}

// bruteAUC is the O(n²) definition: P(score of a positive > a negative),
// ties ½.
func bruteAUC(labels []int, p []float64) *big.Rat {
	var num, pos, neg int64
	for i := range labels {
		if labels[i] == 1 {
			pos++
		} else {
			neg++
		}
		for j := range labels {
			if labels[i] == 1 && labels[j] == 0 {
				switch {
				case p[i] > p[j]:
					num += 2
				case p[i] == p[j]:
					num++
				}
			}
		}
	}
	return big.NewRat(num, 2*pos*neg)
}

func TestAUCTies(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 50 {
		n := 2 + r.IntN(30)
		labels := randLabels(r, n, 2)
		labels[0], labels[1] = 0, 1
		p := make([]float64, n)
		for i := range p {
			p[i] = float64(r.IntN(4)) / 4 // many ties
		}
		v := auc{}.Score(labels, p, 2)
		if got, want := v.R.String(), bruteAUC(labels, p).String(); got != want {
			t.Errorf("v.R.String() = %v, want %v", got, want)
		}
	}
}

func TestAccuracyTies(t *testing.T) {
	labels := []int{0, 1, 0, 1}
	for _, tc := range []struct {
		p    []float64
		k    int
		want int64 // rows right of 4
	}{
		{[]float64{0.5, 0.5, 0.5, 0.5}, 2, 2},                                      // 0.5 is class 0
		{[]float64{0.5, math.Nextafter(0.5, 1), 0.4, 1}, 2, 4},                     // just above is class 1
		{[]float64{math.Nextafter(0.5, 0), 0.5, 0, 0.5}, 2, 2},                     // just below is class 0
		{[]float64{.5, .5, 0, .5, .5, 0, .4, .4, .2, .3, .3, .4}, 3, 2},            // first maximal class
		{[]float64{1, 0, 0, 0, 1, 0, 1, 0, 0, 0.2, 0.8, 0}, 3, 4},                  // no ties
		{[]float64{1. / 3, 1. / 3, 1. / 3, 0, .5, .5, 0, .5, .5, .5, .5, 0}, 3, 2}, // classes 0, 1, 1, 0: rows 0 and 1 right
	} {
		got := accuracy{}.Score(labels, tc.p, tc.k)
		if got := got.R.Num().Int64() * 4 / got.R.Denom().Int64(); got != tc.want {
			t.Errorf("%v k=%d: got %v, want %v", tc.p, tc.k, got, tc.want)
		}
	}
}
