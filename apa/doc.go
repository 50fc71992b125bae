// Package apa provides correctly rounded elementary functions of big.Float
// values at any precision: [Log], [Exp], [Log1p], [Softplus] and [LogRatio]
// (the log of a ratio of two big integers, as an exact scorer needs).
// [Add] and [Sub] round as big.Float's do at a cost that does not grow
// with the operands' exponent gap (exact scores sum e^(−z) beside z).
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
// (three-prime FFT, with a squaring path and lengths n + n/2 between the
// powers of two) above a measured size (internal/bigmul), because
// big.Float multiplies with Karatsuba only and cannot be given another
// multiplier ([BIGNUM] §5). On it:
//   - the logarithm is the AGM formula ln s = π/(2·AGM(1, 4/s)) with the
//     scaling s = x·2^k done as an exponent shift [MCA, §4.8.2]; three
//     terms of the expansion of the elliptic integral K in κ = (4/s)²
//     [AS, 17.3.26] let s be 2^(w/8) instead of 2^(w/2), and three terms of
//     K's series in η = (a−b)/(a+b) end the AGM once η < 2^-(w/8), four
//     steps fewer in all;
//   - square roots use Newton's iteration for √x coupled with one for
//     1/(2√x), whose operands stay half-sized, and reciprocals Newton's
//     iteration, both on doubling precision ladders [MCA, §3.4–3.5],
//     [KM97]; the AGM's square roots reuse their temporaries;
//   - π comes from the Chudnovsky series and ln 2 from a Machin-like atanh
//     formula, both by binary splitting [HP98], computed on a second
//     goroutine while the AGM runs; up to 2^19 = 524,288 bits they are read from a
//     generated table (consttab.go) instead. The package-level functions
//     compute larger ones on every call (no global mutable state); a
//     caller that makes many calls holds a [Consts], a cache safe for
//     concurrent use, and calls its methods, which return the same
//     results;
//   - the exponential is a 6th-order Newton iteration on the logarithm,
//     y ← y·e^(r − ln y) with e^d summed to 6 terms, after the reduction
//     x = n·ln 2 + r [MCA, §4.2.5]: about 1.2 logarithms per call.
//
// With a warm [Consts], Log and Exp take about 1.7–2.7× MPFR's CPU time
// at 10^4 to 10^6 bits, measured in the same run (BENCHMARKS.md §20 has
// the table; the cgo harness that measures it is internal/mpfr, build tag
// mpfr).
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
