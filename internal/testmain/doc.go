// Package testmain is the TestMain of the module's test binaries that
// allocate heavily: it sets the garbage collector's target before the
// tests run. For the test binaries whose servers commit every write to
// SQLite it also puts the temporary directories on tmpfs (TmpfsTempDir).
//
// The numeric tests (decode, fpa, scorer, apa, …) allocate short-lived
// big.Int and big.Float temporaries at a high rate over a small live heap,
// so with the default GOGC of 100 the collector runs every few megabytes
// and its marking, sweeping and page returns (madvise) take about a
// quarter of decode's CPU under -short. A target of 400 collects a
// quarter as often; a soft memory limit keeps a test with a large live
// heap from growing to five times it. An explicit GOGC or GOMEMLIMIT in
// the environment wins, so `GOGC=100 go test` measures the default.
// Measured: discrete's tests take 2.25 s of CPU under -short with the
// default and 1.60 s tuned (medians of 3, alternated, loaded machine).
//
// Only tests use this package: a test file declares
//
//	func TestMain(m *testing.M) { os.Exit(testmain.Run(m)) }
//
// or calls Tune from its own TestMain.
package testmain
