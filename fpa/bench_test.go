package fpa

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

var sink float64

// BenchmarkArith64 measures emulated binary64 Add, Mul and Quo against
// native float64 in the same run, on a dependent chain (each result feeds
// the next operation, as in a sum), and reports the slowdown.
//
//	go test ./fpa -run '^$' -bench Arith64 -count 5
func BenchmarkArith64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	const n = 1024
	xs := make([]float64, n)
	fs := make([]Float, n)
	for i := range xs {
		xs[i] = 1 + r.Float64()
		fs[i].SetFloat64(xs[i])
	}
	ops := []struct {
		name string
		emu  func(z, x, y *Float) *Float
	}{
		{"add", (*Float).Add},
		{"mul", (*Float).Mul},
		{"div", (*Float).Quo},
	}
	for _, op := range ops {
		b.Run("op="+op.name+"/impl=native", func(b *testing.B) {
			// The operator is written inline (no call), so this is the
			// hardware's latency on a dependent chain.
			acc := 1.0
			for b.Loop() {
				switch op.name {
				case "add":
					for i := range xs {
						acc += xs[i]
					}
				case "mul":
					for i := range xs {
						acc *= xs[i]
					}
				case "div":
					for i := range xs {
						acc /= xs[i]
					}
				}
				if acc > 1e300 || acc < 1e-300 {
					acc = 1
				}
			}
			sink = acc
			b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "ops/s")
		})
		b.Run("op="+op.name+"/impl=fpa", func(b *testing.B) {
			acc := New(Binary64).SetFloat64(1)
			for b.Loop() {
				for i := range fs {
					op.emu(acc, acc, &fs[i])
				}
				if v, _ := acc.Float64(); v > 1e300 || v < 1e-300 {
					acc.SetFloat64(1)
				}
			}
			sink, _ = acc.Float64()
			b.ReportMetric(float64(b.N)*n/b.Elapsed().Seconds(), "ops/s")
		})
	}
}

// BenchmarkElem measures emulated Log and Exp per second for binary32
// (float64 fast path), binary64 and 1,000 and 100,000 fraction bits (apa),
// with native math.Log/Exp beside binary64.
//
//	go test ./fpa -run '^$' -bench Elem -benchtime 2s
func BenchmarkElem(b *testing.B) {
	for _, m := range []uint{23, 52, 1000, 100_000} {
		f := Format{ExpBits: 11, FracBits: m}
		if m == 23 {
			f = Binary32
		}
		for _, fn := range []string{"log", "exp"} {
			b.Run(fmt.Sprintf("fn=%s/m=%d/impl=fpa", fn, m), func(b *testing.B) {
				x := New(f).SetFloat64(math.Pi)
				z := New(f)
				for b.Loop() {
					if fn == "log" {
						z.Log(x)
					} else {
						z.Exp(x)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
			})
			if m == 52 {
				b.Run(fmt.Sprintf("fn=%s/m=%d/impl=native", fn, m), func(b *testing.B) {
					x, acc := math.Pi, 0.0
					for b.Loop() {
						if fn == "log" {
							acc += math.Log(x)
						} else {
							acc += math.Exp(x)
						}
					}
					sink = acc
					b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "ops/s")
				})
			}
		}
	}
}
