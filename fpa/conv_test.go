package fpa

import (
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// TestHexMatchesStrconv: Text('x') of binary64 and binary32 values equals
// strconv.FormatFloat(v, 'x', -1, bits), Go's %x, and parses back exactly.
func TestHexMatchesStrconv(t *testing.T) {
	r := testrand.New(t)
	for range 20000 {
		v := randFloat64(r, 1)
		x := New(Binary64).SetFloat64(v)
		want := strconv.FormatFloat(v, 'x', -1, 64)
		switch {
		case math.IsNaN(v):
			want = "nan"
		case math.IsInf(v, 1):
			want = "inf"
		case math.IsInf(v, -1):
			want = "-inf"
		}
		if got := x.Text('x', -1); got != want {
			t.Fatalf("Text(%v): got %v, want %v", v, got, want)
		}
		y, err := Parse(want, Binary64, ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := y.Float64()
		if !sameFloat64(v, got) {
			t.Fatalf("Parse(%q) = %v; want %v", want, got, v)
		}

		v32 := math.Float32frombits(r.Uint32())
		x32 := New(Binary32).SetFloat32(v32)
		if !math.IsNaN(float64(v32)) && !math.IsInf(float64(v32), 0) {
			if got, want := x32.Text('x', -1), strconv.FormatFloat(float64(v32), 'x', -1, 32); got != want {
				t.Fatalf("x32.Text('x', -1) = %v, want %v", got, want)
			}
		}
	}
}

// TestParseDecimal: decimal strings round correctly in every mode: against
// strconv.ParseFloat for binary64 (nearest-even) and the rational oracle
// for the other modes and formats.
func TestParseDecimal(t *testing.T) {
	r := testrand.New(t)
	n := 5000
	if testing.Short() {
		n = 2000
	}
	for range n {
		v := randFloat64(r, 1)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		s := strconv.FormatFloat(v, 'e', r.IntN(25), 64)
		want, _ := strconv.ParseFloat(s, 64)
		x, err := Parse(s, Binary64, ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := x.Float64()
		if !sameFloat64(want, got) {
			t.Fatalf("Parse(%q) = %x; want %x", s, got, want)
		}
		for _, f := range []Format{Binary16, {ExpBits: 3, FracBits: 4}, {ExpBits: 12, FracBits: 90}} {
			mode := allModes[r.IntN(len(allModes))]
			x, err := Parse(s, f, mode)
			if err != nil {
				t.Fatal(err)
			}
			rat, ok := new(big.Rat).SetString(s)
			if !ok {
				t.Fatalf("big.Rat.SetString(%q) failed", s)
			}
			ref := refRound(rat.Sign() < 0 || s[0] == '-', new(big.Rat).Abs(rat), f, mode)
			if !ref.same(x) {
				t.Errorf("Parse(%q, %v, %v) = %v; want %v", s, f, mode, x.Text('x', 0), ref)
			}
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"", "-", "0x", "1e", "1.2.3", "abc", "0x1p", "1e99999999999999999999", "++1", "1_0", "0x1.8p+01x", "nan1", " . "} {
		_, err := Parse(s, Binary64, ToNearestEven)
		if err == nil {
			t.Errorf("Parse(%q): no error", s)
		}
	}
	// A decimal exponent too large to evaluate, in a format it cannot
	// overflow or underflow for certain, is an error, not a guess.
	_, err := Parse("1e500000", Format{ExpBits: 40, FracBits: 10}, ToNearestEven)
	if err == nil {
		t.Error("want an error, got nil")
	}
	// In binary64 it certainly overflows or underflows.
	x, err := Parse("1e500000", Binary64, ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	if !x.IsInf() {
		t.Errorf("Parse(1e500000) = %v, want +Inf", x.Text('x', -1))
	}
	x, err = Parse("-1e-500000", Binary64, ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	if !(x.IsZero() && x.Signbit()) {
		t.Errorf("Parse(-1e-500000) = %v, want -0", x.Text('x', -1))
	}
}

func TestSpecialStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{"inf", "inf"}, {"-Infinity", "-inf"}, {"+INF", "inf"}, {"NaN", "nan"},
		{"0", "0x0p+00"}, {"-0", "-0x0p+00"}, {"0x1.8p+01", "0x1.8p+01"}, {"3", "0x1.8p+01"},
		{"0x.8", "0x1p-01"}, {"0x10", "0x1p+04"}, {"1e-400", "0x0p+00"}, {"4.9406564584124654e-324", "0x1p-1074"},
	}
	for _, tt := range tests {
		x, err := Parse(tt.in, Binary64, ToNearestEven)
		if err != nil {
			t.Fatalf("%v: %v", tt.in, err)
		}
		if got := x.Text('x', -1); got != tt.want {
			t.Errorf("Parse(%q): got %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestBitsRoundTrip strides through every binary16 and bfloat16 encoding
// (and a stride of binary32): SetBits then Bits is the identity except that
// every NaN comes back as the canonical quiet NaN.
func TestBitsRoundTrip(t *testing.T) {
	for _, f := range []Format{Binary16, BFloat16, Binary32} {
		stride := uint64(1)
		if f.Width() == 32 {
			stride = 9973
			if testing.Short() {
				stride = 99991
			}
		}
		x := New(f)
		for b := uint64(0); b < 1<<f.Width(); b += stride {
			_, err := x.SetBits(b)
			if err != nil {
				t.Fatal(err)
			}
			got, err := x.Bits()
			if err != nil {
				t.Fatal(err)
			}
			if x.IsNaN() {
				continue
			}
			if got != b {
				t.Fatalf("%v: Bits(SetBits(%#x)) = %#x", f, b, got)
			}
			y, err := Parse(x.Text('x', -1), f, ToNearestEven)
			if err != nil {
				t.Fatal(err)
			}
			if y.Cmp(x) != 0 || y.Signbit() != x.Signbit() {
				t.Fatalf("%v: Parse(Text(%#x)) = %v", f, b, y.Text('x', -1))
			}
		}
	}
	_, err := New(Binary128).Bits()
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = New(Binary16).SetBits(1 << 16)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
	}{
		{"binary64", Binary64}, {"float32", Binary32}, {"BF16", BFloat16}, {"11,52", Binary64},
		{"e8m23", Binary32}, {"fpa:21", Format{10, 10}}, {"phi:22", Format{10, 11}}, {"62,1000000", Format{62, 1_000_000}},
	}
	for _, tt := range tests {
		f, err := ParseFormat(tt.in)
		if err != nil {
			t.Fatalf("%v: %v", tt.in, err)
		}
		if f != tt.want {
			t.Errorf("ParseFormat(%q): got %v, want %v", tt.in, f, tt.want)
		}
	}
	for _, s := range []string{"", "binary65", "1,52", "63,10", "8,0", "8,1000001", "x,y", "fpa:3", "8,-1", "e8"} {
		_, err := ParseFormat(s)
		if err == nil {
			t.Errorf("ParseFormat(%q): no error", s)
		}
	}
	if got := Binary64.String(); got != "binary64" {
		t.Errorf("Binary64.String() = %v, want %v", got, "binary64")
	}
	if got := (Format{9, 30}.String()); got != "e9m30" {
		t.Errorf("Format{9, 30}.String() = %v, want %v", got, "e9m30")
	}
}

// FuzzParse: Parse never panics; a parsed value's Text('x') parses back to
// the same value in the same format.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1", "-0", "0x1.8p+01", "1e-310", "inf", "nan", "3.14159", "0x.1p-1074", "1e400"} {
		f.Add(s, uint8(11), uint16(52), uint8(0))
	}
	f.Fuzz(func(t *testing.T, s string, e uint8, m uint16, mode uint8) {
		fm := Format{ExpBits: uint(e%61) + 2, FracBits: uint(m%400) + 1}
		x, err := Parse(s, fm, RoundingMode(mode%6))
		if err != nil {
			return
		}
		text := x.Text('x', -1)
		y, err := Parse(text, fm, ToNearestEven)
		if err != nil {
			t.Fatalf("Parse(Text(Parse(%q))) = %q: %v", s, text, err)
		}
		if y.Cmp(x) != 0 || y.Signbit() != x.Signbit() {
			t.Fatalf("Parse(%q) = %s, round trip %s", s, text, y.Text('x', -1))
		}
	})
}

// FuzzArith: the emulator against the rational oracle on arbitrary bits of
// a 16-bit-wide format family (any split) in any mode and op.
func FuzzArith(f *testing.F) {
	f.Add(uint64(0x3c00), uint64(0x3c00), uint64(0), uint8(5), uint8(0), uint8(0))
	f.Add(uint64(0x0001), uint64(0x8001), uint64(0x7c00), uint8(3), uint8(2), uint8(5))
	f.Fuzz(func(t *testing.T, a, b, c uint64, e, op, mode uint8) {
		fm := Format{ExpBits: uint(e%10) + 2, FracBits: 13 - uint(e%10)}
		md := RoundingMode(mode % 6)
		name := []string{"add", "sub", "mul", "quo", "sqrt", "fma"}[op%6]
		mask := uint64(1)<<fm.Width() - 1
		x, _ := New(fm).SetBits(a & mask)
		y, _ := New(fm).SetBits(b & mask)
		w, _ := New(fm).SetBits(c & mask)
		want := refOp(name, fm, md, x, y, w)
		z := apply(name, New(fm).SetMode(md), x, y, w)
		if !want.same(z) {
			t.Fatalf("%v %v %s(%v, %v, %v) = %v; want %v", fm, md, name, x.Text('x', 0), y.Text('x', 0), w.Text('x', 0), z.Text('x', 0), want)
		}
	})
}
