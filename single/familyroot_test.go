package single

import (
	"context"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/loss"
)

// TestFamilyRootAccuracy: at N = 55 the Itakura–Saito weights reach
// W·2^54, and x*(y) must be accurate to far better than 2^−54 relative
// for them to stay superincreasing with margin W (found by labelinf repro
// ea-thm5 on Titanic in blocks of 55: Invert's bisection, good to a
// relative 2^(−prec/2), left a margin of 0.8·W).
func TestFamilyRootAccuracy(t *testing.T) {
	rng := testrand.New(t)
	l := newLoss(t, loss.IS, 0, [4]float64{})
	const n, tau = 55, 0.004
	p, err := PlanFamily(context.Background(), FamilyOptions{Loss: l, N: n, Tau: tau})
	if err != nil {
		t.Fatal(err)
	}
	if familySeparation(p) <= 2*tau {
		t.Errorf("Λ > 2τ: familySeparation(p) = %v, want > 2*tau = %v", familySeparation(p), 2*tau)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(2)
	}
	for _, noise := range []float64{-tau * 0.999, 0, tau * 0.999} {
		r, err := p.Decode(familyScore(t, p, labels, noise), 0)
		if err != nil {
			t.Fatalf("noise %g: %v", noise, err)
		}
		if !slices.Equal(r.Labels, labels) {
			t.Errorf("r.Labels = %v, want %v", r.Labels, labels)
		}
	}
}
