package single

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
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
				labels := testrand.Labels(r, c.n, c.k)
				q, err := NewQuery(c.n, c.k)
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
				if err != nil || !slices.Equal(res.Labels, labels) {
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
