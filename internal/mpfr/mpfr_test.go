//go:build mpfr && cgo

package mpfr

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/cputime"

	"github.com/ALTree/bigfloat"
	"github.com/remyoudompheng/bigfft"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/internal/bigmul"
	"github.com/labelinf/labelinf/primes"
)

// randFloat returns a float of prec random bits in [1/1.25, 2/1.25), the
// input of apa's own BenchmarkLogExp (x ≈ 1.2 with a random mantissa).
func randFloat(r *rand.Rand, prec uint) *big.Float {
	w := make([]big.Word, (prec+63)/64)
	for i := range w {
		w[i] = big.Word(r.Uint64())
	}
	m := new(big.Int).SetBits(w)
	m.SetBit(m, int(64*len(w)-1), 1)
	x := new(big.Float).SetPrec(prec).SetInt(m)
	x.SetMantExp(x, -64*len(w)+1) // in [1, 2)
	return x.Quo(x, big.NewFloat(1.25))
}

func randInt(r *rand.Rand, bits int) *big.Int {
	w := make([]big.Word, (bits+63)/64)
	for i := range w {
		w[i] = big.Word(r.Uint64())
	}
	x := new(big.Int).SetBits(w)
	x.SetBit(x, bits-1, 1)
	for i := x.BitLen() - 1; i >= bits; i-- {
		x.SetBit(x, i, 0)
	}
	return x
}

func mpfrLog(prec uint, x *big.Float) *big.Float {
	in, out := NewFloat(x.Prec()).SetBig(x), NewFloat(prec)
	defer in.Free()
	defer out.Free()
	return out.Log(in).Big()
}

func mpfrExp(prec uint, x *big.Float) *big.Float {
	in, out := NewFloat(x.Prec()).SetBig(x), NewFloat(prec)
	defer in.Free()
	defer out.Free()
	return out.Exp(in).Big()
}

// TestAgreeLogExp checks that apa's correctly rounded Log and Exp equal
// MPFR's, bit for bit, on random inputs over a range of magnitudes.
func TestAgreeLogExp(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 1))
	precs := []uint{24, 53, 200, 3000, 1e4, 1e5}
	if testing.Short() {
		precs = precs[:5]
	}
	var cache apa.Consts
	for _, prec := range precs {
		for _, scale := range []int{-40, -1, 0, 3, 20} {
			x := randFloat(r, prec)
			x.SetMantExp(x, scale)
			want := mpfrLog(prec, x)
			got, err := apa.Log(new(big.Float).SetPrec(prec), x)
			require.NoError(t, err)
			assert.Equal(t, 0, got.Cmp(want), "Log at %d bits, scale 2^%d", prec, scale)
			got, err = cache.Log(new(big.Float).SetPrec(prec), x)
			require.NoError(t, err)
			assert.Equal(t, 0, got.Cmp(want), "Consts.Log at %d bits, scale 2^%d", prec, scale)
			if scale > 3 {
				continue // e^(2^20) is fine for both, but slow at high precision
			}
			want = mpfrExp(prec, x)
			got, err = apa.Exp(new(big.Float).SetPrec(prec), x)
			require.NoError(t, err)
			assert.Equal(t, 0, got.Cmp(want), "Exp at %d bits, scale 2^%d", prec, scale)
			got, err = cache.Exp(new(big.Float).SetPrec(prec), x)
			require.NoError(t, err)
			assert.Equal(t, 0, got.Cmp(want), "Consts.Exp at %d bits, scale 2^%d", prec, scale)
		}
	}
}

// TestAgreeIntegers checks bigmul against mpz_mul and the product and
// remainder trees of primes against GMP's.
func TestAgreeIntegers(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2))
	for _, bits := range []int{1000, 200000, 3000000} {
		x, y := randInt(r, bits), randInt(r, bits+77)
		gx, gy, gz := NewInt(x), NewInt(y), NewZero()
		want := gz.Mul(gx, gy).Big()
		assert.Equal(t, 0, bigmul.Mul(new(big.Int), x, y).Cmp(want), "Mul at %d bits", bits)
		want = gz.Mul(gx, gx).Big()
		assert.Equal(t, 0, bigmul.Sqr(new(big.Int), x).Cmp(want), "Sqr at %d bits", bits)
		gx.Free()
		gy.Free()
		gz.Free()
	}
	n := 100000
	if testing.Short() {
		n = 10000
	}
	ps, err := primes.FirstN(n)
	require.NoError(t, err)
	xs := make([]*big.Int, n)
	for i, p := range ps {
		xs[i] = new(big.Int).SetUint64(p)
	}
	tr := primes.NewProductTree(xs)
	gt := NewTree(ps)
	defer gt.Free()
	require.Equal(t, 0, tr.Root().Cmp(gt.Root()), "product of the first %d primes", n)
	x := randInt(r, tr.Root().BitLen()-3)
	gx := NewInt(x)
	defer gx.Free()
	want := make([]uint64, n)
	gt.Remainders(want, gx)
	got := tr.Remainders(x)
	pt := primes.NewPowerTree(ps, 1)
	require.Equal(t, 0, pt.Root().Cmp(gt.Root()), "power tree of the first %d primes", n)
	words := pt.Residues(x, nil)
	for i := range want {
		if !assert.Equal(t, want[i], got[i].Uint64(), "x mod p_%d", i) ||
			!assert.Equal(t, want[i], words[i], "Residues: x mod p_%d", i) {
			break
		}
	}
}

// impl is one implementation in a same-run comparison.
type impl struct {
	name string
	run  func()
	wall []time.Duration
	cpu  []time.Duration
}

func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2])
}

// compare runs every implementation once per repetition, rotating the
// order so none always runs first, and reports each one's median wall and
// CPU time in ms and, for every implementation after the first (the
// baseline), its ratio to the baseline.
func compare(b *testing.B, impls []*impl) {
	b.Helper()
	rep := 0
	for b.Loop() {
		for j := range impls {
			im := impls[(j+rep)%len(impls)]
			c0, t0 := cputime.Now(), time.Now()
			im.run()
			im.wall = append(im.wall, time.Since(t0))
			im.cpu = append(im.cpu, cputime.Now()-c0)
		}
		rep++
	}
	base := impls[0]
	bw, bc := median(base.wall), median(base.cpu)
	for _, im := range impls {
		w, c := median(im.wall), median(im.cpu)
		b.ReportMetric(w/1e6, im.name+"-wall-ms")
		b.ReportMetric(c/1e6, im.name+"-cpu-ms")
		if im != base {
			b.ReportMetric(w/bw, im.name+"/"+base.name+"-wall")
			b.ReportMetric(c/bc, im.name+"/"+base.name+"-cpu")
		}
	}
}

// BenchmarkLogExp times apa.Log and apa.Exp against mpfr_log and mpfr_exp
// on the same input. mpfr keeps π and ln 2 in a global cache after its
// first call, so the like-for-like row is apa's Consts (warm cache,
// "apac"); "apa" is the package-level function, which computes the
// constants on every call above 2^19 bits (below, apa reads them from its
// generated table, consttab.go), and "mpfrcold" calls mpfr_free_cache first.
// bigfloat (ALTree/bigfloat v0.2.0) runs where it takes under a minute.
func BenchmarkLogExp(b *testing.B) {
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
				f := apa.Log
				cf := cache.Log
				mf := mz.Log
				bf := bigfloat.Log
				if fn == "exp" {
					f, cf, mf, bf = apa.Exp, cache.Exp, mz.Exp, bigfloat.Exp
				}
				mf(mx)   // fill MPFR's constant cache
				cf(z, x) // and ours
				impls := []*impl{
					{name: "mpfr", run: func() { mf(mx) }},
					{name: "apac", run: func() { cf(z, x) }},
					{name: "apa", run: func() { f(z, x) }},
					{name: "mpfrcold", run: func() { FreeCache(); mf(mx) }},
				}
				if prec < 1e6 || fn == "log" {
					impls = append(impls, &impl{name: "bigfloat", run: func() { bf(x) }})
				}
				compare(b, impls)
				b.ReportMetric(float64(prec), "bits")
			})
		}
		mx.Free()
		mz.Free()
	}
}

// BenchmarkMul times internal/bigmul against mpz_mul, product and square.
// A repetition runs each product reps times so that it spans about a
// millisecond of CPU time or more.
func BenchmarkMul(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, bits := range []int{1e4, 1e5, 2e5, 5e5, 1e6, 2e6, 1e7} {
		x, y := randInt(r, bits), randInt(r, bits)
		gx, gy, gz := NewInt(x), NewInt(y), NewZero()
		var z big.Int
		reps := max(1, 4000000/bits)
		loop := func(f func()) func() {
			return func() {
				for range reps {
					f()
				}
			}
		}
		b.Run(fmt.Sprintf("op=mul/bits=%d", bits), func(b *testing.B) {
			compare(b, []*impl{
				{name: "gmp", run: loop(func() { gz.Mul(gx, gy) })},
				{name: "bigmul", run: loop(func() { bigmul.Mul(&z, x, y) })},
			})
		})
		b.Run(fmt.Sprintf("op=sqr/bits=%d", bits), func(b *testing.B) {
			compare(b, []*impl{
				{name: "gmp", run: loop(func() { gz.Mul(gx, gx) })},
				{name: "bigmul", run: loop(func() { bigmul.Sqr(&z, x) })},
			})
		})
		gx.Free()
		gy.Free()
		gz.Free()
	}
}

// bigfftTree is the plain baseline of the issue: a balanced product tree
// with bigfft.Mul at every node (bigfft falls back to math/big below its
// own threshold), one goroutine.
func bigfftTree(xs []*big.Int) *big.Int {
	for len(xs) > 1 {
		nxt := make([]*big.Int, (len(xs)+1)/2)
		for i := range nxt {
			if 2*i+1 < len(xs) {
				nxt[i] = bigfft.Mul(xs[2*i], xs[2*i+1])
			} else {
				nxt[i] = xs[2*i]
			}
		}
		xs = nxt
	}
	return xs[0]
}

// BenchmarkTrees times the product tree of the first n primes and the
// remainder tree of an integer just below their product, against GMP
// (mpz_mul and mpz_tdiv_r trees) and a plain bigfft product tree. "primes"
// is primes.NewProductTree, which keeps its levels for Remainders;
// "product" is primes.Product, which keeps only the level being built, as
// the GMP and bigfft baselines do. "power" is primes.NewPowerTree (the
// primes kept as words, as GMP's tree gets them) and "residues" its
// Residues, which writes uint64 remainders as GMP's tree does; "primes"
// is Remainders of the big.Int tree, one big.Int per leaf.
func BenchmarkTrees(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 3))
	for _, n := range []int{1e5, 1e6} {
		ps, err := primes.FirstN(n)
		if err != nil {
			b.Fatal(err)
		}
		xs := make([]*big.Int, n)
		for i, p := range ps {
			xs[i] = new(big.Int).SetUint64(p)
		}
		b.Run(fmt.Sprintf("op=product/n=%d", n), func(b *testing.B) {
			compare(b, []*impl{
				{name: "gmp", run: func() { NewTree(ps).Free() }},
				{name: "primes", run: func() { primes.NewProductTree(xs) }},
				{name: "product", run: func() { primes.Product(xs) }},
				{name: "power", run: func() { primes.NewPowerTree(ps, 1) }},
				{name: "bigfft", run: func() { bigfftTree(xs) }},
			})
		})
		tr := primes.NewProductTree(xs)
		pt := primes.NewPowerTree(ps, 1)
		gt := NewTree(ps)
		x := randInt(r, tr.Root().BitLen()-3)
		gx := NewInt(x)
		dst := make([]uint64, n)
		ws := make([]uint64, n)
		b.Run(fmt.Sprintf("op=remainder/n=%d", n), func(b *testing.B) {
			compare(b, []*impl{
				{name: "gmp", run: func() { gt.Remainders(dst, gx) }},
				{name: "primes", run: func() { tr.Remainders(x) }},
				{name: "residues", run: func() { pt.Residues(x, ws) }},
			})
		})
		gx.Free()
		gt.Free()
	}
}

// TestAgreeExpMP checks apa's Exp against MPFR, bit for bit, at random
// precisions from 600 to 65,000 bits through one Consts: expMP's
// parameter ranges (plain and height-metric reductions, the series'
// coarse grids and ¾√N powers, expRatio's integer-division switch), on
// inputs of random magnitude from 2^-40 to 2^20, both signs.
func TestAgreeExpMP(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 5))
	n := 48
	if testing.Short() {
		n = 12
	}
	var cache apa.Consts
	for i := range n {
		prec := uint(600 + r.IntN(64400))
		x := randFloat(r, prec)
		x.SetMantExp(x, r.IntN(61)-40)
		if i%2 == 1 {
			x.Neg(x)
		}
		want := mpfrExp(prec, x)
		got, err := cache.Exp(new(big.Float).SetPrec(prec), x)
		require.NoError(t, err)
		assert.Equal(t, 0, got.Cmp(want), "Consts.Exp at %d bits, x = %.10g", prec, x)
	}
}
