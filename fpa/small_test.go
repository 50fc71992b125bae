package fpa

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// smallFormats are formats whose significands fit a uint64: the IEEE ones,
// the widest (Prec 63, 64, where sqrtSmall stops and round128 must hold a
// full word), and narrow exponent ranges where results often land in the
// subnormals or overflow.
var smallFormats = []Format{Binary32, Binary64, {ExpBits: 6, FracBits: 61}, {ExpBits: 6, FracBits: 62},
	{ExpBits: 7, FracBits: 63}, {ExpBits: 4, FracBits: 20}, {ExpBits: 3, FracBits: 52}}

// randEdge draws a finite nonzero value of f built to hit the fast paths'
// corners: full or short (1..8-bit) significands, whose products and sums
// land exactly on ties; exponents near 0 (cancellation), spread by up to
// 200 bits (the 192-bit window's edge), or anywhere in range (subnormals,
// overflow).
func randEdge(r *rand.Rand, f Format) *Float {
	p := int64(f.Prec())
	bitsN := p
	if r.IntN(2) == 0 {
		bitsN = 1 + r.Int64N(min(p, 8))
	}
	m := r.Uint64() >> (64 - bitsN)
	m |= 1 << (bitsN - 1)
	var E int64
	switch r.IntN(3) {
	case 0:
		E = r.Int64N(9) - 4
	case 1:
		E = r.Int64N(401) - 200
	default:
		E = f.Emin() - p + r.Int64N(f.Emax()-f.Emin()+p+1)
	}
	x := New(f)
	x.round128(r.IntN(2) == 0, 0, m, E-(bitsN-1), false)
	if x.form != finite {
		x.SetFloat64(1)
	}
	return x
}

// TestSmallPathsMatchBig checks sqrtSmall and fmaSmall against the
// big.Int paths they replace, value and Acc, in every mode, on operands
// built to hit ties, cancellation, the window's edge, subnormals and
// overflow; TestBinary64Hardware, TestBinary32Hardware and
// TestOracleFormats check the same paths against the hardware and the
// rational oracle.
func TestSmallPathsMatchBig(t *testing.T) {
	r := testrand.New(t)
	n := 4000
	if testing.Short() {
		n = 800
	}
	for _, f := range smallFormats {
		for _, mode := range allModes {
			got, want := New(f).SetMode(mode), New(f).SetMode(mode)
			for range n {
				x, y, w := randEdge(r, f), randEdge(r, f), randEdge(r, f)
				switch r.IntN(4) {
				case 0: // w ≈ −x·y: deep cancellation, exact zeros
					w.Mul(x, y)
					w.nudge(r)
					if w.form != finite {
						w.SetFloat64(1)
					}
				case 1: // w = −x·y truncated: exact ties and halfway cases
					w.SetMode(ToZero).Mul(x, y)
					w.SetMode(ToNearestEven)
					if w.form != finite {
						w.SetFloat64(1)
					}
					w.neg = !w.neg
				}
				pneg := x.neg != y.neg
				got.fmaSmall(pneg, x.lo, y.lo, x.exp+y.exp, w.neg, w.lo, w.exp)
				want.fmaBig(pneg, x, y, w)
				if got.Cmp(want) != 0 || got.Signbit() != want.Signbit() || got.form != want.form || got.acc != want.acc {
					t.Fatalf("%v %v fma(%v, %v, %v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), y.Text('x', -1), w.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
				if f.Prec() > sqrtPrecMax {
					continue
				}
				x.neg = false
				got.sqrtSmall(x.lo, x.exp)
				want.sqrtBig(x)
				if got.Cmp(want) != 0 || got.form != want.form || got.acc != want.acc {
					t.Fatalf("%v %v sqrt(%v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
			}
		}
	}
}

// TestSmallPathsAllocs: the fixed-width paths allocate nothing.
func TestSmallPathsAllocs(t *testing.T) {
	for _, f := range []Format{Binary32, Binary64} {
		x, y, w, z := New(f).SetFloat64(1.7), New(f).SetFloat64(-2.3), New(f).SetFloat64(0.1), New(f)
		ops := map[string]func(){
			"add":  func() { z.Add(x, y) },
			"sub":  func() { z.Sub(x, y) },
			"mul":  func() { z.Mul(x, y) },
			"quo":  func() { z.Quo(x, y) },
			"sqrt": func() { z.Sqrt(x) },
			"fma":  func() { z.FMA(x, y, w) },
		}
		for name, op := range ops {
			if a := testing.AllocsPerRun(100, op); a != 0 {
				t.Errorf("%v %s: %v allocations per call, want 0", f, name, a)
			}
		}
	}
}

// TestWidePathsAllocs: the big.Int paths of binary128 and a 1,000-bit
// format reuse pooled scratch integers and the result's words: after a
// warm-up call, Add, Sub, Mul, Quo, Sqrt and FMA allocate nothing.
func TestWidePathsAllocs(t *testing.T) {
	for _, f := range []Format{Binary128, {ExpBits: 20, FracBits: 1000}} {
		x, y, w, z := New(f), New(f), New(f), New(f)
		x.Quo(New(f).SetFloat64(1), New(f).SetFloat64(3))
		y.Sqrt(New(f).SetFloat64(2))
		w.Quo(New(f).SetFloat64(-5), New(f).SetFloat64(7))
		ops := map[string]func(){
			"add":  func() { z.Add(x, y) },
			"sub":  func() { z.Sub(x, y) },
			"mul":  func() { z.Mul(x, y) },
			"quo":  func() { z.Quo(x, y) },
			"fma":  func() { z.FMA(x, y, w) },
			"sqrt": func() { z.Sqrt(x) },
		}
		for name, op := range ops {
			op()
			if a := testing.AllocsPerRun(100, op); a != 0 {
				t.Errorf("%v %s: %v allocations per call, want 0", f, name, a)
			}
		}
	}
}

// TestIsqrt checks isqrt and isqrtRec against big.Int.Sqrt on random
// integers of 104 to 20,000 bits, squares and their neighbours included.
func TestIsqrt(t *testing.T) {
	r := testrand.New(t)
	var got, q, tt, u big.Int
	n := 3000
	if testing.Short() {
		n = 1000 // still two of the 200,000-bit radicands and a hundred of 20,000 bits
	}
	for i := range n {
		n := 104 + r.IntN(300)
		if i%10 == 0 {
			n = 104 + r.IntN(20000)
		}
		if i%600 == 0 {
			n = 200_000 + r.IntN(64) // m = 100,000's radicands
		}
		M := new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(n)))
		M.SetBit(M, n-1, 1)
		switch i % 3 {
		case 1: // a square
			s := new(big.Int).Sqrt(M)
			M.Mul(s, s)
		case 2: // a square minus one
			s := new(big.Int).Sqrt(M)
			M.Mul(s, s).Sub(M, bigOne)
		}
		if M.BitLen() < 104 {
			continue
		}
		want := new(big.Int).Sqrt(M)
		if isqrt(&got, M, &q, &tt, &u); got.Cmp(want) != 0 {
			t.Fatalf("isqrt(%v) = %v, want %v", M, &got, want)
		}
		var lv [isqrtLevels]big.Int
		if isqrtRec(&got, M, lv[:], &q, &tt, &u); got.Cmp(want) != 0 {
			t.Fatalf("isqrtRec(%v) = %v, want %v", M, &got, want)
		}
	}
}

// twoFormats take the two-word paths: binary128, the narrowest (Prec 65)
// and widest (126) such formats, and narrow exponent ranges.
var twoFormats = []Format{Binary128, {ExpBits: 15, FracBits: 64}, {ExpBits: 8, FracBits: 125}, {ExpBits: 4, FracBits: 100}, {ExpBits: 3, FracBits: 70}}

// randEdge2 is randEdge for the two-word formats.
func randEdge2(r *rand.Rand, f Format) *Float {
	p := int64(f.Prec())
	bitsN := p
	if r.IntN(2) == 0 {
		bitsN = 1 + r.Int64N(8)
	}
	m := new(big.Int).Rand(r2(r), new(big.Int).Lsh(bigOne, uint(bitsN)))
	m.SetBit(m, int(bitsN-1), 1)
	var E int64
	switch r.IntN(3) {
	case 0:
		E = r.Int64N(9) - 4
	case 1:
		E = r.Int64N(601) - 300
	default:
		E = f.Emin() - p + r.Int64N(f.Emax()-f.Emin()+p+1)
	}
	x := New(f)
	x.roundBig(r.IntN(2) == 0, m, E-(bitsN-1), false)
	if x.form != finite {
		x.SetFloat64(1)
	}
	return x
}

// TestTwoPathsMatchBig checks add2, quo2, sqrt2, fma2 and mul2 against the big.Int paths,
// value and Acc, in every mode, on operands built to hit ties,
// cancellation, the 256-bit window's edge, subnormals and overflow;
// TestOracleFormats checks binary128 and a 101-bit format against the
// rational oracle.
func TestTwoPathsMatchBig(t *testing.T) {
	r := testrand.New(t)
	n := 3000
	if testing.Short() {
		n = 120
	}
	for _, f := range twoFormats {
		for _, mode := range allModes {
			got, want := New(f).SetMode(mode), New(f).SetMode(mode)
			for range n {
				x, y := randEdge2(r, f), randEdge2(r, f)
				if r.IntN(3) == 0 { // y ≈ ±x: cancellation, exact zeros
					y.Set(x)
					y.nudge(r)
					if y.form != finite {
						y.SetFloat64(1)
					}
				}
				yneg := r.IntN(2) == 0
				xh, xl := x.words2()
				yh, yl := y.words2()
				got.add2(x.neg, xh, xl, x.exp, yneg, yh, yl, y.exp)
				want.addBig(x, yneg, y)
				if got.Cmp(want) != 0 || got.Signbit() != want.Signbit() || got.form != want.form || got.acc != want.acc {
					t.Fatalf("%v %v add(%v, %v·%v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), yneg, y.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
				got.quo2(yneg, xh, xl, x.exp, yh, yl, y.exp)
				sc := getScratch()
				want.quoScratch(sc, yneg, x.mantRef(&sc.d), x.exp, y.mantRef(&sc.e), y.exp)
				putScratch(sc)
				if got.Cmp(want) != 0 || got.Signbit() != want.Signbit() || got.form != want.form || got.acc != want.acc {
					t.Fatalf("%v %v quo(%v, %v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), y.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
				got.sqrt2(xh, xl, x.exp)
				want.sqrtBig(x)
				if got.Cmp(want) != 0 || got.form != want.form || got.acc != want.acc {
					t.Fatalf("%v %v sqrt(%v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
				w := randEdge2(r, f)
				switch r.IntN(3) {
				case 0: // w ≈ −x·y: deep cancellation, exact zeros
					w.Mul(x, y)
					w.nudge(r)
				case 1: // w = −x·y truncated: ties and halfway cases
					w.SetMode(ToZero).Mul(x, y)
					w.SetMode(ToNearestEven)
					w.neg = !w.neg
				}
				if w.form == finite {
					wh, wl := w.words2()
					got.fma2(yneg, xh, xl, yh, yl, x.exp+y.exp, w.neg, wh, wl, w.exp)
					want.fmaBig(yneg, x, y, w)
					if got.Cmp(want) != 0 || got.Signbit() != want.Signbit() || got.form != want.form || got.acc != want.acc {
						t.Fatalf("%v %v fma(%v, %v, %v) = %v (%v); big.Int path %v (%v)", f, mode,
							x.Text('x', -1), y.Text('x', -1), w.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
					}
				}
				got.mul2(yneg, xh, xl, yh, yl, x.exp+y.exp)
				want.mulBig(yneg, x, y)
				if got.Cmp(want) != 0 || got.Signbit() != want.Signbit() || got.form != want.form || got.acc != want.acc {
					t.Fatalf("%v %v mul(%v, %v) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), y.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
			}
		}
	}
}

// TestSqrt2Top: sqrt2 on the largest significands, where the seed and
// Newton's steps come closest to 2^127, against the big.Int path.
func TestSqrt2Top(t *testing.T) {
	for _, f := range twoFormats {
		p := int64(f.Prec())
		for k := range int64(40) {
			m := new(big.Int).Lsh(bigOne, uint(p))
			m.Sub(m, new(big.Int).Lsh(bigOne, uint(k)))
			for _, e := range []int64{-p, 1 - p} {
				x := New(f)
				x.roundBig(false, m, e, false)
				got, want := New(f), New(f)
				xh, xl := x.words2()
				got.sqrt2(xh, xl, x.exp)
				want.sqrtBig(x)
				if got.Cmp(want) != 0 || got.acc != want.acc {
					t.Fatalf("%v sqrt(%v) = %v (%v); want %v (%v)", f, x.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
			}
		}
	}
}

// TestDiv3by2 checks div3by2 against big.Int on random and extreme words
// (u2 = dh, where the estimate is 2^64−1, and divisors just above 2^127).
func TestDiv3by2(t *testing.T) {
	r := testrand.New(t)
	n := 200_000
	if testing.Short() {
		n = 50_000
	}
	for i := range n {
		dh, dl := r.Uint64()|1<<63, r.Uint64()
		if i%4 == 0 {
			dh, dl = 1<<63, r.Uint64()>>r.IntN(64)
		}
		u2, u1, u0 := r.Uint64(), r.Uint64(), r.Uint64()
		switch i % 3 {
		case 0:
			u2 = dh
			if u1 >= dl {
				u1 = dl - 1
				if dl == 0 {
					u2, u1 = dh-1, r.Uint64()
				}
			}
		case 1:
			u2 = dh - 1
		}
		if u2 > dh || u2 == dh && u1 >= dl {
			u2 %= dh
		}
		q, r1, r0 := div3by2(u2, u1, u0, dh, dl)
		U := new(big.Int).SetUint64(u2)
		U.Lsh(U, 64).Or(U, new(big.Int).SetUint64(u1))
		U.Lsh(U, 64).Or(U, new(big.Int).SetUint64(u0))
		D := new(big.Int).SetUint64(dh)
		D.Lsh(D, 64).Or(D, new(big.Int).SetUint64(dl))
		Q, R := new(big.Int).QuoRem(U, D, new(big.Int))
		gotR := new(big.Int).SetUint64(r1)
		gotR.Lsh(gotR, 64).Or(gotR, new(big.Int).SetUint64(r0))
		if !Q.IsUint64() || Q.Uint64() != q || R.Cmp(gotR) != 0 {
			t.Fatalf("div3by2(%x, %x, %x / %x, %x) = %x, %v; want %v, %v", u2, u1, u0, dh, dl, q, gotR, Q, R)
		}
	}
}

// FuzzWide runs the two-word paths (and FMA's big.Int path) of binary128
// and of a 126-bit format with a 4-bit exponent (subnormals, overflow)
// against the rational oracle: each operand is two significand words and
// an exponent, and the words' low bits may be cleared for ties.
func FuzzWide(f *testing.F) {
	f.Add(uint64(1), uint64(0), int16(0), uint64(3), uint64(0), int16(0), uint8(0), uint8(0), uint8(0))
	f.Add(^uint64(0), ^uint64(0), int16(-16494), uint64(1), uint64(1<<63), int16(100), uint8(3), uint8(4), uint8(1))
	f.Fuzz(func(t *testing.T, a1, a2 uint64, ea int16, b1, b2 uint64, eb int16, op, mode, shape uint8) {
		fm := []Format{Binary128, {ExpBits: 4, FracBits: 125}}[shape&1]
		md := RoundingMode(mode % 6)
		name := []string{"add", "sub", "mul", "quo", "sqrt", "fma"}[op%6]
		mk := func(h, l uint64, e int16, cut uint8) *Float {
			m := new(big.Int).SetUint64(h)
			m.Lsh(m, 64).Or(m, new(big.Int).SetUint64(l))
			m.Rsh(m, uint(cut)%128) // short significands: exact results, ties
			x := New(fm)
			if m.Sign() == 0 {
				return x.SetZero(h&1 != 0)
			}
			x.roundBig(l&1 != 0, m, int64(e), false)
			return x
		}
		x, y := mk(a1, a2, ea, shape>>1), mk(b1, b2, eb, shape>>3)
		w := mk(a2, b1, ea/2+eb/2, shape>>5)
		want := refOp(name, fm, md, x, y, w)
		z := apply(name, New(fm).SetMode(md), x, y, w)
		if !want.same(z) {
			t.Fatalf("%v %v %s(%v, %v, %v) = %v; want %v", fm, md, name, x.Text('x', -1), y.Text('x', -1), w.Text('x', -1), z.Text('x', -1), want)
		}
	})
}
