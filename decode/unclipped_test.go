package decode

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// TestMultiUnclipped attacks unclipped scorers, the bare base models of
// scorer.ParseSpec and a few composed ones, at several N and seeds, and
// requires every label, verified. Without clipping the block code's most
// extreme row is the smallest subnormal, 2^−1074 in binary64, and its
// weights reach −log 2^−1074 = 744.44. Two regressions of `labelinf attack
// -scorer binary64 -n 300` (seed 1 here is that command's labeling): the
// simulated server took Go's amd64 math.Log of 2^−1074 (−709.09,
// golang/go#56600) and so failed the last block seven times; and a row of
// weight w > 709.78 was 1/(1+e^w) = 0, term +Inf, so that some designs
// (sum=kahan, sum=naive) gave up with a BudgetError.
func TestMultiUnclipped(t *testing.T) {
	t.Parallel()
	type tc struct {
		model string
		k     int
		ns    []int
	}
	all := []int{50, 300, 1000}
	cases := []tc{
		{"binary64", 2, all},
		{"binary32", 2, all},
		{"binary16", 2, []int{50, 300}}, // emulated: N²·M work
		{"bfloat16", 2, []int{50, 300}},
		{"fpa:e8m10", 2, []int{50, 300}},
		{"exact", 2, all},
		{"exact:64", 2, all},
		{"binary64,sum=naive", 2, all},
		{"binary64,sum=kahan", 2, all},
		{"binary64,reduce=sum", 2, all},
		{"binary32,sum=naive", 2, all},
		{"binary64", 3, all},
		{"binary32", 3, []int{50, 300}},
	}
	type run struct {
		model string
		k, n  int
		seed  uint64
	}
	var runs []run
	for _, c := range cases {
		for _, n := range c.ns {
			for seed := uint64(1); seed <= 3; seed++ {
				runs = append(runs, run{c.model, c.k, n, seed})
			}
		}
	}
	if testing.Short() {
		// Each fix's failure: the log of 2^−1074 (binary64, the first
		// two) and the row 1/(1+e^w) = 0 (sum=kahan).
		runs = []run{{"binary64", 2, 300, 1}, {"binary64", 2, 40, 2}, {"binary64,sum=kahan", 2, 300, 2}, {"binary64", 3, 40, 2}}
	}
	for _, c := range runs {
		n, seed := c.n, c.seed
		t.Run(fmt.Sprintf("%s/k=%d/n=%d/seed=%d", c.model, c.k, n, seed), func(t *testing.T) {
			t0 := time.Now()
			// The CLI's labels (cmd/labelinf privateLabels).
			r := rand.New(rand.NewPCG(seed, 0x6c6162656c73))
			labels := make([]int, n)
			for i := range labels {
				labels[i] = r.IntN(c.k)
			}
			m, err := scorer.ParseModel(c.model)
			if err != nil {
				t.Fatal(err)
			}
			sim, err := oracle.NewSim(m, labels, c.k)
			if err != nil {
				t.Fatal(err)
			}
			// As the CLI does: a reduce=sum server's score read as a mean.
			res, err := AttackMulti(context.Background(), scorer.PerPoint(sim, m), MultiOptions{Model: m, Check: true})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Verified || !res.Checked || !res.CheckDecisive {
				t.Errorf("verified %v, checked %v, decisive %v", res.Verified, res.Checked, res.CheckDecisive)
			}
			for i := range labels {
				if res.Labels[i] != labels[i] {
					t.Fatalf("label %d = %d, want %d", i, res.Labels[i], labels[i])
				}
			}
			t.Logf("%d queries, %d retries, %v", res.Queries, res.Retries, time.Since(t0))
		})
	}
}
