package single

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
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

var (
	peakN        = flag.Int("peak-n", 100000, "BenchmarkExactPeakLive: labels (K = 2)")
	peakMemLimit = flag.Int64("peak-memlimit", 0, "BenchmarkExactPeakLive: soft memory limit in MiB (0: none); below the peak it makes the collector run at every allocation there, so that the sampled live heap reaches the true peak")
)

// BenchmarkExactPeakLive measures the live heap peak of one exact query
// (plan, the exact oracle's score, decoding) for -peak-n binary labels:
// the live heap after every garbage collection, read with runtime/metrics,
// its maximum over the run (peak-live-MiB), also per bit of the score
// (peak-B/bit, what the demo's memory model fits). Run it one size per
// process, with -peak-memlimit under the expected peak:
//
//	go test ./single -run '^$' -bench ExactPeakLive -benchtime 1x -peak-n 1000000 -peak-memlimit 300
func BenchmarkExactPeakLive(b *testing.B) {
	if *peakMemLimit > 0 {
		old := debug.SetMemoryLimit(*peakMemLimit << 20)
		defer debug.SetMemoryLimit(old)
	}
	n := *peakN
	r := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		labels := testrand.Labels(r, n, 2)
		runtime.GC()
		stop := make(chan struct{})
		peak := make(chan uint64)
		go func() {
			s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
			var last, max uint64
			for {
				select {
				case <-stop:
					peak <- max
					return
				case <-time.After(2 * time.Millisecond):
				}
				metrics.Read(s)
				if c := s[0].Value.Uint64(); c != last {
					last = c
					max = maxU(max, s[1].Value.Uint64())
				}
			}
		}()
		q, err := NewQuery(n, 2)
		if err != nil {
			b.Fatal(err)
		}
		o, err := oracle.NewExact(labels, 2, q.Prec())
		if err != nil {
			b.Fatal(err)
		}
		o.UseConsts(q.Consts())
		score, err := o.Score(context.Background(), q.Prediction())
		if err != nil {
			b.Fatal(err)
		}
		res, err := q.Decode(score, Options{})
		if err != nil || !res.Verified || !slices.Equal(res.Labels, labels) {
			b.Fatalf("attack failed: %v", err)
		}
		runtime.GC()
		close(stop)
		p := <-peak
		b.ReportMetric(float64(p)/(1<<20), "peak-live-MiB")
		b.ReportMetric(float64(q.Prec()), "bits")
		b.ReportMetric((float64(p)-float64(160*n))/float64(q.Prec()), "peak-B/bit")
	}
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
