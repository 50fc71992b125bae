package discrete_test

import (
	"context"
	"errors"
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/scorer"
)

// constServer answers every query with the same score.
type constServer struct {
	n, k int
	v    *big.Rat
	q    int
}

func (c *constServer) N() int       { return c.n }
func (c *constServer) K() int       { return c.k }
func (c *constServer) Queries() int { return c.q }
func (c *constServer) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	c.q++
	return c.v, nil
}

// errServer fails every query.
type errServer struct{ constServer }

var errDown = errors.New("server down")

func (e *errServer) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) { return nil, errDown }

// TestBadInput: bad options are errors before any query; a score no
// labeling explains, a score the rounding leaves ambiguous and a failing
// server stop the attack with no label reported as known.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	y := labelsOf(1, 100, 2)
	acc := sim(t, "accuracy", y, 2, 5)
	for _, tc := range []struct {
		name string
		o    discrete.Options
	}{
		{"N = 0", discrete.Options{Metric: discrete.Accuracy, N: 0}},
		{"NaN τ", discrete.Options{Metric: discrete.Accuracy, N: 100, Tau: math.NaN()}},
		{"negative τ", discrete.Options{Metric: discrete.Accuracy, N: 100, Tau: -1}},
		{"K = 1", discrete.Options{Metric: discrete.Accuracy, N: 100, K: 1}},
		{"AUC K = 3", discrete.Options{Metric: discrete.AUC, N: 100, K: 3}},
		{"family on accuracy", discrete.Options{Metric: discrete.Accuracy, N: 100, Strategy: discrete.Family}},
		{"walk on AUC", discrete.Options{Metric: discrete.AUC, N: 100, Strategy: discrete.Edge}},
		{"N differs", discrete.Options{Metric: discrete.Accuracy, N: 99}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := acc.Queries()
			_, err := discrete.Attack(ctx, acc, tc.o)
			if err == nil {
				t.Error("want an error, got nil")
			}
			if got := acc.Queries(); got != q {
				t.Errorf("queries sent: got %v, want %v", got, q)
			}
		})
	}
	noneKnown := func(t *testing.T, res *decode.Result) {
		t.Helper()
		if res == nil {
			return
		}
		if res.Verified {
			t.Error("res.Verified is true")
		}
		for i, k := range res.Known {
			if k {
				t.Errorf("row %d known", i)
			}
		}
	}
	for _, m := range []discrete.Metric{discrete.Accuracy, discrete.AUC, discrete.Brier} {
		for _, st := range discrete.Strategies(m, 2) {
			t.Run("unexplained/"+m.String()+"/"+st.String(), func(t *testing.T) {
				// 0.7 for every prediction: no labeling gives that.
				s := &constServer{n: 100, k: 2, v: big.NewRat(7, 10)}
				res, err := discrete.Attack(ctx, s, discrete.Options{Metric: m, N: 100, Decimals: 5, Strategy: st})
				if err == nil {
					t.Fatal("want an error, got nil")
				}
				var ae *discrete.AmbiguousError
				if !errors.As(err, &ae) {
					if !errors.Is(err, decode.ErrInconsistent) {
						t.Errorf("error %v, want %v", err, decode.ErrInconsistent)
					}
				}
				noneKnown(t, res)
			})
		}
	}
	t.Run("another metric", func(t *testing.T) {
		// An accuracy server attacked as a Brier score.
		res, err := discrete.Attack(ctx, sim(t, "accuracy", y, 2, 5), discrete.Options{Metric: discrete.Brier, N: 100, Decimals: 5, Strategy: discrete.Group, Check: true})
		if err == nil {
			t.Fatal("want an error, got nil")
		}
		noneKnown(t, res)
	})
	t.Run("coarse rounding", func(t *testing.T) {
		// 2 decimals on 1,000 rows: one label moves accuracy by 0.001.
		y := labelsOf(2, 1000, 2)
		res, err := discrete.Attack(ctx, sim(t, "accuracy", y, 2, 2), discrete.Options{Metric: discrete.Accuracy, N: 1000, Decimals: 2, Strategy: discrete.Flip})
		var ae *discrete.AmbiguousError
		if !errors.As(err, &ae) {
			t.Fatalf("error %v, want a %T", err, ae)
		}
		noneKnown(t, res)
	})
	t.Run("server error", func(t *testing.T) {
		s := &errServer{constServer{n: 100, k: 2}}
		res, err := discrete.Attack(ctx, s, discrete.Options{Metric: discrete.Accuracy, N: 100, Decimals: 5})
		if !errors.Is(err, errDown) {
			t.Fatalf("error %v, want %v", err, errDown)
		}
		noneKnown(t, res)
	})
	t.Run("cancelled", func(t *testing.T) {
		c, cancel := context.WithCancel(ctx)
		cancel()
		_, err := discrete.Attack(c, sim(t, "accuracy", y, 2, 5), discrete.Options{Metric: discrete.Accuracy, N: 100, Decimals: 5})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("error %v, want %v", err, context.Canceled)
		}
	})
}

// lateLiar answers as s for its first honest queries, then 0.5.
type lateLiar struct {
	scorer.Server
	honest, q int
}

func (l *lateLiar) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	if l.q++; l.q > l.honest {
		return big.NewRat(1, 2), nil
	}
	return l.Server.Score(ctx, p)
}

// TestCheckQuery: a check query that does not score perfectly fails the
// attack, whatever the earlier scores said.
func TestCheckQuery(t *testing.T) {
	ctx := context.Background()
	y := labelsOf(3, 500, 2)
	for _, m := range []discrete.Metric{discrete.Accuracy, discrete.AUC, discrete.Brier} {
		t.Run(m.String(), func(t *testing.T) {
			o := discrete.Options{Metric: m, N: 500, Decimals: 5}
			res, err := discrete.Attack(ctx, sim(t, m.String(), y, 2, 5), o)
			if err != nil {
				t.Fatal(err)
			}
			o.Check = true
			res, err = discrete.Attack(ctx, &lateLiar{Server: sim(t, m.String(), y, 2, 5), honest: res.Queries}, o)
			if !errors.Is(err, decode.ErrInconsistent) {
				t.Fatalf("error %v, want %v", err, decode.ErrInconsistent)
			}
			if !res.Checked {
				t.Error("res.Checked is false")
			}
			if res.Verified {
				t.Error("res.Verified is true")
			}
		})
	}
}

// TestEdgeCheckQuery: the edge attack's windowed check fails the attack
// when a check query does not release the edge's value.
func TestEdgeCheckQuery(t *testing.T) {
	ctx := context.Background()
	y := labelsOf(4, 500, 2)
	o := discrete.Options{Metric: discrete.Accuracy, N: 500, Decimals: 2, Strategy: discrete.Edge}
	res, err := discrete.Attack(ctx, sim(t, "accuracy", y, 2, 2), o)
	if err != nil {
		t.Fatal(err)
	}
	o.Check = true
	res, err = discrete.Attack(ctx, &lateLiar{Server: sim(t, "accuracy", y, 2, 2), honest: res.Queries}, o)
	if !errors.Is(err, decode.ErrInconsistent) {
		t.Fatalf("error %v, want %v", err, decode.ErrInconsistent)
	}
	if !res.Checked {
		t.Error("res.Checked is false")
	}
	if res.Verified {
		t.Error("res.Verified is true")
	}
}

// TestSwapBad: the pair swap refuses noise before any query; labels of
// one class (every ranking releases AUC ½) and a server that starts lying
// mid-attack stop it with no label known; a check query that does not
// score perfectly fails it.
func TestSwapBad(t *testing.T) {
	ctx := context.Background()
	y := labelsOf(5, 400, 2)
	s := sim(t, "roc-auc", y, 2, 2)
	_, err := discrete.Attack(ctx, s, discrete.Options{Metric: discrete.AUC, N: 400, Decimals: 2, Strategy: discrete.Swap, Tau: 1e-4})
	if err == nil {
		t.Fatal("want an error, got nil")
	}
	if q := s.Queries(); q != 0 {
		t.Errorf("%d queries, want 0", q)
	}
	_, err = discrete.Attack(ctx, sim(t, "accuracy", y, 2, 2), discrete.Options{Metric: discrete.Accuracy, N: 400, Decimals: 2, Strategy: discrete.Swap})
	if err == nil {
		t.Fatal("want an error, got nil")
	}

	ones := make([]int, 50)
	for i := range ones {
		ones[i] = 1
	}
	res, err := discrete.Attack(ctx, sim(t, "roc-auc", ones, 2, 2), discrete.Options{Metric: discrete.AUC, N: 50, Decimals: 2, Strategy: discrete.Swap})
	var ae *discrete.AmbiguousError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v, want a %T", err, ae)
	}
	if res.Queries != 64 {
		t.Errorf("res.Queries = %v, want %v", res.Queries, 64)
	}
	for i, k := range res.Known {
		if k {
			t.Errorf("row %d known", i)
		}
	}

	o := discrete.Options{Metric: discrete.AUC, N: 400, Decimals: 2, Strategy: discrete.Swap}
	honest, err := discrete.Attack(ctx, sim(t, "roc-auc", y, 2, 2), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, lieFrom := range []int{20, 100, 300} {
		res, err := discrete.Attack(ctx, &lateLiar{Server: sim(t, "roc-auc", y, 2, 2), honest: lieFrom}, o)
		if err == nil {
			t.Fatalf("lies from query %d: no error", lieFrom)
		}
		if res.Verified {
			t.Error("res.Verified is true")
		}
		for i, k := range res.Known {
			if k {
				t.Errorf("row %d known", i)
			}
		}
	}
	o.Check = true
	res, err = discrete.Attack(ctx, &lateLiar{Server: sim(t, "roc-auc", y, 2, 2), honest: honest.Queries}, o)
	if !errors.Is(err, decode.ErrInconsistent) {
		t.Fatalf("error %v, want %v", err, decode.ErrInconsistent)
	}
	if !res.Checked {
		t.Error("res.Checked is false")
	}
	if res.Verified {
		t.Error("res.Verified is true")
	}
}
