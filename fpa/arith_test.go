package fpa

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// tiny is an 8-bit format (4 exponent bits, 3 fraction bits): small enough
// to test every operand pair exhaustively.
var tiny = Format{ExpBits: 4, FracBits: 3}

func allValues(t *testing.T, f Format) []*Float {
	t.Helper()
	var vs []*Float
	for b := uint64(0); b < 1<<f.Width(); b++ {
		x, err := New(f).SetBits(b)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, x)
	}
	return vs
}

// TestExhaustiveTiny checks every operand pair of an 8-bit format, in
// every rounding mode, against the rational oracle: 256² pairs × 4 binary
// ops × 6 modes, and every value for Sqrt.
func TestExhaustiveTiny(t *testing.T) {
	vs := allValues(t, tiny)
	// Under -short every x meets every 31st y (and y = the last value), in
	// every mode: a thirty-first of the work, every code path still reached.
	stride := 1
	if testing.Short() {
		stride = 31
	}
	for _, mode := range allModes {
		z := New(tiny).SetMode(mode)
		for _, op := range []string{"add", "sub", "mul", "quo"} {
			bad := 0
			for _, x := range vs {
				for j, y := range vs {
					if j%stride != 0 && j != len(vs)-1 {
						continue
					}
					want := refOp(op, tiny, mode, x, y)
					apply(op, z, x, y)
					if !want.same(z) && bad < 5 {
						bad++
						t.Errorf("%v %s(%v, %v) = %v; want %v", mode, op, x.Text('x', 0), y.Text('x', 0), z.Text('x', 0), want)
					}
				}
			}
		}
		for _, x := range vs {
			want := refOp("sqrt", tiny, mode, x)
			if z.Sqrt(x); !want.same(z) {
				t.Errorf("%v Sqrt(%v) = %v; want %v", mode, x.Text('x', 0), z.Text('x', 0), want)
			}
		}
	}
}

// TestAccuracyTiny checks Acc against the exact result: Below iff the
// stored finite value is below it.
func TestAccuracyTiny(t *testing.T) {
	vs := allValues(t, tiny)
	stride := 1
	if testing.Short() {
		stride = 7 // as TestExhaustiveTiny: every x against every 7th y
	}
	for _, mode := range allModes {
		z := New(tiny).SetMode(mode)
		for _, x := range vs {
			for j, y := range vs {
				if j%stride != 0 && j != len(vs)-1 {
					continue
				}
				if !x.IsFinite() || !y.IsFinite() || x.IsZero() || y.IsZero() {
					continue
				}
				z.Mul(x, y)
				exact := new(big.Rat).Mul(ratOf(x), ratOf(y))
				var c int
				switch {
				case z.IsInf() && z.neg:
					c = -1
				case z.IsInf():
					c = 1
				default:
					c = ratOf(z).Cmp(exact)
				}
				want := map[int]big.Accuracy{-1: big.Below, 0: big.Exact, 1: big.Above}[c]
				if z.Acc() != want {
					t.Fatalf("%v Mul(%v, %v) = %v acc %v; want %v", mode, x.Text('x', 0), y.Text('x', 0), z.Text('x', 0), z.Acc(), want)
				}
			}
		}
	}
}

// randFloat64 draws operands that reach every corner: random bit patterns
// (all exponents, subnormals, Inf, NaN), small integers, and values near
// a given one for cancellation.
func randFloat64(r *rand.Rand, near float64) float64 {
	switch r.IntN(8) {
	case 0:
		return math.Float64frombits(r.Uint64())
	case 1: // subnormal or tiny
		return math.Float64frombits(r.Uint64() & (1<<63 | 1<<54 - 1))
	case 2: // near overflow
		return math.Float64frombits(r.Uint64()&(1<<63|1<<52-1) | uint64(0x7fe-r.IntN(3))<<52)
	case 3:
		return float64(r.IntN(2001) - 1000)
	case 4: // a few ulps from near, or from −near
		v := math.Float64bits(near) + uint64(r.IntN(9)) - 4
		if r.IntN(2) == 0 {
			v ^= 1 << 63
		}
		return math.Float64frombits(v)
	case 5:
		return [...]float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, math.MaxFloat64, math.SmallestNonzeroFloat64}[r.IntN(9)]
	default: // moderate exponents
		return math.Ldexp(r.Float64()+0.5, r.IntN(200)-100) * float64(1-2*r.IntN(2))
	}
}

func sameFloat64(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}

// hwCount is the number of random operand tuples per op in the hardware
// comparisons (10^5; the long check behind -long runs 10^7).
func hwCount(t *testing.T) int {
	if testing.Short() {
		return 20_000
	}
	if *long {
		return 10_000_000
	}
	return 100_000
}

// TestBinary64Hardware: every op equals float64 hardware arithmetic bit for
// bit (FMA: math.FMA) on random operands, subnormals, overflow, underflow,
// signed zeros, Inf and NaN included (round to nearest-even: the only mode
// Go can run the hardware in).
func TestBinary64Hardware(t *testing.T) {
	r := testrand.New(t)
	ops := []struct {
		name string
		hw   func(a, b, c float64) float64
	}{
		{"add", func(a, b, _ float64) float64 { return a + b }},
		{"sub", func(a, b, _ float64) float64 { return a - b }},
		{"mul", func(a, b, _ float64) float64 { return a * b }},
		{"quo", func(a, b, _ float64) float64 { return a / b }},
		{"sqrt", func(a, _, _ float64) float64 { return math.Sqrt(a) }},
		{"fma", math.FMA},
	}
	n := hwCount(t)
	x, y, w, z := New(Binary64), New(Binary64), New(Binary64), New(Binary64)
	for _, op := range ops {
		bad := 0
		for range n {
			a := randFloat64(r, 1)
			b := randFloat64(r, a)
			c := randFloat64(r, a*b)
			want := op.hw(a, b, c)
			x.SetFloat64(a)
			y.SetFloat64(b)
			w.SetFloat64(c)
			apply(op.name, z, x, y, w)
			got, _ := z.Float64()
			if !sameFloat64(got, want) && bad < 5 {
				bad++
				t.Errorf("%s(%x, %x, %x) = %x; want %x", op.name, a, b, c, got, want)
			}
		}
	}
}

// TestBinary32Hardware: the same against float32 hardware arithmetic. Go
// has no float32 FMA, so FMA is checked against the rational oracle.
func TestBinary32Hardware(t *testing.T) {
	r := testrand.New(t)
	ops := []struct {
		name string
		hw   func(a, b float32) float32
	}{
		{"add", func(a, b float32) float32 { return a + b }},
		{"sub", func(a, b float32) float32 { return a - b }},
		{"mul", func(a, b float32) float32 { return a * b }},
		{"quo", func(a, b float32) float32 { return a / b }},
		// float64 has 53 ≥ 2·24+2 bits, so rounding √ twice is exact [Fig95].
		{"sqrt", func(a, _ float32) float32 { return float32(math.Sqrt(float64(a))) }},
	}
	n := hwCount(t)
	x, y, w, z := New(Binary32), New(Binary32), New(Binary32), New(Binary32)
	rand32 := func(near float32) float32 {
		if r.IntN(4) == 0 {
			v := math.Float32bits(near) + uint32(r.IntN(9)) - 4
			return math.Float32frombits(v ^ uint32(r.IntN(2))<<31)
		}
		return math.Float32frombits(r.Uint32())
	}
	for _, op := range ops {
		bad := 0
		for range n {
			a := rand32(1)
			b := rand32(a)
			want := op.hw(a, b)
			x.SetFloat32(a)
			y.SetFloat32(b)
			apply(op.name, z, x, y)
			got, _ := z.Float32()
			if !sameFloat64(float64(got), float64(want)) && bad < 5 {
				bad++
				t.Errorf("%s(%x, %x) = %x; want %x", op.name, a, b, got, want)
			}
		}
	}
	for range min(n, 100_000) {
		a, b := rand32(1), rand32(1)
		c := rand32(a * b)
		x.SetFloat32(a)
		y.SetFloat32(b)
		w.SetFloat32(c)
		want := refOp("fma", Binary32, ToNearestEven, x, y, w)
		if z.FMA(x, y, w); !want.same(z) {
			t.Fatalf("fma32(%x, %x, %x) = %v; want %v", a, b, c, z.Text('x', 0), want)
		}
	}
}

// TestOracleFormats runs random operands of several formats, wide and
// narrow, small-path and big-path, in every mode, against the oracle.
func TestOracleFormats(t *testing.T) {
	r := testrand.New(t)
	formats := []Format{Binary16, BFloat16, {ExpBits: 3, FracBits: 5}, {ExpBits: 6, FracBits: 62},
		{ExpBits: 7, FracBits: 63}, {ExpBits: 9, FracBits: 64}, {ExpBits: 12, FracBits: 100}, Binary128, {ExpBits: 5, FracBits: 300}}
	n := 600
	if testing.Short() {
		n = 25 // 25 × 6 ops × 5 modes per format; the full run draws 600
	}
	for _, f := range formats {
		r := rand.New(rand.NewPCG(r.Uint64(), r.Uint64()))
		t.Run(f.String(), func(t *testing.T) {
			t.Parallel()
			for _, mode := range allModes {
				z := New(f).SetMode(mode)
				for _, op := range []string{"add", "sub", "mul", "quo", "sqrt", "fma"} {
					for range n {
						xs := []*Float{randIn(r, f), randIn(r, f), randIn(r, f)}
						if r.IntN(3) == 0 { // cancellation: y close to ±x
							xs[1].Set(xs[0])
							xs[1].nudge(r)
						}
						want := refOp(op, f, mode, xs...)
						if apply(op, z, xs...); !want.same(z) {
							t.Fatalf("%v %s(%v, %v, %v) = %v; want %v", mode, op, xs[0].Text('x', 0), xs[1].Text('x', 0), xs[2].Text('x', 0), z.Text('x', 0), want)
						}
					}
				}
			}
		})
	}
}

// randIn draws a value of f: random sign, exponent over the whole range
// (subnormals included), random significand, and the specials.
func randIn(r *rand.Rand, f Format) *Float {
	x := New(f)
	switch r.IntN(20) {
	case 0:
		return x.SetZero(r.IntN(2) == 0)
	case 1:
		return x.SetInf(r.IntN(2) == 0)
	case 2:
		return x.SetNaN()
	}
	p := int64(f.Prec())
	m := new(big.Int).Rand(r2(r), new(big.Int).Lsh(big.NewInt(1), uint(p)))
	if m.Sign() == 0 {
		m.SetInt64(1)
	}
	e := f.Emin() - p + 1 + r.Int64N(f.Emax()-f.Emin()+p+1)
	if r.IntN(3) == 0 {
		e = r.Int64N(2*p) - p // near 1, where sums cancel
	}
	x.roundBig(r.IntN(2) == 0, m, e, false)
	return x
}

// nudge moves x by a few units in its last place, maybe flipping its sign.
func (x *Float) nudge(r *rand.Rand) {
	if x.form != finite {
		return
	}
	m := x.mantBig(new(big.Int))
	m.Add(m, big.NewInt(int64(r.IntN(9)-4)))
	neg := x.neg != (r.IntN(2) == 0)
	if m.Sign() <= 0 {
		x.SetZero(neg)
		return
	}
	x.roundBig(neg, m, x.exp, false)
}
