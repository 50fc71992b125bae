package discrete_test

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/scorer"
)

// TestSwap: the pair-swap attack recovers every label of ROC AUC
// competitions rounded to 1–5 decimals or not at all, in about
// N + 2·log₂N queries, verified and checked; auto picks it where the
// group attack cannot read a count (2 decimals on 1,000 rows) and group
// at 3, where it can (313 queries).
func TestSwap(t *testing.T) {
	for _, tc := range []struct {
		n, dec int
		seed   uint64
	}{{1000, 2, 1}, {1000, 3, 2}, {1000, 4, 3}, {1000, 5, 4}, {1000, -1, 5}, {200, 1, 6}, {2, 5, 7}, {3, 2, 8}, {500, 2, 9}} {
		t.Run(fmt.Sprintf("n=%d/d=%d", tc.n, tc.dec), func(t *testing.T) {
			y := labelsOf(tc.seed, tc.n, 2)
			if tc.n <= 3 {
				y[0], y[1] = 1, 0
			}
			s := sim(t, "roc-auc", y, 2, tc.dec)
			o := discrete.Options{Metric: discrete.AUC, N: tc.n, Decimals: tc.dec, Check: true}
			if tc.dec >= 0 && tc.dec <= 2 && tc.n >= 500 {
				if got := discrete.Choose(o); got != discrete.Swap {
					t.Fatalf("discrete.Choose(o) = %v, want %v", got, discrete.Swap)
				}
			}
			if tc.dec == 3 {
				if got := discrete.Choose(o); got != discrete.Group {
					t.Fatalf("discrete.Choose(o) = %v, want %v", got, discrete.Group)
				}
			}
			o.Strategy = discrete.Swap
			res, err := discrete.Attack(context.Background(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			wantRecovered(t, res, y, checked)
			plan, err := discrete.Plan(o)
			if err != nil {
				t.Fatal(err)
			}
			if !(res.Queries <= plan) {
				t.Errorf("res.Queries = %v, want <= %v", res.Queries, plan)
			}
			if want := s.Queries(); res.Queries != want {
				t.Errorf("res.Queries = %v, want %v", res.Queries, want)
			}
			t.Logf("n=%d d=%d: %d queries (plan ≤ %d), check decisive %v", tc.n, tc.dec, res.Queries, plan, res.CheckDecisive)
		})
	}
}

// splitServer answers the AUC of the public rows only, rounded, as a
// public/private split does.
type splitServer struct {
	y      []int
	public []bool
	pow    *big.Int
	q      int
}

func (s *splitServer) N() int       { return len(s.y) }
func (s *splitServer) K() int       { return 2 }
func (s *splitServer) Queries() int { return s.q }
func (s *splitServer) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s.q++
	var y []int
	var pred []float64
	for i, pub := range s.public {
		if pub {
			y = append(y, s.y[i])
			pred = append(pred, p.P[i])
		}
	}
	m, _ := metric.Parse("roc-auc", "")
	v := m.Score(y, pred, 2).R
	if s.pow == nil {
		return v, nil
	}
	return bigint.RoundHalfEven(v, s.pow), nil
}

// TestSwapHidden: behind a public/private split (30 % and 50 % public),
// the hidden pair swap reads every public label, verified, and leaves
// every private row unknown, at 2 decimals and unrounded; the plain swap
// stops there with nothing claimed.
func TestSwapHidden(t *testing.T) {
	for _, tc := range []struct {
		n, dec int
		public float64
	}{{1000, 2, 0.5}, {1000, 2, 0.3}, {1000, 5, 0.3}, {600, -1, 0.5}} {
		t.Run(fmt.Sprintf("n=%d/d=%d/public=%g", tc.n, tc.dec, tc.public), func(t *testing.T) {
			y := labelsOf(uint64(tc.n+tc.dec), tc.n, 2)
			r := rand.New(rand.NewPCG(uint64(tc.dec+7), 3))
			pub := make([]bool, tc.n)
			for i := range pub {
				pub[i] = r.Float64() < tc.public
			}
			s := &splitServer{y: y, public: pub}
			if tc.dec >= 0 {
				s.pow = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(tc.dec)), nil)
			}
			o := discrete.Options{Metric: discrete.AUC, N: tc.n, Decimals: tc.dec, Strategy: discrete.Swap, Hidden: true, Check: true}
			res, err := discrete.Attack(context.Background(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			for i := range y {
				if pub[i] {
					if !res.Known[i] {
						t.Errorf("public row %d unknown", i)
					}
					if res.Labels[i] != y[i] {
						t.Errorf("row %d: got %v, want %v", i, res.Labels[i], y[i])
					}
				} else {
					if res.Known[i] {
						t.Errorf("private row %d known", i)
					}
				}
			}
			if !res.Checked {
				t.Error("res.Checked is false")
			}
			plan, err := discrete.Plan(o)
			if err != nil {
				t.Fatal(err)
			}
			if !(res.Queries <= plan) {
				t.Errorf("res.Queries = %v, want <= %v", res.Queries, plan)
			}
			t.Logf("%d queries (plan ≤ %d)", res.Queries, plan)
			o.Hidden = false
			res, err = discrete.Attack(context.Background(), s, o)
			if err == nil {
				t.Fatal("want an error, got nil")
			}
			for i, k := range res.Known {
				if k {
					t.Fatalf("plain swap behind a split: row %d known", i)
				}
			}
		})
	}
}

// TestRank: the rank attack reads an AUC's labels in blocks spaced among
// known rows: every label, verified and checked, in its plan's queries
// (120 for N = 1,000 unrounded, 2.6× fewer than group), at 5 decimals
// too; auto picks it there, and it refuses 2 decimals. N = 4,000 (larger
// blocks, 0.5 s of CPU) runs without -short; N = 1,000 checks the same.
func TestRank(t *testing.T) {
	sizes := []int{2, 3, 50, 1000, 4000}
	if testing.Short() {
		sizes = sizes[:4]
	}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			y := labelsOf(uint64(n), n, 2)
			if n <= 3 {
				y[0], y[1] = 0, 1
			}
			s := sim(t, "roc-auc", y, 2, -1)
			o := discrete.Options{Metric: discrete.AUC, N: n, Decimals: -1, Strategy: discrete.Rank, Check: true}
			res, err := discrete.Attack(context.Background(), s, o)
			if err != nil {
				t.Fatal(err)
			}
			wantRecovered(t, res, y, checkedDecisively)
			plan, err := discrete.Plan(o)
			if err != nil {
				t.Fatal(err)
			}
			if res.Queries != plan {
				t.Errorf("res.Queries = %v, want %v", res.Queries, plan)
			}
			if n >= 1000 {
				o.Strategy = discrete.Auto
				if got := discrete.Choose(o); got != discrete.Rank {
					t.Errorf("discrete.Choose(o) = %v, want %v", got, discrete.Rank)
				}
				o.Strategy = discrete.Group
				g, err := discrete.Plan(o)
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("N = %d: rank %d queries, group %d", n, res.Queries, g)
			}
		})
	}
	// 5 decimals on 1,000 rows: a rounding unit is 5 of 2U, the blocks
	// are spaced 3 ranks a unit and T decoded from its candidates.
	y := labelsOf(11, 1000, 2)
	s := sim(t, "roc-auc", y, 2, 5)
	o := discrete.Options{Metric: discrete.AUC, N: 1000, Decimals: 5, Strategy: discrete.Rank, Check: true}
	res, err := discrete.Attack(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	wantRecovered(t, res, y, verified)
	plan, err := discrete.Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Queries != plan {
		t.Errorf("res.Queries = %v, want %v", res.Queries, plan)
	}
	o.Strategy = discrete.Auto
	if got := discrete.Choose(o); got != discrete.Rank {
		t.Errorf("discrete.Choose(o) = %v, want %v", got, discrete.Rank)
	}
	t.Logf("N = 1,000 at 5 decimals: rank %d queries", res.Queries)
	// 2 decimals: a rounding unit of 2U is 5,001, over N/8: refused.
	s = sim(t, "roc-auc", y, 2, 2)
	_, err = discrete.Attack(context.Background(), s, discrete.Options{Metric: discrete.AUC, N: 1000, Decimals: 2, Strategy: discrete.Rank})
	if err == nil {
		t.Fatal("want an error, got nil")
	}
	if q := s.Queries(); q != 0 {
		t.Errorf("%d queries, want 0", q)
	}
}
