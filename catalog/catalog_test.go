package catalog

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

func target(t *testing.T, model string, n, k int) Target {
	t.Helper()
	m, err := scorer.ParseModel(model)
	if err != nil {
		t.Fatal(err)
	}
	return Target{Model: m, N: n, K: k}
}

// TestAuto pins the one rule's choices: hybrid for float64-sklearn and
// torch-bce, carry for float32-keras (and a faithful-log torch-bce, and
// binary32), leaderboard for a binary score rounded to decimals, kbin for
// K > 2 against an unrounded model that names its log, klist where that
// score is summed, cross otherwise.
func TestAuto(t *testing.T) {
	for _, tt := range []struct {
		model string
		k     int
		noEmu bool
		want  string
	}{
		{"leaderboard", 2, false, "leaderboard"}, {"leaderboard", 3, false, "cross"},
		{"float64,clip=eps,renorm,dec=5", 2, false, "leaderboard"}, {"float64-sklearn,dec=5", 2, true, "leaderboard"},
		{"float32-keras", 2, false, "carry"}, {"float32-keras", 2, true, "cross"}, {"float32-keras", 3, false, "cross"},
		{"binary32", 2, false, "carry"}, {"fpa:8,23", 2, false, "carry"},
		{"torch-bce", 2, false, "hybrid"}, {"float64-sklearn", 2, false, "hybrid"},
		{"float64-sklearn", 2, true, "cross"}, {"float64-sklearn,log=faithful", 2, false, "cross"}, {"torch-bce,log=faithful", 2, false, "carry"},
		{"apa", 2, false, "cross"}, {"binary32,sum=kahan", 2, false, "cross"}, {"binary64", 2, false, "cross"}, {"fpa:5,10", 2, false, "cross"},
		{"float64-sklearn", 6, false, "kbin"}, {"float64-sklearn", 6, true, "cross"}, {"torch-bce", 3, false, "kbin"},
		{"float64-sklearn", 3, false, "kbin"}, {"torch-bce", 4, false, "kbin"}, {"float64-sklearn,reduce=sum", 6, false, "klist"},
		{"float64-sklearn,dec=5", 6, false, "cross"}, {"apa", 3, false, "cross"},
	} {
		tg := target(t, tt.model, 1000, tt.k)
		tg.NoEmulation = tt.noEmu
		a, err := Auto(tg)
		if err != nil || a.Name != tt.want {
			t.Errorf("Auto(%s, K = %d, noEmu %v) = %v, %v; want %s", tt.model, tt.k, tt.noEmu, a, err, tt.want)
		}
	}
	if _, err := Auto(Target{N: 10, K: 2}); err == nil {
		t.Error("Auto of a log-loss target without a model: no error")
	}
}

// TestEntries: every strategy of package decode has one entry; names and
// aliases are unique; Parse finds each; auto is no entry.
func TestEntries(t *testing.T) {
	for _, s := range decode.Strategies() {
		a := Lookup(s.String())
		if a == nil || a.Strategy != s {
			t.Errorf("decode strategy %s has no catalogue entry", s)
		}
	}
	for _, e := range multiEntries {
		if Lookup(e.name) == nil {
			t.Errorf("catalogue entry %s is no strategy of decode", e.name)
		}
	}
	if Lookup(AutoName) != nil {
		t.Error("auto is an entry")
	}
	for _, name := range []string{"edge", "threshold-crossing", "average", "boost", "alg1", "primes", "list"} {
		if _, err := Parse(name, Target{}); err != nil {
			t.Error(err)
		}
	}
	if _, err := Parse("nonesuch", Target{}); err == nil {
		t.Error("Parse(nonesuch): no error")
	}
}

// TestEstimatesConsistent: an estimate's lower bound is never above its
// own count or band (plan -n 5000 -k 6 -scorer float64-sklearn showed
// cross at 262 queries but "at least 275"; a run takes 281).
func TestEstimatesConsistent(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		model string
		n, k  int
	}{{"float64-sklearn", 5000, 6}, {"float64-sklearn", 2000, 2}, {"torch-bce", 2000, 2}, {"float32-keras", 2000, 2}, {"leaderboard", 2000, 2}, {"leaderboard,dec=2", 300, 2}} {
		if testing.Short() && c.n != 300 {
			continue // below: cross at N = 5,000, K = 6 alone
		}
		tg := target(t, c.model, c.n, c.k)
		for _, a := range Applicable(tg) {
			e, err := a.Estimate(ctx, tg, EstimateOptions{})
			if err != nil {
				continue
			}
			if e.Queries > 0 && e.Lower > e.Queries || e.Low > 0 && e.Lower > e.Low || e.High > 0 && e.High < e.Low {
				t.Errorf("%s K = %d N = %d, %s: queries %d, band %d–%d, at least %d", c.model, c.k, c.n, a.Name, e.Queries, e.Low, e.High, e.Lower)
			}
		}
	}
	tg := target(t, "float64-sklearn", 5000, 6)
	// kbin, auto's pick there, has neither a dry run nor a construction
	// estimate: one simulated run (261 queries on seed 1 at N = 5,000),
	// above its bound.
	if e, err := Lookup("kbin").Estimate(ctx, target(t, "float64-sklearn", 1000, 6), EstimateOptions{}); err != nil || e.Low == 0 || e.Low != e.High || e.Lower > e.Low {
		t.Errorf("kbin, float64-sklearn, K = 6, N = 1,000: %+v, %v; want one simulated run's count", e, err)
	}
	e, err := Lookup("cross").Estimate(ctx, tg, EstimateOptions{})
	if err != nil || e.Queries != 0 || e.Low < 270 {
		t.Errorf("cross, float64-sklearn, K = 6, N = 5,000: %+v, %v; want the band from the bound (275) on", e, err)
	}
}

// TestApplies: the adaptive attacks apply where the audit runs them.
func TestApplies(t *testing.T) {
	tg := target(t, "float64-sklearn", 100, 2)
	for name, want := range map[string]bool{"edge": true, "average": false, "boost": false, "leaderboard": true, "kbin": false} {
		if got := Lookup(name).Applies(tg) == nil; got != want {
			t.Errorf("%s applies to float64-sklearn K = 2: %v, want %v", name, got, want)
		}
	}
	tg.Defence = &defence.Settings{Ladder: &defence.LadderSettings{}, Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 1e-6}}
	for _, name := range []string{"average", "boost"} {
		if err := Lookup(name).Applies(tg); err != nil {
			t.Errorf("%s under a ladder and fresh noise: %v", name, err)
		}
	}
	tg.K = 6
	for _, name := range []string{"edge", "leaderboard", "hybrid"} {
		if Lookup(name).Applies(tg) == nil {
			t.Errorf("%s applies to K = 6", name)
		}
	}
}

// TestNotAppliedNotRun: a decode strategy's entry that does not apply
// returns an error before its first query (decode would fall back to
// another strategy: kbin at K = 2 to cross) and Auto never picks it.
func TestNotAppliedNotRun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, model string
		k           int
	}{{"kbin", "float64-sklearn", 2}, {"klist", "float64-sklearn", 2}, {"carry", "float64", 3}, {"hybrid", "leaderboard", 2},
		// hybrid where its terms are brackets or the score summed (it ran carry).
		{"hybrid", "float32-keras", 2}, {"hybrid", "float64-sklearn,reduce=sum", 2}, {"hybrid", "torch-bce,log=faithful", 2},
		// KList's path where kbin covers it (the mean) is retired.
		{"klist", "float64-sklearn", 6}, {"klist", "torch-bce", 3}} {
		k := tt.k
		tg := target(t, tt.model, 500, k)
		a := Lookup(tt.name)
		if a.Applies(tg) == nil {
			t.Fatalf("%s applies to %s K = %d", tt.name, tt.model, k)
		}
		labels := make([]int, tg.N)
		sim, err := oracle.NewSim(tg.Model, labels, tg.K)
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Run(context.Background(), scorer.PerPoint(sim, tg.Model), tg, Options{})
		if err == nil || res != nil || sim.Queries() != 0 {
			t.Errorf("%s against %s K = %d ran: %v, %v, %d queries", tt.name, tt.model, k, res, err, sim.Queries())
		}
		if p, err := Auto(tg); err != nil || p == a {
			t.Errorf("Auto(%s, K = %d) = %v, %v", tt.model, k, p, err)
		}
	}
}

// TestAppliesAsDecode: carry's and hybrid's Applies hold exactly where
// decode plans them (decode runs no other strategy in their place), over
// the presets, their variants and the fpa grid.
func TestAppliesAsDecode(t *testing.T) {
	t.Parallel()
	models := []string{scorer.Float64Sklearn, scorer.Float32Keras, scorer.TorchBCE, scorer.Leaderboard, "binary32", "binary64", "exact",
		"float64-sklearn,reduce=sum", "float64-sklearn,log=faithful", "torch-bce,log=faithful", "float64-sklearn,dec=5", "binary32,sum=kahan"}
	for _, e := range []int{5, 8, 11, 15} {
		for _, m := range []int{10, 23, 52, 112} {
			models = append(models, fmt.Sprintf("fpa:%d,%d", e, m))
		}
	}
	for _, name := range []string{"carry", "hybrid"} {
		a := Lookup(name)
		for _, model := range models {
			for _, k := range []int{2, 3} {
				tg := target(t, model, 200, k)
				_, err := decode.PlanMulti(context.Background(), decode.MultiOptions{N: tg.N, K: k, Strategy: a.Strategy, Model: tg.Model})
				if aerr := a.Applies(tg); (aerr == nil) != (err == nil) {
					t.Errorf("%s, %s K = %d: Applies %v, decode's plan %v", name, model, k, aerr, err)
				}
			}
		}
	}
}

// TestAutoGrid runs [Auto]'s pick over every preset and a grid of
// fpa:E,M formats (E ∈ {5, 8, 11, 15}, M ∈ {10, 23, 52, 112}), N ∈ {300,
// 2,000}, three labelings each (seed 1, all K − 1, i mod K), and fails
// where auto errs (an error, an unverified or wrong labeling) and another
// applicable attack of the catalogue recovers every label, verified.
// Under -short it runs a subset on one labeling: the presets and the
// grid's corners at N = 300, binary32 at N = 2,000. Auto runs as
// labelinf attack runs it (RunAuto). fpa:5,10 (binary16) at N = 2,000 is
// the cell where no block code carries a label a query (the budget needs
// labelings 25 apart in N·score, one point moves it by 16.6): auto falls
// back to the threshold crossing, which recovers all K − 1 and i mod K
// and reads 1,020 of seed 1's 2,000 labels (the binary16 sum's
// intermediate roundings move the edge), where no other attack does
// better. Measured on a loaded 2-core machine: 54 cells × 3 labelings in
// 98 s one after another, 50 of them in those three crossing runs; the
// runs are parallel subtests (the N = 2,000 cells first), so on 2 cores
// the test's wall time is about half its CPU time.
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
	labelings := []string{"seed1", "allK-1", "imodK"} // BenchLabeling's
	if testing.Short() {
		for _, p := range presets {
			cells = append(cells, cell{p, 2, 300}, cell{p, 6, 300})
		}
		cells = append(cells, cell{"binary32", 2, 2000})
		for _, f := range []string{"fpa:5,10", "fpa:8,23", "fpa:15,112"} {
			cells = append(cells, cell{f, 2, 300})
		}
		labelings = labelings[:1]
	} else {
		for _, n := range []int{2000, 300} { // the long cells first
			for _, p := range presets {
				cells = append(cells, cell{p, 2, n}, cell{p, 6, n})
			}
			for _, f := range formats {
				cells = append(cells, cell{f, 2, n})
			}
		}
	}
	t0 := time.Now()
	// The cells are independent (each its own model, labels and scorer),
	// so they run in parallel: the attacks are single-threaded.
	t.Run("grid", func(t *testing.T) {
		for _, c := range cells {
			for _, lab := range labelings {
				name := fmt.Sprintf("%s K=%d N=%d %s", c.model, c.k, c.n, lab)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					tg := target(t, c.model, c.n, c.k)
					labels, err := BenchLabeling(lab, c.n, c.k)
					if err != nil {
						t.Fatal(err)
					}
					t1 := time.Now()
					auto, aerr := gridRunAuto(tg, labels)
					if d := time.Since(t1); d > time.Second/4 {
						t.Logf("%s: %s %v", name, auto.Name, d.Round(time.Millisecond))
					}
					if aerr == nil {
						return
					}
					for _, a := range Applicable(tg) {
						if a == auto || a.Run == nil || !verifies(a) {
							continue
						}
						if err := gridRun(a, tg, labels); err == nil {
							t.Errorf("%s: auto (%s) fails (%v) where %s recovers every label", name, auto.Name, aerr, a.Name)
							break
						}
					}
				})
			}
		}
	})
	t.Logf("%d cells × %d labelings in %v", len(cells), len(labelings), time.Since(t0).Round(time.Millisecond))
}

// gridRunAuto runs RunAuto (labelinf attack -strategy auto) against a
// simulated scorer of tg's model holding labels: the attack that ran, and
// nil if every label is recovered and verified.
func gridRunAuto(tg Target, labels []int) (*Attack, error) {
	sim, err := oracle.NewSim(tg.Model, labels, tg.K)
	if err != nil {
		return nil, err
	}
	a, res, err := RunAuto(context.Background(), scorer.PerPoint(sim, tg.Model), tg, Options{})
	switch {
	case err != nil:
		return a, err
	case !res.Verified:
		return a, fmt.Errorf("not verified")
	case !slices.Equal(res.Labels, labels):
		return a, fmt.Errorf("verified but wrong labels")
	}
	return a, nil
}

// gridRun runs a against a simulated scorer of tg's model holding labels:
// nil if every label is recovered and verified.
func gridRun(a *Attack, tg Target, labels []int) error {
	sim, err := oracle.NewSim(tg.Model, labels, tg.K)
	if err != nil {
		return err
	}
	res, err := a.Run(context.Background(), scorer.PerPoint(sim, tg.Model), tg, Options{})
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
