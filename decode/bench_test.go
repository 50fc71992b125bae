package decode

import (
	"context"
	"fmt"
	"testing"

	"github.com/labelinf/labelinf/scorer"
)

// BenchmarkBoundMulti times the fast lower bound on the block code's
// queries and reports it (BENCHMARKS.md §9):
//
//	go test ./decode -run '^$' -bench BoundMulti -benchtime 1x
func BenchmarkBoundMulti(b *testing.B) {
	for _, model := range []string{"float64-sklearn", "float32-keras", "torch-bce", "leaderboard"} {
		for _, n := range []int{25000, 1000000} {
			b.Run(fmt.Sprintf("%s/n=%d", model, n), func(b *testing.B) {
				m, err := scorer.ParseModel(model)
				if err != nil {
					b.Fatal(err)
				}
				var q int
				for b.Loop() {
					qb, err := BoundMulti(context.Background(), MultiOptions{N: n, K: 2, Model: m})
					if err != nil {
						b.Fatal(err)
					}
					q = qb.Queries
				}
				b.ReportMetric(float64(q), "queries")
			})
		}
	}
}
