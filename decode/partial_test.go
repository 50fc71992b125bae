package decode

import (
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/scorer"
)

// partialBlocks is the block code with partial decoding alone (the
// retired Lean strategy): Cross's base without its ties and exact terms,
// whose blocks are sized by the faithful bracket. The tests of the
// machinery it shares with Cross (partial decoding, mixed blocks, the
// replay of a transcript) run it.
var partialBlocks = &designer{name: "partial-blocks", init: (*multi).setupPartial, next: Blocks.(*designer).next}

// The block code with partial decoding recovers every label, verified,
// from every emulable scorer and from the leaderboard (where it is
// Blocks), for K = 2 and K = 3; attackSim compares each label with the
// truth.
func TestPartialAllScorers(t *testing.T) {
	t.Parallel()
	n := 3000
	if testing.Short() {
		n = 150
	}
	cases := []struct {
		model string
		k     int
	}{
		{"float64-sklearn", 3}, {"float32-keras", 2}, {"float64-sklearn", 2}, {"torch-bce", 2}, {"leaderboard", 2},
	}
	if testing.Short() {
		cases = cases[:2] // keep -short ./decode fast
	}
	for _, tt := range cases {
		labels := seededLabels(t, n, tt.k)
		res := attackSim(t, tt.model, labels, tt.k, MultiOptions{Strategy: partialBlocks, Check: true})
		if !res.Checked || !res.CheckDecisive {
			t.Errorf("%s K=%d: check %v decisive %v", tt.model, tt.k, res.Checked, res.CheckDecisive)
		}
		got := 0
		for _, b := range res.Blocks {
			got += b
		}
		if got != n {
			t.Errorf("%s K=%d: blocks decoded %d labels, want %d", tt.model, tt.k, got, n)
		}
		t.Logf("%-16s K=%d %4d queries (%d partial, %d retries)", tt.model, tt.k, res.Queries, res.Partial, res.Retries)
	}
}

// Partial decoding and mixed blocks spend fewer queries than Blocks on
// the float32 scorer, where the mixed blocks gain most (one label of
// about 13); at N = 3,000 they save about 7% (BENCHMARKS.md §17 has
// N = 25,000).
func TestPartialBeatsBlocks(t *testing.T) { beats(t, "float32-keras", partialBlocks, Blocks) }

// beats checks that strategy a needs fewer queries than b against the
// named scorer on one seeded labeling (N = 3000, 500 under -short).
func beats(t *testing.T, model string, a, b Strategy) {
	t.Helper()
	n := 3000
	if testing.Short() {
		n = 500
	}
	labels := seededLabels(t, n, 2)
	rb := attackSim(t, model, labels, 2, MultiOptions{Strategy: b})
	ra := attackSim(t, model, labels, 2, MultiOptions{Strategy: a})
	if ra.Queries >= rb.Queries {
		t.Errorf("%s N=%d: %v %d queries, %v %d; want fewer", model, n, a, ra.Queries, b, rb.Queries)
	}
	t.Logf("%s N=%d: %v %d, %v %d queries", model, n, a, ra.Queries, b, rb.Queries)
}

// mixed.each must list every labeling whose exact block sum lies in the
// window (a superset is allowed): a missed one could explain the score
// and make decoding report a label another labeling explains. Checked
// against all 2^k labelings' exact sums on random windows.
func TestMixedEachComplete(t *testing.T) {
	t.Parallel()
	m, err := scorer.ParseModel("float64-sklearn")
	if err != nil {
		t.Fatal(err)
	}
	a, err := newMulti(1000, 2, MultiOptions{Model: m, Strategy: partialBlocks})
	if err != nil {
		t.Fatal(err)
	}
	const top, low = 6, 4
	p, err := a.mixedDesign(top, low, 1e-3)
	if err != nil || p == nil {
		t.Fatalf("mixedDesign: %v, %v", p, err)
	}
	k := top + low
	sums := make([]*big.Float, 1<<k)
	for mask := range sums {
		s := new(big.Float).SetPrec(sumPrec)
		for j := range k {
			s.Add(s, p.v[j][mask>>j&1])
		}
		sums[mask] = s
	}
	r := testrand.New(t)
	total, _ := sums[1<<k-1].Float64()
	for trial := range 200 {
		c := r.Float64()*total*1.1 - total*0.05
		w := r.Float64() * 8e-3 // up to eight units
		if trial%4 == 0 {
			w = 0 // a point window
		}
		lo := new(big.Float).SetPrec(sumPrec).SetFloat64(c - w/2)
		hi := new(big.Float).SetPrec(sumPrec).SetFloat64(c + w/2)
		listed := map[int]bool{}
		ok := p.each(a, p, lo, hi, func(sigma []int) bool {
			mask := 0
			for j, cl := range sigma {
				mask |= cl << j
			}
			listed[mask] = true
			return true
		})
		if !ok {
			t.Fatalf("window [%g, %g]: each gave up", c-w/2, c+w/2)
		}
		for mask, s := range sums {
			if s.Cmp(lo) >= 0 && s.Cmp(hi) <= 0 && !listed[mask] {
				t.Errorf("window [%g, %g]: labeling %b (sum %s) not listed", c-w/2, c+w/2, mask, s.Text('g', 12))
			}
		}
	}
	// The realized gap is the unit less twice the deviations; the integer
	// subset sums being distinct, no two exact sums are closer.
	gap, _ := p.gap.Float64()
	if !(gap > 0 && gap <= 1e-3) {
		t.Errorf("gap %g; want in (0, 1e-3]", gap)
	}
}

func TestRowCacheGrid(t *testing.T) {
	t.Parallel()
	for _, g := range []float64{1e-12, 0.3, 1, 2, 3.7e5, math.Exp2(5.0 / rowGridSteps)} {
		q := gridUp(g)
		if !(q >= g && q <= g*math.Exp2(1.0/rowGridSteps)*(1+1e-12)) {
			t.Errorf("gridUp(%g) = %g; want in [g, g·2^(1/%d)]", g, q, rowGridSteps)
		}
		if gridUp(q) != q {
			t.Errorf("gridUp(gridUp(%g)) = %g; want %g", g, gridUp(q), q)
		}
	}
}
