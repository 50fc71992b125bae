package single

import (
	"context"
	"errors"
	"math/big"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// TestPlanAttack runs each plan's Attack against oracle.Precise's views:
// a scorer of another N, or one that tells fewer bits than the plan
// needs (a *PrecisionError), is refused before any query; the right one
// gives every label in one query. RobustPlan.AttackWith refuses, before
// querying, a prediction that is not the plan's.
func TestPlanAttack(t *testing.T) {
	ctx := context.Background()
	const n, tau = 24, 1e-3
	labels := make([]int, n)
	for i := range labels {
		labels[i] = (i*5 + i/4) % 2
	}
	ce, err := loss.NewBinary(loss.CE, 0, [4]float64{})
	if err != nil {
		t.Fatal(err)
	}
	sce, err := loss.NewBinary(loss.SigmoidCE, 0, [4]float64{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := Plan(ctx, PlanOptions{N: n, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	rp, err := PlanRobust(ctx, RobustOptions{N: n, K: 2, Tau: tau})
	if err != nil {
		t.Fatal(err)
	}
	fp, err := PlanFamily(ctx, FamilyOptions{Loss: sce, N: n, Tau: tau})
	if err != nil {
		t.Fatal(err)
	}
	pp, err := PlanPrimeLog(ctx, PrimeLogOptions{Loss: ce, N: n})
	if err != nil {
		t.Fatal(err)
	}
	bounded := scorer.Noise{Kind: scorer.Bounded, Tau: tau}
	for _, c := range []struct {
		name  string
		noise scorer.Noise
		prec  uint
		run   func(o *oracle.Precise, prec uint) (*decode.Result, error)
	}{
		{"exact", scorer.Noise{}, q.Prec(), func(o *oracle.Precise, prec uint) (*decode.Result, error) {
			s, err := o.Rat(prec)
			if err != nil {
				return nil, err
			}
			return q.Attack(ctx, s, Options{})
		}},
		{"robust", bounded, rp.Prec(), func(o *oracle.Precise, prec uint) (*decode.Result, error) {
			s, err := o.Big(prec)
			if err != nil {
				return nil, err
			}
			return rp.Attack(ctx, s)
		}},
		{"family", bounded, fp.Prec(), func(o *oracle.Precise, prec uint) (*decode.Result, error) {
			s, err := o.Family(sce, prec)
			if err != nil {
				return nil, err
			}
			return fp.Attack(ctx, s)
		}},
		{"prime-log", scorer.Noise{}, pp.Prec(), func(o *oracle.Precise, prec uint) (*decode.Result, error) {
			s, err := o.Family(ce, prec)
			if err != nil {
				return nil, err
			}
			return pp.Attack(ctx, s)
		}},
	} {
		other, err := oracle.NewPrecise(labels[:n-1], 2, 0, c.noise, 1)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.run(other, c.prec); err == nil || other.Queries() != 0 {
			t.Errorf("%s against N = %d: %v after %d queries, want an error before any", c.name, n-1, err, other.Queries())
		}
		few, err := oracle.NewPrecise(labels, 2, c.prec-1, c.noise, 1)
		if err != nil {
			t.Fatal(err)
		}
		var pe *PrecisionError
		if _, err := c.run(few, c.prec); !errors.As(err, &pe) || pe.Need != c.prec || few.Queries() != 0 {
			t.Errorf("%s against %d bits: %v after %d queries, want a PrecisionError (need %d) before any", c.name, c.prec-1, err, few.Queries(), c.prec)
		}
		o, err := oracle.NewPrecise(labels, 2, 0, c.noise, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.run(o, c.prec)
		if err != nil || !slices.Equal(res.Labels, labels) || !res.Verified || res.Queries != 1 || o.Queries() != 1 {
			t.Errorf("%s: %+v, %v after %d queries, want every label verified in 1", c.name, res, err, o.Queries())
		}
	}

	o, err := oracle.NewPrecise(labels, 2, 0, bounded, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := o.Big(rp.Prec())
	if err != nil {
		t.Fatal(err)
	}
	moved := &scorer.BigPred{Enc: rp.Pred().Enc, K: 2, V: slices.Clone(rp.Pred().V)}
	moved.V[5] = new(big.Float).SetPrec(rp.Pred().V[5].Prec()+64).Add(rp.Pred().V[5], big.NewFloat(1))
	for _, pred := range []*scorer.BigPred{nil, moved, {Enc: scorer.Probs, K: 2, V: rp.Pred().V}, {Enc: rp.Pred().Enc, K: 2, V: rp.Pred().V[:2*n-2]}} {
		if _, err := rp.AttackWith(ctx, s, pred); err == nil || o.Queries() != 0 {
			t.Errorf("AttackWith a prediction that is not the plan's: %v after %d queries, want an error before any", err, o.Queries())
		}
	}
	moved.V[5] = rp.Pred().V[5]
	if res, err := rp.AttackWith(ctx, s, moved); err != nil || !slices.Equal(res.Labels, labels) || o.Queries() != 1 {
		t.Errorf("AttackWith a copy of the plan's prediction: %+v, %v after %d queries", res, err, o.Queries())
	}
}
