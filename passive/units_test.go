package passive

import (
	"bytes"
	"context"
	"encoding/gob"
	"math"
	"reflect"
	"testing"
)

// TestUnitsAssembleAsExperiment: the units run one by one through the
// wire form, their runs through gob, and assembled give RunExperiment's report (times aside);
// runs out of order or missing are an error.
func TestUnitsAssembleAsExperiment(t *testing.T) {
	d, err := LoadDataset("", "wdbc")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Model: "mlp", MLP: MLPOptions{Epochs: 3}, Epsilons: []Epsilon{Epsilon(math.Inf(1)), 1, 0.5}, Seeds: 2, FirstSeed: 4, CanaryFrac: 0.05}
	want, err := RunExperiment(context.Background(), d, cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := cfg.Wire()
	if err != nil {
		t.Fatal(err)
	}
	c2 := w.Config()
	n, err := Units(c2)
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 {
		t.Fatalf("n = %v, want %v", n, 6)
	}
	runs := make([]Run, n)
	for i := n - 1; i >= 0; i-- {
		r, err := RunUnit(context.Background(), d, c2, i)
		if err != nil {
			t.Fatal(err)
		}
		// Through gob, as package queue carries it: the outcomes keep
		// their null probabilities (Pool needs them).
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(r); err != nil {
			t.Fatal(err)
		}
		if err := gob.NewDecoder(&buf).Decode(&runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Assemble(d, c2, runs, want.Seconds)
	if err != nil {
		t.Fatal(err)
	}
	zero := func(r *Report) {
		for e := range r.Epsilons {
			for s := range r.Epsilons[e].Runs {
				r.Epsilons[e].Runs[s].Seconds = 0
			}
		}
	}
	zero(want)
	zero(got)
	if !reflect.DeepEqual(got, want) {
		t.Error("the assembled units differ from the experiment run whole")
	}
	_, err = Assemble(d, c2, runs[1:], 0)
	if err == nil {
		t.Error("want an error, got nil")
	}
	runs[0], runs[3] = runs[3], runs[0]
	_, err = Assemble(d, c2, runs, 0)
	if err == nil {
		t.Errorf("runs out of order: no error")
	}
	_, err = RunUnit(context.Background(), d, c2, n)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = Config{Model: "svm"}.Wire()
	if err == nil {
		t.Error("want an error, got nil")
	}
}
