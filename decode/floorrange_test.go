package decode

import (
	"context"
	"testing"

	"github.com/labelinf/labelinf/scorer"
)

// TestRangeFloor: the floor of codes whose queries' sums span at most
// c·W falls as c grows, stays above the any-code floor, and as
// BoundMulti (c = 2.2) is below the K-ary code's own queries.
// BENCHMARKS.md ("K-ary ties") quotes the N = 25,000 values:
//
//	go test ./decode -run TestRangeFloor -v
func TestRangeFloor(t *testing.T) {
	t.Parallel()
	n, k := 25000, 6
	if testing.Short() {
		n = 2000
	}
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opt := MultiOptions{N: n, K: k, Model: m}
	f, err := FloorMulti(ctx, opt)
	if err != nil {
		t.Fatal(err)
	}
	prev := 1 << 30
	for _, c := range []float64{1.2, 2, 2.2, 5, 10, 19.5, 20} {
		q, err := RangeFloor(ctx, opt, c, radixBlockMax)
		if err != nil {
			t.Fatal(err)
		}
		if q > prev || q < f.AnyCode {
			t.Errorf("c = %g: floor %d; want ≤ %d (c smaller) and ≥ the any-code floor %d", c, q, prev, f.AnyCode)
		}
		prev = q
		t.Logf("N = %d, K = %d, c = %4.1f: %d queries (any code %d, block count %d)", n, k, c, q, f.AnyCode, f.BlockCount)
	}
	na := 600
	if testing.Short() {
		na = 150
	}
	b, err := BoundMulti(ctx, MultiOptions{N: na, K: k, Model: m, Strategy: Cross})
	if err != nil {
		t.Fatal(err)
	}
	sim := attackSim(t, "float64-sklearn", seededLabels(t, na, k), k, MultiOptions{Strategy: Cross})
	if !b.Lower || b.Queries > sim.Queries {
		t.Errorf("N = %d: the K-ary code's bound %d above its attack's %d queries", na, b.Queries, sim.Queries)
	}
	if _, err := RangeFloor(ctx, opt, 0, 1); err == nil {
		t.Error("RangeFloor accepted c = 0")
	}
}
