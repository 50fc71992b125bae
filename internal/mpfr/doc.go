// Package mpfr is the same-run baseline of labelinf's numeric core: a thin
// cgo binding to MPFR and GMP, built only with the build tag mpfr, and
// benchmarks that time apa, primes and internal/bigmul against MPFR and GMP
// on the same inputs in the same process, reporting the ratios.
//
// It needs Debian's libmpfr-dev and libgmp-dev:
//
//	apt-get install -y libmpfr-dev libgmp-dev
//	go test -tags mpfr ./internal/mpfr -run Agree        # bit equality
//	go test -tags mpfr ./internal/mpfr -run '^$' -bench . -benchtime 5x
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
package mpfr
