package discrete

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/scorer"
)

// splitSim scores the public rows alone, as a split competition's public
// leaderboard does: a Sim of the public rows' labels, fed their values.
type splitSim struct {
	n, w int
	pub  []int
	sim  *Sim
}

func (s *splitSim) N() int       { return s.n }
func (s *splitSim) K() int       { return s.sim.K() }
func (s *splitSim) Queries() int { return s.sim.Queries() }
func (s *splitSim) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	var v []float64
	for _, i := range s.pub {
		v = append(v, p.P[i*s.w:(i+1)*s.w]...)
	}
	return s.sim.Score(ctx, &scorer.Pred{K: p.K, P: v})
}

// TestSplitFlip: behind a public/private split the attack recovers every
// public label, verified, claims no private row, and sends N + 1 queries
// and the check for K = 2; a rounding coarser than one public row makes
// the check fail, and no label is then reported.
func TestSplitFlip(t *testing.T) {
	for _, tc := range []struct {
		metric string
		k, dec int
		coarse bool
	}{{"accuracy", 2, -1, false}, {"accuracy", 3, 5, false}, {"brier", 2, -1, false}, {"brier", 3, 5, false}, {"accuracy", 2, 1, true}} {
		r := rand.New(rand.NewPCG(5, uint64(tc.k*10+tc.dec)))
		const n = 300
		labels := make([]int, n)
		var pub, pubLabels []int
		for i := range labels {
			labels[i] = r.IntN(tc.k)
			if r.IntN(2) == 0 {
				pub = append(pub, i)
				pubLabels = append(pubLabels, labels[i])
			}
		}
		m, err := metric.Parse(tc.metric, "")
		if err != nil {
			t.Fatal(err)
		}
		sim, err := NewSim(m, pubLabels, tc.k, tc.dec)
		if err != nil {
			t.Fatal(err)
		}
		w := 1
		if tc.k > 2 {
			w = tc.k
		}
		srv := &splitSim{n: n, w: w, pub: pub, sim: sim}
		mt, _ := ParseMetric(tc.metric)
		res, err := SplitFlip(context.Background(), srv, Options{Metric: mt, N: n, K: tc.k, Decimals: tc.dec, Check: true})
		if tc.coarse {
			if err == nil {
				t.Fatal("want an error, got nil")
			}
			for i := range res.Known {
				if res.Known[i] {
					t.Error("res.Known[i] is true")
				}
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s K=%d: %v", tc.metric, tc.k, err)
		}
		isPub := map[int]bool{}
		for _, i := range pub {
			isPub[i] = true
			if !res.Known[i] {
				t.Errorf("%s K=%d: public row %d not recovered", tc.metric, tc.k, i)
			}
			if res.Labels[i] != labels[i] {
				t.Errorf("row %d: got %v, want %v", i, res.Labels[i], labels[i])
			}
		}
		for i := range labels {
			if !isPub[i] {
				if res.Known[i] {
					t.Errorf("private row %d claimed", i)
				}
			}
		}
		if !res.CheckDecisive {
			t.Error("res.CheckDecisive is false")
		}
		if tc.k == 2 {
			if want := n + 2; res.Queries != want {
				t.Errorf("res.Queries = %v, want %v", res.Queries, want)
			}
		} else {
			if !(res.Queries <= 1+n*(tc.k-1)+1) {
				t.Errorf("res.Queries = %v, want <= %v", res.Queries, 1+n*(tc.k-1)+1)
			}
		}
	}
}
