// Package apa provides correctly rounded elementary functions of big.Float
// values at any precision: [Log], [Exp], [Log1p], [Softplus] and [LogRatio]
// (the log of a ratio of two big integers, as an exact scorer needs).
//
// Conventions follow math/big: the result goes in z and is returned;
// precision is a uint count of bits; a z of precision 0 takes its operand's
// precision; z's rounding mode is honoured and z.Acc() reports the
// direction of the rounding. Errors are returned, never panicked:
// [ErrDomain] for an argument outside the domain, [ErrRange] for a result
// beyond big.Float's exponent range, [ErrPrec] when no precision is given.
// big.ErrNaN never escapes.
//
// Every result is correctly rounded: each function computes an
// approximation with a rigorous error bound at a working precision of the
// target plus guard bits, and raises the working precision until both ends
// of the error interval round to the same value (Ziv's strategy [Ziv91]).
//
// Internally the package works on its own float (a big.Int mantissa and an
// int64 exponent) whose multiplications use a number-theoretic transform
// (three-prime FFT, with a squaring path) above a measured size
// (internal/bigmul), because big.Float multiplies with Karatsuba only and
// cannot be given another multiplier ([BIGNUM] §5). On it:
//   - the logarithm is the AGM formula ln s ≈ π/(2·AGM(1, 4/s)) with the
//     scaling s = x·2^k done as an exponent shift [MCA, §4.8.2];
//   - square roots use Newton's iteration for 1/√x with Karp–Markstein's
//     last step, reciprocals Newton's iteration, both on doubling precision
//     ladders [MCA, §3.4–3.5], [KM97];
//   - π comes from the Chudnovsky series and ln 2 from a Machin-like atanh
//     formula, both by binary splitting [HP98], computed on a second
//     goroutine while the AGM runs. The package-level functions compute
//     them on every call (no global mutable state); a caller that makes
//     many calls holds a [Consts], a cache safe for concurrent use, and
//     calls its methods, which return the same results;
//   - the exponential is a 6th-order Newton iteration on the logarithm,
//     y ← y·e^(r − ln y) with e^d summed to 6 terms, after the reduction
//     x = n·ln 2 + r [MCA, §4.2.5]: about 1.2 logarithms per call.
//
// At 10^6 bits Log is 3–4.6× faster than ALTree/bigfloat (without and with
// a warm [Consts]). It is about 2.2× slower than MPFR with warm constants,
// measured in the same run. BENCHMARKS.md §13 has the table; the cgo
// harness that measures it is internal/mpfr (build tag mpfr).
//
// # References
//
//   - [MCA] R. P. Brent, P. Zimmermann, "Modern Computer Arithmetic",
//     Cambridge University Press, 2010.
//   - [AS] M. Abramowitz, I. A. Stegun, "Handbook of Mathematical
//     Functions", NBS, 1964 (17.3.26: K near modulus 1).
//   - [KM97] A. H. Karp, P. Markstein, "High-precision division and square
//     root", ACM TOMS 23(4), 1997.
//   - [HP98] B. Haible, T. Papanikolaou, "Fast multiprecision evaluation of
//     series of rational numbers", ANTS-III, LNCS 1423, 1998.
//   - [Ziv91] A. Ziv, "Fast evaluation of elementary mathematical functions
//     with correctly rounded last bit", ACM TOMS 17(3), 1991.
//   - [BIGNUM] math/big, bigfloat and bigfft measured against MPFR/GMP
//     in one run: BENCHMARKS.md §13 and the internal/mpfr harness.
package apa
