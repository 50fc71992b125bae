package bigmul

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/cputime"
)

// forceShort makes MulHigh take mulShort from one word, with the
// schoolbook rows below base words and the split fraction split/64, until
// the returned function restores the thresholds.
func forceShort(base, split int) func() {
	m, b, bs, s, ss := shortMinWords, shortBaseWords, shortSqrBaseWords, shortSplit, shortSqrSplit
	shortMinWords, shortBaseWords, shortSqrBaseWords, shortSplit, shortSqrSplit = 1, base, base, split, split
	return func() {
		shortMinWords, shortBaseWords, shortSqrBaseWords, shortSplit, shortSqrSplit = m, b, bs, s, ss
	}
}

// checkHigh fails t unless z = MulHigh(x, y, sh) meets its contract:
// 0 ≤ |x·y|/2^sh − |z| < 1 + 2^−32 with the sign of x·y, i.e. z is
// |x·y| >> sh, or one less when |x·y| mod 2^sh < 2^(sh−32).
func checkHigh(t *testing.T, z, x, y *big.Int, sh uint, what string) {
	t.Helper()
	p := new(big.Int).Mul(x, y)
	want := new(big.Int).Rsh(new(big.Int).Abs(p), sh)
	d := new(big.Int).Sub(want, new(big.Int).Abs(z))
	if p.Sign() != 0 && z.Sign() != 0 && p.Sign() != z.Sign() {
		t.Fatalf("%s: sign of z %d, of x·y %d", what, z.Sign(), p.Sign())
	}
	switch d.Sign() {
	case 0:
		return
	case -1:
		t.Fatalf("%s: z above |x·y| >> %d by %v", what, sh, new(big.Int).Neg(d))
	}
	frac := new(big.Int).Abs(p)
	lowBitsInPlace(frac, sh)
	if d.Cmp(big.NewInt(1)) != 0 || sh < 32 || frac.BitLen() > int(sh-32) {
		t.Fatalf("%s: z below |x·y| >> %d by %v with the fraction %d bits long", what, sh, d, frac.BitLen())
	}
}

// randShortOperand returns a random operand of n words: random words,
// all ones (the largest pairs, the bound's worst case) or sparse.
func randShortOperand(r *rand.Rand, n int) *big.Int {
	w := make([]big.Word, n)
	kind := r.IntN(4)
	for i := range w {
		switch kind {
		case 0:
			w[i] = ^big.Word(0)
		case 1:
			if r.IntN(8) == 0 {
				w[i] = big.Word(r.Uint64())
			}
		default:
			w[i] = big.Word(r.Uint64())
		}
	}
	w[n-1] |= 1
	return new(big.Int).SetBits(w)
}

// TestMulHigh checks MulHigh's contract against the exact product over
// balanced, unbalanced and square operands of 1 to 700 words, shifts
// around the words' boundaries, signs and aliasing, on the shipped
// thresholds and with mulShort forced from one word under several
// schoolbook sizes and splits (the recursion at every depth).
func TestMulHigh(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 1))
	type cfg struct{ base, split int }
	cfgs := []cfg{{-1, 0}, {2, 20}, {8, 32}, {16, 10}, {40, 20}, {1 << 20, 20}}
	sizes := []int{1, 2, 3, 5, 8, 17, 40, 41, 64, 100, 157, 250, 470, 700}
	if testing.Short() {
		sizes = sizes[:11]
	}
	for _, c := range cfgs {
		restore := func() {}
		if c.base >= 0 {
			restore = forceShort(c.base, c.split)
		}
		for _, nx := range sizes {
			for _, ny := range []int{nx, max(1, nx/2), max(1, nx/3), max(1, nx-1), nx/5 + 1} {
				x, y := randShortOperand(r, nx), randShortOperand(r, ny)
				if r.IntN(3) == 0 {
					x.Neg(x)
				}
				tot := uint(nx+ny) * bits.UintSize
				for _, sh := range []uint{0, 1, 31, 64, 2 * bits.UintSize, tot / 2, tot/2 + 1, tot/2 - 5,
					tot / 3, 2 * tot / 3, 3 * tot / 4, tot - 64, tot, tot + 3, uint(r.IntN(int(tot) + 1))} {
					what := fmt.Sprintf("cfg %v, %d×%d words, sh %d", c, nx, ny, sh)
					checkHigh(t, MulHigh(new(big.Int), x, y, sh), x, y, sh, what)
					if ny == nx {
						checkHigh(t, MulHigh(new(big.Int), x, x, sh), x, x, sh, what+" square")
					}
				}
				// Aliasing: z is x, then z is y.
				sh := tot / 2
				want := MulHigh(new(big.Int), x, y, sh)
				z := new(big.Int).Set(x)
				if MulHigh(z, z, y, sh).Cmp(want) != 0 {
					t.Fatalf("cfg %v, %d×%d: z = x aliased differs", c, nx, ny)
				}
				z.Set(y)
				if MulHigh(z, x, z, sh).Cmp(want) != 0 {
					t.Fatalf("cfg %v, %d×%d: z = y aliased differs", c, nx, ny)
				}
			}
		}
		restore()
	}
	if MulHigh(new(big.Int), new(big.Int), big.NewInt(5), 3).Sign() != 0 {
		t.Error("MulHigh by zero")
	}
}

// TestMulShortPairs checks mulShort's exact claim, on which the bound
// rests: Σ_{i+j≥c} x_i·y_j·β^(i+j) ≤ T ≤ x·y for every cutoff c (the low
// pairs by a direct sum), with the schoolbook rows and Mulders' step
// forced at small sizes; it fails if a piece misses a pair.
func TestMulShortPairs(t *testing.T) {
	defer forceShort(4, 20)()
	r := rand.New(rand.NewPCG(34, 2))
	s := getArena(1 << 16)
	defer arenaPool.Put(s)
	for range 300 {
		nx := 1 + r.IntN(90)
		ny := 1 + r.IntN(nx)
		sq := ny == nx && r.IntN(2) == 0
		x, y := randShortOperand(r, nx), randShortOperand(r, ny)
		if sq {
			y = x
		}
		xw, yw := x.Bits(), y.Bits()
		c := r.IntN(nx + ny)
		z := make([]big.Word, nx+ny)
		s.off = 0
		s.mulShort(z, xw, yw, c, sq)
		T := new(big.Int).SetBits(z)
		P := new(big.Int).Mul(x, y)
		// low = Σ_{i+j<c} x_i·y_j·β^(i+j) = Σ_{i<c} x_i·(y mod β^(c−i))·β^i.
		low := new(big.Int)
		var xi, ym big.Int
		for i := 0; i < min(c, nx); i++ {
			xi.SetUint64(uint64(xw[i]))
			ym.SetBits(yw[:min(c-i, ny)])
			xi.Mul(&xi, &ym)
			low.Add(low, xi.Lsh(&xi, uint(i)*bits.UintSize))
		}
		need := new(big.Int).Sub(P, low)
		if T.Cmp(P) > 0 || T.Cmp(need) < 0 {
			t.Fatalf("%d×%d words (square %v), cutoff %d: T outside [Σ_{i+j≥c}, x·y]", nx, ny, sq, c)
		}
	}
}

// FuzzMulHigh checks MulHigh's contract on arbitrary operands and shifts,
// with mulShort forced from one word.
func FuzzMulHigh(f *testing.F) {
	f.Add([]byte{1, 2, 3}, []byte{4, 5}, uint16(8), false)
	f.Add(make([]byte, 300), []byte{255, 255, 255, 255, 255, 255, 255, 255, 255}, uint16(700), true)
	f.Fuzz(func(t *testing.T, xb, yb []byte, sh uint16, neg bool) {
		defer forceShort(3, 20)()
		x, y := new(big.Int).SetBytes(xb), new(big.Int).SetBytes(yb)
		if neg {
			x.Neg(x)
		}
		checkHigh(t, MulHigh(new(big.Int), x, y, uint(sh)), x, y, uint(sh), "fuzz")
		checkHigh(t, MulHigh(new(big.Int), x, x, uint(sh)), x, x, uint(sh), "fuzz square")
	})
}

// BenchmarkMulHigh times MulHigh against Mul followed by the shift on
// the same operands, alternated in every repetition: balanced top halves
// (sh = the operands' length) and squares at 10^4–3·10^4 bits and around,
// and the shapes of apa's fixed-point powers (the product of two powers
// of a W-bit value, shifted by W). It reports the median CPU time of
// each and their ratio short ÷ full.
func BenchmarkMulHigh(b *testing.B) {
	r := rand.New(rand.NewPCG(34, 3))
	type shape struct {
		nx, ny int
		sq     bool
		sh     int // words
	}
	var shapes []shape
	for _, n := range []int{12, 24, 40, 80, 157, 250, 350, 470, 550, 700, 850, 1000, 1600} {
		shapes = append(shapes, shape{n, n, false, n}, shape{n, n, true, n})
	}
	shapes = append(shapes, shape{131, 131, true, 157}, shape{400, 380, false, 470})
	for _, s := range shapes {
		x, y := randInt(r, s.nx), randInt(r, s.ny)
		if s.sq {
			y = x
		}
		sh := uint(s.sh) * 64
		name := fmt.Sprintf("x=%d/y=%d/sh=%d", s.nx, s.ny, s.sh)
		if s.sq {
			name = fmt.Sprintf("sqr=%d/sh=%d", s.nx, s.sh)
		}
		reps := max(1, 2000000/(s.nx*s.ny))
		b.Run(name, func(b *testing.B) {
			var z big.Int
			var th, tf []float64
			for b.Loop() {
				c0 := int64(cputime.Now())
				for range reps {
					MulHigh(&z, x, y, sh)
				}
				c1 := int64(cputime.Now())
				for range reps {
					Mul(&z, x, y)
					z.Rsh(&z, sh)
				}
				c2 := int64(cputime.Now())
				th, tf = append(th, float64(c1-c0)/float64(reps)), append(tf, float64(c2-c1)/float64(reps))
			}
			slices.Sort(th)
			slices.Sort(tf)
			b.ReportMetric(th[len(th)/2]/1e3, "short-cpu-us")
			b.ReportMetric(tf[len(tf)/2]/1e3, "full-cpu-us")
			b.ReportMetric(th[len(th)/2]/tf[len(tf)/2], "short/full")
		})
	}
}
