// This file implements the segmented sieve of Eratosthenes.

package primes

import (
	"errors"
	"math"
)

// MaxN is the largest count accepted by [FirstN]: its bound on the n-th
// prime must fit comfortably in a uint64 and its output in memory.
const MaxN = 1 << 32

// ErrCount is returned by [FirstN] for n > MaxN.
var ErrCount = errors.New("primes: count out of range [0, 2^32]")

// NthUpperBound returns an integer B ≥ p_n, the n-th prime (p_1 = 2), for
// n ≥ 1. For n ≥ 6 it is ⌈n(ln n + ln ln n)⌉ + 1 [RS62, (3.13)]; the +1
// covers the float64 rounding of the logarithms (relative error below
// 2^-50 on a value below 2^38). NthUpperBound(0) is 0.
func NthUpperBound(n uint64) uint64 {
	small := [...]uint64{0, 2, 3, 5, 7, 11}
	if n < uint64(len(small)) {
		return small[n]
	}
	fn := float64(n)
	return uint64(math.Ceil(fn*(math.Log(fn)+math.Log(math.Log(fn))))) + 1
}

// segmentBytes is the sieve's segment: one byte per odd number, sized to
// stay in a 32 KiB L1 data cache.
const segmentBytes = 32 << 10

// UpTo returns the primes p ≤ x in increasing order.
func UpTo(x uint64) []uint64 {
	return sieve(x, math.MaxInt)
}

// FirstN returns the first n primes in increasing order. n = 10^6 takes
// about 30 ms on the reference machine (see BENCHMARKS.md).
func FirstN(n int) ([]uint64, error) {
	if n < 0 || uint64(n) > MaxN {
		return nil, ErrCount
	}
	if n == 0 {
		return nil, nil
	}
	return sieve(NthUpperBound(uint64(n)), n), nil
}

// sieve returns the primes up to x, at most limit of them, by a segmented
// sieve over odd numbers: the base primes up to √x are sieved first, then
// each segment [lo, lo+2·segmentBytes) is crossed off by them.
func sieve(x uint64, limit int) []uint64 {
	if x < 2 || limit <= 0 {
		return nil
	}
	est := int(float64(x)/math.Log(float64(x))*1.26) + 8 // π(x) < 1.26·x/ln x [RS62, (3.6)]
	out := make([]uint64, 0, min(est, limit))
	out = append(out, 2)
	if x < 3 || limit == 1 {
		return out
	}
	r := uint64(math.Sqrt(float64(x)))
	for (r+1)*(r+1) <= x {
		r++
	}
	for r*r > x {
		r--
	}
	// Base primes up to r by a plain odd-only sieve.
	var base []uint64
	if r >= 3 {
		comp := make([]bool, r/2+1) // comp[i] ⇔ 2i+1 composite
		for i := uint64(1); (2*i+1)*(2*i+1) <= r; i++ {
			if !comp[i] {
				p := 2*i + 1
				for j := p * p / 2; j <= r/2; j += p {
					comp[j] = true
				}
			}
		}
		for i := uint64(1); 2*i+1 <= r; i++ {
			if !comp[i] {
				base = append(base, 2*i+1)
			}
		}
	}
	seg := make([]bool, segmentBytes)
	// next[j] is the index in the current segment of the next odd multiple
	// of base[j] to cross off.
	next := make([]uint64, len(base))
	for j, p := range base {
		next[j] = (p*p - 3) / 2 // index of p² in the odd numbers from 3
	}
	// Segment s covers odd numbers 3 + 2·(s·segmentBytes + i).
	for lo := uint64(0); ; lo += segmentBytes {
		clear(seg)
		hiIdx := lo + segmentBytes
		for j, p := range base {
			k := next[j]
			for ; k < hiIdx; k += p {
				seg[k-lo] = true
			}
			next[j] = k
		}
		for i := uint64(0); i < segmentBytes; i++ {
			if seg[i] {
				continue
			}
			v := 3 + 2*(lo+i)
			if v > x {
				return out
			}
			out = append(out, v)
			if len(out) == limit {
				return out
			}
		}
	}
}
