//go:build mpfr && cgo

package mpfr

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/ALTree/bigfloat"

	"github.com/labelinf/labelinf/apa"
)

// BenchmarkLogExpWarm is the short form of BenchmarkLogExp for the rows of
// issue 16's targets: apa with a warm apa.Consts ("apac") against MPFR with
// its warm constant cache, alternated in every repetition, plus bigfloat
// and the package-level (cold) apa function where bigfloat takes under a
// second, for the "never slower than bigfloat" check.
func BenchmarkLogExpWarm(b *testing.B) {
	runtime.LockOSThread() // MPFR's constant cache is per OS thread
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(1, 1))
	for _, prec := range []uint{1e4, 1e5, 1e6} {
		x := randFloat(r, prec)
		mx := NewFloat(prec).SetBig(x)
		mz := NewFloat(prec)
		for _, fn := range []string{"log", "exp"} {
			b.Run(fmt.Sprintf("fn=%s/bits=%d", fn, prec), func(b *testing.B) {
				var cache apa.Consts
				z := new(big.Float).SetPrec(prec)
				f, cf, mf, bf := apa.Log, cache.Log, mz.Log, bigfloat.Log
				if fn == "exp" {
					f, cf, mf, bf = apa.Exp, cache.Exp, mz.Exp, bigfloat.Exp
				}
				mf(mx)
				cf(z, x)
				impls := []*impl{
					{name: "mpfr", run: func() { mf(mx) }},
					{name: "apac", run: func() { cf(z, x) }},
				}
				if prec <= 1e5 {
					impls = append(impls,
						&impl{name: "apa", run: func() { f(z, x) }},
						&impl{name: "bigfloat", run: func() { bf(x) }})
				}
				compare(b, impls)
			})
		}
		mx.Free()
		mz.Free()
	}
}
