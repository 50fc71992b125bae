package testmain

import (
	"os"
	"runtime/debug"
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
