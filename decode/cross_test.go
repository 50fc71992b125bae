package decode

import (
	"testing"

	"github.com/labelinf/labelinf/scorer"
)

// Cross recovers every label, verified, from every emulable scorer, from
// the leaderboard (where it is Blocks) and for K = 3 (no ties); attackSim
// compares each label with the truth, followers learned through ties
// included. The fixed labelings (all 0, all 1, alternating) stress the
// ties: every paired top then has a count of 0, 2 or 1 throughout.
func TestCrossAllScorers(t *testing.T) {
	t.Parallel()
	n := 3000
	if testing.Short() {
		n = 150
	}
	cases := []struct {
		model  string
		k      int
		labels string
	}{
		{"torch-bce", 2, "seed"}, {"float32-keras", 2, "alternating"}, {"float64-sklearn", 2, "seed"},
		{"float64-sklearn", 3, "seed"}, {"torch-bce", 2, "ones"}, {"float32-keras", 2, "zeros"}, {"leaderboard", 2, "seed"},
	}
	if testing.Short() {
		cases = cases[:2] // keep -short ./decode fast
	}
	for _, tt := range cases {
		labels := seededLabels(t, n, tt.k)
		for i := range labels {
			switch tt.labels {
			case "zeros":
				labels[i] = 0
			case "ones":
				labels[i] = tt.k - 1
			case "alternating":
				labels[i] = i % tt.k
			}
		}
		res := attackSim(t, tt.model, labels, tt.k, MultiOptions{Strategy: Cross, Check: true})
		if !res.Checked || !res.CheckDecisive {
			t.Errorf("%s K=%d %s: check %v decisive %v", tt.model, tt.k, tt.labels, res.Checked, res.CheckDecisive)
		}
		t.Logf("%-16s K=%d %-11s %4d queries (%d partial, %d retries)", tt.model, tt.k, tt.labels, res.Queries, res.Partial, res.Retries)
	}
}

// Cross spends fewer queries than its base, the block code with partial
// decoding (partialBlocks, the retired Lean), against torch-bce, where
// exact terms remove a bracket of 2–7 spacings (BENCHMARKS.md §22 has
// N = 25,000: about 9% fewer).
func TestCrossBeatsPartial(t *testing.T) { t.Parallel(); beats(t, "torch-bce", Cross, partialBlocks) }

// tieCands ties exactly the disagreeing points whose parity is the same
// in every explaining labeling, and learning a leader learns its
// followers with the right labels.
func TestTieCands(t *testing.T) {
	t.Parallel()
	m, err := scorer.ParseModel("float32-keras")
	if err != nil {
		t.Fatal(err)
	}
	a, err := newMulti(20, 2, MultiOptions{Model: m, Strategy: Cross})
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{3, 4, 5, 6, 7, 8}
	// Positions 0 and 5 flip together (parity 1), 2 and 3 together
	// (parity 0), 4 disagrees with every other pattern, 1 agrees.
	cands := [][]int{
		{1, 0, 0, 0, 0, 0},
		{0, 0, 1, 1, 0, 1},
		{1, 0, 1, 1, 1, 0},
	}
	found := []int{-1, 0, -1, -1, -1, -1}
	p := &blockPlan{pair: 5}
	if short := a.tieCands(idx, p, cands, found); !short {
		t.Error("tieCands: three groups reported as the pair's tie alone")
	}
	wantLeader := map[int]int{3: -1, 5: -1, 6: 5, 7: -1, 8: 3}
	for i, l := range wantLeader {
		if a.leader[i] != l {
			t.Errorf("leader[%d] = %d; want %d", i, a.leader[i], l)
		}
	}
	if a.tied != 2 || a.flip[8] != 1 || a.flip[6] != 0 {
		t.Errorf("tied %d, flip[8] %d, flip[6] %d; want 2, 1, 0", a.tied, a.flip[8], a.flip[6])
	}
	if got := a.nextIdx(20); len(got) != 18 {
		t.Errorf("nextIdx skips %d points; want the 2 followers", 20-len(got))
	}
	a.learn([]int{3, 5}, []int{0, 1})
	if a.labels[8] != 1 || a.labels[6] != 1 || a.tied != 0 || a.nUnk != 16 {
		t.Errorf("after learning the leaders: labels[8] %d, labels[6] %d, tied %d, nUnk %d; want 1, 1, 0, 16", a.labels[8], a.labels[6], a.tied, a.nUnk)
	}
	// Only the pair's own tie is not a short separation.
	b, _ := newMulti(20, 2, MultiOptions{Model: m, Strategy: Cross})
	if short := b.tieCands([]int{0, 1, 2}, &blockPlan{pair: 2}, [][]int{{1, 0, 0}, {0, 0, 1}}, []int{-1, 0, -1}); short {
		t.Error("tieCands: the pair's own tie reported as a short separation")
	}
}
