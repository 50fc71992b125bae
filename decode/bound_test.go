package decode

import (
	"context"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// TestBoundMulti: the fast lower bound is at most the dry run's count and
// at most the queries of a real attack (retries and all), for every kind
// of scorer model, and not vacuous: within a factor 2 of the dry run.
func TestBoundMulti(t *testing.T) {
	t.Parallel()
	n := 4000
	if testing.Short() {
		n = 400
	}
	ctx := context.Background()
	for _, c := range []struct {
		model string
		k     int
		noise scorer.Noise
		noEmu bool
	}{
		{model: "float64-sklearn", k: 2},
		{model: "float32-keras", k: 2},
		{model: "torch-bce", k: 3},
		{model: "leaderboard", k: 2},
		{model: "float64-sklearn", k: 2, noEmu: true},
		{model: "apa:128", k: 2},
		{model: "fpa:8,23", k: 2, noise: scorer.Noise{Kind: scorer.Bounded, Tau: 1e-9}},
	} {
		m, err := scorer.ParseModel(c.model)
		if err != nil {
			t.Fatal(err)
		}
		opt := MultiOptions{N: n, K: c.k, Model: m, Noise: c.noise, NoEmulation: c.noEmu}
		b, err := BoundMulti(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !b.Lower {
			t.Error("b.Lower is false")
		}
		p, err := PlanMulti(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		labels := seededLabels(t, n, c.k)
		sim, err := oracle.NewSim(m, labels, c.k)
		if err != nil {
			t.Fatal(err)
		}
		var s scorer.Server = sim
		if c.noise.Kind != scorer.NoNoise {
			s, err = oracle.NewNoisy(sim, c.noise, 3)
			if err != nil {
				t.Fatal(err)
			}
		}
		res, err := AttackMulti(ctx, s, opt)
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := newMulti(n, c.k, opt); st.mask == nil {
			// The K-ary code's dry run decodes every block whole, which
			// its units below the spacing do not: it is no upper bound.
			if b.Queries > p.Queries {
				t.Errorf("%s K=%d: bound above the dry run: b.Queries = %v, want <= p.Queries = %v", c.model, c.k, b.Queries, p.Queries)
			}
		}
		if b.Queries > res.Queries {
			t.Errorf("%s K=%d: bound above the attack: b.Queries = %v, want <= res.Queries = %v", c.model, c.k, b.Queries, res.Queries)
		}
		if 2*b.Queries < p.Queries {
			t.Errorf("%s K=%d: bound %d vacuous against the dry run's %d: 2*b.Queries = %v, want >= p.Queries = %v", c.model, c.k, b.Queries, p.Queries, 2*b.Queries, p.Queries)
		}
		t.Logf("%s K=%d noEmu=%v: bound %d, dry run %d, attack %d", c.model, c.k, c.noEmu, b.Queries, p.Queries, res.Queries)
	}
	// Cross (exact terms, paired tops, ties): below its attacks too.
	for _, model := range []string{"torch-bce", "float32-keras"} {
		m, _ := scorer.ParseModel(model)
		opt := MultiOptions{N: n, K: 2, Model: m, Strategy: Cross}
		b, err := BoundMulti(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		sim, err := oracle.NewSim(m, seededLabels(t, n, 2), 2)
		if err != nil {
			t.Fatal(err)
		}
		res, err := AttackMulti(ctx, sim, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !b.Lower {
			t.Error("b.Lower is false")
		}
		if b.Queries > res.Queries {
			t.Errorf("%s Cross: bound above the attack: b.Queries = %v, want <= res.Queries = %v", model, b.Queries, res.Queries)
		}
		t.Logf("%s Cross: bound %d, attack %d", model, b.Queries, res.Queries)
	}
	m, _ := scorer.ParseModel("float64-sklearn")
	b, err := BoundMulti(ctx, MultiOptions{N: n, K: 2, Model: m, Strategy: Alg3})
	if err != nil {
		t.Fatal(err)
	}
	p, err := PlanMulti(ctx, MultiOptions{N: n, K: 2, Model: m, Strategy: Alg3})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Exact {
		t.Error("b.Exact is false")
	}
	if b.Queries != p.Queries {
		t.Errorf("b.Queries = %v, want %v", b.Queries, p.Queries)
	}
}
