package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/passive"
	"gonum.org/v1/gonum/mat"
)

// bliaData loads the embedded Census files and encodes an 80% training
// split of the size the experiment uses.
func bliaData(b *testing.B) (x *mat.Dense, y []int) {
	b.Helper()
	d, err := passive.LoadDataset("", "adult")
	if err != nil {
		b.Fatal(err)
	}
	n := d.Train.Rows()
	perm := rand.New(rand.NewPCG(1, 1)).Perm(n)
	rows := perm[:n-(n+4)/5] // 26,048 rows
	enc := passive.NewEncoder(d.Train, rows)
	y = make([]int, len(rows))
	for i, r := range rows {
		y[i] = d.Train.Labels[r]
	}
	return enc.Encode(d.Train, rows), y
}

// BenchmarkBLIATrain trains the experiment's models on Census's 26,048
// training rows (108 features): L2 logistic regression by Newton's method,
// and the default MLP (64, 32 ReLU units; 20 epochs of Adam, batch 128).
// rows/s counts training rows × epochs.
func BenchmarkBLIATrain(b *testing.B) {
	x, y := bliaData(b)
	n, _ := x.Dims()
	b.Run("data=adult/model=logreg", func(b *testing.B) {
		b.ReportAllocs()
		var iters int
		for b.Loop() {
			m, err := passive.TrainLogReg(context.Background(), x, y, passive.LogRegOptions{})
			if err != nil {
				b.Fatal(err)
			}
			iters = m.Iter
		}
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/model")
		b.ReportMetric(float64(iters), "newton-steps/op")
	})
	b.Run("data=adult/model=mlp", func(b *testing.B) {
		b.ReportAllocs()
		opt := passive.MLPOptions{Seed: 1}
		for b.Loop() {
			if _, err := passive.TrainMLP(context.Background(), x, y, opt); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/model")
		b.ReportMetric(float64(n)*20*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	})
}

// BenchmarkBLIAEvaluate times one attack with both tests on n canaries:
// the conditional test's Poisson-binomial tail is the O(n²) part (n = 520
// is one Census run, 2,600 the pool of 5 seeds).
func BenchmarkBLIAEvaluate(b *testing.B) {
	for _, n := range []int{520, 2600} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			p := make([]float64, n)
			y, t := make([]int, n), make([]int, n)
			for i := range n {
				p[i], y[i], t[i] = rng.Float64(), rng.IntN(2), rng.IntN(2)
			}
			a := passive.Attack{Kind: passive.DeltaMargin, Alpha: 1, Beta: 1}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := passive.Evaluate(a, p, y, t, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "canaries/s")
		})
	}
}
