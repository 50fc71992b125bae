package bench

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
	"github.com/labelinf/labelinf/subsetsum"
)

// BenchmarkRobustSingle runs the single-query robust attack end to end
// (plan, one arbitrary-precision score with bounded noise τ, decode)
// against seeded random labels; it fails on any wrong label.
func BenchmarkRobustSingle(b *testing.B) {
	for _, c := range []struct {
		enc  scorer.Encoding
		k, n int
		tau  float64
	}{
		{scorer.Logits, 2, 10000, 1}, {scorer.Logits, 2, 100000, 1}, {scorer.LogProbs, 2, 100000, 1},
		{scorer.Logits, 3, 100000, 1}, {scorer.Logits, 6, 50000, 1},
		{scorer.Probs, 2, 25, 1}, {scorer.Probs, 2, 44, 1e-6},
	} {
		b.Run(fmt.Sprintf("enc=%v/k=%d/n=%d/tau=%g", c.enc, c.k, c.n, c.tau), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, uint64(c.n)))
			labels := make([]int, c.n)
			for i := range labels {
				labels[i] = rng.IntN(c.k)
			}
			opt := single.RobustOptions{N: c.n, K: c.k, Tau: c.tau, Encoding: c.enc}
			var bits uint
			var plan, score, dec float64
			for b.Loop() {
				t0 := time.Now()
				p, err := single.PlanRobust(context.Background(), opt)
				if err != nil {
					b.Fatal(err)
				}
				plan = time.Since(t0).Seconds()
				srv, err := oracle.NewBigExact(labels, c.k, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: c.tau}, 2)
				if err != nil {
					b.Fatal(err)
				}
				// The phases as the caller times them: the server's score,
				// then the decoding.
				t1 := time.Now()
				sc, err := srv.Score(context.Background(), p.Pred())
				if err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				res, err := p.Decode(sc, srv.Prec())
				if err != nil {
					b.Fatal(err)
				}
				for i, y := range labels {
					if res.Labels[i] != y {
						b.Fatalf("label %d wrong", i)
					}
				}
				bits = p.Prec()
				score, dec = t2.Sub(t1).Seconds(), time.Since(t2).Seconds()
			}
			b.ReportMetric(float64(c.n)*float64(b.N)/b.Elapsed().Seconds(), "labels/s")
			b.ReportMetric(float64(bits), "bits")
			b.ReportMetric(1, "queries/op")
			b.ReportMetric(plan, "plan-s")
			b.ReportMetric(score, "scorer-s")
			b.ReportMetric(dec, "decode-s")
		})
	}
}

// BenchmarkDecodeSuperincreasing times the linear decoder on powers of two
// scaled by 2Nτ(1+δ) with τ = 1, the robust code's weights: O(N)
// big-integer steps on N-bit numbers.
func BenchmarkDecodeSuperincreasing(b *testing.B) {
	for _, n := range []int{20, 40, 50, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			w := make([]*big.Int, n)
			unit := big.NewInt(int64(2 * n * 17 / 16))
			sum := new(big.Int)
			rng := rand.New(rand.NewPCG(3, uint64(n)))
			for i := range w {
				w[i] = new(big.Int).Lsh(unit, uint(i))
				if rng.IntN(2) == 1 {
					sum.Add(sum, w[i])
				}
			}
			r := big.NewInt(int64(n))
			for b.Loop() {
				if _, err := subsetsum.DecodeSuperincreasing(w, sum, r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "labels/s")
		})
	}
}
