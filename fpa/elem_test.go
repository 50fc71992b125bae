package fpa

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/internal/testrand"
)

// refElem brackets fn(x) by apa's directed roundings at Prec+64 bits
// (more for tiny x). It returns the format value both ends round to, or ok = false when they
// differ (the exact value is too close to a rounding boundary to decide at
// this precision; the caller skips it).
func refElem(t *testing.T, name string, x *Float, mode RoundingMode) (*Float, bool) {
	t.Helper()
	w := x.f.Prec() + 64
	if name == "log1p" && x.form == finite && x.top() < 0 {
		w += uint(-x.top()) // log1p's tail x²/2 sits |top| bits further down
	}
	xb, err := x.Big(nil)
	if err != nil {
		t.Fatalf("refElem: %v", err)
	}
	ends := [2]*Float{}
	for i, m := range []big.RoundingMode{big.ToNegativeInf, big.ToPositiveInf} {
		y := new(big.Float).SetPrec(w).SetMode(m)
		switch name {
		case "log":
			_, err = apa.Log(y, xb)
		case "log1p":
			_, err = apa.Log1p(y, xb)
		case "exp":
			_, err = apa.Exp(y, xb)
		}
		if err != nil {
			return nil, false
		}
		ends[i] = New(x.f).SetMode(mode).SetBig(y)
		if y.Acc() == big.Exact {
			return ends[i], true
		}
	}
	return ends[0], ends[0].Cmp(ends[1]) == 0 && ends[0].Signbit() == ends[1].Signbit()
}

// randElemArg draws arguments where each function is interesting: near 1
// for log, near 0 and the overflow threshold for exp, tiny for log1p.
func randElemArg(r *rand.Rand, f Format, name string) *Float {
	x := New(f)
	p := int64(f.Prec())
	m := new(big.Int).Rand(r2(r), new(big.Int).Lsh(big.NewInt(1), uint(p)))
	m.SetBit(m, int(p-1), 1)
	var e int64
	switch name {
	case "log":
		e = -p + 1 + r.Int64N(3) - 1 // near 1
		if r.IntN(2) == 0 {
			e = f.Emin() - p + 1 + r.Int64N(f.Emax()-f.Emin()+2)
			e = max(e, -(1 << 29))
			e = min(e, 1<<29)
		}
		x.roundBig(false, m, e, false)
	case "log1p":
		e = -p + 1 - r.Int64N(2*p+8)
		x.roundBig(r.IntN(3) == 0, m, e, false)
	case "exp":
		lim := min(float64(f.Emax())*0.7, 1e8)
		x.SetFloat64((r.Float64()*2 - 1) * lim * math.Pow(r.Float64(), 4))
		if r.IntN(4) == 0 { // near 0
			x.roundBig(r.IntN(2) == 0, m, -p-r.Int64N(p+8), false)
		}
	}
	return x
}

// TestElemReference: Log, Log1p and Exp are correctly rounded in every
// mode, against apa's directed roundings at 64 extra bits, on random
// arguments of several formats (subnormal, overflow and underflow results
// included).
func TestElemReference(t *testing.T) {
	r := testrand.New(t)
	formats := []Format{Binary16, Binary32, Binary64, {ExpBits: 4, FracBits: 6}, {ExpBits: 20, FracBits: 200}, Binary128}
	n := 60
	if testing.Short() {
		n = 15
	}
	for _, f := range formats {
		for _, name := range []string{"log", "log1p", "exp"} {
			for _, mode := range allModes {
				skipped := 0
				for range n {
					x := randElemArg(r, f, name)
					want, ok := refElem(t, name, x, mode)
					if !ok {
						skipped++
						continue
					}
					z := New(f).SetMode(mode)
					switch name {
					case "log":
						z.Log(x)
					case "log1p":
						z.Log1p(x)
					case "exp":
						z.Exp(x)
					}
					if z.Cmp(want) != 0 || z.Signbit() != want.Signbit() {
						t.Fatalf("%v %v %s(%v) = %v; want %v", f, mode, name, x.Text('x', 0), z.Text('x', 0), want.Text('x', 0))
					}
				}
				if !(skipped < n/4) {
					t.Errorf("%v %v %s: too many undecidable references: %v >= %v", f, mode, name, skipped, n/4)
				}
			}
		}
	}
}

// TestElemBinary64Libm: at binary64, the emulated Log and Exp are within
// one ulp of Go's math.Log and math.Exp, which are faithful (error below
// one ulp) but not correctly rounded: they differ in about 6% of these
// cases, which is why the scorers of real libraries need an error budget.
func TestElemBinary64Libm(t *testing.T) {
	r := testrand.New(t)
	x, z := New(Binary64), New(Binary64)
	n, diff := 2000, 0
	for range n {
		v := math.Exp(r.Float64()*1400 - 700)
		x.SetFloat64(v)
		got, _ := z.Log(x).Float64()
		want := math.Log(v)
		if got != want {
			diff++
			if d := int64(math.Float64bits(got) - math.Float64bits(want)); d < -1 || d > 1 {
				t.Errorf("Log(%x): %d ulps from the correctly rounded value, want at most 1", v, d)
			}
		}
		u := r.Float64()*1400 - 700
		x.SetFloat64(u)
		got, _ = z.Exp(x).Float64()
		want = math.Exp(u)
		if got != want {
			diff++
			if d := int64(math.Float64bits(got) - math.Float64bits(want)); d < -1 || d > 1 {
				t.Errorf("Exp(%x): %d ulps from the correctly rounded value, want at most 1", u, d)
			}
		}
	}
	if !(diff < 2*n/10) {
		t.Errorf("math.Log/Exp differ from the correctly rounded value in %d of %d: %v >= %v", diff, 2*n, diff, 2*n/10)
	}
}

func TestElemSpecial(t *testing.T) {
	nan := New(Binary64).SetNaN()
	pinf, ninf := New(Binary64).SetInf(false), New(Binary64).SetInf(true)
	pz, nz := New(Binary64).SetZero(false), New(Binary64).SetZero(true)
	one, mone := New(Binary64).SetInt64(1), New(Binary64).SetInt64(-1)
	tests := []struct {
		name string
		fn   func(z, x *Float) *Float
		x    *Float
		want string
	}{
		{"Log(NaN)", (*Float).Log, nan, "nan"},
		{"Log(+Inf)", (*Float).Log, pinf, "inf"},
		{"Log(-Inf)", (*Float).Log, ninf, "nan"},
		{"Log(+0)", (*Float).Log, pz, "-inf"},
		{"Log(-0)", (*Float).Log, nz, "-inf"},
		{"Log(1)", (*Float).Log, one, "0x0p+00"},
		{"Log(-1)", (*Float).Log, mone, "nan"},
		{"Exp(-Inf)", (*Float).Exp, ninf, "0x0p+00"},
		{"Exp(+Inf)", (*Float).Exp, pinf, "inf"},
		{"Exp(-0)", (*Float).Exp, nz, "0x1p+00"},
		{"Exp(NaN)", (*Float).Exp, nan, "nan"},
		{"Log1p(-0)", (*Float).Log1p, nz, "-0x0p+00"},
		{"Log1p(-1)", (*Float).Log1p, mone, "-inf"},
		{"Log1p(-Inf)", (*Float).Log1p, ninf, "nan"},
		{"Log1p(+Inf)", (*Float).Log1p, pinf, "inf"},
	}
	for _, tt := range tests {
		got := tt.fn(New(Binary64), tt.x).Text('x', 0)
		if got != tt.want {
			t.Errorf("%v: got %v, want %v", tt.name, got, tt.want)
		}
	}
	x := New(Binary64).SetFloat64(-1.5)
	if !New(Binary64).Log1p(x).IsNaN() {
		t.Error("Log1p(-1.5)")
	}
	x.SetFloat64(710)
	if !New(Binary64).Exp(x).IsInf() {
		t.Error("Exp(710)")
	}
	if got := must64(New(Binary64).SetMode(ToZero).Exp(x)); got != math.MaxFloat64 {
		t.Errorf("Exp(710) toward zero: got %v, want %v", got, math.MaxFloat64)
	}
	x.SetFloat64(-746)
	if !New(Binary64).Exp(x).IsZero() {
		t.Error("Exp(-746)")
	}
	if got := must64(New(Binary64).SetMode(ToPositiveInf).Exp(x)); got != math.SmallestNonzeroFloat64 {
		t.Errorf("Exp(-746) up: got %v, want %v", got, math.SmallestNonzeroFloat64)
	}
}

func must64(x *Float) float64 { v, _ := x.Float64(); return v }

// TestElemHugeExponents checks the Ziv paths for formats with exponents
// beyond big.Float's range against an independent reduction: ln x from
// x·2^−j and j·ln 2 for a random j, e^x as e^(x−k'·ln 2)·2^k' for a
// k' off by a random amount from the implementation's.
func TestElemHugeExponents(t *testing.T) {
	r := testrand.New(t)
	f := Format{ExpBits: 50, FracBits: 80}
	for range 40 {
		mode := allModes[r.IntN(len(allModes))]
		// Log of x = m·2^E, |E| up to 2^48.
		m := new(big.Int).Rand(r2(r), new(big.Int).Lsh(big.NewInt(1), 81))
		m.SetBit(m, 80, 1)
		E := r.Int64N(1<<49) - 1<<48
		x := New(f)
		x.roundBig(false, m, E-80, false)
		z := New(f).SetMode(mode).Log(x)
		j := int64(r.IntN(2000) - 1000)
		w := uint(200)
		mf := new(big.Float).SetInt(m)
		mf.SetMantExp(mf, int(-80+j))
		a, _ := apa.Log(new(big.Float).SetPrec(w), mf)
		b := new(big.Float).SetPrec(w).Mul(ln2(w), new(big.Float).SetInt64(E-j))
		y := new(big.Float).SetPrec(w).Add(a, b)
		want := New(f).SetMode(mode).SetBig(y) // 120 bits beyond: safe for random x
		if got, want := z.Text('x', 0), want.Text('x', 0); got != want {
			t.Errorf("%v Log(%v): got %v, want %v", mode, x.Text('x', 0), got, want)
		}
		// Exp of x in [2^30, 2^48).
		xv := new(big.Float).SetPrec(81).SetMantExp(big.NewFloat(r.Float64()+0.5), 30+r.IntN(18))
		if r.IntN(2) == 0 {
			xv.Neg(xv)
		}
		x.SetBig(xv)
		xb, _ := x.Big(nil)
		z = New(f).SetMode(mode).Exp(x)
		kf := new(big.Float).SetPrec(w).Quo(xb, ln2(w))
		k, _ := kf.Int64()
		k -= int64(r.IntN(500))
		rr := new(big.Float).SetPrec(w+70).Sub(xb, new(big.Float).SetPrec(w+70).Mul(ln2(w+70), new(big.Float).SetInt64(k)))
		ev, _ := apa.Exp(new(big.Float).SetPrec(w), rr)
		R, e := bigParts(ev)
		want = New(f).SetMode(mode)
		want.roundBig(false, R, e+k, false)
		if got, want := z.Text('x', 0), want.Text('x', 0); got != want {
			t.Errorf("%v Exp(%v): got %v, want %v", mode, x.Text('x', 0), got, want)
		}
	}
}

// TestFastPathMatchesSlow: the float64 fast path of Log, Log1p and Exp
// (formats up to 45 bits) gives the same result as the apa path in every
// mode, on random binary32 and binary16 arguments.
func TestFastPathMatchesSlow(t *testing.T) {
	r := testrand.New(t)
	n := 3000
	if testing.Short() {
		n = 500
	}
	fast := 0
	for i := range n {
		f := []Format{Binary32, Binary16, {ExpBits: 8, FracBits: 44}}[i%3]
		mode := allModes[r.IntN(len(allModes))]
		x := New(f).SetFloat32(math.Float32frombits(r.Uint32() & 0x7fffffff))
		if !x.IsFinite() || x.IsZero() {
			continue
		}
		xe := New(f).SetFloat64((r.Float64()*2 - 1) * 80)
		for _, name := range []string{"log", "log1p", "exp"} {
			z := New(f).SetMode(mode)
			slow := New(f).SetMode(mode)
			arg := x
			var ok bool
			switch name {
			case "log":
				if v, good := z.float64Arg(x); good {
					ok = z.setFast(math.Log(v))
				}
				slow.logFinite(x, x.top(), false)
			case "log1p":
				if v, good := z.float64Arg(x); good {
					ok = z.setFast(math.Log1p(v))
				}
				slow.setApa(apa.Log1p, x)
			case "exp":
				arg = xe
				if v, good := z.float64Arg(xe); good {
					ok = z.setFast(math.Exp(v))
				}
				slow.setApa(apa.Exp, xe)
			}
			if !ok {
				continue
			}
			fast++
			if z.Cmp(slow) != 0 || z.Signbit() != slow.Signbit() || z.Acc() != slow.Acc() {
				t.Fatalf("%v %v %s(%v): fast %v (%v), slow %v (%v)", f, mode, name, arg.Text('x', -1), z.Text('x', -1), z.Acc(), slow.Text('x', -1), slow.Acc())
			}
		}
	}
	if !(fast > n) {
		t.Errorf("the fast path was rarely taken: %v <= %v", fast, n)
	}
}
