package fpa

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

var sink float64

// chainOperands returns n operands for a dependent chain acc = acc op x[i]
// starting at acc = 1 that keeps acc in [1/4, 4] (well inside the normal
// range, so neither the hardware nor fpa ever meets an overflow, an
// underflow or a subnormal): each operand is drawn from [1, 2) and, for
// add, negated when acc > 2; for mul and div it is inverted (mul) or not
// (div) so that acc moves back toward 1. The trajectory is simulated in
// float64, which every fpa binary64 result equals bit for bit.
func chainOperands(op string, n int, r *rand.Rand) []float64 {
	xs := make([]float64, n)
	acc := 1.0
	for i := range xs {
		u := 1 + r.Float64()
		switch op {
		case "add":
			if acc > 2 {
				u = -u
			}
			acc += u
		case "mul":
			if acc > 1 {
				u = 1 / u
			}
			acc *= u
		case "div":
			if acc < 1 {
				u = 1 / u
			}
			acc /= u
		}
		xs[i] = u
	}
	return xs
}

// The native chains are separate functions that take and return acc, so
// acc lives in a register for the whole pass: each iteration costs the
// hardware's latency of one dependent add, mul or div.

//go:noinline
func nativeAdd(acc float64, xs []float64) float64 {
	for _, x := range xs {
		acc += x
	}
	return acc
}

//go:noinline
func nativeMul(acc float64, xs []float64) float64 {
	for _, x := range xs {
		acc *= x
	}
	return acc
}

//go:noinline
func nativeQuo(acc float64, xs []float64) float64 {
	for _, x := range xs {
		acc /= x
	}
	return acc
}

// BenchmarkArith64 measures emulated binary64 Add, Mul and Quo against
// native float64 in the same run, on a dependent chain of 1,024 operations
// (each result feeds the next, as in a sum) that stays in [1/4, 4], and
// reports the slowdown as the median over alternating repetitions
// (native pass, fpa pass, …) of fpa time ÷ native time.
//
//	go test ./fpa -run '^$' -bench Arith64 -count 5
func BenchmarkArith64(b *testing.B) {
	const n = 1024
	ops := []struct {
		name   string
		native func(float64, []float64) float64
		emu    func(z, x, y *Float) *Float
	}{
		{"add", nativeAdd, (*Float).Add},
		{"mul", nativeMul, (*Float).Mul},
		{"div", nativeQuo, (*Float).Quo},
	}
	for _, op := range ops {
		b.Run("op="+op.name, func(b *testing.B) {
			xs := chainOperands(op.name, n, rand.New(rand.NewPCG(1, 1)))
			fs := make([]Float, n)
			for i := range xs {
				fs[i].SetFloat64(xs[i])
			}
			acc := New(Binary64)
			var nat, emu, ratio []float64
			for b.Loop() {
				t0 := time.Now()
				v := op.native(1, xs)
				t1 := time.Now()
				acc.SetFloat64(1)
				for i := range fs {
					op.emu(acc, acc, &fs[i])
				}
				t2 := time.Now()
				if w, _ := acc.Float64(); w != v {
					b.Fatalf("fpa chain ended at %v, native at %v", w, v)
				}
				sink += v
				nat = append(nat, float64(t1.Sub(t0))/n)
				emu = append(emu, float64(t2.Sub(t1))/n)
				ratio = append(ratio, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
			}
			b.ReportMetric(median(nat), "native-ns/op")
			b.ReportMetric(median(emu), "fpa-ns/op")
			b.ReportMetric(median(ratio), "fpa/native")
		})
	}
}

// median returns the median of xs (xs is sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
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

// wideOperands returns n values of f with random significands of full
// precision and leading-bit exponents in [−8, 8], positive (pos) or of
// random sign, as internal/mpfrfmt's typical operands.
func wideOperands(f Format, n int, pos bool, r *rand.Rand) []*Float {
	xs := make([]*Float, n)
	p := int(f.Prec())
	for i := range xs {
		w := make([]big.Word, (p+63)/64)
		for j := range w {
			w[j] = big.Word(r.Uint64())
		}
		m := new(big.Int).SetBits(w)
		m.Rsh(m, uint(len(w)*64-p))
		m.SetBit(m, p-1, 1)
		x := New(f)
		x.roundBig(!pos && r.IntN(2) == 0, m, int64(r.IntN(17)-8)-int64(p-1), false)
		xs[i] = x
	}
	return xs
}

// BenchmarkArithWide times Add, Sub, Mul, Quo, Sqrt and FMA in binary128
// and with 1,000 fraction bits over batches of typical operands (as
// BenchmarkVsMPFR in internal/mpfrfmt, without MPFR), per element: the
// mean and the fastest pass's.
//
//	go test ./fpa -run '^$' -bench ArithWide -benchtime 400x
func BenchmarkArithWide(b *testing.B) {
	for _, fc := range []struct {
		name string
		f    Format
	}{{"binary128", Binary128}, {"e20m1000", Format{ExpBits: 20, FracBits: 1000}}} {
		for _, op := range []string{"add", "sub", "mul", "quo", "sqrt", "fma"} {
			b.Run(fmt.Sprintf("fmt=%s/op=%s", fc.name, op), func(b *testing.B) {
				r := rand.New(rand.NewPCG(17, 1))
				n := 1024
				x := wideOperands(fc.f, n, op == "sqrt", r)
				y := wideOperands(fc.f, n, false, r)
				w := wideOperands(fc.f, n, false, r)
				zs := make([]*Float, n)
				for i := range zs {
					zs[i] = New(fc.f)
				}
				best := time.Duration(1 << 62)
				for b.Loop() {
					t0 := time.Now()
					for i, z := range zs {
						switch op {
						case "add":
							z.Add(x[i], y[i])
						case "sub":
							z.Sub(x[i], y[i])
						case "mul":
							z.Mul(x[i], y[i])
						case "quo":
							z.Quo(x[i], y[i])
						case "sqrt":
							z.Sqrt(x[i])
						case "fma":
							z.FMA(x[i], y[i], w[i])
						}
					}
					best = min(best, time.Since(t0))
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
				// The fastest pass: the least disturbed by other jobs.
				b.ReportMetric(float64(best.Nanoseconds())/float64(n), "min-ns/elem")
			})
		}
	}
}
