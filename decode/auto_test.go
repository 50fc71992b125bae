package decode

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// TestAutoGrid runs [Auto]'s pick over every preset and a grid of
// fpa:E,M formats (E ∈ {5, 8, 11, 15}, M ∈ {10, 23, 52, 112}), N ∈ {300,
// 2,000}, three labelings each (seed 1, all K − 1, i mod K), and fails
// where auto errs (an error, an unverified or wrong labeling) and another
// registered strategy recovers every label. Under -short it runs a
// subset: the presets and binary32 at N = 2,000 on one labeling, and
// the grid's corners at N = 300.
func TestAutoGrid(t *testing.T) {
	type cell struct {
		model string
		k, n  int
	}
	var cells []cell
	presets := []string{scorer.Float64Sklearn, scorer.Float32Keras, scorer.TorchBCE, scorer.Leaderboard}
	formats := []string{"binary32", "binary64", "exact"}
	for _, e := range []int{5, 8, 11, 15} {
		for _, m := range []int{10, 23, 52, 112} {
			formats = append(formats, fmt.Sprintf("fpa:%d,%d", e, m))
		}
	}
	labelings := []string{"seed 1", "all K-1", "i mod K"}
	if testing.Short() {
		for _, p := range presets {
			cells = append(cells, cell{p, 2, 2000}, cell{p, 6, 300})
		}
		cells = append(cells, cell{"binary32", 2, 2000})
		for _, f := range []string{"fpa:5,10", "fpa:8,23", "fpa:15,112"} {
			cells = append(cells, cell{f, 2, 300})
		}
		labelings = labelings[:1]
	} else {
		for _, n := range []int{300, 2000} {
			for _, p := range presets {
				cells = append(cells, cell{p, 2, n}, cell{p, 6, n})
			}
			for _, f := range formats {
				cells = append(cells, cell{f, 2, n})
			}
		}
	}
	t0 := time.Now()
	for _, c := range cells {
		m, err := scorer.ParseModel(c.model)
		if err != nil {
			t.Fatal(err)
		}
		auto := Auto(m, c.k, false)
		for _, lab := range labelings {
			labels := gridLabels(t, lab, c.n, c.k)
			name := fmt.Sprintf("%s K=%d N=%d %s", c.model, c.k, c.n, lab)
			aerr := gridRun(m, auto, labels, c.k)
			if aerr == nil {
				continue
			}
			for _, st := range Strategies() {
				if st == auto {
					continue
				}
				if err := gridRun(m, st, labels, c.k); err == nil {
					t.Errorf("%s: auto (%v) fails (%v) where %v recovers every label", name, auto, aerr, st)
					break
				}
			}
		}
	}
	t.Logf("%d cells × %d labelings in %v", len(cells), len(labelings), time.Since(t0).Round(time.Millisecond))
}

// gridLabels returns the labeling called lab.
func gridLabels(t *testing.T, lab string, n, k int) []int {
	labels := make([]int, n)
	switch lab {
	case "seed 1":
		return randLabels(rand.New(rand.NewPCG(1, 0x6c6162656c73)), n, k) // labelinf attack -seed 1
	case "all K-1":
		for i := range labels {
			labels[i] = k - 1
		}
	case "i mod K":
		for i := range labels {
			labels[i] = i % k
		}
	default:
		t.Fatalf("labeling %q", lab)
	}
	return labels
}

// gridRun attacks a simulated scorer of model m holding labels with st:
// nil if every label is recovered and verified.
func gridRun(m *scorer.Model, st Strategy, labels []int, k int) error {
	sim, err := oracle.NewSim(m, labels, k)
	if err != nil {
		return err
	}
	res, err := AttackMulti(context.Background(), scorer.PerPoint(sim, m), MultiOptions{Strategy: st, Model: m})
	switch {
	case err != nil:
		return err
	case !res.Verified:
		return fmt.Errorf("not verified")
	case !slices.Equal(res.Labels, labels):
		return fmt.Errorf("verified but wrong labels")
	}
	return nil
}

// TestPaletteRepresentable checks the list decoders' palette: against a
// model that clips (or floors its log) a negative weight reaches −wmax,
// as before; against an unclipped one every row, of either sign, has
// finite terms (binary32 designed rows of weight down to −103 whose
// 1 − p rounds to 0 in the format).
func TestPaletteRepresentable(t *testing.T) {
	for _, name := range []string{scorer.Float64Sklearn, scorer.Float32Keras, scorer.TorchBCE, scorer.Leaderboard, "binary32", "binary64", "exact", "binary16", "fpa:11,10", "fpa:15,112"} {
		m, err := scorer.ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := newMulti(300, 2, MultiOptions{Model: m, Strategy: Leaderboard})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if a.pExt == 0 && a.wneg != a.wmax {
			t.Errorf("%s clips: wneg = %v; want wmax = %v", name, a.wneg, a.wmax)
		}
		st := newLbState(a)
		if err := st.palette(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lo := 0.0
		for r := range st.pal {
			st.row(r)
			lo = min(lo, st.pal[r].w)
		}
		if st.err != nil {
			t.Errorf("%s: %v", name, st.err)
		}
		t.Logf("%s: weights down to %.3g (wmax %.4g, wneg %.4g)", name, lo, a.wmax, a.wneg)
	}
}
