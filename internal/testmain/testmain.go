package testmain

import (
	"flag"
	"os"
	"runtime/debug"
	"strconv"
	"testing"
)

// GCPercent is the garbage collector's target (GOGC) of a tuned test
// binary: the heap may grow to five times the live heap between
// collections.
const GCPercent = 400

// MemoryLimit is the soft memory limit (GOMEMLIMIT) of a tuned test
// binary, in bytes: past it the collector runs as often as it must,
// whatever GCPercent says.
const MemoryLimit = 1 << 30

// Tune sets the collector's target to GCPercent and the soft memory limit
// to MemoryLimit, each unless the environment (GOGC, GOMEMLIMIT) already
// sets it.
func Tune() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}

// Run calls Tune, then runs the tests and returns m.Run's exit code.
func Run(m *testing.M) int {
	Tune()
	return m.Run()
}

// TmpfsTempDir points TMPDIR, and so t.TempDir and os.MkdirTemp, at a new
// directory on tmpfs (/dev/shm) when there is one and the environment sets
// no TMPDIR, and returns the function that removes that directory (a
// no-op when nothing was set). A TestMain calls it before m.Run.
//
// A server's SQLite store commits each submission with synchronous=FULL,
// so tests that submit wait on the disk's fsync; on a shared disk that is
// most of their time (serve's tests under -short: 4 s wall and 1.35 s of
// CPU on the disk, 1.9 s and 0.7 s on tmpfs). What the tests check is the
// same on tmpfs: the database's contents, its locks, and what a killed
// process leaves (the kernel keeps every write it was given); only a
// power cut, which no test makes, tells the two apart. TMPDIR=/tmp go
// test runs them on the disk.
func TmpfsTempDir() (cleanup func()) {
	none := func() {}
	if _, set := os.LookupEnv("TMPDIR"); set {
		return none
	}
	if fi, err := os.Stat("/dev/shm"); err != nil || !fi.IsDir() {
		return none
	}
	dir, err := os.MkdirTemp("/dev/shm", "labelinf-test-")
	if err != nil {
		return none
	}
	// Open to all as /tmp is (sticky): the PostgreSQL a test starts runs
	// as another user (package internal/pgtest) and must reach its
	// directory inside.
	if os.Chmod(dir, os.ModeSticky|0o777) != nil || os.Setenv("TMPDIR", dir) != nil {
		os.Remove(dir)
		return none
	}
	return func() {
		os.Unsetenv("TMPDIR")
		os.RemoveAll(dir)
	}
}

// Parallel sets how many parallel tests run at once (-test.parallel) to n
// unless the command line sets it. A TestMain calls it before m.Run when
// its package's parallel tests mostly wait rather than compute: on
// loopback servers, subprocesses and timers (net/http lingers 500 ms
// before closing a connection whose request body it refused). The
// default, GOMAXPROCS, leaves the cores idle while two of them wait.
func Parallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(n))
	}
}
