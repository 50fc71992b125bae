package apa

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/internal/cputime"
)

// BenchmarkXf times the xf operations the AGM is made of, to weigh a
// square root or a reciprocal in products at the same precision.
func BenchmarkXf(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, prec := range []uint{1e4, 1e5, 1e6} {
		x := randFloat(r, prec, 0, 0)
		y := randFloat(r, prec, 0, 0)
		var xx, yy, z xf
		xx.setBig(x)
		yy.setBig(y)
		ops := []struct {
			name string
			f    func()
		}{
			{"mul", func() { z.mul(&xx, &yy, prec) }},
			{"sqr", func() { z.mul(&xx, &xx, prec) }},
			{"sqrt", func() { z.sqrt(&xx, prec) }},
			{"rsqrt", func() { z.rsqrt(&xx, prec) }},
			{"recip", func() { z.recip(&xx, prec) }},
			{"bigmul", func() { new(big.Int).Mul(&xx.m, &yy.m) }},
		}
		for _, op := range ops {
			b.Run(fmt.Sprintf("op=%s/bits=%d", op.name, prec), func(b *testing.B) {
				c0 := int64(cputime.Now())
				for b.Loop() {
					op.f()
				}
				b.ReportMetric(float64(int64(cputime.Now())-c0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkConstants times π and ln 2 at the precisions a cold Log needs.
func BenchmarkConstants(b *testing.B) {
	for _, prec := range []uint{1e4, 1e5} {
		wp := cachePrec(prec + 100)
		b.Run(fmt.Sprintf("c=pi/bits=%d", prec), func(b *testing.B) {
			var z xf
			c0 := int64(cputime.Now())
			for b.Loop() {
				computePi(&z, wp)
			}
			b.ReportMetric(float64(int64(cputime.Now())-c0)/float64(b.N), "cpu-ns/op")
		})
		b.Run(fmt.Sprintf("c=ln2/bits=%d", prec), func(b *testing.B) {
			var z xf
			c0 := int64(cputime.Now())
			for b.Loop() {
				computeLn2(&z, wp)
			}
			b.ReportMetric(float64(int64(cputime.Now())-c0)/float64(b.N), "cpu-ns/op")
		})
	}
}
