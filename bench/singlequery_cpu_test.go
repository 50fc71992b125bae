package bench

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/cputime"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/single"
)

var exactN = flag.Int("exactn", 0, "BenchmarkExactSingleQueryCPU: one N instead of the default 25,000 and 100,000")

// BenchmarkExactSingleQueryCPU runs the demo's path (cmd/labelinf
// demoCase): plan the prime construction of [AKXFT21, Theorem 1] for N
// binary labels, score it with an exact oracle, decode and verify. It
// reports process CPU time per phase (all goroutines and GC) beside wall
// time, because a second core must not hide slower arithmetic (issue 16).
// A wrong label fails the benchmark. For N = 10^6:
// go test ./bench -run '^$' -bench ExactSingleQueryCPU -benchtime 1x -exactn 1000000.
func BenchmarkExactSingleQueryCPU(b *testing.B) {
	ns := []int{25000, 100000}
	if *exactN > 0 {
		ns = []int{*exactN}
	}
	for _, n := range ns {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 0x6c6162656c696e66))
			labels := make([]int, n)
			for i := range labels {
				labels[i] = r.IntN(2)
			}
			var plan, score, dec time.Duration
			var bits uint
			for b.Loop() {
				c0 := cputime.Now()
				q, err := single.NewQuery(n, 2)
				if err != nil {
					b.Fatal(err)
				}
				o, err := oracle.NewExact(labels, 2, q.Prec())
				if err != nil {
					b.Fatal(err)
				}
				o.UseConsts(q.Consts()) // as the demo does

				c1 := cputime.Now()
				s, err := o.Score(context.Background(), q.Prediction())
				if err != nil {
					b.Fatal(err)
				}
				c2 := cputime.Now()
				res, err := q.Decode(s, single.Options{})
				if err != nil {
					b.Fatal(err)
				}
				c3 := cputime.Now()
				for i, y := range res.Labels {
					if y != labels[i] {
						b.Fatalf("label %d decoded as %d, want %d", i, y, labels[i])
					}
				}
				plan += c1 - c0
				score += c2 - c1
				dec += c3 - c2
				bits = q.Prec()
			}
			k := float64(b.N)
			b.ReportMetric(plan.Seconds()/k, "plan-cpu-s/op")
			b.ReportMetric(score.Seconds()/k, "score-cpu-s/op")
			b.ReportMetric(dec.Seconds()/k, "decode-cpu-s/op")
			b.ReportMetric((plan+score+dec).Seconds()/k, "cpu-s/op")
			b.ReportMetric(float64(bits), "bits")
		})
	}
}
