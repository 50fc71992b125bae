package decode

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// Carry recovers every label, verified, from float32-keras (brackets) at
// a small N, for a random labeling and, without -short, the fixed ones
// and torch-bce (the model's exact terms).
func TestCarryAllScorers(t *testing.T) {
	t.Parallel()
	checkAllScorers(t, Carry, "float32-keras", []modelK{{"torch-bce", 2}})
}

// modelK is a scorer model and a class count.
type modelK struct {
	model string
	k     int
}

// checkAllScorers attacks with st, Check on, a random binary labeling of
// model at N = 40 under -short and, at N = 3,000 otherwise, the fixed
// labelings too and a random labeling of each of others: every attack
// must recover every label, verified and checked (attackSim).
func checkAllScorers(t *testing.T, st Strategy, model string, others []modelK) {
	t.Helper()
	n := 3000
	if testing.Short() {
		n = 40
	}
	type tc struct {
		model  string
		k      int
		labels []int
	}
	cases := []tc{{model, 2, seededLabels(t, n, 2)}}
	if !testing.Short() {
		for _, y := range fixedLabels(n) {
			cases = append(cases, tc{model, 2, y})
		}
		for _, o := range others {
			cases = append(cases, tc{o.model, o.k, seededLabels(t, n, o.k)})
		}
	}
	for _, c := range cases {
		res := attackSim(t, c.model, c.labels, c.k, MultiOptions{Strategy: st, Check: true})
		if !res.Checked {
			t.Errorf("%v, %s K=%d: not checked", st, c.model, c.k)
		}
		t.Logf("%v %-16s K=%d %4d queries", st, c.model, c.k, res.Queries)
	}
}

// checkBeatsCross attacks one random binary labeling of model with st
// and with Cross (N = 4,000, or short under -short) and wants fewer
// queries from st.
func checkBeatsCross(t *testing.T, st Strategy, model string, short int) {
	t.Helper()
	n := 4000
	if testing.Short() {
		n = short
	}
	y := seededLabels(t, n, 2)
	got := attackSim(t, model, y, 2, MultiOptions{Strategy: st})
	cross := attackSim(t, model, y, 2, MultiOptions{Strategy: Cross})
	t.Logf("%s N = %d: %v %d queries, cross %d", model, n, st, got.Queries, cross.Queries)
	if got.Queries >= cross.Queries {
		t.Errorf("%s: %v %d queries, cross %d: want fewer", model, st, got.Queries, cross.Queries)
	}
}

// Carry spends fewer queries than Cross against float32-keras, whose
// brackets Cross pays for with smaller blocks (N = 25,000: about 16%
// fewer, BENCHMARKS.md "List decoding for float scorers").
func TestCarryBeatsCross(t *testing.T) {
	t.Parallel()
	checkBeatsCross(t, Carry, "float32-keras", 250)
}

// strictModel is float32-keras clipped to [0.4995, 0.5005]: one point
// moves the sum by at most 0.002, a few hundred brackets, so that at
// N = 12 a score leaves lists that Carry carries over several queries.
const strictModel = "float32-keras,clip=0.49999"

// Strictness by brute force: after every number of queries (MaxQueries
// 1, 2, …), every label the attack reports known must be the same in
// every labeling of the 2^12 that explains every score so far, and the
// true labeling must be one of them. A labeling explains a score when the
// score lies between what the server reports on the lowest and on the
// highest computed terms its faithful log allows (scorer.Emulator on
// uncached buffers, the model's own criterion), computed here from the
// recorded predictions alone.
func TestCarryStrict(t *testing.T) {
	t.Parallel()
	const n = 12
	m, err := scorer.ParseModel(strictModel)
	if err != nil {
		t.Fatal(err)
	}
	if carried := strictRuns(t, Carry, m, n, bruteBrackets, nil); carried == 0 {
		t.Error("no query left a point undecided: no list was carried")
	}
}

// strictRuns attacks every labeling of strictLabelings(t, n) with st on
// a simulated server of model m, stopping after 1, 2, … queries, and
// checks after each stop that every label reported known is the label
// of every labeling brute finds explaining the recorded scores, and that
// the true labeling is one of them. each, if not nil, sees every stop's
// recording. It returns how many points were left undecided over all
// the stops (a list carried).
func strictRuns(t *testing.T, st Strategy, m *scorer.Model, n int, brute func(*testing.T, *scorer.Model, *recording, []int) ([]int, bool), each func(q int, rec *recording)) (carried int) {
	t.Helper()
	for name, y := range strictLabelings(t, n) {
		for q := 1; ; q++ {
			sim, err := oracle.NewSim(m, y, 2)
			if err != nil {
				t.Fatal(err)
			}
			rec := &recording{Server: sim}
			res, err := AttackMulti(context.Background(), rec, MultiOptions{Strategy: st, Model: m, MaxQueries: q})
			if err != nil && res.Verified {
				t.Fatalf("%s: error %v with the labels verified", name, err)
			}
			agree, truthOK := brute(t, m, rec, y)
			if !truthOK {
				t.Fatalf("%s, %d queries: the true labeling does not explain the scores", name, q)
			}
			for i, k := range res.Known {
				if k && (agree[i] < 0 || res.Labels[i] != agree[i]) {
					t.Errorf("%s, %d queries: point %d reported known as %d, but the scores allow both labels", name, q, i, res.Labels[i])
				}
				if !k && agree[i] < 0 {
					carried++
				}
			}
			if each != nil {
				each(q, rec)
			}
			if err == nil {
				if !res.Verified {
					t.Fatalf("%s: no error and not verified", name)
				}
				t.Logf("%s: %d queries", name, res.Queries)
				break
			}
			if q > 3*n {
				t.Fatalf("%s: not verified after %d queries: %v", name, q, err)
			}
		}
	}
	return carried
}

// bruteBrackets returns, for every point, the label every labeling that
// explains the recorded scores by brackets gives it (−1 if they differ),
// and whether the true labeling y explains them.
func bruteBrackets(t *testing.T, m *scorer.Model, rec *recording, y []int) ([]int, bool) {
	t.Helper()
	n := len(y)
	e, err := m.NewEmulator()
	if err != nil {
		t.Fatal(err)
	}
	// lo[q][i][c], hi[q][i][c]: the computed-term range of point i's
	// class-c term in query q.
	lo := make([][][2]float64, len(rec.preds))
	hi := make([][][2]float64, len(rec.preds))
	for q, p := range rec.preds {
		lo[q], hi[q] = make([][2]float64, n), make([][2]float64, n)
		for i := range n {
			tt, err := m.Terms([]float64{p[i]})
			if err != nil {
				t.Fatal(err)
			}
			for c := range 2 {
				lo[q][i][c], hi[q][i][c] = e.TermRange(tt[c])
			}
		}
	}
	bl, bh := e.NewTerms(n), e.NewTerms(n)
	explains := func(sigma uint32) bool {
		for q := range lo {
			for i := range n {
				c := sigma >> i & 1
				bl.Set(i, lo[q][i][c])
				bh.Set(i, hi[q][i][c])
			}
			rlo, err1 := e.Report(bl)
			rhi, err2 := e.Report(bh)
			if err1 != nil || err2 != nil {
				t.Fatal(errors.Join(err1, err2))
			}
			if rec.scores[q].Cmp(rlo) < 0 || rec.scores[q].Cmp(rhi) > 0 {
				return false
			}
		}
		return true
	}
	return bruteAgree(n, y, explains)
}

// The strategy has no dry run but an estimate (its band ordered, above
// its bound), is found by name, and where it cannot list by brackets
// (no emulation, K > 2) plans and attacks nothing: an error, no query.
func TestCarryErrors(t *testing.T) {
	t.Parallel()
	m, _ := scorer.ParseModel("float32-keras")
	p, err := PlanMulti(context.Background(), MultiOptions{N: 1000, K: 2, Strategy: Carry, Model: m})
	if err != nil || p.Estimate == nil || len(p.Blocks) != 0 {
		t.Fatalf("PlanMulti: %+v, %v; want an estimate and no blocks", p, err)
	}
	if e := p.Estimate; !(e.Lower >= 1000/carryMaxFresh && e.Lower <= e.Low && e.Low <= e.High) {
		t.Errorf("estimate %+v: want ⌈N/%d⌉ ≤ Lower ≤ Low ≤ High", e, carryMaxFresh)
	}
	if _, ok := Carry.(*designer); ok {
		t.Error("Carry is a block designer; want a list decoder (no dry run)")
	}
	if s, err := ParseStrategy("carry"); err != nil || s != Carry {
		t.Errorf("ParseStrategy(carry) = %v, %v", s, err)
	}
	checkNotApplied(t, Carry, []modelK{{"leaderboard", 2}, {"float64-sklearn,dec=6", 2}, {"float32-keras", 3}})
}

// checkNotApplied: st's plan and attack against each model of cases
// return an error, and the attack asks no query (it runs no other
// strategy in st's place).
func checkNotApplied(t *testing.T, st Strategy, cases []modelK) {
	t.Helper()
	for _, c := range cases {
		m, err := scorer.ParseModel(c.model)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := PlanMulti(context.Background(), MultiOptions{N: 198, K: c.k, Strategy: st, Model: m}); err == nil {
			t.Errorf("%v, %s K = %d: plan %v; want an error", st, c.model, c.k, p)
		}
		sim, err := oracle.NewSim(m, make([]int, 40), c.k)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := AttackMulti(context.Background(), sim, MultiOptions{Strategy: st, Model: m}); err == nil || res != nil || sim.Queries() != 0 {
			t.Errorf("%v, %s K = %d: attack %v, %v, %d queries; want an error and none", st, c.model, c.k, res, err, sim.Queries())
		}
	}
}

// A scorer that is not the model makes the attack fail with
// ErrInconsistent and nothing verified.
func TestCarryWrongModel(t *testing.T) {
	t.Parallel()
	y := seededLabels(t, 40, 2)
	real, _ := scorer.ParseModel("float64-sklearn")
	assumed, _ := scorer.ParseModel("float32-keras")
	sim, _ := oracle.NewSim(real, y, 2)
	res, err := AttackMulti(context.Background(), sim, MultiOptions{Strategy: Carry, Model: assumed})
	if !errors.Is(err, ErrInconsistent) {
		t.Fatalf("got %v, want ErrInconsistent", err)
	}
	if res.Verified || slices.Contains(res.Known, true) {
		t.Error("failed attack reported labels known")
	}
}
