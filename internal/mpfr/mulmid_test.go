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

// BenchmarkMulSmall times internal/bigmul against mpz_mul at the sizes
// of apa's series at 10^4–10^5 bits (150–2,000 words): balanced products
// and squares, and unbalanced products of n×m words, m = n/8 … n/2 (a
// full-size operand times a short one), alternated in every repetition.
func BenchmarkMulSmall(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 4))
	type shape struct{ n, m int }
	var shapes []shape
	for _, n := range []int{16, 27, 40, 53, 80, 110, 157, 300, 500, 700, 1000, 1600} {
		shapes = append(shapes, shape{n, n})
	}
	for _, n := range []int{300, 700, 1600} {
		for _, d := range []int{8, 4, 2} {
			shapes = append(shapes, shape{n, n / d})
		}
	}
	for _, sh := range shapes {
		x, y := randInt(r, 64*sh.n), randInt(r, 64*sh.m)
		gx, gy, gz := NewInt(x), NewInt(y), NewZero()
		reps := max(1, 4000000/(sh.n*sh.m))
		var z big.Int
		loop := func(f func()) func() {
			return func() {
				for range reps {
					f()
				}
			}
		}
		b.Run(fmt.Sprintf("op=mul/words=%dx%d", sh.n, sh.m), func(b *testing.B) {
			compare(b, []*impl{
				{name: "gmp", run: loop(func() { gz.Mul(gx, gy) })},
				{name: "bigmul", run: loop(func() { bigmul.Mul(&z, x, y) })},
			})
		})
		if sh.n == sh.m {
			b.Run(fmt.Sprintf("op=sqr/words=%d", sh.n), func(b *testing.B) {
				compare(b, []*impl{
					{name: "gmp", run: loop(func() { gz.Mul(gx, gx) })},
					{name: "bigmul", run: loop(func() { bigmul.Sqr(&z, x) })},
				})
			})
		}
		gx.Free()
		gy.Free()
		gz.Free()
	}
}
