package decode

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// hybStrictModel is float64-sklearn clipped to [0.5 − 2^−41, 0.5 + 2^−41]:
// one point moves the sum by at most 2^−38 ≈ 3.6·10^−12, about 2^11
// spacings of a sum of 12 neutral terms, so that at N = 12 a query holds
// a top and digits and its score leaves lists carried over several
// queries.
const hybStrictModel = "torch-bce,clip=0.499995"

// Strictness by brute force: after every number of queries (MaxQueries
// 1, 2, …), every label the attack reports known must be the same in
// every labeling of the 2^12 that explains every score so far, and the
// true labeling must be one of them. A labeling explains a score when
// its emulated score on the server's own computed terms
// (scorer.Emulator.ComputedTerm, uncached buffers) equals it: the
// model's criterion where it names its log, computed here from the
// recorded predictions alone.
func TestHybridStrict(t *testing.T) {
	t.Parallel()
	const n = 12
	m, err := scorer.ParseModel(hybStrictModel)
	if err != nil {
		t.Fatal(err)
	}
	// A top of at most 4 fresh points: the rest of a first query's 12
	// are digits.
	st := hybrid{p: &hybridParams{fresh: 4}}
	digits := 0
	carried := strictRuns(t, st, m, n, bruteExact, func(q int, rec *recording) {
		if q == 1 && len(rec.preds) == 1 {
			// Points other than neutral beyond the top's 4: digits.
			if moved := n - countNeutral(rec.preds[0]); moved > 4 {
				digits++
			}
		}
	})
	if carried == 0 {
		t.Error("no query left a point undecided: no list was carried")
	}
	if digits == 0 {
		t.Error("no first query had digits")
	}
}

// bruteExact returns, for every point, the label every labeling that
// explains the recorded scores by exact emulation gives it (−1 if they
// differ), and whether the true labeling y explains them.
func bruteExact(t *testing.T, m *scorer.Model, rec *recording, y []int) ([]int, bool) {
	t.Helper()
	n := len(y)
	e, err := m.NewEmulator()
	if err != nil {
		t.Fatal(err)
	}
	// term[q][i][c]: the server's computed class-c term of point i in
	// query q.
	term := make([][][2]float64, len(rec.preds))
	for q, p := range rec.preds {
		term[q] = make([][2]float64, n)
		for i := range n {
			for c := range 2 {
				v, ok, err := e.ComputedTerm([]float64{p[i]}, 2, c)
				if !ok || err != nil {
					t.Fatalf("ComputedTerm: %v, %v", ok, err)
				}
				term[q][i][c] = v
			}
		}
	}
	buf := e.NewTerms(n)
	explains := func(sigma uint32) bool {
		for q := range term {
			for i := range n {
				buf.Set(i, term[q][i][sigma>>i&1])
			}
			r, err := e.Report(buf)
			if err != nil {
				t.Fatal(err)
			}
			if rec.scores[q].Cmp(r) != 0 {
				return false
			}
		}
		return true
	}
	return bruteAgree(n, y, explains)
}

// Hybrid recovers every label, verified, from float64-sklearn and
// torch-bce at a small N (the fixed labelings outside -short).
func TestHybridAllScorers(t *testing.T) {
	t.Parallel()
	checkAllScorers(t, Hybrid, "float64-sklearn", []modelK{{"torch-bce", 2}})
}

// Hybrid spends fewer queries than Cross against float64-sklearn
// (N = 25,000: about 512 against 548, BENCHMARKS.md "List top over
// digits").
func TestHybridBeatsCross(t *testing.T) {
	t.Parallel()
	checkBeatsCross(t, Hybrid, "float64-sklearn", 400)
}

// The strategy has no dry run but an estimate, is found by name, plans
// and attacks nothing where terms are brackets, the score is summed or
// there is no emulation (an error, no query), and a scorer that is not
// the model fails it with ErrInconsistent.
func TestHybridErrors(t *testing.T) {
	t.Parallel()
	m, _ := scorer.ParseModel("float64-sklearn")
	p, err := PlanMulti(context.Background(), MultiOptions{N: 1000, K: 2, Strategy: Hybrid, Model: m})
	if err != nil || p.Estimate == nil || len(p.Blocks) != 0 || p.Strategy != Hybrid {
		t.Fatalf("PlanMulti: %+v, %v; want Hybrid's estimate and no blocks", p, err)
	}
	if e := p.Estimate; !(e.Lower >= 1 && e.Lower <= e.Low && e.Low <= e.High) {
		t.Errorf("estimate %+v: want 1 ≤ Lower ≤ Low ≤ High", e)
	}
	if _, ok := Hybrid.(*designer); ok {
		t.Error("Hybrid is a block designer; want a list decoder (no dry run)")
	}
	for _, name := range []string{"hybrid", "list-digits"} {
		if s, err := ParseStrategy(name); err != nil || s != Hybrid {
			t.Errorf("ParseStrategy(%s) = %v, %v", name, s, err)
		}
	}
	checkNotApplied(t, Hybrid, []modelK{{"float32-keras", 2}, {"leaderboard", 2}, {"float64-sklearn,dec=6", 2},
		{"float64-sklearn,reduce=sum", 2}, {"float64-sklearn", 3}, {"torch-bce,log=faithful", 2}})
	y := seededLabels(t, 40, 2)
	real, _ := scorer.ParseModel("float32-keras")
	sim, _ := oracle.NewSim(real, y, 2)
	res, err := AttackMulti(context.Background(), sim, MultiOptions{Strategy: Hybrid, Model: m})
	if !errors.Is(err, ErrInconsistent) {
		t.Fatalf("wrong model: got %v, want ErrInconsistent", err)
	}
	if res.Verified || slices.Contains(res.Known, true) {
		t.Error("failed attack reported labels known")
	}
}

// countNeutral returns the number of predictions at ½.
func countNeutral(p []float64) int {
	c := 0
	for _, x := range p {
		if x == 0.5 {
			c++
		}
	}
	return c
}

// Cancelled after three queries, the attack returns context.Canceled
// with what it learned, every known label right.
func TestHybridCancel(t *testing.T) {
	t.Parallel()
	const n = 2000
	y := seededLabels(t, n, 2)
	m, _ := scorer.ParseModel(scorer.Float64Sklearn)
	sim, err := oracle.NewSim(m, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := AttackMulti(ctx, &cancelAfter{Server: sim, left: 3, cancel: cancel}, MultiOptions{Strategy: Hybrid, Model: m})
	if !errors.Is(err, context.Canceled) || res == nil || res.Verified || res.Queries != 3 {
		t.Fatalf("got %+v, %v; want context.Canceled after 3 queries, nothing verified", res, err)
	}
	known := 0
	for i, k := range res.Known {
		if k {
			known++
			if res.Labels[i] != y[i] {
				t.Errorf("known label %d wrong", i)
			}
		}
	}
	if known == 0 || known == n {
		t.Errorf("%d labels known after 3 queries of %d", known, n)
	}
	if _, err := PlanMulti(ctx, MultiOptions{N: n, K: 2, Strategy: Hybrid, Model: m}); !errors.Is(err, context.Canceled) {
		t.Errorf("PlanMulti on a done context: %v", err)
	}
}

// Small and odd attacks: N from 1 to 5, a MaxBlock of 1 and 3, labels
// known before the attack, and bounded noise, each verified.
func TestHybridSmall(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 5; n++ {
		for _, y := range fixedLabels(n) {
			attackSim(t, "float64-sklearn", y, 2, MultiOptions{Strategy: Hybrid, Check: true})
		}
	}
	y := seededLabels(t, 60, 2)
	for _, mb := range []int{1, 3} {
		res := attackSim(t, "float64-sklearn", y, 2, MultiOptions{Strategy: Hybrid, MaxBlock: mb})
		if res.Queries < len(y)/mb {
			t.Errorf("MaxBlock %d: %d queries, fewer than N/MaxBlock", mb, res.Queries)
		}
	}
	known := make([]int, len(y))
	for i := range known {
		known[i] = -1
		if i%3 == 0 {
			known[i] = y[i]
		}
	}
	attackSim(t, "float64-sklearn", y, 2, MultiOptions{Strategy: Hybrid, Known: known, Check: true})
	attackSim(t, "float64-sklearn", y, 2, MultiOptions{Strategy: Hybrid, Noise: scorer.Noise{Kind: scorer.Bounded, Tau: 1e-12}, Check: true})
}

// junkServer answers any prediction with a score drawn from its seed.
type junkServer struct {
	scorer.Server
	x uint64
}

func (j *junkServer) Score(ctx context.Context, _ *scorer.Pred) (*big.Rat, error) {
	j.x = j.x*6364136223846793005 + 1442695040888963407
	return new(big.Rat).SetFrac64(int64(j.x>>40), 1<<24), nil
}

// FuzzHybridJunk: a server answering arbitrary scores makes the attack
// fail (ErrInconsistent or the query limit), never panic nor report a
// label verified.
func FuzzHybridJunk(f *testing.F) {
	f.Add(uint64(1), uint8(40))
	f.Add(uint64(7), uint8(3))
	m, _ := scorer.ParseModel("float64-sklearn")
	f.Fuzz(func(t *testing.T, seed uint64, n8 uint8) {
		n := 1 + int(n8)%64
		sim, err := oracle.NewSim(m, make([]int, n), 2)
		if err != nil {
			t.Fatal(err)
		}
		res, err := AttackMulti(context.Background(), &junkServer{Server: sim, x: seed}, MultiOptions{Strategy: Hybrid, Model: m, MaxQueries: 8})
		if err == nil || res == nil || res.Verified {
			t.Fatalf("junk scores: %+v, %v; want an error and nothing verified", res, err)
		}
	})
}
