package fpa

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/internal/testrand"
)

// randDDArg draws float64 arguments where the double-double path is
// delicate: next to 1 (log's cancellation), on the edges of the log
// table's intervals (m = (i ± 1/2)/256), around ±2^−8.5 (log1p's switch),
// near −1, near exp's overflow and underflow thresholds, near 0, and
// anywhere.
func randDDArg(r *rand.Rand, name string) float64 {
	ulps := func(v float64) float64 {
		return math.Float64frombits(math.Float64bits(v) + uint64(r.IntN(41)) - 20)
	}
	switch name {
	case "log":
		switch r.IntN(4) {
		case 0:
			return ulps(1)
		case 1:
			i := 192 + r.IntN(193)
			return math.Ldexp(ulps((float64(i)+0.5)/256), r.IntN(200)-100)
		case 2:
			return math.Float64frombits(r.Uint64()&(1<<63-1)|1<<52) * math.Ldexp(1, r.IntN(3)-1)
		}
		return math.Ldexp(0.5+r.Float64(), r.IntN(2044)-1021)
	case "log1p":
		switch r.IntN(5) {
		case 0:
			return ulps(math.Pow(2, -8.5) * float64(1-2*r.IntN(2)))
		case 1:
			return ulps(-1 + 0x1p-20*r.Float64())
		case 2:
			return math.Ldexp(0.5+r.Float64(), -r.IntN(60)) * float64(1-2*r.IntN(2))
		case 3:
			return ulps(0x1.6p-9 * float64(1-2*r.IntN(2)))
		}
		return math.Ldexp(0.5+r.Float64(), r.IntN(1000)-50)
	}
	switch r.IntN(4) {
	case 0:
		return ulps([...]float64{709.782712893384, -708.3964185322641, -745.1332191019411, -744.44007192138121}[r.IntN(4)])
	case 1:
		return math.Ldexp(0.5+r.Float64(), -r.IntN(60)) * float64(1-2*r.IntN(2))
	case 2:
		return (r.Float64()*2 - 1) * 2047
	}
	return (r.Float64()*2 - 1) * 750
}

// TestDDErrorBound measures the relative error of logDD, log1pDD and
// expDD against apa at 200 bits: it must stay below 2^−98, the bound the
// functions' comments derive (ddRound assumes 2^−90).
func TestDDErrorBound(t *testing.T) {
	r := testrand.New(t)
	ddTables.once.Do(setupDD)
	n := 3000
	if testing.Short() {
		n = 500
	}
	const w = 200
	for _, name := range []string{"log", "log1p", "exp"} {
		worst := 0.0
		for range n {
			v := randDDArg(r, name)
			if name == "log" && v == 1 || v == 0 || name == "log1p" && v <= -1 {
				continue
			}
			var y dd
			var k int64
			want := new(big.Float).SetPrec(w)
			xb := new(big.Float).SetFloat64(v)
			var err error
			switch name {
			case "log":
				y = logDD(v)
				_, err = apa.Log(want, xb)
			case "log1p":
				y = log1pDD(v)
				_, err = apa.Log1p(want, xb)
			case "exp":
				y, k = expDD(v)
				_, err = apa.Exp(want, xb)
			}
			if err != nil {
				t.Fatal(err)
			}
			got := new(big.Float).SetPrec(w).SetFloat64(y.hi)
			got.Add(got, new(big.Float).SetFloat64(y.lo))
			got.SetMantExp(got, int(k))
			d := new(big.Float).SetPrec(w).Sub(got, want)
			d.Quo(d, want)
			rel, _ := d.Float64()
			rel = math.Abs(rel)
			worst = max(worst, rel)
			if rel >= 0x1p-98 {
				t.Errorf("%s(%x): relative error %g ≥ 2^−98", name, v, rel)
			}
		}
		t.Logf("%s: largest relative error 2^%.1f over %d arguments", name, math.Log2(worst), n)
	}
}

// TestDDPathMatchesSlow: the double-double path of Log, Log1p and Exp
// gives the apa path's result and Acc in every mode, for binary64 and for
// formats between 46 and 53 bits (narrow exponent ranges included, where
// exp's results overflow or land in the subnormals).
func TestDDPathMatchesSlow(t *testing.T) {
	r := testrand.New(t)
	n := 2400
	if testing.Short() {
		n = 400
	}
	formats := []Format{Binary64, {ExpBits: 11, FracBits: 45}, {ExpBits: 11, FracBits: 49}, {ExpBits: 9, FracBits: 52}}
	fast := 0
	for i := range n {
		f := formats[i%len(formats)]
		mode := allModes[r.IntN(len(allModes))]
		for _, name := range []string{"log", "log1p", "exp"} {
			v := randDDArg(r, name)
			x := New(f).SetFloat64(v)
			if x.Acc() != big.Exact || !x.IsFinite() || x.IsZero() || (name == "log" && v == 1) || (name == "log1p" && v <= -1) {
				continue
			}
			v, _ = x.Float64()
			z, slow := New(f).SetMode(mode), New(f).SetMode(mode)
			ok := false
			if _, good := z.ddArg(x); good {
				switch name {
				case "log":
					ok = z.ddRound(logDD(v), 0)
					slow.setApa(apa.Log, x)
				case "log1p":
					ok = z.ddRound(log1pDD(v), 0)
					slow.setApa(apa.Log1p, x)
				case "exp":
					if math.Abs(v) < 2048 {
						y, k := expDD(v)
						ok = z.ddRound(y, k)
					}
					slow.setApa(apa.Exp, x)
				}
			}
			if !ok {
				continue
			}
			fast++
			if z.Cmp(slow) != 0 || z.Signbit() != slow.Signbit() || z.form != slow.form || z.Acc() != slow.Acc() {
				t.Fatalf("%v %v %s(%x): double-double %v (%v), apa %v (%v)", f, mode, name, v, z.Text('x', -1), z.Acc(), slow.Text('x', -1), slow.Acc())
			}
		}
	}
	if !(fast > n) {
		t.Errorf("the double-double path was rarely taken: %v <= %v", fast, n)
	}
}

// TestDDRoundRejectsBoundary: ddRound declines a value on, or within its
// error bound of, a rounding boundary at Prec+2 bits.
func TestDDRoundRejectsBoundary(t *testing.T) {
	z := New(Binary64)
	if z.ddRound(dd{1, 0}, 0) {
		t.Error("ddRound accepted 1, a 55-bit value")
	}
	if z.ddRound(dd{1, 0x1p-100}, 0) || z.ddRound(dd{1, -0x1p-100}, 0) {
		t.Error("ddRound accepted 1 ± 2^−100, within its error bound of a 55-bit value")
	}
	if !z.ddRound(dd{1, 0x1p-60}, 0) {
		t.Error("ddRound declined 1 + 2^−60, far from a 55-bit boundary")
	}
	if v, _ := z.Float64(); v != 1 || z.Acc() != big.Below {
		t.Errorf("ddRound(1 + 2^−60) = %v (%v), want 1 (Below)", v, z.Acc())
	}
}

// TestElemAllocs: binary64 Log, Log1p and Exp on the double-double path
// allocate nothing.
func TestElemAllocs(t *testing.T) {
	x, y, w, z := New(Binary64).SetFloat64(1.7), New(Binary64).SetFloat64(-0.3), New(Binary64).SetFloat64(0.3), New(Binary64)
	z.Log(x) // builds the tables
	for name, op := range map[string]func(){
		"log":   func() { z.Log(x) },
		"log2":  func() { z.Log(w) },
		"log1p": func() { z.Log1p(y) },
		"exp":   func() { z.Exp(y) },
	} {
		if a := testing.AllocsPerRun(100, op); a != 0 {
			t.Errorf("%s: %v allocations per call, want 0", name, a)
		}
	}
}

// TestLn128PathMatchesSlow: the ln128 path of Log and Log1p gives the apa
// path's result and Acc in every mode, for binary128 and other formats of
// 54 to 120 bits, on arguments near 1, tiny log1p arguments and anywhere.
func TestLn128PathMatchesSlow(t *testing.T) {
	r := testrand.New(t)
	n := 600
	if testing.Short() {
		n = 120
	}
	formats := []Format{Binary128, {ExpBits: 11, FracBits: 53}, {ExpBits: 12, FracBits: 100}, {ExpBits: 15, FracBits: 119}}
	fast := 0
	for i := range n {
		f := formats[i%len(formats)]
		mode := allModes[r.IntN(len(allModes))]
		for _, name := range []string{"log", "log1p"} {
			x := randElemArg(r, f, name)
			if name == "log" && r.IntN(2) == 0 {
				x = randEdge2(r, f)
				x.neg = false
			}
			if x.form != finite || x.neg && (name == "log" || x.top() >= 0) || x.top() <= -bigExpLimit || x.top() >= bigExpLimit {
				continue
			}
			xb, _ := x.Big(nil)
			z, slow := New(f).SetMode(mode), New(f).SetMode(mode)
			var ok bool
			switch name {
			case "log":
				if x.top() == 0 && x.mantIsPow2() {
					continue
				}
				ok = z.setLn128(xb)
				slow.setApa(apa.Log, x)
			case "log1p":
				v := new(big.Float).SetPrec(f.Prec()+uint(max(x.top(), -x.top()))+2).Add(xb, big.NewFloat(1))
				ok = z.setLn128(v)
				slow.setApa(apa.Log1p, x)
			}
			if !ok {
				continue
			}
			fast++
			if z.Cmp(slow) != 0 || z.Signbit() != slow.Signbit() || z.form != slow.form || z.Acc() != slow.Acc() {
				t.Fatalf("%v %v %s(%v): ln128 %v (%v), apa %v (%v)", f, mode, name, x.Text('x', -1), z.Text('x', -1), z.Acc(), slow.Text('x', -1), slow.Acc())
			}
		}
	}
	if !(fast > n/2) {
		t.Errorf("the ln128 path was rarely taken: %v <= %v", fast, n/2)
	}
}

// TestExpFixMatchesSlow: the fixed-point Exp gives the apa path's result
// and Acc in every mode, for binary128, a 1,000-bit and a 2,000-bit
// format and a narrow exponent range (overflow, subnormal results), on
// arguments near 0, near the overflow and underflow thresholds, and
// anywhere below 2^30.
func TestExpFixMatchesSlow(t *testing.T) {
	r := testrand.New(t)
	n := 240
	if testing.Short() {
		n = 40
	}
	formats := []Format{Binary128, {ExpBits: 20, FracBits: 1000}, {ExpBits: 8, FracBits: 1999}, {ExpBits: 6, FracBits: 80}}
	fast := 0
	for i := range n {
		f := formats[i%len(formats)]
		mode := allModes[r.IntN(len(allModes))]
		x := randElemArg(r, f, "exp")
		if r.IntN(3) == 0 { // near the thresholds: ±(Emax+1)·ln 2, (Emin−Prec)·ln 2
			lim := []float64{float64(f.Emax()+1) * math.Ln2, float64(f.Emin()-int64(f.Prec())) * math.Ln2, float64(f.Emin()) * math.Ln2}[r.IntN(3)]
			x.SetFloat64(lim * (1 + (r.Float64()-0.5)*1e-6))
		}
		if x.form != finite || x.top() >= 30 || x.top() < -int64(f.Prec())-4 {
			continue
		}
		z, slow := New(f).SetMode(mode), New(f).SetMode(mode)
		if !z.setExpFix(x) {
			continue
		}
		fast++
		slow.setApa(apa.Exp, x)
		if z.Cmp(slow) != 0 || z.Signbit() != slow.Signbit() || z.form != slow.form || z.Acc() != slow.Acc() {
			t.Fatalf("%v %v exp(%v): fixed point %v (%v), apa %v (%v)", f, mode, x.Text('x', -1), z.Text('x', -1), z.Acc(), slow.Text('x', -1), slow.Acc())
		}
	}
	if !(fast > n/2) {
		t.Errorf("the fixed-point path was rarely taken: %v <= %v", fast, n/2)
	}
}

// TestLogFixMatchesSlow: the table-driven logarithm gives the apa path's result
// and Acc in every mode, for formats of 121 to 2,000 bits (a 1,000-bit
// one among them), for Log and Log1p, on arguments near 1 (down to the
// 2^−20 where it hands over to apa), and anywhere.
func TestLogFixMatchesSlow(t *testing.T) {
	r := testrand.New(t)
	n := 200
	if testing.Short() {
		n = 30
	}
	formats := []Format{{ExpBits: 20, FracBits: 1000}, {ExpBits: 15, FracBits: 150}, {ExpBits: 8, FracBits: 1999}}
	fast := 0
	for i := range n {
		f := formats[i%len(formats)]
		mode := allModes[r.IntN(len(allModes))]
		for _, name := range []string{"log", "log1p"} {
			x := randElemArg(r, f, name)
			if r.IntN(2) == 0 {
				x = randEdge2(r, New(f).f)
				if name == "log1p" {
					x.SetFloat64((r.Float64()*2 - 1) * math.Ldexp(1, -r.IntN(22)))
				}
			}
			if x.form != finite || name == "log" && x.neg || name == "log1p" && x.neg && x.top() >= 0 || x.top() <= -bigExpLimit || x.top() >= bigExpLimit {
				continue
			}
			if name == "log" && x.top() == 0 && x.mantIsPow2() {
				continue
			}
			xb, _ := x.Big(nil)
			z, slow := New(f).SetMode(mode), New(f).SetMode(mode)
			var ok bool
			switch name {
			case "log":
				ok = z.setLogFix(xb)
				slow.setApa(apa.Log, x)
			case "log1p":
				v := new(big.Float).SetPrec(f.Prec()+uint(max(x.top(), -x.top()))+2).Add(xb, big.NewFloat(1))
				ok = z.setLogFix(v)
				slow.setApa(apa.Log1p, x)
			}
			if !ok {
				continue
			}
			fast++
			if z.Cmp(slow) != 0 || z.Signbit() != slow.Signbit() || z.form != slow.form || z.Acc() != slow.Acc() {
				t.Fatalf("%v %v %s(%v): table %v (%v), apa %v (%v)", f, mode, name, x.Text('x', -1), z.Text('x', -1), z.Acc(), slow.Text('x', -1), slow.Acc())
			}
		}
	}
	if !(fast > n/2) {
		t.Errorf("the table path was rarely taken: %v <= %v", fast, n/2)
	}
}

// FuzzElem64 runs binary64 Log, Log1p and Exp (the double-double path
// and its fallback) against apa's directed roundings at 64 extra bits.
func FuzzElem64(f *testing.F) {
	f.Add(math.Float64bits(1.5), uint8(0), uint8(0))
	f.Add(math.Float64bits(-0.3), uint8(1), uint8(4))
	f.Add(math.Float64bits(709.7), uint8(2), uint8(5))
	f.Fuzz(func(t *testing.T, b uint64, fn, mode uint8) {
		v := math.Float64frombits(b)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		name := []string{"log", "log1p", "exp"}[fn%3]
		md := RoundingMode(mode % 6)
		x := New(Binary64).SetFloat64(v)
		if name == "exp" && math.Abs(v) > 1e6 || name == "log" && v <= 0 || name == "log1p" && v <= -1 || v == 0 {
			return
		}
		want, ok := refElem(t, name, x, md)
		if !ok {
			return
		}
		z := New(Binary64).SetMode(md)
		switch name {
		case "log":
			z.Log(x)
		case "log1p":
			z.Log1p(x)
		case "exp":
			z.Exp(x)
		}
		if z.Cmp(want) != 0 || z.Signbit() != want.Signbit() || z.form != want.form {
			t.Fatalf("%v %s(%x) = %v; want %v", md, name, v, z.Text('x', -1), want.Text('x', -1))
		}
	})
}
