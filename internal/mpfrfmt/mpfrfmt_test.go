//go:build mpfr

package mpfrfmt

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/testrand"
)

// formats are the formats of the comparison (issue 17's table).
var formats = []struct {
	name string
	f    fpa.Format
}{
	{"binary32", fpa.Binary32},
	{"binary64", fpa.Binary64},
	{"binary128", fpa.Binary128},
	{"e20m1000", fpa.Format{ExpBits: 20, FracBits: 1000}},
	{"e20m100000", fpa.Format{ExpBits: 20, FracBits: 100_000}},
}

// kind selects an operand distribution.
type kind int

const (
	typical kind = iota // exponents near 0, full random significands
	wide                // any exponent from below the subnormals to Emax
	short               // few significand bits: exact results and ties
	special             // ±0, ±Inf, NaN
)

// randFloat returns a value of f with a random significand of its
// precision (or of 1..6 bits when kind is short) and leading-bit exponent
// in [elo, ehi] (rounded into f, so below Emin it is subnormal or 0).
func randFloat(r *rand.Rand, f fpa.Format, k kind, elo, ehi int64, neg bool) *fpa.Float {
	z := fpa.New(f)
	if k == special {
		switch r.IntN(3) {
		case 0:
			return z.SetZero(neg)
		case 1:
			return z.SetInf(neg)
		}
		return z.SetNaN()
	}
	p := int(f.Prec())
	if k == short {
		p = 1 + r.IntN(6)
	}
	words := make([]big.Word, (p+63)/64)
	for i := range words {
		words[i] = big.Word(r.Uint64())
	}
	m := new(big.Int).SetBits(words)
	m.Rsh(m, uint(len(words)*64-p))
	m.SetBit(m, p-1, 1)
	E := elo + r.Int64N(ehi-elo+1)
	bf := new(big.Float).SetPrec(uint(p)).SetInt(m)
	bf.SetMantExp(bf, int(E)-(p-1))
	if neg {
		bf.Neg(bf)
	}
	return z.SetBig(bf)
}

// operand returns operand j (0, 1, 2) of op drawn from distribution k.
func operand(r *rand.Rand, f fpa.Format, op Op, j int, k kind) *fpa.Float {
	p := int64(f.Prec())
	lo, hi := int64(-8), int64(8)
	if k == wide {
		lo, hi = f.Emin()-p-1, f.Emax()
	}
	neg := r.IntN(2) == 0
	switch op {
	case Sqrt, Log:
		neg = r.IntN(50) == 0 // a few NaN results
	case Exp:
		if k != wide {
			lo, hi = -8, 4 // |x| in [2^−8, 32): e^x far from 1
		} else {
			hi = min(hi, 40) // beyond, exp overflows or underflows anyway
		}
	case Log1p:
		hi = min(hi, 1)
		if neg {
			hi = min(hi, -1) // |x| < 1
		}
	}
	if k == wide && op >= Log {
		lo = max(lo, -4*p) // keep the elementary functions' cost bounded
	}
	return randFloat(r, f, k, lo, hi, neg)
}

// operands returns n tuples of op's operands; mixed draws each operand's
// distribution at random (typical 60%, wide 20%, short 18%, special 2%),
// otherwise all are typical.
func operands(r *rand.Rand, f fpa.Format, op Op, n int, mixed bool) (x, y, w []*fpa.Float) {
	x, y, w = make([]*fpa.Float, n), make([]*fpa.Float, n), make([]*fpa.Float, n)
	for i := range n {
		for j, s := range [][]*fpa.Float{x, y, w} {
			k := typical
			if mixed {
				switch u := r.IntN(100); {
				case u < 2:
					k = special
				case u < 20:
					k = short
				case u < 40:
					k = wide
				}
			}
			s[i] = operand(r, f, op, j, k)
		}
	}
	return x, y, w
}

// TestAgainstMPFR checks every op in every format and in MPFR's five
// rounding modes on random operands (subnormals, overflow, ties, exact
// results and special values included): fpa's value and Acc must equal
// MPFR's value and ternary value.
func TestAgainstMPFR(t *testing.T) {
	r := testrand.New(t)
	for _, fc := range formats {
		for _, op := range Ops {
			n := 2000
			switch {
			case fc.f.FracBits >= 100_000 && op >= Log:
				n = 1
			case fc.f.FracBits >= 100_000:
				n = 4
			case fc.f.FracBits >= 1000:
				n = 200
			case fc.f.FracBits > 64:
				n = 1000
			}
			modes := Modes
			if testing.Short() {
				n = max(1, n/8)
				if fc.f.FracBits >= 100_000 {
					modes = Modes[:1]
				}
			}
			if fc.f.FracBits >= 100_000 && op >= Log && !testing.Short() {
				modes = Modes[:2]
			}
			x, y, w := operands(r, fc.f, op, n, true)
			b, err := NewBatch(fc.f, x, y, w)
			if err != nil {
				t.Fatal(err)
			}
			z := fpa.New(fc.f)
			bad := 0
			for _, mode := range modes {
				if err := b.Run(op, mode); err != nil {
					t.Fatal(err)
				}
				z.SetMode(mode)
				for i := range n {
					op.Apply(z, x[i], y[i], w[i])
					if err := b.Check(i, z); err != nil {
						if bad++; bad <= 5 {
							t.Errorf("%s %s %v: %v (x=%v y=%v w=%v)", fc.name, op, mode, err, x[i].Text('x', -1), y[i].Text('x', -1), w[i].Text('x', -1))
						}
					}
				}
			}
			b.Free()
			if bad > 0 {
				t.Errorf("%s %s: %d mismatches of %d", fc.name, op, bad, n*len(modes))
			}
		}
	}
}

// batchSize is the number of operand tuples a timed pass runs, enough for
// a pass of at least about 50 µs on both sides.
func batchSize(f fpa.Format, op Op) int {
	switch {
	case f.FracBits >= 100_000 && op >= Log:
		return 1
	case f.FracBits >= 100_000:
		return 16
	case f.FracBits >= 1000 && op >= Log:
		return 16
	case f.FracBits >= 1000:
		return 1024
	case f.FracBits > 64 && op >= Log:
		return 64
	}
	return 4096
}

// BenchmarkVsMPFR times fpa and MPFR (emulating the format, RNDN) on the
// same typical operands, op by op and format by format. Each b.Loop
// iteration is one repetition: an fpa pass over the batch, then an MPFR
// pass; the first, untimed pass checks that every result agrees bit for
// bit. It reports the medians over repetitions of each side's time per
// operation and of their ratio fpa ÷ MPFR.
//
//	go test -tags mpfr ./internal/mpfrfmt -run '^$' -bench VsMPFR -benchtime 5x
func BenchmarkVsMPFR(b *testing.B) {
	for _, fc := range formats {
		for _, op := range Ops {
			b.Run(fmt.Sprintf("fmt=%s/op=%s", fc.name, op), func(b *testing.B) {
				r := rand.New(rand.NewPCG(17, uint64(op)))
				n := batchSize(fc.f, op)
				x, y, w := operands(r, fc.f, op, n, false)
				batch, err := NewBatch(fc.f, x, y, w)
				if err != nil {
					b.Fatal(err)
				}
				defer batch.Free()
				zs := make([]*fpa.Float, n)
				for i := range zs {
					zs[i] = fpa.New(fc.f)
				}
				pass := func() {
					for i, z := range zs {
						op.Apply(z, x[i], y[i], w[i])
					}
				}
				pass()
				if err := batch.Run(op, fpa.ToNearestEven); err != nil {
					b.Fatal(err)
				}
				for i, z := range zs {
					if err := batch.Check(i, z); err != nil {
						b.Fatalf("tuple %d: %v", i, err)
					}
				}
				var tf, tm, ratio []float64
				for b.Loop() {
					t0 := time.Now()
					pass()
					t1 := time.Now()
					batch.Run(op, fpa.ToNearestEven)
					t2 := time.Now()
					df, dm := float64(t1.Sub(t0)), float64(t2.Sub(t1))
					tf, tm, ratio = append(tf, df/float64(n)), append(tm, dm/float64(n)), append(ratio, df/dm)
				}
				b.ReportMetric(median(tf), "fpa-ns/op")
				b.ReportMetric(median(tm), "mpfr-ns/op")
				b.ReportMetric(median(ratio), "fpa/mpfr")
			})
		}
	}
}

// median returns the median of xs (xs is sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// TestCheckDetectsMismatch: Check must reject a result rounded in another
// mode, and a correct value with the wrong Acc.
func TestCheckDetectsMismatch(t *testing.T) {
	x := []*fpa.Float{fpa.New(fpa.Binary64).SetFloat64(1)}
	y := []*fpa.Float{fpa.New(fpa.Binary64).SetFloat64(3)}
	b, err := NewBatch(fpa.Binary64, x, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	if err := b.Run(Div, fpa.ToPositiveInf); err != nil {
		t.Fatal(err)
	}
	z := fpa.New(fpa.Binary64).SetMode(fpa.ToNegativeInf)
	z.Quo(x[0], y[0])
	if b.Check(0, z) == nil {
		t.Error("1/3 rounded down accepted as MPFR's 1/3 rounded up")
	}
	z.SetMode(fpa.ToPositiveInf).Quo(x[0], y[0])
	if err := b.Check(0, z); err != nil {
		t.Errorf("1/3 rounded up: %v", err)
	}
	z.SetMode(fpa.ToPositiveInf).Set(z) // same value, Acc now Exact
	if b.Check(0, z) == nil {
		t.Error("an Exact Acc accepted for MPFR's inexact 1/3")
	}
	if _, err := NewBatch(fpa.Binary32, x, y, nil); err == nil {
		t.Error("binary64 operands accepted in a binary32 batch")
	}
	if err := b.Run(Div, fpa.ToNearestAway); err == nil {
		t.Error("ToNearestAway accepted")
	}
}
