package decode

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// Strictness of KList by brute force: after every query, every label the
// attack reports known must be the same in every labeling of the K^N that
// explains every score so far under the model (its emulated score equals
// the recorded one: the model names its log), every such labeling must
// lie in the state the attack keeps (each unknown point's label in its
// set, the carried points' labels in some list entry's values), and the
// true labeling must be one of them. The room is shrunk (radix.room scales
// the top's weights and the tail's room) so that at N = 8 a score leaves
// several labelings, lists of top and tail values are carried; the test
// fails if none was.
func TestKListStrict(t *testing.T) {
	t.Parallel()
	// K = 3, and K = 6, where the tail has grouped digits of radix 2
	// (fitTail: its points have six or three labels).
	type config struct {
		n, k  int
		rooms []float64
	}
	rooms := []float64{0x1p-47, 0x1p-50, 0x1p-47, 0x1p-50}
	configs := []config{{8, 3, rooms}, {6, 6, rooms}}
	if testing.Short() {
		configs = []config{{6, 3, rooms[1:2]}, {4, 6, rooms[1:2]}}
	}
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		t.Fatal(err)
	}
	tune := defaultKList()
	tune.minN = 0
	tune.radix.minUnit = 0x1p-60
	// A tail unit of a quarter spacing: several tail labelings explain
	// one score (the tail has no ties of its own since it has no paired
	// top), so that the tail's window and listing are put to the test.
	tune.rho = 0.25
	// Three fresh points a query leave the rest to the tail; sixteen take
	// every point into the top.
	fresh := []int{3, 16}
	carried, tailVals, grouped := 0, 0, 0
	for _, cf := range configs {
		n, k := cf.n, cf.k
		labelings := map[string][]int{"random": seededLabels(t, n, k), "zero": make([]int, n), "alt": make([]int, n)}
		for i := range n {
			labelings["alt"][i] = i % k
		}
		if testing.Short() {
			delete(labelings, "zero")
		}
		for x, room := range cf.rooms {
			tune.radix.room = room
			tune.maxFresh = fresh[x/2]
			seen := klStrict(t, m, klist{p: &tune}, k, labelings, fmt.Sprintf("K = %d, room %g", k, room))
			carried, tailVals, grouped = carried+seen.carried, tailVals+seen.tailVals, grouped+seen.grouped
		}
	}
	if carried == 0 || tailVals == 0 || grouped == 0 {
		t.Errorf("%d carried points, %d tail values and %d grouped tail digits seen: the test does not reach KList's lists", carried, tailVals, grouped)
	}
	t.Logf("carried points (summed over queries): %d, tail values in lists: %d, grouped tail digits: %d", carried, tailVals, grouped)
}

// klStrict attacks each labeling with strat (KList or KBin) and checks,
// after every query, by brute force over all K^N labelings: every label
// reported known is that of every labeling whose emulated score equals
// every recorded score, every such labeling lies in the state the attack
// keeps (each unknown point's label in its set, the carried points'
// labels in some list entry's values), and the true labeling is one of
// them; the attack must end verified with the true labels. It returns
// what the attacks reached.
func klStrict(t *testing.T, m *scorer.Model, strat Strategy, k int, labelings map[string][]int, desc string) (seen klSeen) {
	t.Helper()
	var n int
	for _, y := range labelings {
		n = len(y)
	}
	all := allLabelings(n, k)
	for name, y := range labelings {
		sim, err := oracle.NewSim(m, y, k)
		if err != nil {
			t.Fatal(err)
		}
		rec := &recording{Server: sim}
		live := all
		var st *klState
		check := func(_, q int) {
			// The labelings that explain every score so far.
			p := &scorer.Pred{K: k, P: rec.preds[len(rec.preds)-1]}
			var next [][]int
			for _, z := range live {
				s, err := m.EvalScratch(&rec.scratch, z, p)
				if err != nil {
					t.Fatal(err)
				}
				if s.Cmp(rec.scores[len(rec.scores)-1]) == 0 {
					next = append(next, z)
				}
			}
			live = next
			a := st.a
			truth := false
			for _, z := range live {
				if equalInts(z, y) {
					truth = true
				}
				for i, c := range z {
					if a.labels[i] >= 0 && a.labels[i] != c {
						t.Errorf("%s, %s, %d queries: point %d reported %d, but a labeling that explains the scores has %d", name, desc, q, i, a.labels[i], c)
					}
					if a.labels[i] < 0 && a.mask[i]>>c&1 == 0 {
						t.Errorf("%s, %s, %d queries: point %d's set %b excludes %d, which explains the scores", name, desc, q, i, a.mask[i], c)
					}
				}
				in := false
				for _, e := range st.vals {
					ok := true
					for j, i := range st.lb.cD {
						ok = ok && e[j]>>z[i]&1 == 1
					}
					in = in || ok
				}
				if !in {
					t.Errorf("%s, %s, %d queries: a labeling that explains the scores is in no list entry", name, desc, q)
				}
			}
			if !truth {
				t.Fatalf("%s, %s, %d queries: the true labeling does not explain the scores", name, desc, q)
			}
			seen.carried += len(st.lb.cD)
		}
		res, err := AttackMulti(context.Background(), rec, MultiOptions{Strategy: strat, Model: m, Progress: check, debugKList: func(s *klState) { st = s }})
		seen.tailVals += st.tailCarried
		seen.digits += st.digits
		seen.radix3 += st.radix3
		seen.grouped += st.tailGrouped
		if err != nil || !res.Verified || !equalInts(res.Labels, y) {
			t.Fatalf("%s, %s: %v, verified %v, labels %v, want %v", name, desc, err, res.Verified, res.Labels, y)
		}
		t.Logf("%s, %s: %d queries, blocks %v", name, desc, res.Queries, res.Blocks)
	}
	return seen
}

// klSeen is what klStrict's attacks reached: carried points summed over
// the queries, tail points carried into a list, KBin's digits and those
// of radix 3 or more, and KList's grouped tail digits.
type klSeen struct{ carried, tailVals, digits, radix3, grouped int }

func equalInts(x, y []int) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// Cancelled after four queries, KList and KBin return context.Canceled
// with the labels they learned, each right (after three, at KList's list
// target 20, every open label of N = 400, K = 3 is still carried in the
// list).
func TestKListCancel(t *testing.T) {
	t.Parallel()
	const n, k = 400, 3
	labels := seededLabels(t, n, k)
	m, err := scorer.ParseModel(scorer.Float64Sklearn)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := oracle.NewSim(m, labels, k)
	if err != nil {
		t.Fatal(err)
	}
	for _, strat := range []Strategy{KList, KBin} {
		ctx, cancel := context.WithCancel(context.Background())
		res, err := AttackMulti(ctx, &cancelAfter{Server: sim, left: 4, cancel: cancel}, MultiOptions{Strategy: strat, Model: m})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%v: err = %v, want context.Canceled", strat, err)
		}
		if res.Queries != 4 || res.Verified {
			t.Errorf("%v: %d queries, verified %v: want 4, false", strat, res.Queries, res.Verified)
		}
		known := 0
		for i, kn := range res.Known {
			if kn {
				known++
				if res.Labels[i] != labels[i] {
					t.Errorf("%v: point %d known as %d, label %d", strat, i, res.Labels[i], labels[i])
				}
			}
		}
		if known == 0 {
			t.Errorf("%v: nothing known after four queries", strat)
		}
	}
}

// A server that is not the model (torch-bce's terms and sum, attacked as
// float64-sklearn) stops KList and KBin with ErrInconsistent and nothing
// known.
func TestKListWrongModel(t *testing.T) {
	t.Parallel()
	const n, k = 400, 3
	labels := seededLabels(t, n, k)
	want, err := scorer.ParseModel(scorer.Float64Sklearn)
	if err != nil {
		t.Fatal(err)
	}
	other, err := scorer.ParseModel("torch-bce")
	if err != nil {
		t.Fatal(err)
	}
	sim, err := oracle.NewSim(other, labels, k)
	if err != nil {
		t.Fatal(err)
	}
	for _, strat := range []Strategy{KList, KBin} {
		res, err := AttackMulti(context.Background(), sim, MultiOptions{Strategy: strat, Model: want})
		if !errors.Is(err, ErrInconsistent) {
			t.Fatalf("%v: err = %v, want ErrInconsistent", strat, err)
		}
		if res.Verified || slices.Contains(res.Known, true) {
			t.Errorf("%v: verified %v, known %v: want nothing", strat, res.Verified, slices.Contains(res.Known, true))
		}
	}
}

// A fresh point's halves and weight sign come from a hash of the point
// and the query, so a constant labeling costs what a random one does:
// with the lower half at bit 0 and positive weights its fresh sums were
// the least of all candidates (N = 2,000, K = 6: 98 queries against 103
// for seeds 1–3).
func TestKListConstantLabeling(t *testing.T) {
	t.Parallel()
	n, k := 2000, 6
	var strat Strategy = KList
	if testing.Short() {
		// A small case (the list top below its least N): it runs, but
		// the two labelings' counts are too few to tell the halves apart.
		tune := defaultKList()
		tune.minN = 0
		strat = klist{p: &tune}
		n, k = 100, 3
	}
	m, err := scorer.ParseModel(scorer.Float64Sklearn)
	if err != nil {
		t.Fatal(err)
	}
	queries := func(labels []int) int {
		sim, err := oracle.NewSim(m, labels, k)
		if err != nil {
			t.Fatal(err)
		}
		res, err := AttackMulti(context.Background(), sim, MultiOptions{Strategy: strat, Model: m})
		if err != nil || !res.Verified || !slices.Equal(res.Labels, labels) {
			t.Fatalf("verified %v, err %v", res.Verified, err)
		}
		return res.Queries
	}
	qr, q0 := queries(seededLabels(t, n, k)), queries(make([]int, n))
	if q0 < qr-2 || q0 > qr+2 {
		t.Errorf("all 0: %d queries, a random labeling %d: want within 2", q0, qr)
	}
}

func TestSplitAt(t *testing.T) {
	t.Parallel()
	seen := make(map[uint64]bool)
	for _, m := range []uint64{0b111, 0b101100, 0b111111, 0b1} {
		r := bits.OnesCount64(m)
		for key := range uint64(200) {
			h := splitAt(m, key)
			if h&^m != 0 || bits.OnesCount64(h) != (r+1)/2 || h != splitAt(m, key) {
				t.Fatalf("splitAt(%b, %d) = %b", m, key, h)
			}
			if m == 0b111 {
				seen[h] = true
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("the halves of 3 labels over 200 keys: %d distinct, want 3", len(seen))
	}
}
