// Package mpfrfmt compares fpa with GNU MPFR set up to emulate the same
// binary format, in one process: the exponent range is narrowed with
// mpfr_set_emin/mpfr_set_emax and every result goes through
// mpfr_subnormalize, which together give IEEE 754 gradual underflow and
// overflow in any precision [MPFR, §5.3 "mpfr_subnormalize"]. Its tests
// check that fpa's results and accuracies equal MPFR's bit for bit, and
// its benchmark times both on the same operands and reports fpa ÷ MPFR.
//
// The package needs cgo and MPFR (Debian: libmpfr-dev libgmp-dev) and is
// built only with the build tag mpfr; without it the package is empty and
// the module stays pure Go:
//
//	go test -tags mpfr ./internal/mpfrfmt
//	go test -tags mpfr ./internal/mpfrfmt -run '^$' -bench VsMPFR -benchtime 5x
//
// MPFR's exponent e means a value in [2^(e−1), 2^e), so a format with
// normal exponents [Emin, Emax] and precision p is emulated with
// emin = Emin − p + 2 and emax = Emax + 1.
//
// # References
//
//   - [MPFR] The MPFR team, "GNU MPFR: The Multiple Precision
//     Floating-Point Reliable Library", manual for version 4.2, 2023.
package mpfrfmt
