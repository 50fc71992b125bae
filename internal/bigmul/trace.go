// This file implements the multiplication trace of measurement harnesses.

package bigmul

import "sync/atomic"

// traceHook is the function that SetTrace installed, or nil.
var traceHook atomic.Pointer[func(xWords, yWords int, sq bool)]

// SetTrace makes every later call of Mul (and so Sqr) report its operand
// sizes in words to f before multiplying, x the longer and sq true for a
// square, and SetTrace(nil) stops it. It is for measurement harnesses:
// internal/mpfr records the products of one apa.Log call and replays them
// on GMP's mpn_mul, to tell the cost of the multiplication from that of
// the algorithm. Calls from several goroutines reach f concurrently. The
// cost when no trace is set is one atomic load per Mul.
func SetTrace(f func(xWords, yWords int, sq bool)) {
	if f == nil {
		traceHook.Store(nil)
		return
	}
	traceHook.Store(&f)
}
