//go:build mpfr

package mpfrfmt

/*
#cgo LDFLAGS: -lmpfr -lgmp
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <mpfr.h>

// arr_new allocates n MPFR variables of precision prec, set to +0.
static mpfr_ptr arr_new(int n, long prec) {
	mpfr_ptr a = malloc((size_t)n * sizeof(__mpfr_struct));
	for (int i = 0; i < n; i++) {
		mpfr_init2(a + i, prec);
		mpfr_set_zero(a + i, 1);
	}
	return a;
}

static void arr_free(mpfr_ptr a, int n) {
	for (int i = 0; i < n; i++) mpfr_clear(a + i);
	free(a);
}

// set_elem sets a[i] to (−1)^neg · m · 2^e with m given as big-endian bytes
// (exactly: the precision holds m), or to a special value by kind:
// 0 zero, 1 finite, 2 inf, 3 nan.
static void set_elem(mpfr_ptr a, int i, int kind, int neg, const unsigned char *m, size_t len, long e) {
	mpfr_ptr x = a + i;
	switch (kind) {
	case 0: mpfr_set_zero(x, neg ? -1 : 1); return;
	case 2: mpfr_set_inf(x, neg ? -1 : 1); return;
	case 3: mpfr_set_nan(x); return;
	}
	mpz_t z;
	mpz_init(z);
	mpz_import(z, len, 1, 1, 1, 0, m);
	if (neg) mpz_neg(z, z);
	mpfr_set_z_2exp(x, z, e, MPFR_RNDN);
	mpz_clear(z);
}

// get_elem returns a[i]'s kind (as set_elem's), sign and, for a finite
// value, its significand as big-endian bytes in a malloc'd *m (*len bytes)
// and exponent *e: the value is (−1)^neg · m · 2^e.
static int get_elem(mpfr_ptr a, int i, int *neg, unsigned char **m, size_t *len, long *e) {
	mpfr_ptr x = a + i;
	*neg = mpfr_signbit(x) != 0;
	*m = NULL;
	*len = 0;
	if (mpfr_nan_p(x)) { *neg = 0; return 3; }
	if (mpfr_inf_p(x)) return 2;
	if (mpfr_zero_p(x)) return 0;
	mpz_t z;
	mpz_init(z);
	*e = mpfr_get_z_2exp(z, x);
	mpz_abs(z, z);
	*m = mpz_export(NULL, len, 1, 1, 1, 0, z);
	mpz_clear(z);
	return 1;
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_FMA, OP_LOG, OP_EXP, OP_LOG1P };

// run sets r[i] = op(x[i], y[i], w[i]) for i < n in MPFR's emulation of a
// format: exponent range [emin, emax] and mpfr_subnormalize after each
// operation; tern[i] receives the final ternary value. The previous
// exponent range is restored.
static void run(int op, mpfr_ptr r, mpfr_ptr x, mpfr_ptr y, mpfr_ptr w, int n, int rnd, long emin, long emax, int *tern) {
	mpfr_exp_t oldmin = mpfr_get_emin(), oldmax = mpfr_get_emax();
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	mpfr_rnd_t m = (mpfr_rnd_t)rnd;
	for (int i = 0; i < n; i++) {
		int t = 0;
		switch (op) {
		case OP_ADD: t = mpfr_add(r + i, x + i, y + i, m); break;
		case OP_SUB: t = mpfr_sub(r + i, x + i, y + i, m); break;
		case OP_MUL: t = mpfr_mul(r + i, x + i, y + i, m); break;
		case OP_DIV: t = mpfr_div(r + i, x + i, y + i, m); break;
		case OP_SQRT: t = mpfr_sqrt(r + i, x + i, m); break;
		case OP_FMA: t = mpfr_fma(r + i, x + i, y + i, w + i, m); break;
		case OP_LOG: t = mpfr_log(r + i, x + i, m); break;
		case OP_EXP: t = mpfr_exp(r + i, x + i, m); break;
		case OP_LOG1P: t = mpfr_log1p(r + i, x + i, m); break;
		}
		tern[i] = mpfr_subnormalize(r + i, t, m);
	}
	mpfr_set_emin(oldmin);
	mpfr_set_emax(oldmax);
}
*/
import "C"

import (
	"fmt"
	"math/big"
	"unsafe"

	"github.com/labelinf/labelinf/fpa"
)

// An Op is one of the operations compared.
type Op int

// The operations, in MPFR's names.
const (
	Add Op = iota
	Sub
	Mul
	Div
	Sqrt
	FMA
	Log
	Exp
	Log1p
)

// Ops lists every Op.
var Ops = []Op{Add, Sub, Mul, Div, Sqrt, FMA, Log, Exp, Log1p}

var opNames = [...]string{"add", "sub", "mul", "div", "sqrt", "fma", "log", "exp", "log1p"}

func (op Op) String() string { return opNames[op] }

// Arity returns the number of operands op takes.
func (op Op) Arity() int {
	switch op {
	case Sqrt, Log, Exp, Log1p:
		return 1
	case FMA:
		return 3
	}
	return 2
}

// Apply sets z to op(x, y, w) with fpa (y and w are ignored when op takes
// fewer operands).
func (op Op) Apply(z, x, y, w *fpa.Float) {
	switch op {
	case Add:
		z.Add(x, y)
	case Sub:
		z.Sub(x, y)
	case Mul:
		z.Mul(x, y)
	case Div:
		z.Quo(x, y)
	case Sqrt:
		z.Sqrt(x)
	case FMA:
		z.FMA(x, y, w)
	case Log:
		z.Log(x)
	case Exp:
		z.Exp(x)
	case Log1p:
		z.Log1p(x)
	}
}

// Modes lists the rounding modes MPFR implements for every operation
// (all of fpa's but ToNearestAway).
var Modes = []fpa.RoundingMode{fpa.ToNearestEven, fpa.ToZero, fpa.ToPositiveInf, fpa.ToNegativeInf, fpa.AwayFromZero}

func mpfrRnd(m fpa.RoundingMode) (C.int, error) {
	switch m {
	case fpa.ToNearestEven:
		return C.MPFR_RNDN, nil
	case fpa.ToZero:
		return C.MPFR_RNDZ, nil
	case fpa.ToPositiveInf:
		return C.MPFR_RNDU, nil
	case fpa.ToNegativeInf:
		return C.MPFR_RNDD, nil
	case fpa.AwayFromZero:
		return C.MPFR_RNDA, nil
	}
	return 0, fmt.Errorf("mpfrfmt: MPFR has no rounding mode %v for every operation", m)
}

// A Batch holds n operand tuples and n results in MPFR variables of a
// format's precision. It owns C memory: call Free when done.
type Batch struct {
	f          fpa.Format
	n          int
	x, y, w, r C.mpfr_ptr
	tern       *C.int
}

// NewBatch copies the operand tuples (x[i], y[i], w[i]) into MPFR
// variables of f's precision; y and w may be nil for unary operations.
// Every operand must be a value of f.
func NewBatch(f fpa.Format, x, y, w []*fpa.Float) (*Batch, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	n := len(x)
	if n == 0 || (y != nil && len(y) != n) || (w != nil && len(w) != n) {
		return nil, fmt.Errorf("mpfrfmt: operand slices of lengths %d, %d, %d", len(x), len(y), len(w))
	}
	prec := C.long(f.Prec())
	b := &Batch{f: f, n: n}
	b.x, b.y, b.w, b.r = C.arr_new(C.int(n), prec), C.arr_new(C.int(n), prec), C.arr_new(C.int(n), prec), C.arr_new(C.int(n), prec)
	b.tern = (*C.int)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.int(0)))))
	for k, src := range [][]*fpa.Float{x, y, w} {
		dst := [...]C.mpfr_ptr{b.x, b.y, b.w}[k]
		for i, v := range src {
			if v.Format() != f {
				b.Free()
				return nil, fmt.Errorf("mpfrfmt: operand %d in format %v, want %v", i, v.Format(), f)
			}
			setElem(dst, i, v)
		}
	}
	return b, nil
}

// Len returns the number of tuples.
func (b *Batch) Len() int { return b.n }

// Free releases b's C memory.
func (b *Batch) Free() {
	for _, a := range []C.mpfr_ptr{b.x, b.y, b.w, b.r} {
		if a != nil {
			C.arr_free(a, C.int(b.n))
		}
	}
	C.free(unsafe.Pointer(b.tern))
	*b = Batch{}
}

func setElem(a C.mpfr_ptr, i int, v *fpa.Float) {
	kind, neg := 0, v.Signbit()
	switch {
	case v.IsNaN():
		kind = 3
	case v.IsInf():
		kind = 2
	case !v.IsZero():
		kind = 1
	}
	if kind != 1 {
		C.set_elem(a, C.int(i), C.int(kind), cbool(neg), nil, 0, 0)
		return
	}
	_, m, e, _ := v.MantExp()
	buf := m.Bytes()
	C.set_elem(a, C.int(i), 1, cbool(neg), (*C.uchar)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), C.long(e))
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// Run sets result i to op applied to tuple i, for every i, in MPFR's
// emulation of b's format in rounding mode mode.
func (b *Batch) Run(op Op, mode fpa.RoundingMode) error {
	rnd, err := mpfrRnd(mode)
	if err != nil {
		return err
	}
	p := int64(b.f.Prec())
	C.run(C.int(op), b.r, b.x, b.y, b.w, C.int(b.n), rnd, C.long(b.f.Emin()-p+2), C.long(b.f.Emax()+1), b.tern)
	return nil
}

// Check compares z, fpa's result for tuple i, with MPFR's: the same value
// (sign, zero, infinity and NaN included) and an Acc agreeing with MPFR's
// ternary value. It returns nil when they agree.
func (b *Batch) Check(i int, z *fpa.Float) error {
	var neg C.int
	var m *C.uchar
	var ln C.size_t
	var e C.long
	kind := C.get_elem(b.r, C.int(i), &neg, &m, &ln, &e)
	var want string
	switch kind {
	case 3:
		want = "NaN"
	case 2:
		want = map[bool]string{false: "+Inf", true: "-Inf"}[neg != 0]
	case 0:
		want = map[bool]string{false: "+0", true: "-0"}[neg != 0]
	default:
		mant := new(big.Int).SetBytes(C.GoBytes(unsafe.Pointer(m), C.int(ln)))
		C.free(unsafe.Pointer(m))
		want = canon(neg != 0, mant, int64(e))
	}
	got := text(z)
	t := *(*C.int)(unsafe.Add(unsafe.Pointer(b.tern), i*int(unsafe.Sizeof(C.int(0)))))
	wantAcc := big.Exact
	switch {
	case kind == 3:
		wantAcc = z.Acc() // MPFR's ternary value is 0 for NaN; fpa's Acc is Exact too
	case t > 0:
		wantAcc = big.Above
	case t < 0:
		wantAcc = big.Below
	}
	if got != want || z.Acc() != wantAcc {
		return fmt.Errorf("fpa %s (%v), MPFR %s (%v)", got, z.Acc(), want, wantAcc)
	}
	return nil
}

// text writes a value canonically: sign, odd significand in hex, exponent.
func text(z *fpa.Float) string {
	switch {
	case z.IsNaN():
		return "NaN"
	case z.IsInf():
		return map[bool]string{false: "+Inf", true: "-Inf"}[z.Signbit()]
	case z.IsZero():
		return map[bool]string{false: "+0", true: "-0"}[z.Signbit()]
	}
	neg, m, e, _ := z.MantExp()
	return canon(neg, m, e)
}

func canon(neg bool, m *big.Int, e int64) string {
	tz := m.TrailingZeroBits()
	m = new(big.Int).Rsh(m, tz)
	s := "+"
	if neg {
		s = "-"
	}
	return fmt.Sprintf("%s0x%sp%+d", s, m.Text(16), e+int64(tz))
}
