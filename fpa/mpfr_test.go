//go:build mpfr

package fpa_test

// This file checks the n-word paths (127 to 2,048 bits) against MPFR in
// bulk, through internal/mpfrfmt (cgo; Debian libmpfr-dev libgmp-dev):
//
//	go test -tags mpfr ./fpa -run MPFRBulk

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/mpfrfmt"
	"github.com/labelinf/labelinf/internal/testrand"
)

// bulkOperand returns a value of f: a random significand of f's
// precision (40%), one of 1 to 8 bits (exact products and quotients,
// ties; 20%), a run of ones with a few bits cleared (products whose bits
// below the round bit are all ones or all zeros: the short product's Ziv
// test fails; 20%), or any exponent from the subnormals to Emax (18%),
// or ±0, ±Inf, NaN (2%).
func bulkOperand(r *rand.Rand, f fpa.Format, sqrt bool) *fpa.Float {
	z := fpa.New(f)
	p := int(f.Prec())
	lo, hi := int64(-8), int64(8)
	u := r.IntN(100)
	switch {
	case u < 2:
		switch r.IntN(3) {
		case 0:
			return z.SetZero(r.IntN(2) == 0)
		case 1:
			return z.SetInf(r.IntN(2) == 0)
		}
		return z.SetNaN()
	case u < 20:
		lo, hi = f.Emin()-int64(p)-1, f.Emax()
	}
	bitsN := p
	if u >= 40 && u < 60 {
		bitsN = 1 + r.IntN(8)
	}
	words := make([]big.Word, (bitsN+63)/64)
	for i := range words {
		words[i] = big.Word(r.Uint64())
		if u >= 60 && u < 80 {
			words[i] = ^big.Word(0) &^ (big.Word(r.Uint64N(2)) << r.IntN(64))
		}
	}
	m := new(big.Int).SetBits(words)
	m.Rsh(m, uint(len(words)*64-bitsN))
	m.SetBit(m, bitsN-1, 1)
	bf := new(big.Float).SetPrec(uint(bitsN)).SetInt(m)
	bf.SetMantExp(bf, int(lo+r.Int64N(hi-lo+1))-(bitsN-1))
	if !sqrt && r.IntN(2) == 0 {
		bf.Neg(bf)
	}
	return z.SetBig(bf)
}

// TestMPFRBulk compares Add, Sub, Mul, Quo, Sqrt and FMA with MPFR (value
// and ternary value) on 10,000 operand tuples per op in each of MPFR's
// five modes, 50,000 results per op and format, in the n-word formats
// m = 1,000, 191 bits with a 4-bit exponent (subnormals, overflow) and
// 2,047 bits.
func TestMPFRBulk(t *testing.T) {
	r := testrand.New(t)
	n := 10_000
	if testing.Short() {
		n = 500
	}
	for _, f := range []fpa.Format{{ExpBits: 20, FracBits: 1000}, {ExpBits: 4, FracBits: 191}, {ExpBits: 11, FracBits: 2047}} {
		for _, op := range []mpfrfmt.Op{mpfrfmt.Add, mpfrfmt.Sub, mpfrfmt.Mul, mpfrfmt.Div, mpfrfmt.Sqrt, mpfrfmt.FMA} {
			x, y, w := make([]*fpa.Float, n), make([]*fpa.Float, n), make([]*fpa.Float, n)
			for i := range n {
				x[i] = bulkOperand(r, f, op == mpfrfmt.Sqrt)
				y[i], w[i] = bulkOperand(r, f, false), bulkOperand(r, f, false)
				if r.IntN(8) == 0 { // y near x: cancellation, quotients near 1
					y[i].Set(x[i])
				}
			}
			bulkCheck(t, f, op, x, y, w)
		}
	}
}

// logOperand returns an argument for Log (log1p false) or Log1p: a
// typical operand of bulkOperand (positive for Log), or a hard case: 1 ±
// 2^−j (Log), a power of two times 1 ± 2^−j (Log), a tiny x = ±2^−j·(1+…)
// and −1 + 2^−j (Log1p), j up to 1,100, with random low bits.
func logOperand(r *rand.Rand, f fpa.Format, log1p bool) *fpa.Float {
	if r.IntN(2) == 0 {
		return bulkOperand(r, f, !log1p)
	}
	p := f.Prec()
	j := 1 + r.IntN(1100)
	t := new(big.Float).SetPrec(p).SetMantExp(big.NewFloat(1+r.Float64()), -j)
	if r.IntN(2) == 0 {
		t.Neg(t)
	}
	v := new(big.Float).SetPrec(p)
	switch u := r.IntN(3); {
	case log1p && u == 0:
		v.Add(big.NewFloat(-1), t.Abs(t))
	case log1p:
		v.Set(t)
	case u == 0:
		v.Add(big.NewFloat(1), t)
		v.SetMantExp(v, r.IntN(41)-20)
	default:
		v.Add(big.NewFloat(1), t)
	}
	return fpa.New(f).SetBig(v)
}

// TestMPFRBulkLog compares Log and Log1p with MPFR (value and ternary
// value) on 10,000 arguments per function in each of MPFR's five modes,
// 50,000 results per function and format, in formats served by the
// table-driven logarithm (m = 1,000, 150 bits, 1,999 bits):
//
//	go test -tags mpfr ./fpa -run MPFRBulkLog
func TestMPFRBulkLog(t *testing.T) {
	r := testrand.New(t)
	n := 10_000
	if testing.Short() {
		n = 300
	}
	for _, f := range []fpa.Format{{ExpBits: 20, FracBits: 1000}, {ExpBits: 15, FracBits: 150}, {ExpBits: 8, FracBits: 1999}} {
		for _, op := range []mpfrfmt.Op{mpfrfmt.Log, mpfrfmt.Log1p} {
			x := make([]*fpa.Float, n)
			for i := range n {
				x[i] = logOperand(r, f, op == mpfrfmt.Log1p)
			}
			bulkCheck(t, f, op, x, x, x)
		}
	}
}

// bulkCheck runs op on every operand triple in MPFR's five modes, in MPFR
// and in fpa, and reports the results whose value or ternary differ (the
// first five of them in full).
func bulkCheck(t *testing.T, f fpa.Format, op mpfrfmt.Op, x, y, w []*fpa.Float) {
	t.Helper()
	b, err := mpfrfmt.NewBatch(f, x, y, w)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	bad, total := 0, 0
	z := fpa.New(f)
	for _, mode := range mpfrfmt.Modes {
		if err := b.Run(op, mode); err != nil {
			t.Fatal(err)
		}
		z.SetMode(mode)
		for i := range x {
			op.Apply(z, x[i], y[i], w[i])
			total++
			if err := b.Check(i, z); err != nil {
				if bad++; bad <= 5 {
					t.Errorf("%v %v %v: %v (x=%v y=%v w=%v)", f, op, mode, err, x[i].Text('x', -1), y[i].Text('x', -1), w[i].Text('x', -1))
				}
			}
		}
	}
	t.Logf("%v %v: %d results, %d mismatches", f, op, total, bad)
}
