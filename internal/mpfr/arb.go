//go:build mpfr && cgo

package mpfr

/*
#cgo LDFLAGS: -lflint-arb -lflint -lmpfr -lgmp
#include <stdlib.h>
#include <gmp.h>
#include <mpfr.h>
#include <flint/flint.h>
#include <arb.h>

static arb_ptr la_new(void) {
	arb_ptr b = malloc(sizeof(arb_struct));
	arb_init(b);
	return b;
}
static void la_free(arb_ptr b) { arb_clear(b); free(b); }
static void la_set_mpfr(arb_ptr b, mpfr_srcptr x) {
	arf_t t;
	arf_init(t);
	arf_set_mpfr(t, x);
	arb_set_arf(b, t);
	arf_clear(t);
}
static void la_fn(arb_ptr z, arb_srcptr x, int fn, slong prec) {
	if (fn == 0)
		arb_log(z, x, prec);
	else
		arb_exp(z, x, prec);
}
static slong la_accuracy(arb_srcptr b) { return arb_rel_accuracy_bits(b); }

// la_round sets out to fn(x) rounded to nearest to out's precision p
// from balls: Ziv's strategy on Arb's enclosures. It evaluates the ball
// at p + guard bits, rounds both exact endpoints mid ∓ rad to nearest at p
// bits, and accepts when they agree (rounding is monotone, so every point
// of the ball, among them the true value, rounds to the same float);
// otherwise it raises the working precision by half, as apa's loop does,
// and counts a retry. It returns the number of retries, or -1 if the
// working precision passed 64·p + 4096 (a bug: fn is transcendental here).
static int la_round(mpfr_ptr out, arb_srcptr x, int fn, slong guard) {
	slong p = mpfr_get_prec(out);
	arb_t y;
	arf_t lo, hi, rlo, rhi;
	arb_init(y);
	arf_init(lo); arf_init(hi); arf_init(rlo); arf_init(rhi);
	int retries = 0;
	for (slong wp = p + guard;; wp += wp / 2 + 16) {
		if (wp > 64 * p + 4096) { retries = -1; break; }
		la_fn(y, x, fn, wp);
		if (arb_is_finite(y)) {
			arb_get_lbound_arf(lo, y, ARF_PREC_EXACT);
			arb_get_ubound_arf(hi, y, ARF_PREC_EXACT);
			arf_set_round(rlo, lo, p, ARF_RND_NEAR);
			arf_set_round(rhi, hi, p, ARF_RND_NEAR);
			if (arf_equal(rlo, rhi)) {
				arf_get_mpfr(out, rlo, MPFR_RNDN); // exact: rlo has p bits
				break;
			}
		}
		retries++;
	}
	arb_clear(y);
	arf_clear(lo); arf_clear(hi); arf_clear(rlo); arf_clear(rhi);
	return retries;
}
*/
import "C"

// Ball is an Arb ball (FLINT's arb_t, a midpoint and a radius) in C
// memory. Call Free when done.
type Ball struct{ p C.arb_ptr }

// NewBall returns the exact ball [0 ± 0].
func NewBall() *Ball { return &Ball{C.la_new()} }

// Free releases b's C memory.
func (b *Ball) Free() { C.la_free(b.p); b.p = nil }

// SetFloat sets b to the exact ball [x ± 0].
func (b *Ball) SetFloat(x *Float) *Ball { C.la_set_mpfr(b.p, x.p); return b }

// Log sets b to a ball containing ln x, computed by arb_log at prec bits.
func (b *Ball) Log(x *Ball, prec uint) *Ball { C.la_fn(b.p, x.p, 0, C.slong(prec)); return b }

// Exp sets b to a ball containing e^x, computed by arb_exp at prec bits.
func (b *Ball) Exp(x *Ball, prec uint) *Ball { C.la_fn(b.p, x.p, 1, C.slong(prec)); return b }

// Accuracy returns b's relative accuracy in bits (arb_rel_accuracy_bits):
// about −log2(radius/|midpoint|).
func (b *Ball) Accuracy() int { return int(C.la_accuracy(b.p)) }

// ArbFunc names the function that [Float.ArbRound] evaluates.
type ArbFunc int

const (
	ArbLog ArbFunc = iota // natural logarithm, arb_log
	ArbExp                // exponential, arb_exp
)

// ArbRound sets f to fn(x) correctly rounded to nearest at f's precision,
// from Arb's balls by Ziv's strategy: the ball at f's precision plus guard
// bits, raised by half until both of its ends round to the same float. It
// returns the number of raises (retries), and ok = false if the loop gave
// up (which is a bug: at a transcendental value it ends).
func (f *Float) ArbRound(x *Ball, fn ArbFunc, guard uint) (retries int, ok bool) {
	r := int(C.la_round(f.p, x.p, C.int(fn), C.slong(guard)))
	return r, r >= 0
}

// ArbFreeCache frees FLINT's and Arb's caches on the calling OS thread
// (flint_cleanup): the constants π and ln 2, the logarithms of the primes
// that Arb's multi-prime argument reduction keeps, and FLINT's other
// tables, so that the next call computes them again. Arb's caches are
// thread-local, so a benchmark that times them warm or cold locks its OS
// thread (runtime.LockOSThread), as it must for MPFR's.
func ArbFreeCache() { C.flint_cleanup() }
