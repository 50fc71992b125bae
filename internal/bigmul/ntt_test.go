package bigmul

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// TestNTTPrimes checks that each prime is prime, is 1 mod 2^40, is below
// 2^64/6, and that g generates its multiplicative group (g^((p−1)/f) ≠ 1
// for every prime factor f of p − 1).
func TestNTTPrimes(t *testing.T) {
	for _, c := range nttPrimes {
		p := new(big.Int).SetUint64(c.p)
		if !p.ProbablyPrime(20) {
			t.Fatalf("%d is not prime", c.p)
		}
		if r := c.p % (1 << 40); r != 1 {
			t.Errorf("p = %d is %d mod 2^40, want 1", c.p, r)
		}
		if !(c.p < ^uint64(0)/6) {
			t.Errorf("p = %d, want < 2^64/6", c.p)
		}
		pm1 := c.p - 1
		var fs []uint64
		m := pm1
		for f := uint64(2); f*f <= m; f++ {
			if m%f == 0 {
				fs = append(fs, f)
				for m%f == 0 {
					m /= f
				}
			}
		}
		if m > 1 {
			fs = append(fs, m)
		}
		g := big.NewInt(int64(c.g))
		for _, f := range fs {
			e := new(big.Int).SetUint64(pm1 / f)
			if new(big.Int).Exp(g, e, p).Cmp(big.NewInt(1)) == 0 {
				t.Errorf("g=%d of order dividing (p−1)/%d", c.g, f)
			}
		}
	}
	if !(float64(log2M) < 3*61.415) {
		t.Errorf("log2M = %v, want < 3·61.415", float64(log2M))
	}
}

// TestNTTTransform checks the forward transform against the direct
// evaluation it claims (a mod X − ω_n^brev(j)) and the inverse against n·a.
func TestNTTTransform(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, q := range primes3 {
		for _, n := range []int{2, 4, 8, 64} {
			tw := q.table(n)
			a := make([]uint64, n)
			for i := range a {
				a[i] = r.Uint64N(4 * q.p)
			}
			orig := append([]uint64(nil), a...)
			q.forward(a, tw)
			om := q.powMod(q.g, (q.p-1)/uint64(n))
			P := new(big.Int).SetUint64(q.p)
			lg := 0
			for 1<<lg < n {
				lg++
			}
			for j := range n {
				rev := 0
				for b := range lg {
					if j>>b&1 == 1 {
						rev |= 1 << (lg - 1 - b)
					}
				}
				pt := new(big.Int).SetUint64(q.powMod(om, uint64(rev)))
				want := new(big.Int)
				for i := n - 1; i >= 0; i-- {
					want.Mul(want, pt)
					want.Add(want, new(big.Int).SetUint64(orig[i]))
					want.Mod(want, P)
				}
				if !(a[j] < 4*q.p) {
					t.Errorf("a[%d] = %d, want < 4p = %d", j, a[j], 4*q.p)
				}
				if got, want := a[j]%q.p, want.Uint64(); got != want {
					t.Errorf("p=%d n=%d j=%d: got %v, want %v", q.p, n, j, got, want)
				}
			}
			for i := range a {
				a[i] = reduce4(a[i], q.p)
			}
			q.inverse(a, tw)
			for i := range a {
				want := new(big.Int).Mul(big.NewInt(int64(n)), new(big.Int).SetUint64(orig[i]))
				want.Mod(want, P)
				if got, want := a[i]%q.p, want.Uint64(); got != want {
					t.Errorf("inverse p=%d n=%d i=%d: got %v, want %v", q.p, n, i, got, want)
				}
			}
		}
	}
}

// randBits returns a random positive integer of exactly bits bits, with
// long runs of ones or zeros when dense is set (carry-propagation cases).
func randBitsD(r *rand.Rand, bits int, dense bool) *big.Int {
	w := make([]big.Word, (bits+wordBits-1)/wordBits)
	for i := range w {
		switch {
		case dense && r.IntN(3) == 0:
			w[i] = ^big.Word(0)
		case dense && r.IntN(3) == 0:
			w[i] = 0
		default:
			w[i] = big.Word(r.Uint64())
		}
	}
	x := new(big.Int).SetBits(w)
	x.SetBit(x, bits-1, 1)
	mask := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	return x.Mod(x, mask)
}

// wordBits is big.Word's size.
const wordBits = bits.UintSize

// transformOnly skips t on 32-bit words: the transform reads big.Words
// as 64-bit ones, and Mul, MulWrap and NewHeld never take it there (they
// test bits.UintSize; TestHeld and TestChunked check that on 32-bit).
func transformOnly(t *testing.T) {
	t.Helper()
	if wordBits != 64 {
		t.Skip("the transform runs on 64-bit words only")
	}
}

func TestNTTMulMatchesMathBig(t *testing.T) {
	transformOnly(t)
	r := rand.New(rand.NewPCG(7, 8))
	sizes := []int{1, 63, 64, 65, 100, 1000, 4095, 4096, 10000, 50000}
	if !testing.Short() {
		sizes = append(sizes, 300000, 1<<20)
	}
	for _, xb := range sizes {
		for _, yb := range []int{1, 64, xb / 3, xb, xb + 129} {
			if yb < 1 {
				continue
			}
			for _, dense := range []bool{false, true} {
				x, y := randBitsD(r, xb, dense), randBitsD(r, yb, dense)
				want := new(big.Int).Mul(x, y)
				got := new(big.Int).SetBits(nttMul(x.Bits(), y.Bits()))
				if got.Cmp(want) != 0 {
					t.Errorf("nttMul %d×%d bits dense=%v", xb, yb, dense)
				}
			}
		}
		x := randBitsD(r, xb, true)
		got := new(big.Int).SetBits(nttMul(x.Bits(), nil))
		if got.Cmp(new(big.Int).Mul(x, x)) != 0 {
			t.Errorf("nttMul square %d bits", xb)
		}
		// All ones: the largest coefficients.
		ones := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(xb)), big.NewInt(1))
		got = new(big.Int).SetBits(nttMul(ones.Bits(), nil))
		if got.Cmp(new(big.Int).Mul(ones, ones)) != 0 {
			t.Errorf("nttMul ones² %d bits", xb)
		}
	}
}

// TestPlanBound checks every plan against the CRT bound n·2^(2b+g) < M,
// g the headroom of a held operand's sums (0 for planFor), and the no-wrap
// condition.
func TestPlanBound(t *testing.T) {
	for xb := uint(1); xb < 1<<26; xb = xb*5/4 + 1 {
		for _, yb := range []uint{1, xb / 2, xb} {
			for _, g := range []uint{0, heldGrowth} {
				if yb == 0 {
					continue
				}
				pl := planHeadroom(xb, yb, g)
				lg := uint(0)
				for 1<<lg < pl.coeffs() {
					lg++
				}
				if !(2*pl.b+lg+g <= uint(log2M)) {
					t.Errorf("plan %v for %d×%d, headroom %d", pl, xb, yb, g)
				}
				if !(pl.b <= uint(maxPieceBits)) {
					t.Errorf("piece bits %d, want ≤ %d", pl.b, maxPieceBits)
				}
				if !(pl.h == 0 || pl.h == pl.n/2) {
					t.Errorf("plan %v", pl)
				}
				nx, ny := (xb+pl.b-1)/pl.b, (yb+pl.b-1)/pl.b
				if !(int(nx+ny-1) <= pl.coeffs()) {
					t.Errorf("plan %v for %d×%d", pl, xb, yb)
				}
			}
		}
	}
}

func BenchmarkNTT(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, bits := range []int{2e4, 1e5, 1e6, 1e7} {
		x, y := randBitsD(r, bits, false), randBitsD(r, bits, false)
		b.Run(fmt.Sprintf("op=mul/bits=%d/impl=ntt", bits), func(b *testing.B) {
			for b.Loop() {
				nttMul(x.Bits(), y.Bits())
			}
		})
		b.Run(fmt.Sprintf("op=sqr/bits=%d/impl=ntt", bits), func(b *testing.B) {
			for b.Loop() {
				nttMul(x.Bits(), nil)
			}
		})
		b.Run(fmt.Sprintf("op=mul/bits=%d/impl=old", bits), func(b *testing.B) {
			var z big.Int
			for b.Loop() {
				Mul(&z, x, y)
			}
		})
	}
}

// TestMulWrap checks MulWrap against x·y mod 2^N − 1 by math/big, on both
// sides of the crossover, with squares, dense operands and N = minBits.
func TestMulWrap(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	sizes := []int{64, 1000, 64000, 64 * 1100, 64 * 3000}
	if !testing.Short() {
		sizes = append(sizes, 1<<20, 3<<20)
	}
	for _, mb := range sizes {
		for _, frac := range []int{1, 2, 3} {
			for _, dense := range []bool{false, true} {
				x := randBitsD(r, mb-r.IntN(40), dense)
				y := randBitsD(r, max(1, mb/frac-r.IntN(40)), dense)
				for _, yy := range []*big.Int{y, x} {
					z, N := MulWrap(new(big.Int), x, yy, uint(mb))
					if !(N >= uint(mb)) {
						t.Fatalf("N = %d, want ≥ %d", N, mb)
					}
					mod := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), N), big.NewInt(1))
					want := new(big.Int).Mul(x, yy)
					want.Mod(want, mod)
					got := new(big.Int).Mod(z, mod)
					if !(z.Cmp(mod) <= 0) {
						t.Errorf("MulWrap in [0, 2^N−1]: %v > %v", z.Cmp(mod), 0)
					}
					if got.Cmp(want) != 0 {
						t.Errorf("MulWrap %d×%d bits mod 2^%d−1 dense=%v", x.BitLen(), yy.BitLen(), N, dense)
					}
				}
			}
		}
	}
	mustPanic(t, func() { MulWrap(new(big.Int), big.NewInt(-1), big.NewInt(1), 8) })
	mustPanic(t, func() { MulWrap(new(big.Int), big.NewInt(256), big.NewInt(1), 8) })
}

// TestChunked checks the chunked product (the short operand's transform
// reused for every chunk) against math/big, directly at small sizes and
// through Mul at sizes where choose picks it.
func TestChunked(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, sz := range [][2]int{{1, 1}, {200, 3}, {5000, 64}, {9000, 700}, {20000, 1100}} {
		for _, dense := range []bool{false, true} {
			x, y := randBitsD(r, sz[0]*wordBits-r.IntN(30), dense), randBitsD(r, sz[1]*wordBits-r.IntN(30), dense)
			want := new(big.Int).Mul(x, y)
			st, _, _ := choose(len(x.Bits()), len(y.Bits()), false)
			if wordBits == 64 {
				pl, cw, ok := chunkPlan(uint(y.BitLen()))
				if !ok {
					t.Fatalf("chunkPlan(%d bits): none", y.BitLen())
				}
				got := new(big.Int).SetBits(nttMulChunked(x.Bits(), y.Bits(), pl, cw))
				if got.Cmp(want) != 0 {
					t.Errorf("chunked %d×%d words dense=%v", sz[0], sz[1], dense)
				}
			} else if st == byNTT || st == byChunks {
				t.Errorf("choose(%d, %d words) = %v on %d-bit words, which the transform cannot read", sz[0], sz[1], st, wordBits)
			}
			if got := Mul(new(big.Int), x, y).Cmp(want); got != 0 {
				t.Errorf("Mul %d×%d words (strategy %d): got %v, want %v", sz[0], sz[1], st, got, 0)
			}
			if got := Mul(new(big.Int), y, x).Cmp(want); got != 0 {
				t.Errorf("Mul %d×%d words, swapped: got %v, want %v", sz[1], sz[0], got, 0)
			}
		}
	}
	st, _, _ := choose(30000, 300, false)
	if wordBits == 64 && st != byChunks {
		t.Errorf("choose for 30000×300 words: got %v, want %v", st, byChunks)
	}
}

// TestConcurrent multiplies from many goroutines at growing sizes, so that
// the twiddle tables grow while other goroutines read them and buffers
// pass through the pool (run with -race).
func TestConcurrent(t *testing.T) {
	transformOnly(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 17))
			for _, words := range []int{1100, 2100, 4300, 9000} {
				x, y := randBitsD(r, words*64-g, false), randBitsD(r, words*64/(1+g%3), true)
				want := new(big.Int).Mul(x, y)
				if got := new(big.Int).SetBits(nttMul(x.Bits(), y.Bits())); got.Cmp(want) != 0 {
					t.Errorf("goroutine %d: %d×%d bits differs", g, x.BitLen(), y.BitLen())
				}
			}
		})
	}
	wg.Wait()
}

// TestSplitPlan runs products and squares through split plans (length n
// modulo X^n − 1 plus n/2 modulo X^(n/2) − i) with the widest pieces that
// fit, against math/big, including all-ones operands (the largest
// coefficients), and checks that planFor picks split plans at some sizes.
func TestSplitPlan(t *testing.T) {
	transformOnly(t)
	r := rand.New(rand.NewPCG(7, 9))
	sizes := []int{100, 2000, 20000, 90000}
	if !testing.Short() {
		sizes = append(sizes, 700000)
	}
	for _, xb := range sizes {
		for _, yb := range []int{xb / 2, xb} {
			for _, dense := range []bool{false, true} {
				x, y := randBitsD(r, xb, dense), randBitsD(r, yb, dense)
				ones := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(xb)), big.NewInt(1))
				if dense {
					x = ones
				}
				for lg := uint(3); ; lg++ {
					n := uint(1) << lg
					b := min(uint(maxPieceBits), (log2M-lg)/2)
					nx, ny := (uint(xb)+b-1)/b, (uint(yb)+b-1)/b
					if nx+ny-1 > n+n/2 {
						continue
					}
					pl := nttPlan{b: b, n: int(n), h: int(n / 2)}
					got := new(big.Int).SetBits(nttMulPlan(x.Bits(), y.Bits(), pl))
					if got.Cmp(new(big.Int).Mul(x, y)) != 0 {
						t.Errorf("split %v: %d×%d bits dense=%v", pl, xb, yb, dense)
					}
					if xb == yb {
						got = new(big.Int).SetBits(nttMulPlan(x.Bits(), nil, pl))
						if got.Cmp(new(big.Int).Mul(x, x)) != 0 {
							t.Errorf("split %v: square %d bits", pl, xb)
						}
					}
					break
				}
			}
		}
	}
	split := 0
	for xb := uint(1000); xb < 1<<24; xb = xb * 9 / 8 {
		if planFor(xb, xb).h > 0 {
			split++
		}
	}
	if !(split > 0) {
		t.Errorf("planFor never chose a split plan: %v, want > 0", split)
	}
}

// TestInverseTable checks that the inverse transform gives the same
// result with its tabulated factors (transforms up to invTableMax) as
// with factors derived by bit reversals (longer transforms), on every
// stage shape: odd and even log2 n.
func TestInverseTable(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 7))
	for _, q := range primes3 {
		for _, n := range []int{4, 8, 32, 1024, 2048} {
			tw := q.table(n)
			derived := &twiddles{n: tw.n, w: tw.w, wp: tw.wp}
			a := make([]uint64, n)
			for i := range a {
				a[i] = r.Uint64N(2 * q.p)
			}
			b := append([]uint64(nil), a...)
			q.inverse(a, tw)
			q.inverse(b, derived)
			if !slices.Equal(a, b) {
				t.Errorf("p=%d n=%d: got %v, want %v", q.p, n, a, b)
			}
		}
	}
}

// TestSplitCosts checks that planFor weighs the split plans by
// splitCosts: above 1 at n ≤ 512 it keeps the plain plan of length 1024
// for two 500-word operands, below 1 it takes the split 512 + 256.
func TestSplitCosts(t *testing.T) {
	o := splitCosts
	defer func() { splitCosts = o }()
	for _, c := range []struct {
		costs [2]float64
		split bool
	}{{[2]float64{1.12, 0.86}, false}, {[2]float64{0.88, 0.88}, true}} {
		splitCosts = c.costs
		pl := planFor(32000, 32000)
		if got := pl.h > 0; got != c.split {
			t.Errorf("splitCosts %v: planFor(32000, 32000) = %+v, split %v, want %v", c.costs, pl, got, c.split)
		}
	}
}
