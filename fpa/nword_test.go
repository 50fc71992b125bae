package fpa

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// nwFormats are formats of the n-word paths: the narrowest and widest
// (127 and 2,048 bits), m = 1,000, one that ends on a word boundary, and
// narrow exponent ranges where subnormals and overflow are common.
var nwFormats = []Format{
	{ExpBits: 15, FracBits: 126},
	{ExpBits: 20, FracBits: 1000},
	{ExpBits: 11, FracBits: 2047},
	{ExpBits: 4, FracBits: 191},
	{ExpBits: 3, FracBits: 300},
}

// nwOnly skips t on 32-bit words: the n-word paths and their kernels
// read big.Words as 64-bit ones, and Format.nw turns them off there
// (TestNWOff checks).
func nwOnly(t *testing.T) {
	t.Helper()
	if bits.UintSize != 64 {
		t.Skip("the n-word paths run on 64-bit words only")
	}
}

// TestNWOff checks that the n-word paths are on for nwFormats with
// 64-bit words and off with 32-bit ones, whose words their kernels would
// misread: there those formats take the big.Int paths, which
// TestOracleFormats (e5m300) checks against the oracle.
func TestNWOff(t *testing.T) {
	for _, f := range nwFormats {
		if got, want := f.nw(), bits.UintSize == 64; got != want {
			t.Errorf("%v.nw() = %v with %d-bit words, want %v", f, got, bits.UintSize, want)
		}
	}
}

// randEdgeN is randEdge2 for the n-word formats, with exponents also
// drawn near ref's (when ref is finite), so that the operands lie a word
// or so apart, around the add window's 64-bit guard.
func randEdgeN(r *rand.Rand, f Format, ref *Float) *Float {
	p := int64(f.Prec())
	bitsN := p
	switch r.IntN(4) {
	case 0:
		bitsN = 1 + r.Int64N(8)
	case 1:
		bitsN = 1 + r.Int64N(p)
	}
	m := new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(bitsN)))
	m.SetBit(m, int(bitsN-1), 1)
	if r.IntN(4) == 0 { // runs of ones: carries through every word
		m.Sub(new(big.Int).Lsh(bigOne, uint(bitsN)), bigOne)
		m.Rsh(m, uint(r.IntN(3)))
		m.SetBit(m, int(bitsN-1), 1)
	}
	var E int64
	switch r.IntN(4) {
	case 0:
		E = r.Int64N(9) - 4
	case 1:
		E = r.Int64N(601) - 300
	case 2:
		E = f.Emin() - p + r.Int64N(f.Emax()-f.Emin()+p+1)
	default:
		E = r.Int64N(9) - 4
		if ref != nil && ref.form == finite {
			E = ref.exp + int64(ref.mantLen()) - 1 - r.Int64N(p+140) + 4
		}
	}
	x := New(f)
	x.roundBig(r.IntN(2) == 0, m, E-(bitsN-1), false)
	if x.form != finite {
		x.SetFloat64(1)
	}
	return x
}

// TestRoundW checks roundW against roundBig on random integers of 1 to
// 40 words at exponents from below the subnormals to past Emax, with and
// without a sticky bit, in every mode, value and Acc.
func TestRoundW(t *testing.T) {
	nwOnly(t)
	r := testrand.New(t)
	n := 20_000
	if testing.Short() {
		n = 1500
	}
	for _, f := range nwFormats {
		p := int64(f.Prec())
		for i := range n {
			mode := allModes[i%len(allModes)]
			got, want := New(f).SetMode(mode), New(f).SetMode(mode)
			L := 1 + r.Int64N(40*64)
			R := new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(L)))
			R.SetBit(R, int(L-1), 1)
			if r.IntN(3) == 0 { // a tie or a carry: ones or zeros below the last kept bit
				k := uint(r.Int64N(L))
				R.Rsh(R, k).Lsh(R, k)
				if r.IntN(2) == 0 {
					R.Or(R, new(big.Int).Sub(new(big.Int).Lsh(bigOne, k), bigOne))
				}
			}
			sticky := L > p && r.IntN(3) == 0
			E := f.Emin() - p - 3 + r.Int64N(f.Emax()-f.Emin()+p+8)
			if r.IntN(2) == 0 {
				E = f.Emin() - p - 3 + r.Int64N(2*p+6) // the subnormal range
			}
			e := E - (L - 1)
			neg := r.IntN(2) == 0
			words := append([]big.Word(nil), R.Bits()...)
			words = append(words, 0, 0) // zero top words are allowed
			got.roundW(neg, words, e, sticky)
			want.roundBig(neg, new(big.Int).Set(R), e, sticky)
			if !sameFloat(got, want) {
				t.Fatalf("%v %v roundW(%v, %x·2^%d, %v) = %v (%v); roundBig %v (%v)", f, mode, neg, R, e, sticky,
					got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
			}
		}
	}
}

// sameFloat reports whether x and y hold the same value, sign, form and
// Acc.
func sameFloat(x, y *Float) bool {
	return x.form == y.form && x.Signbit() == y.Signbit() && x.acc == y.acc && (x.form != finite || x.Cmp(y) == 0)
}

// TestNWPathsMatchBig checks the n-word paths against the big.Int paths,
// value and Acc, in every mode, on operands built to hit ties,
// cancellation, the window's guard word, subnormals and overflow, with z
// aliasing an operand half of the time.
func TestNWPathsMatchBig(t *testing.T) {
	nwOnly(t)
	r := testrand.New(t)
	n := 2000
	if testing.Short() {
		n = 150
	}
	for _, f := range nwFormats {
		for _, mode := range allModes {
			want := New(f).SetMode(mode)
			reused := New(f).SetMode(mode)
			for range n {
				x := randEdgeN(r, f, nil)
				y := randEdgeN(r, f, x)
				if r.IntN(4) == 0 { // y ≈ ±x: cancellation, exact zeros
					y.Set(x)
					y.nudge(r)
					if y.form != finite {
						y.SetFloat64(1)
					}
				}
				yneg := r.IntN(2) == 0
				// z is a fresh Float (no words yet), a reused one, x or y.
				got := New(f).SetMode(mode)
				xs, ys := new(Float).Set(x), new(Float).Set(y)
				switch r.IntN(4) {
				case 1:
					got = reused.SetMode(mode)
				case 2:
					got = xs.SetMode(mode)
				case 3:
					got = ys.SetMode(mode)
				}
				got.addW(xs.neg, xs.hi.Bits(), xs.exp, yneg, ys.hi.Bits(), ys.exp)
				want.addBig(x, yneg, y)
				if !sameFloat(got, want) {
					t.Fatalf("%v %v add(%v, %v·%v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), yneg, y.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
				xs.Set(x)
				ys.Set(y)
				got.quoW(yneg, xs, ys)
				sc := getScratch()
				want.quoScratch(sc, yneg, x.mantRef(&sc.d), x.exp, y.mantRef(&sc.e), y.exp)
				putScratch(sc)
				if !sameFloat(got, want) {
					t.Fatalf("%v %v quo(%v, %v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), y.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
				xs.Set(x)
				got.sqrtW(xs)
				want.sqrtBig(x)
				if !sameFloat(got, want) {
					t.Fatalf("%v %v sqrt(%v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
				xs.Set(x)
				ys.Set(y)
				got.mulW(yneg, xs, ys)
				want.mulBig(yneg, x, y)
				if !sameFloat(got, want) {
					t.Fatalf("%v %v mul(%v, %v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), y.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
			}
		}
	}
}

// TestNWPathsAllocs: after a first result in z, the n-word paths do not
// allocate.
func TestNWPathsAllocs(t *testing.T) {
	r := testrand.New(t)
	f := Format{ExpBits: 20, FracBits: 1000}
	x, y := randEdgeN(r, f, nil), randEdgeN(r, f, nil)
	x.neg = false
	z := New(f)
	for name, op := range map[string]func(){
		"add":         func() { z.Add(x, y) },
		"sub":         func() { z.Sub(x, y) },
		"mul":         func() { z.Mul(x, y) },
		"mul aliased": func() { z.Set(x).Mul(z, y) },
		"sqrt":        func() { z.Sqrt(x) },
		"quo":         func() { z.Quo(x, y) },
	} {
		op()
		if a := testing.AllocsPerRun(100, op); a != 0 {
			t.Errorf("%s: %v allocations per op", name, a)
		}
	}
}

// FuzzNWord runs the n-word paths (Add, Sub, Mul, Quo, Sqrt; FMA on its
// big.Int path) of m = 1,000 and of a 192-bit format with a 4-bit
// exponent (subnormals, overflow) against the rational oracle, and their
// Acc against the big.Int paths'. Each operand's significand repeats two
// fuzzed words over the precision, cut short for ties and exact results;
// special selects ±0, ±Inf and NaN operands.
func FuzzNWord(f *testing.F) {
	f.Add(uint64(1), uint64(0), int16(0), uint64(3), uint64(0), int16(0), uint8(0), uint8(0), uint8(0), uint8(0))
	f.Add(^uint64(0), ^uint64(0), int16(-30), uint64(1), uint64(1<<63), int16(100), uint8(3), uint8(4), uint8(1), uint8(0))
	f.Add(uint64(1<<63), uint64(0), int16(64), uint64(1<<63), uint64(1), int16(0), uint8(1), uint8(2), uint8(6), uint8(9))
	f.Fuzz(func(t *testing.T, a1, a2 uint64, ea int16, b1, b2 uint64, eb int16, op, mode, shape, special uint8) {
		fm := []Format{{ExpBits: 20, FracBits: 1000}, {ExpBits: 4, FracBits: 191}}[shape&1]
		md := RoundingMode(mode % 6)
		name := []string{"add", "sub", "mul", "quo", "sqrt", "fma"}[op%6]
		p := int(fm.Prec())
		mk := func(h, l uint64, e int16, cut uint8, sp uint8) *Float {
			x := New(fm)
			switch sp % 8 {
			case 1:
				return x.SetZero(h&1 != 0)
			case 2:
				return x.SetInf(h&1 != 0)
			case 3:
				return x.SetNaN()
			}
			w := make([]big.Word, (p+63)/64)
			for i := range w {
				w[i] = big.Word(l)
				if i%2 == 1 {
					w[i] = big.Word(h)
				}
			}
			m := new(big.Int).SetBits(w)
			m.Rsh(m, uint(len(w)*64-p)+uint(cut)%uint(p))
			if m.Sign() == 0 {
				return x.SetZero(h&1 != 0)
			}
			x.roundBig(l&1 != 0, m, int64(e)-int64(m.BitLen()), false)
			return x
		}
		x := mk(a1, a2, ea, shape>>1, special)
		y := mk(b1, b2, eb, shape>>4, special>>3)
		w := mk(a2, b1, ea/2+eb/2, shape>>6, special>>6)
		want := refOp(name, fm, md, x, y, w)
		z := apply(name, New(fm).SetMode(md), x, y, w)
		if !want.same(z) {
			t.Fatalf("%v %v %s(%v, %v, %v) = %v; want %v", fm, md, name, x.Text('x', -1), y.Text('x', -1), w.Text('x', -1), z.Text('x', -1), want)
		}
		if x.form != finite || y.form != finite {
			return
		}
		slow := New(fm).SetMode(md)
		switch name {
		case "add":
			slow.addBig(x, y.neg, y)
		case "sub":
			slow.addBig(x, !y.neg, y)
		case "mul":
			slow.mulBig(x.neg != y.neg, x, y)
		case "quo":
			slow.quoInts(x.neg != y.neg, &x.hi, x.exp, &y.hi, y.exp)
		case "sqrt":
			if x.neg {
				return
			}
			slow.sqrtBig(x)
		default:
			return
		}
		if !sameFloat(z, slow) {
			t.Fatalf("%v %v %s(%v, %v) = %v (%v); big.Int path %v (%v)", fm, md, name, x.Text('x', -1), y.Text('x', -1), z.Text('x', -1), z.acc, slow.Text('x', -1), slow.acc)
		}
	})
}
