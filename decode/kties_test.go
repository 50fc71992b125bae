package decode

import (
	"context"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// Strictness of the K-ary code by brute force: after every number of
// queries (MaxQueries 1, 2, …), every label the attack reports known must
// be the same in every labeling of the K^N that explains every score so
// far under the model (its server's score, computed by the model, equals
// the recorded one: the model names its log, so a score is a function of
// the labeling), and the true labeling must be one of them. The room is
// shrunk to a few hundred spacings (radixParams.room) so that at N = 8 a score
// leaves several labelings, and label sets and ties mod K are carried;
// the test fails if neither was.
func TestKtiesStrict(t *testing.T) {
	t.Parallel()
	n, k := 8, 3
	if testing.Short() {
		n = 6
	}
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		t.Fatal(err)
	}
	tune := defaultRadix()
	tune.minUnit = 0x1p-60
	rooms := []float64{0x1p-46, 0x1p-50}
	labelings := map[string][]int{"random": seededLabels(t, n, k), "zero": make([]int, n), "alt": make([]int, n)}
	for i := range n {
		labelings["alt"][i] = i % k
	}
	if testing.Short() {
		delete(labelings, "alt")
		rooms = rooms[1:]
	}
	all := allLabelings(n, k)
	carried, tiedSeen, negSeen := 0, 0, 0
	for _, room := range rooms {
		tune.room = room
		strat := newCross(&tune)
		for name, y := range labelings {
			for q := 1; ; q++ {
				sim, err := oracle.NewSim(m, y, k)
				if err != nil {
					t.Fatal(err)
				}
				rec := &recording{Server: sim}
				var st *multi
				res, err := attackMultiState(rec, MultiOptions{Strategy: strat, Model: m, MaxQueries: q}, &st)
				if err != nil && res.Verified {
					t.Fatalf("%s: error %v with the labels verified", name, err)
				}
				if st.mask == nil {
					t.Fatal("the K-ary code is off for float64-sklearn, K = 3")
				}
				agree, truthOK := bruteForceK(t, m, rec, y, k, all)
				if !truthOK {
					t.Fatalf("%s, %d queries: the true labeling does not explain the scores", name, q)
				}
				for i, kn := range res.Known {
					if kn && (agree[i] < 0 || res.Labels[i] != agree[i]) {
						t.Errorf("%s, %d queries: point %d reported known as %d, but the scores allow others", name, q, i, res.Labels[i])
					}
					if !kn && st.leader[i] < 0 && st.mask[i] != maskAll(k) {
						carried++
						// The set must hold every label the scores allow.
						for _, c := range allowed(rec, m, y, k, all, i) {
							if st.mask[i]>>c&1 == 0 {
								t.Errorf("%s, %d queries: point %d's label set %b excludes %d, which explains the scores", name, q, i, st.mask[i], c)
							}
						}
					}
					if !kn && st.leader[i] >= 0 {
						tiedSeen++
					}
				}
				if err == nil {
					if !res.Verified {
						t.Fatalf("%s: no error and not verified", name)
					}
					t.Logf("%s: %d queries, %d partial, blocks %v", name, res.Queries, res.Partial, res.Blocks)
					break
				}
				if q > 4*n+8 {
					t.Fatalf("%s: not verified after %d queries: %v", name, q, err)
				}
			}
		}
	}
	if carried == 0 || tiedSeen == 0 {
		t.Errorf("%d label sets and %d ties carried: the test does not reach the K-ary code's ambiguity", carried, tiedSeen)
	}
	t.Logf("points with a carried label set: %d, followers: %d, %d of them tied by a sum (summed over runs)", carried, tiedSeen, negSeen)
}

// attackMultiState is AttackMulti keeping the attack's state in *st.
func attackMultiState(s scorer.Server, opt MultiOptions, st **multi) (*Result, error) {
	opt.debugState = func(a *multi) { *st = a }
	return AttackMulti(context.Background(), s, opt)
}

// allLabelings lists the K^N labelings.
func allLabelings(n, k int) [][]int {
	var out [][]int
	y := make([]int, n)
	for {
		out = append(out, slices.Clone(y))
		j := n - 1
		for ; j >= 0 && y[j] == k-1; j-- {
			y[j] = 0
		}
		if j < 0 {
			return out
		}
		y[j]++
	}
}

// explainsAll reports whether labeling y's scores under m equal every
// recorded score.
func explainsAll(t *testing.T, m *scorer.Model, rec *recording, y []int, k int) bool {
	t.Helper()
	for q, p := range rec.preds {
		s, err := m.EvalScratch(&rec.scratch, y, &scorer.Pred{K: k, P: p})
		if err != nil {
			t.Fatal(err)
		}
		if s.Cmp(rec.scores[q]) != 0 {
			return false
		}
	}
	return true
}

// bruteForceK returns, for every point, the label every labeling that
// explains the recorded scores gives it (−1 if they differ), and whether
// the true labeling y explains them.
func bruteForceK(t *testing.T, m *scorer.Model, rec *recording, y []int, k int, all [][]int) ([]int, bool) {
	t.Helper()
	agree := make([]int, len(y))
	for i := range agree {
		agree[i] = -2
	}
	for _, z := range all {
		if !explainsAll(t, m, rec, z, k) {
			continue
		}
		for i, c := range z {
			switch agree[i] {
			case -2:
				agree[i] = c
			case c, -1:
			default:
				agree[i] = -1
			}
		}
	}
	return agree, explainsAll(t, m, rec, y, k)
}

// allowed returns the labels of point i among the labelings that explain
// the recorded scores.
func allowed(rec *recording, m *scorer.Model, y []int, k int, all [][]int, i int) []int {
	seen := make([]bool, k)
	for _, z := range all {
		ok := true
		for q, p := range rec.preds {
			s, err := m.EvalScratch(&rec.scratch, z, &scorer.Pred{K: k, P: p})
			if err != nil || s.Cmp(rec.scores[q]) != 0 {
				ok = false
				break
			}
		}
		if ok {
			seen[z[i]] = true
		}
	}
	var out []int
	for c, s := range seen {
		if s {
			out = append(out, c)
		}
	}
	return out
}

// The mixed-radix lister must list every labeling (each point within its
// label set) whose exact block sum lies in the window, in increasing
// order: a missed one could explain a score and make decoding report a
// label another labeling explains. Checked against every labeling's
// exact sum on random windows, with label sets of every size.
func TestRadixEachComplete(t *testing.T) {
	t.Parallel()
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		t.Fatal(err)
	}
	k := 4
	a, err := newMulti(100, k, MultiOptions{Model: m, Strategy: Cross})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(18, 6))
	nb := 5
	idx := []int{0, 1, 2, 3, 4}
	for i := range idx {
		for a.mask[i] = 0; a.mask[i]&(a.mask[i]-1) == 0; {
			a.mask[i] = r.Uint64() & maskAll(k) // at least two labels
		}
	}
	p, err := a.radixDesign(idx, 1e-3, false)
	if err != nil || p == nil {
		t.Fatalf("radixDesign: %v, %v", p, err)
	}
	var sums []*big.Float
	var labs [][]int
	for _, z := range allLabelings(nb, k) {
		in := true
		s := new(big.Float).SetPrec(sumPrec)
		for j, c := range z {
			in = in && a.mask[idx[j]]>>c&1 == 1
			s.Add(s, p.v[j][c])
		}
		if in {
			sums, labs = append(sums, s), append(labs, z)
		}
	}
	for range 200 {
		lo := new(big.Float).SetPrec(sumPrec).Set(sums[r.IntN(len(sums))])
		hi := new(big.Float).SetPrec(sumPrec).Add(lo, big.NewFloat(r.Float64()*0.2))
		lo.Sub(lo, big.NewFloat(r.Float64()*0.01))
		var got [][]int
		var last *big.Float
		p.each(a, p, lo, hi, func(sigma []int) bool {
			s := new(big.Float).SetPrec(sumPrec)
			for j, c := range sigma {
				s.Add(s, p.v[j][c])
			}
			if last != nil && s.Cmp(last) < 0 {
				t.Errorf("each: sums out of order")
			}
			last = s
			got = append(got, slices.Clone(sigma))
			return true
		})
		want := 0
		for q, s := range sums {
			if s.Cmp(lo) >= 0 && s.Cmp(hi) <= 0 {
				want++
				if !slices.ContainsFunc(got, func(g []int) bool { return slices.Equal(g, labs[q]) }) {
					t.Fatalf("each missed %v (sum in the window)", labs[q])
				}
			}
		}
		if len(got) != want {
			t.Fatalf("each listed %d labelings, %d in the window", len(got), want)
		}
	}
}

// Under float64-sklearn (a model that names its log) every row outside a
// block is the server's own term, so that decodeEmu brackets a candidate
// with one emulation.
func TestKtiesBaseExact(t *testing.T) {
	t.Parallel()
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		t.Fatal(err)
	}
	a, err := newMulti(50, 6, MultiOptions{Model: m, Strategy: Cross})
	if err != nil {
		t.Fatal(err)
	}
	if a.mask == nil || !a.baseExact {
		t.Errorf("K-ary code %v, rows outside a block exact %v; want both", a.mask != nil, a.baseExact)
	}
}

// tieSets narrows each disagreeing point's label set to the labels the
// explaining labelings give it, ties points whose difference or sum mod K
// is constant over them (a carry; a paired top's count), and learning a
// leader learns its followers with the right labels.
func TestTieSets(t *testing.T) {
	t.Parallel()
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		t.Fatal(err)
	}
	a, err := newMulti(20, 6, MultiOptions{Model: m, Strategy: Cross})
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{3, 4, 5, 6, 7}
	// Positions 0 and 1: a paired top of count 7 (sum 1 mod 6); 2 and 3:
	// a carry (…2, 5 against …3, 0: difference 3); 4 agrees (label 4).
	cands := [][]int{
		{2, 5, 2, 5, 4},
		{3, 4, 3, 0, 4},
		{4, 3, 2, 5, 4},
		{5, 2, 3, 0, 4},
	}
	found := []int{-1, -1, -1, -1, 4}
	if !a.tieSets(idx, cands, found) {
		t.Fatal("tieSets learned nothing")
	}
	if a.leader[4] != 3 || !a.neg[4] || a.flip[4] != 1 {
		t.Errorf("point 4: leader %d, neg %v, flip %d; want 3, true, 1 (σ_4 = 1 − σ_3)", a.leader[4], a.neg[4], a.flip[4])
	}
	if a.leader[6] != 5 || a.neg[6] || a.flip[6] != 3 {
		t.Errorf("point 6: leader %d, neg %v, flip %d; want 5, false, 3 (σ_6 = σ_5 + 3)", a.leader[6], a.neg[6], a.flip[6])
	}
	if a.mask[3] != 0b111100 || a.mask[5] != 0b1100 {
		t.Errorf("label sets %b, %b; want {2, 3, 4, 5}, {2, 3}", a.mask[3], a.mask[5])
	}
	a.learn([]int{3, 5}, []int{4, 3})
	if a.labels[4] != 3 || a.labels[6] != 0 || a.tied != 0 {
		t.Errorf("after the leaders: labels[4] %d, labels[6] %d, tied %d; want 3, 0, 0", a.labels[4], a.labels[6], a.tied)
	}
	// Nothing to learn: no tie, no narrower set.
	b, _ := newMulti(20, 6, MultiOptions{Model: m, Strategy: Cross})
	if b.tieSets([]int{0, 1}, [][]int{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}, {0, 1}}, []int{-1, -1}) {
		t.Error("tieSets reported progress where the labelings allow every label pair")
	}
}
