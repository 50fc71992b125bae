package serve

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// checkNum parses s with the JSON number scanner and compares with
// strconv.ParseFloat, the oracle.
func checkNum(t *testing.T, s string) {
	t.Helper()
	p := jsonParser{b: []byte(s)}
	got, err := p.num()
	want, werr := strconv.ParseFloat(s, 64)
	if werr != nil || math.IsInf(want, 0) {
		if err == nil {
			t.Fatalf("num(%q) = %v, ParseFloat refuses (%v)", s, got, werr)
		}
		return
	}
	if err != nil {
		t.Fatalf("num(%q): %v; ParseFloat = %v", s, err, want)
	}
	if p.i != len(s) {
		t.Fatalf("num(%q) stopped at %d", s, p.i)
	}
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("num(%q) = %v (%#x), ParseFloat = %v (%#x)", s, got, math.Float64bits(got), want, math.Float64bits(want))
	}
}

// TestNumAgainstParseFloat runs the fast path and its fallbacks against
// strconv.ParseFloat: random float64 bit patterns in several formats,
// random digit strings (long ones too), halfway cases and edge values.
func TestNumAgainstParseFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	count := 200000
	if testing.Short() {
		count = 20000
	}
	for _, s := range []string{"0", "-0", "0.0", "1", "0.5", "1e0", "1E+0", "5e-324", "4.9e-324", "2.4703282292062327e-324", "2.2250738585072014e-308",
		"2.2250738585072011e-308", "1.7976931348623157e308", "9007199254740993", "9007199254740992.5", "0.1", "0.30000000000000004",
		"123456789012345678901234567890", "0.000000000000000000000000000001", "1e-400", "1e400", "0.99999999999999999999", "1e23", "8.5e-1"} {
		checkNum(t, s)
	}
	for range count {
		x := math.Float64frombits(r.Uint64())
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		switch r.IntN(4) {
		case 0:
			checkNum(t, strconv.FormatFloat(x, 'g', -1, 64))
		case 1:
			checkNum(t, strconv.FormatFloat(x, 'e', r.IntN(25), 64))
		case 2:
			y := r.Float64()
			checkNum(t, strconv.FormatFloat(y, 'f', r.IntN(30), 64))
		default:
			// Random digits, up to 40 of them, maybe a point after the
			// first, and a random exponent.
			var b []byte
			if r.IntN(2) == 0 {
				b = append(b, '-')
			}
			b = append(b, byte('1'+r.IntN(9)))
			if r.IntN(2) == 0 {
				b = append(b, '.', byte('0'+r.IntN(10)))
			}
			for range r.IntN(40) {
				b = append(b, byte('0'+r.IntN(10)))
			}
			s := string(b) + "e" + strconv.Itoa(r.IntN(700)-350)
			checkNum(t, s)
		}
	}
	// Halfway cases between adjacent float64s, written exactly.
	for range count / 10 {
		x := math.Float64frombits(r.Uint64() >> 2)
		if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			continue
		}
		y := math.Nextafter(x, math.Inf(1))
		mid := strconv.FormatFloat(x/2+y/2, 'e', 40, 64)
		checkNum(t, mid)
	}
}

func FuzzNum(f *testing.F) {
	for _, s := range []string{"0.5", "1e-300", "123456789012345678901", "-0.0", "2.2250738585072011e-308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return
		}
		// Only JSON-grammar numbers reach num; others must be refused.
		p := jsonParser{b: []byte(s)}
		got, err := p.num()
		if err != nil || p.i != len(s) {
			return
		}
		want, _ := strconv.ParseFloat(s, 64)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("num(%q) = %v, ParseFloat = %v", s, got, want)
		}
	})
}

// TestEiselLemireDecides: the fast path, not the fallback, reads typical
// predictions (shortest round-trip decimals of uniform values in [0, 1)).
func TestEiselLemireDecides(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	fast, tried := 0, 0
	for range 10000 {
		x := r.Float64()
		s := strconv.FormatFloat(x, 'g', -1, 64)
		frac, ok := strings.CutPrefix(s, "0.")
		if !ok || strings.ContainsRune(frac, 'e') {
			continue // exponent form: covered by TestNumAgainstParseFloat
		}
		tried++
		man, err := strconv.ParseUint(frac, 10, 64) // ≤ 17 digits
		if err != nil {
			t.Fatal(err)
		}
		if v, ok := eiselLemire(man, -len(frac), false); ok {
			fast++
			if v != x {
				t.Fatalf("eiselLemire(%d, %d) = %v, want %v", man, -len(frac), v, x)
			}
		}
	}
	if tried < 9000 || fast != tried {
		t.Errorf("fast path decided %d of %d", fast, tried)
	}
}
