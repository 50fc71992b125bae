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
// For example, ln 2 to 200 bits, correctly rounded, and the direction of
// the rounding:
//
//	z := new(big.Float).SetPrec(200)
//	if _, err := apa.Log(z, big.NewFloat(2)); err != nil {
//		fmt.Println(err)
//		return
//	}
//	fmt.Println(z.Text('g', 60), z.Acc())
//
// (ExampleLog shows its output.) A program that takes many logarithms or
// exponentials at one large precision holds a [Consts], which caches π and
// ln 2 (safe for concurrent use), and calls its methods.
//
// # How it works
//
// Logarithms and exponentials use a multi-prime argument reduction
// (x = Σ e_i·ln p_i + r over the primes 2 … 37, r tiny) and a short series
// [Joh22]: logarithms an atanh series from 53 to 500,000 working bits
// (above 4,096 through a [Consts] used more than once, which caches the
// primes' logarithms), the AGM otherwise; exponentials a Taylor series
// below 250,000 bits, Newton's iteration on the logarithm above;
// multiplications a number-theoretic transform above a measured size
// (internal/bigmul), since big.Float has only Karatsuba. The design note
// docs/design/apa.md in the repository has the algorithms, and
// BENCHMARKS.md their speed against MPFR, measured in the same run.
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
//   - [Joh22] F. Johansson, "Computing elementary functions using
//     multi-prime argument reduction", arXiv:2207.02501, 2022.
//   - [MG11] N. Möller, T. Granlund, "Improved division by invariant
//     integers", IEEE Trans. Computers 60(2), 2011.
//   - [Ziv91] A. Ziv, "Fast evaluation of elementary mathematical functions
//     with correctly rounded last bit", ACM TOMS 17(3), 1991.
//   - [BIGNUM] math/big, bigfloat and bigfft measured against MPFR/GMP
//     in one run: BENCHMARKS.md, "Numeric core against MPFR and GMP", and
//     the internal/mpfr harness.
package apa
