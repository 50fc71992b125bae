package catalog

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/loss"
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

var long = flag.Bool("long", false, "also run prime-log's plan at N = 2,000 (about a minute) in TestSinglePrecisionExact")

// asked is a Precise oracle that records the precision each view is asked
// for: the plan's own, which a free-precision oracle answers with.
type asked struct {
	Precise
	prec uint
}

func (a *asked) Big(prec uint) (scorer.BigServer, error) { a.prec = prec; return a.Precise.Big(prec) }
func (a *asked) Rat(prec uint) (scorer.RatServer, error) { a.prec = prec; return a.Precise.Rat(prec) }
func (a *asked) Family(l *loss.Binary, prec uint) (scorer.FamilyServer, error) {
	a.prec = prec
	return a.Precise.Family(l, prec)
}

// TestSinglePrecisionExact asks every single-query entry's Applies to say
// yes exactly where its plan and attack run: at the precision the plan
// asks the scorer for (which the run there verifies) it applies, one bit
// below it refuses, naming the bits; where the plan cannot be built
// (prime-log over MaxPrimeLogN, loss-family over 4,096 labels) it
// refuses with the plan's own reason. N = 10, 100, 300 under -short, also
// 1,000 and 2,000 without, but prime-log at 2,000 (its plan takes about
// a minute) only with -long.
func TestSinglePrecisionExact(t *testing.T) {
	ns := []int{10, 100, 300, 1000, 2000}
	if testing.Short() {
		ns = ns[:3]
	}
	ctx := context.Background()
	for _, name := range []string{"exact", "robust-single", "loss-family", "prime-log", "mutnet"} {
		a := Lookup(name)
		nz := scorer.Noise{}
		if name != "exact" && name != "prime-log" {
			nz = scorer.Noise{Kind: scorer.Bounded, Tau: 0.01}
		}
		for _, n := range ns {
			t.Run(fmt.Sprintf("%s/N=%d", name, n), func(t *testing.T) {
				if name == "prime-log" && n > 1000 && !*long {
					t.Skip("prime-log's plan at N = 2,000 takes about a minute: -long")
				}
				t.Parallel()
				labels := make([]int, n)
				for i := range labels {
					labels[i] = (i*7 + i/3) % 2
				}
				tg := target(t, "apa", n, 2)
				tg.Noise = nz
				p, err := oracle.NewPrecise(labels, 2, 0, nz, 1)
				if err != nil {
					t.Fatal(err)
				}
				o := &asked{Precise: p}
				res, err := a.Run(ctx, o, tg, Options{Seed: 1})
				if err != nil || !res.Verified || !slices.Equal(res.Labels, labels) {
					t.Fatalf("%s N=%d at the plan's %d bits: %v", name, n, o.prec, err)
				}
				tg.Model.Prec = o.prec
				if err := a.Applies(tg); err != nil {
					t.Errorf("%s N=%d: runs at %d bits, but Applies says %v", name, n, o.prec, err)
				}
				tg.Model.Prec--
				if err := a.Applies(tg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("needs %d bits", o.prec)) {
					t.Errorf("%s N=%d at %d bits, one below the plan's: Applies says %v, want the plan's %d bits", name, n, tg.Model.Prec, err, o.prec)
				}
			})
		}
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"prime-log", single.MaxPrimeLogN + 1}, {"loss-family", 4097}} {
		a := Lookup(c.name)
		tg := target(t, "apa:1000", c.n, 2)
		if c.name == "loss-family" {
			tg.Noise = scorer.Noise{Kind: scorer.Bounded, Tau: 0.01}
		}
		o, err := oracle.NewPrecise(make([]int, c.n), 2, 0, tg.Noise, 1)
		if err != nil {
			t.Fatal(err)
		}
		_, runErr := a.Run(ctx, o, tg, Options{})
		if err := a.Applies(tg); runErr == nil || err == nil || err.Error() != runErr.Error() {
			t.Errorf("%s N=%d: Applies says %v, the run %v: want the plan's error from both", c.name, c.n, err, runErr)
		}
	}
}
