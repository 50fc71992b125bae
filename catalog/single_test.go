package catalog

import (
	"context"
	"errors"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

// TestSingleRuns runs every single-query entry against oracle.Precise:
// every label verified in one query where its precision is free, a
// *single.PrecisionError before any query where the scorer's bits are too
// few, and an error (no query) against an oracle that is not Precise.
func TestSingleRuns(t *testing.T) {
	ctx := context.Background()
	labels := make([]int, 40)
	for i := range labels {
		labels[i] = (i*7 + i/3) % 2
	}
	for _, name := range []string{"exact", "robust-single", "loss-family", "prime-log", "mutnet"} {
		a := Lookup(name)
		nz := scorer.Noise{}
		if name != "exact" && name != "prime-log" {
			nz = scorer.Noise{Kind: scorer.Bounded, Tau: 0.01}
		}
		tg := target(t, "apa", len(labels), 2)
		tg.Model.Prec, tg.Noise = 0, nz
		if err := a.Applies(tg); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		o, err := oracle.NewPrecise(labels, 2, 0, nz, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Run(ctx, o, tg, Options{Seed: 1})
		if err != nil || !res.Verified || res.Queries != 1 || o.Queries() != 1 {
			t.Fatalf("%s: %+v, %v (%d queries)", name, res, err, o.Queries())
		}
		for i, c := range res.Labels {
			if c != labels[i] {
				t.Fatalf("%s: label %d = %d, want %d", name, i, c, labels[i])
			}
		}
		few, err := oracle.NewPrecise(labels, 2, 16, nz, 1)
		if err != nil {
			t.Fatal(err)
		}
		var pe *single.PrecisionError
		if _, err := a.Run(ctx, few, tg, Options{}); !errors.As(err, &pe) || few.Queries() != 0 {
			t.Errorf("%s against 16 bits: %v after %d queries, want a PrecisionError before any", name, err, few.Queries())
		}
		if _, err := a.Run(ctx, o.Server, tg, Options{}); err == nil {
			t.Errorf("%s ran against an oracle of float64 predictions", name)
		}
	}
}
