package apa

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/internal/cputime"

	"github.com/ALTree/bigfloat"
)

// BenchmarkLogExp compares apa's Log and Exp with ALTree/bigfloat v0.2.0 in
// the same run, on x ≈ 1.2 with a random mantissa as in
// ../shared/anchors/BIGNUM.md §1. bigfloat is skipped above 10^6 bits
// (its predicted time is minutes).
func BenchmarkLogExp(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, prec := range []uint{1e4, 1e5, 1e6, 1e7} {
		x := randFloat(r, prec, 0, 0)
		x.Quo(x, big.NewFloat(1.25))
		for _, fn := range []string{"log", "exp"} {
			b.Run(fmt.Sprintf("fn=%s/bits=%d/impl=apa", fn, prec), func(b *testing.B) {
				z := new(big.Float).SetPrec(prec)
				for b.Loop() {
					if fn == "log" {
						Log(z, x)
					} else {
						Exp(z, x)
					}
				}
				b.ReportMetric(float64(prec), "bits")
			})
			if prec > 1e6 || (prec == 1e6 && fn == "exp") {
				continue
			}
			b.Run(fmt.Sprintf("fn=%s/bits=%d/impl=bigfloat", fn, prec), func(b *testing.B) {
				for b.Loop() {
					if fn == "log" {
						bigfloat.Log(x)
					} else {
						bigfloat.Exp(x)
					}
				}
				b.ReportMetric(float64(prec), "bits")
			})
		}
	}
}

// BenchmarkLogExpWarm times Log and Exp through a warm Consts (π and ln 2
// cached), the like-for-like row against MPFR's global constant cache; it
// is the benchmark to profile (-cpuprofile) for the algorithms alone.
func BenchmarkLogExpWarm(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, prec := range []uint{1e4, 1e5, 1e6} {
		x := randFloat(r, prec, 0, 0)
		x.Quo(x, big.NewFloat(1.25))
		for _, fn := range []string{"log", "exp"} {
			b.Run(fmt.Sprintf("fn=%s/bits=%d", fn, prec), func(b *testing.B) {
				var c Consts
				z := new(big.Float).SetPrec(prec)
				f := c.Log
				if fn == "exp" {
					f = c.Exp
				}
				f(z, x)
				c0 := int64(cputime.Now())
				for b.Loop() {
					f(z, x)
				}
				b.ReportMetric(float64(int64(cputime.Now())-c0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
