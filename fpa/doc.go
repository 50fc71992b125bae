// Package fpa emulates binary floating-point arithmetic in any format — the
// papers' FPA(φ) model and the IEEE 754 formats — with summation in the
// orders scoring libraries use, rigorous bounds on the rounding error of
// a loss computed in a format, and the bits an attack needs.
//
// # Formats and precision
//
// A [Format] has ExpBits exponent bits (2..62) and FracBits fraction bits
// (1..10^6). FracBits counts the stored fraction WITHOUT the hidden bit,
// strconv's notion (52 for binary64); [Format.Prec] = FracBits+1 is the
// significand precision in big.Float's sense (53). This is the easiest
// off-by-one in the project. Presets: [Binary16], [BFloat16], [Binary32],
// [Binary64], [Binary128]; [FPA](φ) splits φ−1 bits evenly ([AKXFT21],
// [EA] App. D; above 125 bits the exponent stays at 62 and the rest goes
// to the fraction).
//
// # Values and operations
//
// A [Float] holds ±0, normal and subnormal numbers, ±Inf and NaN (one quiet
// NaN, no payloads). Operations follow math/big: z.Add(x, y) sets z to the
// correctly rounded x+y in z's format and rounding mode and returns z; z
// without a format takes its first operand's; aliasing is allowed; z.Acc()
// says whether the stored value is below, equal to or above the exact
// result. Add, Sub, Mul, Quo, Sqrt, FMA, Log, Log1p and Exp are all
// correctly rounded in the six modes of big.RoundingMode, with gradual
// underflow and IEEE overflow (to ±Inf or the largest finite value by
// mode). NaN, infinities, overflow and underflow are results, never
// panics or errors.
//
// For example, 1/3 in a 16-bit format of 5 exponent and 10 fraction bits,
// rounded up, and then its logarithm in the same format:
//
//	f := fpa.Format{ExpBits: 5, FracBits: 10} // binary16
//	one := fpa.New(f).SetInt64(1)
//	three := fpa.New(f).SetInt64(3)
//	q := fpa.New(f).SetMode(fpa.ToPositiveInf).Quo(one, three)
//	fmt.Println(q.Text('x', -1), q.Text('g', -1), q.Acc())
//	l := fpa.New(f).Log(q)
//	fmt.Println(l.Text('x', -1), l.Text('g', -1), l.Acc())
//
// prints the quotient and its logarithm, each as an exact hex float, the
// shortest decimal that identifies it, and the direction of its rounding
// (the package's Example shows the output).
//
// Conversions: [Float.SetFloat64], [Float.Float64], [Float.SetBig],
// [Float.Big], [Float.SetRat], [Float.SetBits] and [Float.Bits] (IEEE
// encodings up to 64 bits), [Parse] for decimal and hexadecimal strings,
// [Float.Text] with 'x' for Go's %x form ("0x1.8p+01") in any format.
//
// # The error of a loss computed in a format
//
// A [Loss] describes how a server's mean of N log terms is computed in a
// format: the rounding mode, a sum in a chosen [Order] — [Recursive],
// numpy's [Pairwise] (8 accumulators, blocks of 128, optional chunks),
// [Kahan] or PyTorch's [Cascade] ([CascadeSum]) — whether each
// probability comes out of a renormalised row, and the accuracy of the
// log. [Loss.Bound] and [Loss.TermBound] bound
// the distance to the exact loss rigorously (Higham's γ_k analysis
// [Higham02, Ch. 3–4], with the exact number of roundings each term goes
// through, [Depths]); [RoundDecimal] models a score reported to D
// decimals. The evaluation itself, with a library's clipping and log
// clamp, is package scorer's (scorer.FloatLoss): this package keeps the
// arithmetic and the summation.
//
// # Bit requirements
//
// [MinFormat] and [MinPhi] return the narrowest format whose evaluation
// error stays within an attack's slack (Λ/2 − τ, [EA, Prop 1]);
// [Prop3Phi] is [EA, Prop 3]'s bound, which only accounts for
// representing Λ and so is far too small for large N (see BENCHMARKS.md).
//
// # How it works
//
// Every operation computes an integer significand with a sticky bit and
// rounds it once; formats up to 64, 126 and 2,048 significand bits have
// word-level paths (amd64 assembly kernels for the widest), and the
// elementary functions accept a fast result only when its error interval
// decides the rounding (Ziv's test), falling back to package apa. The
// design note docs/design/fpa.md in the repository has the paths, the
// algorithms and their cost against native float64 and MPFR.
//
// # References
//
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML 2021.
//   - [EA] A. Aggarwal, S. P. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)". Some comments of this package still cite it
//     under its former key [KAX22].
//   - [Boldo09] S. Boldo, G. Melquiond, "Emulation of FMA and correctly
//     rounded sums: proved algorithms using rounding to odd", IEEE Trans.
//     Computers 57(4), 2008.
//   - [Higham02] N. J. Higham, "Accuracy and Stability of Numerical
//     Algorithms", 2nd ed., SIAM, 2002.
//   - [Kahan65] W. Kahan, "Further remarks on reducing truncation errors",
//     CACM 8(1), 1965.
//   - [Zim99] P. Zimmermann, "Karatsuba Square Root", INRIA Research
//     Report RR-3805, 1999.
//   - [MCA] R. P. Brent, P. Zimmermann, "Modern Computer Arithmetic",
//     Cambridge University Press, 2010.
//   - [Ziv91] A. Ziv, "Fast evaluation of elementary mathematical functions
//     with correctly rounded last bit", ACM TOMS 17(3), 1991.
//   - [Muller16] J.-M. Muller, "Elementary Functions: Algorithms and
//     Implementation", 3rd ed., Birkhäuser, 2016.
//   - [Fig95] S. A. Figueroa, "When is double rounding innocuous?", ACM
//     SIGNUM Newsletter 30(3), 1995.
package fpa
