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
// Every operation computes an integer R and exponent e with a sticky bit,
// the exact value lying in [R, R+1)·2^e, and rounds it once ([Boldo09]'s
// round-to-odd argument makes this exact for any mode). When every
// significand fits in 64 bits (FracBits ≤ 63), Add, Sub, Mul and Quo run
// on 128-bit words from math/bits (about 3–6× slower than native float64
// on binary64); wider formats use big.Int. Log, Log1p and Exp take a
// float64 fast path in formats of at most 45 bits (Go's libm result,
// widened to ±4 ulps, accepted when that interval decides the rounding)
// and otherwise apa's correctly rounded functions at Prec+2 bits; for
// exponents beyond big.Float's int32 range they reduce the argument and
// apply Ziv's strategy [Ziv91].
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
// numpy's [Pairwise] (8 accumulators, blocks of 128, optional chunks) or
// [Kahan] — whether each probability comes out of a renormalised row,
// and the accuracy of the log. [Loss.Bound] and [Loss.TermBound] bound
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
//   - [Ziv91] A. Ziv, "Fast evaluation of elementary mathematical functions
//     with correctly rounded last bit", ACM TOMS 17(3), 1991.
//   - [Fig95] S. A. Figueroa, "When is double rounding innocuous?", ACM
//     SIGNUM Newsletter 30(3), 1995.
package fpa
