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
// round-to-odd argument makes this exact for any mode). The arithmetic
// paths, by format width (after a result's first use, none allocates per
// operation unless noted):
//
//   - significands of at most 64 bits (FracBits ≤ 63): Add, Sub, Mul, Quo,
//     FMA and Sqrt on 128- and 192-bit words from math/bits;
//   - 65 to 126 bits (binary128): Add, Sub, Mul, Quo and Sqrt on 256-bit
//     words (Add of operands less than 64 places apart on 192 bits, Sqrt
//     by Zimmermann's SqrtRem [Zim99]), FMA on 384-bit words;
//   - 127 to 2,048 bits (m = 1,000): the significands' words read in
//     place and every result rounded straight into z's words (roundW):
//     Add and Sub on the words, Mul by a short product with a Ziv test
//     (the full product when it fails; math/big's product without the
//     assembly), Quo by a short Knuth division with a Ziv test (the exact
//     division when it fails), Sqrt by SqrtRem [MCA, Algorithm 1.12] on
//     words; FMA sums on big.Int and rounds with the same word-level
//     rounding. On amd64 with BMI2 and ADX the word loops (products,
//     multiply-subtract, the division, shifts, shifted sums) are assembly
//     kernels (mulw_amd64.s) checked word for word against their math/bits
//     versions, which run elsewhere (and under the purego build tag);
//   - wider: big.Int with pooled scratch integers (Sqrt by a
//     precision-halving Newton iteration); above 4,096-word intermediates
//     the scratch is not kept.
//
// Log, Log1p and Exp take, in order: a float64 path up to 45 bits (Go's
// libm result widened to ±4 ulps), a double-double path up to 53 bits
// (Tang's table-driven algorithms, relative error below 2^−98), ln128's
// logarithm up to 120 bits, and up to 2,000 bits a fixed-point exp with a
// cached ln 2 and a Newton logarithm built on it; each result is accepted
// only when its error interval decides the rounding (Ziv's test [Ziv91]),
// and otherwise, as in wider formats, apa's correctly rounded functions at
// Prec+2 bits run; for exponents beyond big.Float's int32 range they
// reduce the argument and apply Ziv's strategy. Beyond 53 bits these
// paths allocate.
//
// Measured cost (BENCHMARKS.md; same-run ratios, medians of five
// alternating repetitions on a loaded 2-core machine, load average
// 22–31). Against native float64 on a register-resident dependent chain,
// binary64 Add is about 26× slower, Mul 14×, Quo 3.9×. Against MPFR
// emulating the same format (mpfr_set_emin/emax, mpfr_subnormalize;
// internal/mpfrfmt), fpa ÷ MPFR per operation:
//
//	format       add   sub   mul   div   sqrt  fma   log   exp   log1p
//	binary32     1.2   1.2   0.88  1.1   1.2   1.2   0.03  0.05  0.04
//	binary64     1.1   1.2   0.83  1.0   1.2   1.2   0.14  0.16  0.04
//	binary128    1.7   1.6   1.8   1.5   1.5   1.5   2.2   2.6   1.9
//	m = 1,000    2.0   2.1   1.4   1.5   1.8   1.8   3.5   2.1   3.1
//	m = 100,000  1.8   1.9   2.2   2.4   6.5   2.2   7.0   5.6   7.1
//
// (m = FracBits with 20 exponent bits. MPFR's binary32/binary64 log, exp
// and log1p times swing most between repetitions: 0.02–0.2.)
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
//   - [Fig95] S. A. Figueroa, "When is double rounding innocuous?", ACM
//     SIGNUM Newsletter 30(3), 1995.
package fpa
