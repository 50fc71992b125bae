package single

import (
	"context"
	"math/big"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// TestMutNetAttack submits the robust attack as a model [EA, Theorem 9]:
// the server runs MUTNET on its own private input, computes the sigmoid
// cross-entropy of the outputs against its labels and adds noise; the
// labels come back from that one score.
func TestMutNetAttack(t *testing.T) {
	rng := testrand.New(t)
	const n, d, h, tau = 300, 8, 16, 1.0
	p, err := PlanRobust(context.Background(), RobustOptions{N: n, K: 2, Tau: tau})
	if err != nil {
		t.Fatal(err)
	}
	x := make([]*big.Float, n)
	for i := range x {
		x[i] = p.Pred().V[2*i+1] // class-1 logit; class 0 is 0
	}
	net, err := NewMutNet(x, d, h, rng)
	if err != nil {
		t.Fatal(err)
	}

	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(2)
	}
	srv, err := oracle.NewBigExact(labels, 2, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: tau}, rng.Uint64())
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		v := make([]float64, d) // the server's private input, in (0,1)^d
		for i := range v {
			v[i] = 1e-9 + (1-2e-9)*rng.Float64()
		}
		logits, err := net.Logits(v)
		if err != nil {
			t.Fatal(err)
		}
		pred := &scorer.BigPred{Enc: scorer.Logits, K: 2, V: make([]*big.Float, 2*n)}
		for i, z := range logits {
			if z.Cmp(x[i]) != 0 {
				t.Fatalf("output %d depends on the input: z.Cmp(x[i]) = %v, want 0", i, z.Cmp(x[i]))
			}
			pred.V[2*i], pred.V[2*i+1] = new(big.Float), z
		}
		res, err := p.AttackWith(context.Background(), srv, pred)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Labels, labels) || res.Queries != 1 {
			t.Errorf("res.Labels = %v in %d queries, want %v in 1", res.Labels, res.Queries, labels)
		}
	}
	_, err = net.Logits(make([]float64, d+1))
	if err == nil {
		t.Error("err is nil, want an error")
	}
	_, err = NewMutNet(x, 0, h, rng)
	if err == nil {
		t.Error("err is nil, want an error")
	}
}

// TestMutNetNegativeInput pins where [EA, Appendix G]'s setup claims too
// much: "MUTNET_x converts any real vector v into x" holds only for v ≥ 0
// (Theorem 9 assumes v ∈ (0,1)^d): with negative entries v·M₁ > 0, the
// ReLU is live and the output moves off x′.
func TestMutNetNegativeInput(t *testing.T) {
	rng := testrand.New(t)
	x := []*big.Float{big.NewFloat(-3), big.NewFloat(-1.5)}
	net, err := NewMutNet(x, 4, 8, rng)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := net.Logits([]float64{0.2, 0.7, 0.1, 0.9})
	if err != nil {
		t.Fatal(err)
	}
	for i := range x {
		if pos[i].Cmp(x[i]) != 0 {
			t.Errorf("v ≥ 0: output %d must be x′: pos[i].Cmp(x[i]) = %v, want 0", i, pos[i].Cmp(x[i]))
		}
	}
	neg, err := net.Logits([]float64{-0.2, -0.7, -0.1, -0.9})
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i := range x {
		if neg[i].Cmp(x[i]) != 0 {
			moved++
		}
	}
	if moved != len(x) {
		t.Errorf("v < 0: every output moves off x′: moved = %v, want %v", moved, len(x))
	}
}
