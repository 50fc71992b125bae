package oracle

import (
	"context"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/scorer"
)

// TestSimAllocs: the float64 simulated scorer's per-point work allocates
// nothing: a query at N = 1,000 or N = 100,000 allocates exactly what
// building the returned big.Rat from the float64 score does
// (big.Rat.SetFloat64 normalises by a GCD).
func TestSimAllocs(t *testing.T) {
	m, err := scorer.ParseModel(scorer.Float64Sklearn)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var counts []float64
	for _, n := range []int{1000, 100000} {
		labels := make([]int, n)
		p := &scorer.Pred{K: 2, P: make([]float64, n)}
		for i := range labels {
			labels[i] = i % 2
			p.P[i] = float64(i%97+1) / 100
		}
		s, err := NewSim(m, labels, 2)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Score(ctx, p) // sizes the buffers
		if err != nil {
			t.Fatal(err)
		}
		f, _ := r.Float64()
		want := testing.AllocsPerRun(20, func() { ratSink = new(big.Rat).SetFloat64(f) })
		a := testing.AllocsPerRun(20, func() {
			if _, err := s.Score(ctx, p); err != nil {
				t.Fatal(err)
			}
		})
		counts = append(counts, a)
		if a > want {
			t.Errorf("N = %d: %v allocations per query; want %v, those of the returned big.Rat", n, a, want)
		}
	}
	t.Logf("allocations per query: %v at N = 1,000 and 100,000", counts)
	if counts[0] != counts[1] {
		t.Errorf("allocations per query grow with N: %v at N = 1,000 and 100,000", counts)
	}
}

// ratSink makes the reference big.Rat escape, as the returned score does.
var ratSink *big.Rat
