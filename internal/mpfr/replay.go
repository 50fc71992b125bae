//go:build mpfr && cgo

package mpfr

/*
#include <stdint.h>
#include <gmp.h>

// lr_gmp runs the n products xn[i] × yn[i] words (xn[i] ≥ yn[i] ≥ 1) with
// GMP's mpn_mul, or mpn_sqr where sq[i], on the leading words of the
// pools a and b, into r (room for the longest product).
static void lr_gmp(const int64_t *xn, const int64_t *yn, const uint8_t *sq, size_t n,
		const mp_limb_t *a, const mp_limb_t *b, mp_limb_t *r) {
	for (size_t i = 0; i < n; i++) {
		if (sq[i])
			mpn_sqr(r, a, xn[i]);
		else
			mpn_mul(r, a, xn[i], b, yn[i]);
	}
}
*/
import "C"

import (
	"math/big"
	"math/rand/v2"
	"runtime"
	"unsafe"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// MulTrace is the sequence of products (operand sizes in words) that one
// computation asked of internal/bigmul, recorded by RecordMuls, and
// operands of those sizes to replay them on bigmul and on GMP. Below 32,000
// words (2 million bits) Arb multiplies with GMP's mpn_mul too (arf.h,
// ARF_USE_FFT_MUL), so the GMP replay is also what the products would cost
// Arb. A product modulo 2^N − 1 (bigmul.MulWrap) is replayed on bigmul as
// such, and on GMP, whose mpn_mulmod_bnm1 is not public, as the full
// product of two N/2-bit operands, which has as many result bits. A short
// product (bigmul.MulHigh) is replayed on bigmul as such and on GMP as the
// full product (mpn_mulhigh is not public; Arb's own products are full).
type MulTrace struct {
	xn, yn []int64
	sq     []uint8
	wrap   []uint     // bigmul.Product.WrapBits
	high   []uint     // bigmul.Product.HighShift
	a, b   []big.Word // operand pools: a product of x by y words reads a[:x], b[:y]
	r      []big.Word
	gx, gy []int64 // the GMP replay's sizes (gx ≥ gy)
}

// RecordMuls runs f with bigmul's trace set (bigmul.SetTrace) and returns
// the products it made. f must be the only user of bigmul meanwhile.
func RecordMuls(f func()) *MulTrace {
	t := new(MulTrace)
	bigmul.SetTrace(func(p bigmul.Product) {
		if p.YWords == 0 {
			return // a product by zero multiplies nothing
		}
		t.xn = append(t.xn, int64(p.XWords))
		t.yn = append(t.yn, int64(p.YWords))
		s := uint8(0)
		if p.Square {
			s = 1
		}
		t.sq = append(t.sq, s)
		t.wrap = append(t.wrap, p.WrapBits)
		t.high = append(t.high, p.HighShift)
		gx, gy := int64(p.XWords), int64(p.YWords)
		if p.WrapBits > 0 {
			gx = int64(p.WrapBits+127) / 128
			gy = gx
		}
		t.gx = append(t.gx, gx)
		t.gy = append(t.gy, gy)
	})
	f()
	bigmul.SetTrace(nil)
	n := int64(1)
	for i, x := range t.xn {
		n = max(n, x, t.gx[i])
	}
	r := rand.New(rand.NewPCG(uint64(n), 34))
	t.a, t.b = make([]big.Word, n), make([]big.Word, n)
	for i := range t.a {
		t.a[i] = big.Word(r.Uint64() | 1<<63)
		t.b[i] = big.Word(r.Uint64() | 1<<63)
	}
	t.r = make([]big.Word, 2*n)
	return t
}

// Len returns the number of products recorded.
func (t *MulTrace) Len() int { return len(t.xn) }

// Shorts returns the number of short products (bigmul.MulHigh) recorded:
// the bigmul replay makes them short, the GMP replay full.
func (t *MulTrace) Shorts() int {
	n := 0
	for _, h := range t.high {
		if h > 0 {
			n++
		}
	}
	return n
}

// Words returns the sum over the products of their operands' words.
func (t *MulTrace) Words() int64 {
	var s int64
	for i := range t.xn {
		s += t.xn[i] + t.yn[i]
	}
	return s
}

// ReplayGMP makes the recorded products again with mpn_mul and mpn_sqr
// (a wrapped product as a full one of as many result bits).
func (t *MulTrace) ReplayGMP() {
	if len(t.xn) == 0 {
		return
	}
	var pin runtime.Pinner
	for _, p := range []any{&t.gx[0], &t.gy[0], &t.sq[0], &t.a[0], &t.b[0], &t.r[0]} {
		pin.Pin(p)
	}
	defer pin.Unpin()
	C.lr_gmp((*C.int64_t)(unsafe.Pointer(&t.gx[0])), (*C.int64_t)(unsafe.Pointer(&t.gy[0])),
		(*C.uint8_t)(unsafe.Pointer(&t.sq[0])), C.size_t(len(t.xn)),
		(*C.mp_limb_t)(unsafe.Pointer(&t.a[0])), (*C.mp_limb_t)(unsafe.Pointer(&t.b[0])),
		(*C.mp_limb_t)(unsafe.Pointer(&t.r[0])))
}

// ReplayBigmul makes the recorded products again with bigmul (Mul,
// MulWrap or MulHigh, as recorded).
func (t *MulTrace) ReplayBigmul() {
	var x, y, z big.Int
	for i := range t.xn {
		x.SetBits(t.a[:t.xn[i]])
		if w := t.wrap[i]; w > 0 {
			// The pool's operands fill their top words: a modulus of
			// at least their length.
			ys := &x
			if t.sq[i] == 0 {
				y.SetBits(t.b[:t.yn[i]])
				ys = &y
			}
			bigmul.MulWrap(&z, &x, ys, max(w, 64*uint(t.xn[i])))
			continue
		}
		if h := t.high[i]; h > 0 {
			ys := &x
			if t.sq[i] == 0 {
				y.SetBits(t.b[:t.yn[i]])
				ys = &y
			}
			bigmul.MulHigh(&z, &x, ys, h)
			continue
		}
		if t.sq[i] != 0 {
			bigmul.Mul(&z, &x, &x)
			continue
		}
		y.SetBits(t.b[:t.yn[i]])
		bigmul.Mul(&z, &x, &y)
	}
}
