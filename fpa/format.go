package fpa

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// A Format is a binary floating-point format: 1 sign bit, ExpBits exponent
// bits and FracBits fraction bits. FracBits counts the stored fraction
// without the hidden bit (strconv's notion: 52 for binary64); the
// significand precision in big.Float's sense is [Format.Prec] = FracBits+1.
//
// Normal numbers are 1.f × 2^E with E in [Emin, Emax], Emax = 2^(ExpBits−1)−1
// and Emin = 1−Emax (IEEE 754 §3.3). Subnormals are 0.f × 2^Emin. The zero
// Format is not a valid format; a zero [Float] takes its format from its
// operands.
type Format struct {
	ExpBits  uint // exponent field width, in [MinExpBits, MaxExpBits]
	FracBits uint // fraction field width without the hidden bit, in [1, MaxFracBits]
}

// Limits of a Format's widths.
const (
	MinExpBits  = 2
	MaxExpBits  = 62 // Emax = 2^61−1 keeps every exponent sum inside int64
	MaxFracBits = 1_000_000
)

// IEEE 754 binary interchange formats and bfloat16.
var (
	Binary16  = Format{ExpBits: 5, FracBits: 10}
	BFloat16  = Format{ExpBits: 8, FracBits: 7}
	Binary32  = Format{ExpBits: 8, FracBits: 23}
	Binary64  = Format{ExpBits: 11, FracBits: 52}
	Binary128 = Format{ExpBits: 15, FracBits: 112}
)

var presets = []struct {
	name string
	f    Format
}{
	{"binary16", Binary16},
	{"bfloat16", BFloat16},
	{"binary32", Binary32},
	{"binary64", Binary64},
	{"binary128", Binary128},
}

// aliases accepted by ParseFormat besides the preset names.
var aliases = map[string]Format{
	"half": Binary16, "float16": Binary16, "fp16": Binary16,
	"bf16":   BFloat16,
	"single": Binary32, "float32": Binary32, "fp32": Binary32,
	"double": Binary64, "float64": Binary64, "fp64": Binary64,
	"quad": Binary128, "float128": Binary128, "fp128": Binary128,
}

// FPA returns the papers' FPA(φ) format: 1 sign bit and the remaining φ−1
// bits split evenly between exponent and fraction, e = ⌊(φ−1)/2⌋ and
// m = φ−1−e ([AKXFT21], [KAX22] App. D; for odd φ both are (φ−1)/2).
// It returns an error if the split is not a valid Format (φ < 5).
func FPA(phi uint) (Format, error) {
	if phi < 5 {
		return Format{}, fmt.Errorf("fpa: FPA(%d) has fewer than 2 exponent or fraction bits; need φ ≥ 5", phi)
	}
	e := (phi - 1) / 2
	f := Format{ExpBits: min(e, MaxExpBits), FracBits: phi - 1 - min(e, MaxExpBits)}
	return f, f.Validate()
}

// Validate reports whether f's widths are in range.
func (f Format) Validate() error {
	if f.ExpBits < MinExpBits || f.ExpBits > MaxExpBits {
		return fmt.Errorf("fpa: exponent bits %d out of range [%d, %d]", f.ExpBits, MinExpBits, MaxExpBits)
	}
	if f.FracBits < 1 || f.FracBits > MaxFracBits {
		return fmt.Errorf("fpa: fraction bits %d out of range [1, %d]", f.FracBits, MaxFracBits)
	}
	return nil
}

// Prec returns the significand precision in bits, FracBits+1 (big.Float's
// notion of precision).
func (f Format) Prec() uint { return f.FracBits + 1 }

// Width returns the number of bits of an encoded value, 1+ExpBits+FracBits.
func (f Format) Width() uint { return 1 + f.ExpBits + f.FracBits }

// Emax returns the largest normal exponent, 2^(ExpBits−1)−1.
func (f Format) Emax() int64 { return 1<<(f.ExpBits-1) - 1 }

// Emin returns the smallest normal exponent, 1−Emax.
func (f Format) Emin() int64 { return 1 - f.Emax() }

// Unit returns the unit roundoff u as a base-2 exponent: u = 2^Unit() for
// rounding to nearest (half an ulp of 1, 2^−Prec), and 2^(Unit()+1) for
// the directed modes [Higham02, §2.1].
func (f Format) Unit() int64 { return -int64(f.Prec()) }

// small reports whether significands fit in a uint64 (the integer fast path).
func (f Format) small() bool { return f.FracBits < 64 }

// String returns a preset's name (binary64) or "e11m52" for other formats.
func (f Format) String() string {
	for _, p := range presets {
		if p.f == f {
			return p.name
		}
	}
	return "e" + strconv.FormatUint(uint64(f.ExpBits), 10) + "m" + strconv.FormatUint(uint64(f.FracBits), 10)
}

// ParseFormat parses a format name: a preset (binary16, bfloat16, binary32,
// binary64, binary128, or aliases such as float64, double, fp32), "E,M"
// (exponent and fraction bits, e.g. "11,52"), the String form "e11m52", or
// "fpa:φ" / "phi:φ" for [FPA](φ).
func ParseFormat(s string) (Format, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	for _, p := range presets {
		if p.name == t {
			return p.f, nil
		}
	}
	if f, ok := aliases[t]; ok {
		return f, nil
	}
	if rest, ok := strings.CutPrefix(t, "fpa:"); ok {
		t = "phi:" + rest
	}
	if rest, ok := strings.CutPrefix(t, "phi:"); ok {
		phi, err := strconv.ParseUint(rest, 10, 32)
		if err != nil {
			return Format{}, fmt.Errorf("fpa: format %q: bad φ", s)
		}
		return FPA(uint(phi))
	}
	var es, ms string
	if a, b, ok := strings.Cut(t, ","); ok {
		es, ms = a, b
	} else if rest, ok := strings.CutPrefix(t, "e"); ok {
		if a, b, ok := strings.Cut(rest, "m"); ok {
			es, ms = a, b
		}
	}
	if es == "" || ms == "" {
		return Format{}, fmt.Errorf("fpa: unknown format %q (want a preset such as binary64, or E,M)", s)
	}
	e, err1 := strconv.ParseUint(strings.TrimSpace(es), 10, 32)
	m, err2 := strconv.ParseUint(strings.TrimSpace(ms), 10, 32)
	if err1 != nil || err2 != nil {
		return Format{}, fmt.Errorf("fpa: format %q: widths must be decimal integers", s)
	}
	f := Format{ExpBits: uint(e), FracBits: uint(m)}
	return f, f.Validate()
}

// RoundingMode is big's rounding mode; fpa supports all six.
type RoundingMode = big.RoundingMode

// Rounding modes, re-exported from math/big.
const (
	ToNearestEven = big.ToNearestEven // IEEE roundTiesToEven, the default
	ToNearestAway = big.ToNearestAway // IEEE roundTiesToAway
	ToZero        = big.ToZero        // IEEE roundTowardZero
	AwayFromZero  = big.AwayFromZero  // not an IEEE mode
	ToNegativeInf = big.ToNegativeInf // IEEE roundTowardNegative
	ToPositiveInf = big.ToPositiveInf // IEEE roundTowardPositive
)

// ParseRoundingMode parses nearest (or nearest-even, even), nearest-away
// (away-ties), zero (trunc), away, up (+inf, ceil) and down (−inf, floor).
func ParseRoundingMode(s string) (RoundingMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "nearest", "nearest-even", "even", "rne":
		return ToNearestEven, nil
	case "nearest-away", "away-ties", "rna":
		return ToNearestAway, nil
	case "zero", "trunc", "rtz":
		return ToZero, nil
	case "away":
		return AwayFromZero, nil
	case "up", "+inf", "ceil", "rtp":
		return ToPositiveInf, nil
	case "down", "-inf", "floor", "rtn":
		return ToNegativeInf, nil
	}
	return 0, fmt.Errorf("fpa: unknown rounding mode %q (want nearest, nearest-away, zero, away, up or down)", s)
}
