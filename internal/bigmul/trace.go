// This file implements the multiplication trace of measurement harnesses.

package bigmul

import "sync/atomic"

// Product describes one multiplication for SetTrace.
type Product struct {
	XWords, YWords int  // operand sizes in words, XWords ≥ YWords
	Square         bool // x == y
	// WrapBits is 0 for a full product (Mul), and MulWrap's minBits for a
	// product modulo 2^N − 1 made by the transform (a MulWrap that falls
	// back to Mul reports that Mul instead).
	WrapBits uint
	// HighShift is, for MulHigh, its sh: the product's bits below 2^sh
	// are not wanted (a short product), and 0 for any other product.
	HighShift uint
}

// traceHook is the function that SetTrace installed, or nil.
var traceHook atomic.Pointer[func(Product)]

// SetTrace makes every later product of Mul (and so Sqr), MulWrap and MulHigh
// report its shape to f before multiplying, and SetTrace(nil) stops it.
// It is for measurement harnesses: internal/mpfr records the products of
// one apa.Log call and replays them on GMP, to tell the cost of the
// multiplication from that of the algorithm. Calls from several
// goroutines reach f concurrently. The cost when no trace is set is one
// atomic load per product.
func SetTrace(f func(Product)) {
	if f == nil {
		traceHook.Store(nil)
		return
	}
	traceHook.Store(&f)
}

func trace(p Product) {
	if h := traceHook.Load(); h != nil {
		(*h)(p)
	}
}
