// Package mpfr is the same-run baseline of labelinf's numeric core: a thin
// cgo binding to MPFR, GMP and Arb (FLINT's ball arithmetic), built only
// with the build tag mpfr, and benchmarks that time apa, primes and
// internal/bigmul against MPFR, GMP and Arb on the same inputs in the same
// process, reporting the ratios.
//
// It needs Debian's libmpfr-dev, libgmp-dev and libflint-arb-dev:
//
//	apt-get install -y libmpfr-dev libgmp-dev libflint-arb-dev
//	go test -tags mpfr ./internal/mpfr -run Agree        # bit equality
//	go test -tags mpfr ./internal/mpfr -run '^$' -bench . -benchtime 5x
//	go test -tags mpfr -count=1 -timeout 60m -v -run TestLogExpTable ./internal/mpfr -args -logexp.reps 5
//
// The last prints the table of log and exp against MPFR and Arb
// (BENCHMARKS.md). Arb returns a ball, not a rounded value: the harness
// times both the ball at the target precision and the ball rounded to
// nearest by Ziv's strategy (Float.ArbRound), which is what a correctly
// rounded result costs with Arb, and counts the retries. MPFR's and Arb's
// constant caches are per OS thread, so the benchmarks lock theirs.
//
// Without the tag the package is empty, so the default build stays pure
// Go. Each benchmark alternates the implementations inside every
// repetition, takes medians, and reports both wall-clock and process CPU
// time (getrusage): MPFR and GMP run on one core, and a second goroutine
// in labelinf's code must not hide a slower algorithm. Metrics named
// ratio-wall and ratio-cpu are labelinf's median over the baseline's.
//
// # References
//
//   - [MPFR] L. Fousse, G. Hanrot, V. Lefèvre, P. Pélissier, P. Zimmermann,
//     "MPFR: A multiple-precision binary floating-point library with
//     correct rounding", ACM TOMS 33(2), 2007.
//   - [GMP] T. Granlund et al., "The GNU Multiple Precision Arithmetic
//     Library", https://gmplib.org.
//   - [Arb] F. Johansson, "Arb: efficient arbitrary-precision midpoint-radius
//     interval arithmetic", IEEE Trans. Computers 66(8), 2017.
//   - [Joh22] F. Johansson, "Computing elementary functions using
//     multi-prime argument reduction", arXiv:2207.02501, 2022.
package mpfr
