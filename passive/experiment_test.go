package passive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestParseEpsilons(t *testing.T) {
	e, err := ParseEpsilons("inf,4, 2,1,0.8,0.5,0.3")
	if err != nil {
		t.Fatal(err)
	}
	if len(e) != 7 {
		t.Fatalf("len %d, want %d", len(e), 7)
	}
	if !math.IsInf(float64(e[0]), 1) {
		t.Error("math.IsInf(float64(e[0]), 1) is false")
	}
	if want := Epsilon(0.3); e[6] != want {
		t.Errorf("e[6] = %v, want %v", e[6], want)
	}
	if got := e[0].String(); got != "inf" {
		t.Errorf("e[0].String() = %v, want %v", got, "inf")
	}
	b, err := json.Marshal(e[:2])
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `["inf",4]`; got != want {
		t.Errorf("string(b) = %v, want %v", got, want)
	}
	for _, bad := range []string{"", "x", "-1", "1,,2", "nan"} {
		_, err := ParseEpsilons(bad)
		if err == nil {
			t.Errorf("ParseEpsilons(%q): no error", bad)
		}
	}
}

// TestExperimentDeterministic checks that a report depends only on the
// configuration, not on how many runs train at once.
func TestExperimentDeterministic(t *testing.T) {
	d, err := LoadDataset("", "wdbc")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Model: "mlp", MLP: MLPOptions{Epochs: 5}, Epsilons: []Epsilon{Epsilon(math.Inf(1)), 1}, Seeds: 3, CanaryFrac: 0.05}
	var reps [2]*Report
	for i, w := range []int{1, 2} {
		cfg.Workers = w
		reps[i], err = RunExperiment(context.Background(), d, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for e := range reps[i].Epsilons {
			for r := range reps[i].Epsilons[e].Runs {
				reps[i].Epsilons[e].Runs[r].Seconds = 0
			}
		}
		reps[i].Seconds = 0
	}
	if !reflect.DeepEqual(reps[1], reps[0]) {
		t.Error("the same options gave two reports")
	}
	r := reps[0]
	if got := r.Epsilons[0].Runs[0].TrainRows; got != 455 {
		t.Errorf("r.Epsilons[0].Runs[0].TrainRows = %v, want %v", got, 455)
	} // 569 − ⌈0.2·569⌉
	if got := r.Epsilons[0].Runs[0].Canaries; got != 22 {
		t.Errorf("r.Epsilons[0].Runs[0].Canaries = %v, want %v", got, 22)
	} // ⌊0.05·455⌋
	if got := r.Epsilons[0].Runs[0].TestRows; got != 114 {
		t.Errorf("r.Epsilons[0].Runs[0].TestRows = %v, want %v", got, 114)
	} // held-out rows
	if got := r.Epsilons[0].Runs[0].RRFlipped; got != 0 {
		t.Errorf("r.Epsilons[0].Runs[0].RRFlipped = %v, want %v", got, 0)
	} // ε = ∞
	if !(r.Epsilons[1].Runs[0].RRFlipped > 0) {
		t.Errorf("r.Epsilons[1].Runs[0].RRFlipped = %v, want > %v", r.Epsilons[1].Runs[0].RRFlipped, 0)
	}
	if !(r.Epsilons[0].TestAcc.Mean > 0.9) {
		t.Errorf("r.Epsilons[0].TestAcc.Mean = %v, want > %v", r.Epsilons[0].TestAcc.Mean, 0.9)
	}
	// The seeds differ.
	if reflect.DeepEqual(r.Epsilons[0].Runs[0].Outcomes, r.Epsilons[0].Runs[1].Outcomes) {
		t.Errorf("two seeds, one outcome: %v", r.Epsilons[0].Runs[0].Outcomes)
	}
}

// TestExperimentDetectsMemorization trains a network that overfits WDBC
// for long enough to memorize its canaries: the threshold attack must
// detect it without DP.
func TestExperimentDetectsMemorization(t *testing.T) {
	d, err := LoadDataset("", "wdbc")
	if err != nil {
		t.Fatal(err)
	}
	epochs := 300
	if testing.Short() {
		epochs = 60 // enough to memorize 112 canaries (train accuracy > 0.99), a fifth of the time
	}
	rep, err := RunExperiment(context.Background(), d, Config{
		Model: "mlp", MLP: MLPOptions{Hidden: []int{64}, Epochs: epochs, Batch: 32, LR: 1e-2},
		Seeds: 2, TrainFrac: 1, CanaryFrac: 0.1,
	})
	if err != nil {
		t.Fatal(err)
	}
	thr := rep.Epsilons[0].Pooled[0]
	if rep.Attacks[0] != "threshold" {
		t.Errorf("rep.Attacks[0] = %v, want %v", rep.Attacks[0], "threshold")
	}
	if want := 56 * 2; thr.N != want {
		t.Errorf("thr.N = %v, want %v", thr.N, want)
	} // ⌊0.1·569⌋ canaries per seed
	if !thr.Detected {
		t.Errorf("threshold: %d/%d, p=%g", thr.Successes, thr.N, thr.PCond)
	}
	if !(thr.Rate > 0.9) {
		t.Errorf("thr.Rate = %v, want > %v", thr.Rate, 0.9)
	}
	if !(rep.Epsilons[0].TrainAcc.Mean > 0.99) {
		t.Errorf("rep.Epsilons[0].TrainAcc.Mean = %v, want > %v", rep.Epsilons[0].TrainAcc.Mean, 0.99)
	}
	if got := rep.Epsilons[0].Runs[0].TestRows; got != 0 {
		t.Errorf("no held-out rows with TrainFrac 1: got %v, want %v", got, 0)
	}
}

// TestExperimentCensusLogReg runs the paper's CENSUS setting with a model
// too small to memorize 520 canaries: no label-free attack may claim
// memorization, and on the decoys (labels the model never saw) the
// delta-margin attack beats ½ under the paper's test but not under the
// conditional one.
func TestExperimentCensusLogReg(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 26,048 rows")
	}
	d, err := LoadDataset("", "adult")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := RunExperiment(context.Background(), d, Config{Model: "logreg", Seeds: 3, FirstSeed: 1})
	if err != nil {
		t.Fatal(err)
	}
	e := rep.Epsilons[0]
	run := e.Runs[0]
	if run.TrainRows != 26048 {
		t.Errorf("run.TrainRows = %v, want %v", run.TrainRows, 26048)
	} // [BLIA, Table 1]
	if run.Canaries != 520 {
		t.Errorf("run.Canaries = %v, want %v", run.Canaries, 520)
	}
	if run.TestRows != 16281 {
		t.Errorf("run.TestRows = %v, want %v", run.TestRows, 16281)
	}
	if dev := math.Abs(0.85 - e.TestAcc.Mean); !(dev <= 0.01) {
		t.Errorf("got %v, want %v within %v", e.TestAcc.Mean, 0.85, 0.01)
	}
	for a, name := range rep.Attacks {
		if !rep.ReadLabels[a] {
			if e.Pooled[a].Detected {
				t.Errorf("%s: p=%g", name, e.Pooled[a].PCond)
			}
		}
		if e.PooledDecoys[a].Detected {
			t.Errorf("%s on decoys: p=%g", name, e.PooledDecoys[a].PCond)
		}
	}
	if !strings.HasPrefix(rep.Attacks[1], "delta-margin(") {
		t.Fatal("strings.HasPrefix(rep.Attacks[1], \"delta-margin(\") is false")
	}
	dm := e.PooledDecoys[1]
	if !(dm.PHalf < Alpha) {
		t.Errorf("delta-margin beats ½ on labels the model never saw: %v >= %v", dm.PHalf, Alpha)
	}
	if !(dm.NullRate > 0.52) {
		t.Errorf("dm.NullRate = %v, want > %v", dm.NullRate, 0.52)
	}
}

func TestExperimentErrors(t *testing.T) {
	d := &Dataset{Name: "tiny", Train: &Table{Labels: []int{0, 1, 0, 1}, Cols: []Column{{Name: "x", Num: []float64{1, 2, 3, 4}}}}}
	for _, tt := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"model", Config{Model: "svm"}, "unknown model"},
		{"epsilon", Config{Model: "logreg", Epsilons: []Epsilon{-1}}, "privacy budget"},
		{"no epsilon", Config{Model: "logreg", Epsilons: []Epsilon{}}, "no privacy budget"},
		{"seeds", Config{Model: "logreg", Seeds: -2}, "seeds"},
		{"train frac", Config{Model: "logreg", TrainFrac: 2}, "training fraction"},
		{"canaries", Config{Model: "logreg"}, "selects no canary"},
		{"mlp options", Config{Model: "mlp", MLP: MLPOptions{Batch: -1}}, "batch"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RunExperiment(context.Background(), d, tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RunExperiment(ctx, d, Config{Model: "logreg", CanaryFrac: 0.5})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
}

// TestExperimentDiverged checks that a step size that makes the weights
// overflow is reported as divergence, not as a bad probability in the data.
func TestExperimentDiverged(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := synthetic(rng, 200, []float64{1, -2, 0.5}, 0.1)
	n, d := x.Dims()
	tb := &Table{Labels: y}
	for j := range d {
		c := Column{Name: fmt.Sprint("x", j), Num: make([]float64, n)}
		for i := range n {
			c.Num[i] = x.At(i, j)
		}
		tb.Cols = append(tb.Cols, c)
	}
	ds := &Dataset{Name: "synthetic", Train: tb}
	_, err := RunExperiment(context.Background(), ds, Config{Model: "mlp", MLP: MLPOptions{Hidden: []int{4}, Epochs: 2, LR: 1e308},
		Epsilons: []Epsilon{Epsilon(math.Inf(1))}, Seeds: 1, CanaryFrac: 0.1, Workers: 1})
	var de *DivergedError
	if !errors.As(err, &de) {
		t.Fatalf("error %v, want a %T", err, de)
	}
	if de.Model != "mlp" {
		t.Errorf("de.Model = %v, want %v", de.Model, "mlp")
	}
	if !strings.Contains(err.Error(), "training diverged") {
		t.Errorf("%q lacks %q", err.Error(), "training diverged")
	}
	if strings.Contains(err.Error(), "outside [0, 1]") {
		t.Errorf("%q contains %q", err.Error(), "outside [0, 1]")
	}
}
