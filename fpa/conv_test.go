package fpa

import (
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		require.Equal(t, want, x.Text('x', -1), "Text(%v)", v)
		y, err := Parse(want, Binary64, ToNearestEven)
		require.NoError(t, err)
		got, _ := y.Float64()
		require.True(t, sameFloat64(v, got), "Parse(%q) = %v; want %v", want, got, v)

		v32 := math.Float32frombits(r.Uint32())
		x32 := New(Binary32).SetFloat32(v32)
		if !math.IsNaN(float64(v32)) && !math.IsInf(float64(v32), 0) {
			require.Equal(t, strconv.FormatFloat(float64(v32), 'x', -1, 32), x32.Text('x', -1))
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
		require.NoError(t, err)
		got, _ := x.Float64()
		require.True(t, sameFloat64(want, got), "Parse(%q) = %x; want %x", s, got, want)
		for _, f := range []Format{Binary16, {ExpBits: 3, FracBits: 4}, {ExpBits: 12, FracBits: 90}} {
			mode := allModes[r.IntN(len(allModes))]
			x, err := Parse(s, f, mode)
			require.NoError(t, err)
			rat, ok := new(big.Rat).SetString(s)
			require.True(t, ok)
			ref := refRound(rat.Sign() < 0 || s[0] == '-', new(big.Rat).Abs(rat), f, mode)
			assert.True(t, ref.same(x), "Parse(%q, %v, %v) = %v; want %v", s, f, mode, x.Text('x', 0), ref)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, s := range []string{"", "-", "0x", "1e", "1.2.3", "abc", "0x1p", "1e99999999999999999999", "++1", "1_0", "0x1.8p+01x", "nan1", " . "} {
		_, err := Parse(s, Binary64, ToNearestEven)
		assert.Error(t, err, "Parse(%q)", s)
	}
	// A decimal exponent too large to evaluate, in a format it cannot
	// overflow or underflow for certain, is an error, not a guess.
	_, err := Parse("1e500000", Format{ExpBits: 40, FracBits: 10}, ToNearestEven)
	assert.Error(t, err)
	// In binary64 it certainly overflows or underflows.
	x, err := Parse("1e500000", Binary64, ToNearestEven)
	require.NoError(t, err)
	assert.True(t, x.IsInf())
	x, err = Parse("-1e-500000", Binary64, ToNearestEven)
	require.NoError(t, err)
	assert.True(t, x.IsZero() && x.Signbit())
}

func TestSpecialStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{"inf", "inf"}, {"-Infinity", "-inf"}, {"+INF", "inf"}, {"NaN", "nan"},
		{"0", "0x0p+00"}, {"-0", "-0x0p+00"}, {"0x1.8p+01", "0x1.8p+01"}, {"3", "0x1.8p+01"},
		{"0x.8", "0x1p-01"}, {"0x10", "0x1p+04"}, {"1e-400", "0x0p+00"}, {"4.9406564584124654e-324", "0x1p-1074"},
	}
	for _, tt := range tests {
		x, err := Parse(tt.in, Binary64, ToNearestEven)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, x.Text('x', -1), "Parse(%q)", tt.in)
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
			require.NoError(t, err)
			got, err := x.Bits()
			require.NoError(t, err)
			if x.IsNaN() {
				continue
			}
			if got != b {
				t.Fatalf("%v: Bits(SetBits(%#x)) = %#x", f, b, got)
			}
			y, err := Parse(x.Text('x', -1), f, ToNearestEven)
			require.NoError(t, err)
			if y.Cmp(x) != 0 || y.Signbit() != x.Signbit() {
				t.Fatalf("%v: Parse(Text(%#x)) = %v", f, b, y.Text('x', -1))
			}
		}
	}
	_, err := New(Binary128).Bits()
	assert.Error(t, err)
	_, err = New(Binary16).SetBits(1 << 16)
	assert.Error(t, err)
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
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, f, "ParseFormat(%q)", tt.in)
	}
	for _, s := range []string{"", "binary65", "1,52", "63,10", "8,0", "8,1000001", "x,y", "fpa:3", "8,-1", "e8"} {
		_, err := ParseFormat(s)
		assert.Error(t, err, "ParseFormat(%q)", s)
	}
	assert.Equal(t, "binary64", Binary64.String())
	assert.Equal(t, "e9m30", Format{9, 30}.String())
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
