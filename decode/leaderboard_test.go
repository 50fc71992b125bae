package decode

import (
	"context"
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// fixedLabels returns the benchmark's fixed labelings of n binary points:
// all 0, all 1, alternating.
func fixedLabels(n int) map[string][]int {
	out := map[string][]int{"zero": make([]int, n), "one": make([]int, n), "alt": make([]int, n)}
	for i := range n {
		out["one"][i] = 1
		out["alt"][i] = i % 2
	}
	return out
}

// Leaderboard recovers and verifies every label of the 5-decimal
// leaderboard at N = 198 in at most 11 queries (Blocks: 13; every block
// code: 13, roundedFits), for a random labeling and, without -short,
// the fixed ones.
func TestLeaderboardStrategy198(t *testing.T) {
	t.Parallel()
	cases := map[string][]int{"random": seededLabels(t, 198, 2)}
	if !testing.Short() {
		for name, y := range fixedLabels(198) {
			cases[name] = y
		}
	}
	for name, y := range cases {
		res := attackSim(t, "leaderboard", y, 2, MultiOptions{Strategy: Leaderboard})
		if res.Queries > 11 {
			t.Errorf("%s: %d queries, want ≤ 11", name, res.Queries)
		}
	}
}

// At N = 25,000 the leaderboard takes at most 2,900 queries (Blocks:
// 3,125). A few seconds: not under -short.
func TestLeaderboardStrategy25000(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("N = 25,000: a few seconds; TestLeaderboardStrategy198 runs under -short")
	}
	res := attackSim(t, "leaderboard", seededLabels(t, 25000, 2), 2, MultiOptions{Strategy: Leaderboard})
	if res.Queries > 2900 {
		t.Errorf("%d queries, want ≤ 2,900", res.Queries)
	}
}

// recording records the predictions and scores of a server.
type recording struct {
	scorer.Server
	preds  [][]float64
	scores []*big.Rat
	// scratch holds the brute-force checks' evaluation buffers: their
	// models come from ParseModel and their predictions from a server
	// that checked them (the recording's), so Eval's checks are spared.
	scratch scorer.Scratch
}

func (r *recording) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s, err := r.Server.Score(ctx, p)
	if err == nil {
		r.preds = append(r.preds, append([]float64(nil), p.P...))
		r.scores = append(r.scores, s)
	}
	return s, err
}

// Strictness by brute force: after every number of queries (MaxQueries
// 1, 2, …), every label the attack reports known must be the same in
// every labeling of the 2^16 that explains every score so far (by the
// exact terms, within N·½·10^−D and 10^−9 more), and the true labeling
// must be one of them. One decimal makes the cells wide (1.6 nats of the
// sum), so that lists are carried over several queries.
func TestLeaderboardStrict(t *testing.T) {
	t.Parallel()
	const n = 16
	m, err := scorer.ParseModel("leaderboard,dec=1")
	if err != nil {
		t.Fatal(err)
	}
	labelings := strictLabelings(t, n)
	carried := 0
	for name, y := range labelings {
		full := 0
		for q := 1; ; q++ {
			sim, err := oracle.NewSim(m, y, 2)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recording{Server: sim}
			res, err := AttackMulti(context.Background(), rec, MultiOptions{Strategy: Leaderboard, Model: m, MaxQueries: q})
			if err != nil && res.Verified {
				t.Fatalf("%s: error %v with the labels verified", name, err)
			}
			agree, truthOK := bruteForce(t, m, rec, y)
			for i, c := range agree {
				if c < 0 && res.Labels[i] < 0 {
					carried++ // undecided, as the scores leave it
				}
			}
			if !truthOK {
				t.Fatalf("%s, %d queries: the true labeling does not explain the scores", name, q)
			}
			for i, k := range res.Known {
				if k && (agree[i] < 0 || res.Labels[i] != agree[i]) {
					t.Errorf("%s, %d queries: point %d reported known as %d, but the scores allow both labels", name, q, i, res.Labels[i])
				}
			}
			if err == nil {
				if !res.Verified {
					t.Fatalf("%s: no error and not verified", name)
				}
				full = res.Queries
				break
			}
			if q > 3*n {
				t.Fatalf("%s: not verified after %d queries: %v", name, q, err)
			}
		}
		t.Logf("%s: %d queries", name, full)
	}
	if carried == 0 {
		t.Error("no query left a point undecided: the list was never carried")
	}
}

// bruteForce returns, for every point, the label every labeling that
// explains the recorded scores gives it (−1 if they differ), and whether
// the true labeling y explains them.
func bruteForce(t *testing.T, m *scorer.Model, rec *recording, y []int) ([]int, bool) {
	t.Helper()
	n := len(y)
	half := 0.5 * math.Pow(10, -float64(m.Decimals)) * float64(n)
	// terms[q][i][c], float64 (exact to 2^−53 relative, far inside 10^−9).
	terms := make([][][2]float64, len(rec.preds))
	for q, p := range rec.preds {
		terms[q] = make([][2]float64, n)
		for i := range n {
			tt, err := m.Terms([]float64{p[i]})
			if err != nil {
				t.Fatal(err)
			}
			for c := range 2 {
				terms[q][i][c], _ = tt[c].Float64()
			}
		}
	}
	ns := make([]float64, len(rec.scores))
	for q, r := range rec.scores {
		ns[q], _ = new(big.Rat).Mul(r, new(big.Rat).SetInt64(int64(n))).Float64()
	}
	explains := func(sigma uint32) bool {
		for q := range terms {
			var s float64
			for i := range n {
				s += terms[q][i][sigma>>i&1]
			}
			if math.Abs(ns[q]-s) > half+1e-9 {
				return false
			}
		}
		return true
	}
	return bruteAgree(n, y, explains)
}

// A scorer that is not the model makes the attack fail with
// ErrInconsistent and nothing verified.
func TestLeaderboardWrongModel(t *testing.T) {
	t.Parallel()
	y := seededLabels(t, 60, 2)
	real, _ := scorer.ParseModel("leaderboard,dec=4")
	assumed, _ := scorer.ParseModel("leaderboard")
	sim, _ := oracle.NewSim(real, y, 2)
	res, err := AttackMulti(context.Background(), sim, MultiOptions{Strategy: Leaderboard, Model: assumed})
	if err == nil || !errors.Is(err, ErrInconsistent) {
		t.Fatalf("got %v, want ErrInconsistent", err)
	}
	if res.Verified {
		t.Error("failed attack reported verified")
	}
	for i, k := range res.Known {
		if k {
			t.Fatalf("point %d reported known after a failure", i)
		}
	}
}

// The strategy needs K = 2 and has no dry run (PlanMulti gives an
// estimate instead, leaderboard_plan_test.go).
func TestLeaderboardErrors(t *testing.T) {
	t.Parallel()
	m, _ := scorer.ParseModel("leaderboard")
	if p, err := PlanMulti(context.Background(), MultiOptions{N: 198, K: 2, Strategy: Leaderboard, Model: m}); err != nil || p.Estimate == nil || p.Queries != 0 {
		t.Errorf("PlanMulti: got %+v, %v, want an estimate and no dry run", p, err)
	}
	sim, _ := oracle.NewSim(m, seededLabels(t, 30, 3), 3)
	if _, err := AttackMulti(context.Background(), sim, MultiOptions{Strategy: Leaderboard, Model: m}); err == nil {
		t.Error("K = 3: no error")
	}
	if s, err := ParseStrategy("leaderboard"); err != nil || s != Leaderboard {
		t.Errorf("ParseStrategy(leaderboard) = %v, %v", s, err)
	}
}

// bruteAgree runs explains over every binary labeling of n ≤ 31 points
// (bit i the label of point i) and returns, per point, the label every
// explaining labeling gives it, −1 if they disagree, −2 if none explains;
// and whether the true labeling y explains.
func bruteAgree(n int, y []int, explains func(sigma uint32) bool) ([]int, bool) {
	var truth uint32
	for i, c := range y {
		truth |= uint32(c) << i
	}
	agree := make([]int, n)
	for i := range agree {
		agree[i] = -2
	}
	for sigma := uint32(0); sigma < 1<<n; sigma++ {
		if !explains(sigma) {
			continue
		}
		for i := range n {
			c := int(sigma >> i & 1)
			switch agree[i] {
			case -2:
				agree[i] = c
			case c, -1:
			default:
				agree[i] = -1
			}
		}
	}
	return agree, explains(truth)
}

// strictLabelings returns the labelings the strictness tests run: a
// seeded random one, and outside -short all 0, all 1 and alternating.
func strictLabelings(t *testing.T, n int) map[string][]int {
	labelings := fixedLabels(n)
	labelings["random"] = seededLabels(t, n, 2)
	if testing.Short() {
		delete(labelings, "zero")
		delete(labelings, "one")
		delete(labelings, "alt")
	}
	return labelings
}
