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

// BenchmarkSingleQuery runs the exact single-query attack end to end: the
// exact oracle scores one query, the attacker decodes and verifies. The
// oracle's and the attacker's times are reported separately (oracle-s/op,
// attack-s/op); ns/op is their sum plus the plan.
func BenchmarkSingleQuery(b *testing.B) {
	cases := []struct{ n, k int }{{1000, 2}, {10000, 2}, {25000, 2}, {100000, 2}, {5000, 3}, {5000, 6}}
	for _, c := range cases {
		b.Run(fmt.Sprintf("n=%d/k=%d", c.n, c.k), func(b *testing.B) {
			r := rand.New(rand.NewPCG(uint64(c.n), uint64(c.k)))
			var oracleT, attackT time.Duration
			var prec uint
			for b.Loop() {
				labels := randLabels(r, c.n, c.k)
				q, err := NewSingleQuery(c.n, c.k)
				if err != nil {
					b.Fatal(err)
				}
				prec = q.Prec()
				o, err := oracle.NewExact(labels, c.k, q.Prec())
				if err != nil {
					b.Fatal(err)
				}
				t0 := time.Now()
				score, err := o.Score(context.Background(), q.Prediction())
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				res, err := q.Decode(score, Options{})
				attackT += time.Since(t1)
				oracleT += t1.Sub(t0)
				if err != nil || !equal(res.Labels, labels) {
					b.Fatalf("attack failed: %v", err)
				}
			}
			b.ReportMetric(float64(c.n)*float64(b.N)/b.Elapsed().Seconds(), "labels/s")
			b.ReportMetric(float64(prec), "bits")
			b.ReportMetric(1, "queries/op")
			b.ReportMetric(oracleT.Seconds()/float64(b.N), "oracle-s/op")
			b.ReportMetric(attackT.Seconds()/float64(b.N), "attack-s/op")
		})
	}
}

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
