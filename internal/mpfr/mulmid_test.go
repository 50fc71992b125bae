//go:build mpfr && cgo

package mpfr

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// BenchmarkMulMid times internal/bigmul's mid-size products and squares
// (the Toom and word-level Karatsuba paths of issue 16) against mpz_mul
// and math/big on the same operands, alternated in every repetition. A
// repetition runs each product reps times so that one measurement spans
// about a millisecond.
func BenchmarkMulMid(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 3))
	for _, words := range []int{300, 700, 1600, 3000, 5000} {
		x, y := randInt(r, 64*words), randInt(r, 64*words)
		gx, gy, gz := NewInt(x), NewInt(y), NewZero()
		reps := max(1, 4000000/(words*words))
		var z, zb big.Int
		loop := func(f func()) func() {
			return func() {
				for range reps {
					f()
				}
			}
		}
		b.Run(fmt.Sprintf("op=mul/words=%d", words), func(b *testing.B) {
			compare(b, []*impl{
				{name: "gmp", run: loop(func() { gz.Mul(gx, gy) })},
				{name: "bigmul", run: loop(func() { bigmul.Mul(&z, x, y) })},
				{name: "mathbig", run: loop(func() { zb.Mul(x, y) })},
			})
		})
		b.Run(fmt.Sprintf("op=sqr/words=%d", words), func(b *testing.B) {
			compare(b, []*impl{
				{name: "gmp", run: loop(func() { gz.Mul(gx, gx) })},
				{name: "bigmul", run: loop(func() { bigmul.Sqr(&z, x) })},
				{name: "mathbig", run: loop(func() { zb.Mul(x, x) })},
			})
		})
		gx.Free()
		gy.Free()
		gz.Free()
	}
}
