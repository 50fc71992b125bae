package discrete_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/labelinf/labelinf/discrete"
)

// BenchmarkAttack measures every strategy of every metric on seeded
// labels: queries/op (the check query included), the information floor
// (floor/op) and their ratio; flip is the same-run baseline.
//
//	go test -run '^$' -bench Attack -benchtime 1x ./discrete
func BenchmarkAttack(b *testing.B) {
	for _, n := range []int{1000, 25000} {
		for _, tc := range []struct {
			m   discrete.Metric
			k   int
			dec int
		}{
			{discrete.Accuracy, 2, 5}, {discrete.Accuracy, 3, 5}, {discrete.AUC, 2, 5},
			{discrete.Brier, 2, 5}, {discrete.Brier, 2, -1}, {discrete.Brier, 3, 5},
			{discrete.AUC, 2, 2}, {discrete.AUC, 2, 3}, {discrete.AUC, 2, -1},
		} {
			y := labelsOf(1, n, tc.k)
			for _, st := range discrete.Strategies(tc.m, tc.k) {
				o := discrete.Options{Metric: tc.m, N: n, K: tc.k, Decimals: tc.dec, Strategy: st, Check: true}
				if n > 1000 && (st == discrete.Flip || st == discrete.Swap) && tc.m == discrete.AUC {
					continue // N queries of an N log N sort: minutes
				}
				if st != discrete.Edge && st != discrete.Swap && !discrete.Resolves(o) || st == discrete.Rank && tc.dec >= 0 {
					continue // no count is read at this rounding; rank reads an unrounded AUC
				}
				b.Run(fmt.Sprintf("metric=%v/k=%d/dec=%d/strategy=%v/n=%d", tc.m, tc.k, tc.dec, st, n), func(b *testing.B) {
					floor, err := discrete.Floor(discrete.LabelBits(y, tc.k), discrete.Values(tc.m, n, tc.k, tc.dec))
					if err != nil {
						b.Fatal(err)
					}
					q := 0
					for b.Loop() {
						res, err := discrete.Attack(context.Background(), sim(b, tc.m.String(), y, tc.k, tc.dec), o)
						if err != nil || !res.Verified {
							b.Fatalf("%v: verified %v", err, res != nil && res.Verified)
						}
						q = res.Queries
					}
					b.ReportMetric(float64(q), "queries/op")
					b.ReportMetric(float64(floor), "floor/op")
					b.ReportMetric(float64(q)/float64(floor), "ratio")
				})
			}
		}
	}
}
