//go:build mpfr && cgo

package mpfr

/*
#cgo LDFLAGS: -lmpfr -lgmp
#include <stdint.h>
#include <stdlib.h>
#include <gmp.h>
#include <mpfr.h>

static mpz_ptr lz_new(void) {
	mpz_ptr z = malloc(sizeof(__mpz_struct));
	mpz_init(z);
	return z;
}
static void lz_free(mpz_ptr z) { mpz_clear(z); free(z); }
static void lz_import(mpz_ptr z, const uint64_t *w, size_t n, int neg) {
	mpz_import(z, n, -1, 8, 0, 0, w);
	if (neg) mpz_neg(z, z);
}
static size_t lz_words(mpz_srcptr z) { return (mpz_sizeinbase(z, 2) + 63) / 64; }
static void lz_export(uint64_t *w, mpz_srcptr z) { size_t n; mpz_export(w, &n, -1, 8, 0, 0, z); }

static mpfr_ptr lf_new(mpfr_prec_t p) {
	mpfr_ptr f = malloc(sizeof(__mpfr_struct));
	mpfr_init2(f, p);
	return f;
}
static void lf_free(mpfr_ptr f) { mpfr_clear(f); free(f); }
static int mpz_sgn_wrap(mpz_srcptr z) { return mpz_sgn(z); }
static int mpfr_zero_p_wrap(mpfr_srcptr f) { return mpfr_zero_p(f); }

// A product tree of uint64 leaves: level 0 holds the leaves, the last
// level the root, as primes.ProductTree.
typedef struct { int levels; size_t *len; mpz_t **lv; } ltree;

static ltree *lt_new(const uint64_t *xs, size_t n) {
	ltree *t = malloc(sizeof(ltree));
	int L = 1;
	for (size_t m = n; m > 1; m = (m + 1) / 2) L++;
	t->levels = L;
	t->len = malloc(L * sizeof(size_t));
	t->lv = malloc(L * sizeof(mpz_t *));
	t->len[0] = n;
	t->lv[0] = malloc(n * sizeof(mpz_t));
	for (size_t i = 0; i < n; i++) {
		mpz_init(t->lv[0][i]);
		mpz_set_ui(t->lv[0][i], xs[i]);
	}
	for (int l = 1; l < L; l++) {
		size_t m = (t->len[l - 1] + 1) / 2;
		t->len[l] = m;
		t->lv[l] = malloc(m * sizeof(mpz_t));
		for (size_t i = 0; i < m; i++) {
			mpz_init(t->lv[l][i]);
			if (2 * i + 1 < t->len[l - 1])
				mpz_mul(t->lv[l][i], t->lv[l - 1][2 * i], t->lv[l - 1][2 * i + 1]);
			else
				mpz_set(t->lv[l][i], t->lv[l - 1][2 * i]);
		}
	}
	return t;
}
static mpz_srcptr lt_root(ltree *t) { return t->lv[t->levels - 1][0]; }
static void lt_free(ltree *t) {
	for (int l = 0; l < t->levels; l++) {
		for (size_t i = 0; i < t->len[l]; i++) mpz_clear(t->lv[l][i]);
		free(t->lv[l]);
	}
	free(t->lv); free(t->len); free(t);
}
// lt_rem writes x mod leaf_i to out[i] (leaves below 2^64) by a remainder
// tree of mpz_tdiv_r, the textbook algorithm of [Ber04, §18].
static void lt_rem(ltree *t, mpz_srcptr x, uint64_t *out) {
	int top = t->levels - 1;
	mpz_t *cur = malloc(sizeof(mpz_t));
	mpz_init(cur[0]);
	mpz_tdiv_r(cur[0], x, t->lv[top][0]);
	for (int l = top - 1; l >= 0; l--) {
		size_t m = t->len[l];
		mpz_t *nxt = malloc(m * sizeof(mpz_t));
		for (size_t i = 0; i < m; i++) {
			mpz_init(nxt[i]);
			mpz_tdiv_r(nxt[i], cur[i / 2], t->lv[l][i]);
		}
		for (size_t i = 0; i < t->len[l + 1]; i++) mpz_clear(cur[i]);
		free(cur);
		cur = nxt;
	}
	for (size_t i = 0; i < t->len[0]; i++) {
		out[i] = mpz_get_ui(cur[i]);
		mpz_clear(cur[i]);
	}
	free(cur);
}
*/
import "C"

import (
	"math/big"
	"runtime"
	"unsafe"
)

// Int is a GMP integer in C memory. Call Free when done.
type Int struct{ p C.mpz_ptr }

// NewInt returns x as a GMP integer.
func NewInt(x *big.Int) *Int {
	z := &Int{C.lz_new()}
	w := x.Bits()
	if len(w) > 0 {
		var pin runtime.Pinner
		pin.Pin(&w[0])
		neg := C.int(0)
		if x.Sign() < 0 {
			neg = 1
		}
		C.lz_import(z.p, (*C.uint64_t)(unsafe.Pointer(&w[0])), C.size_t(len(w)), neg)
		pin.Unpin()
	}
	return z
}

// Free releases z's C memory.
func (z *Int) Free() { C.lz_free(z.p); z.p = nil }

// Big returns z as a big.Int.
func (z *Int) Big() *big.Int {
	n := int(C.lz_words(z.p))
	if C.mpz_sgn_wrap(z.p) == 0 {
		return new(big.Int)
	}
	w := make([]big.Word, n)
	var pin runtime.Pinner
	pin.Pin(&w[0])
	C.lz_export((*C.uint64_t)(unsafe.Pointer(&w[0])), z.p)
	pin.Unpin()
	r := new(big.Int).SetBits(w)
	if C.mpz_sgn_wrap(z.p) < 0 {
		r.Neg(r)
	}
	return r
}

// Mul sets z to x·y by mpz_mul.
func (z *Int) Mul(x, y *Int) *Int { C.mpz_mul(z.p, x.p, y.p); return z }

// NewZero returns a GMP integer 0.
func NewZero() *Int { return &Int{C.lz_new()} }

// Float is an MPFR number in C memory. Call Free when done.
type Float struct{ p C.mpfr_ptr }

// NewFloat returns an MPFR number of precision prec bits (prec ≥ 2), set
// to +0.
func NewFloat(prec uint) *Float {
	f := &Float{C.lf_new(C.mpfr_prec_t(prec))}
	C.mpfr_set_zero(f.p, 1)
	return f
}

// SetBig sets f to x (finite), rounded to nearest to f's precision.
func (f *Float) SetBig(x *big.Float) *Float {
	if x.Sign() == 0 {
		C.mpfr_set_zero(f.p, 1)
		return f
	}
	ex := x.MantExp(nil)
	p := x.MinPrec()
	var t big.Float
	var m big.Int
	t.SetPrec(p).SetMantExp(x, int(p)-ex)
	t.Int(&m)
	z := NewInt(&m)
	C.mpfr_set_z_2exp(f.p, z.p, C.mpfr_exp_t(ex-int(p)), C.MPFR_RNDN)
	z.Free()
	return f
}

// Big returns f as a big.Float of f's precision (exact).
func (f *Float) Big() *big.Float {
	prec := uint(C.mpfr_get_prec(f.p))
	if C.mpfr_zero_p_wrap(f.p) != 0 {
		return new(big.Float).SetPrec(prec)
	}
	z := NewZero()
	e := int(C.mpfr_get_z_2exp(z.p, f.p))
	m := z.Big()
	z.Free()
	r := new(big.Float).SetPrec(prec).SetInt(m)
	return r.SetMantExp(r, e)
}

// Free releases f's C memory.
func (f *Float) Free() { C.lf_free(f.p); f.p = nil }

// Log sets f to ln x rounded to nearest (mpfr_log).
func (f *Float) Log(x *Float) *Float { C.mpfr_log(f.p, x.p, C.MPFR_RNDN); return f }

// Exp sets f to e^x rounded to nearest (mpfr_exp).
func (f *Float) Exp(x *Float) *Float { C.mpfr_exp(f.p, x.p, C.MPFR_RNDN); return f }

// Tree is a GMP product tree of uint64 leaves, built level by level with
// mpz_mul as primes.NewProductTree does.
type Tree struct{ p *C.ltree }

// NewTree builds the product tree of xs (non-empty).
func NewTree(xs []uint64) *Tree {
	var pin runtime.Pinner
	pin.Pin(&xs[0])
	defer pin.Unpin()
	return &Tree{C.lt_new((*C.uint64_t)(unsafe.Pointer(&xs[0])), C.size_t(len(xs)))}
}

// Root returns the product of the leaves.
func (t *Tree) Root() *big.Int {
	z := &Int{C.lz_new()}
	C.mpz_set(z.p, C.lt_root(t.p))
	r := z.Big()
	z.Free()
	return r
}

// Remainders writes x mod leaf_i into dst (len(dst) = number of leaves) by
// a remainder tree of mpz_tdiv_r.
func (t *Tree) Remainders(dst []uint64, x *Int) {
	var pin runtime.Pinner
	pin.Pin(&dst[0])
	defer pin.Unpin()
	C.lt_rem(t.p, x.p, (*C.uint64_t)(unsafe.Pointer(&dst[0])))
}

// Free releases t's C memory.
func (t *Tree) Free() { C.lt_free(t.p); t.p = nil }

// FreeCache frees MPFR's caches of π and ln 2 (mpfr_free_cache), so that
// the next call computes them again.
func FreeCache() { C.mpfr_free_cache() }
