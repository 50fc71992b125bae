package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoCostFollowsMemLimit: the demo's size check is the memory model
// against the budget of -memlimit, before anything is allocated: N = 10^7
// binary labels fits 7,000 MiB (BENCHMARKS.md, "Exact single query") but
// not the default 900; N = 10^6 fits the default.
func TestDemoCostFollowsMemLimit(t *testing.T) {
	mib := func(m int64) demoMem { return demoMem{bytes: m << 20, set: true, from: "test"} }
	assert.NoError(t, demoCost(10_000_000, 2, mib(7000)))
	assert.ErrorContains(t, demoCost(10_000_000, 2, mib(900)), "over test")
	assert.NoError(t, demoCost(1_000_000, 2, mib(900)))
	assert.NoError(t, demoCost(25_000, 2, mib(900)))
	// K grows the prediction as K² and the score as K.
	assert.Error(t, demoCost(100, 65536, mib(900)))
}

// TestDemoBudget: -memlimit's budget, its bad values, and the machine's
// memory as a bound where it is known.
func TestDemoBudget(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	b, err := demoBudget(900, false)
	require.NoError(t, err)
	assert.Equal(t, demoMem{bytes: 900 << 20, set: true, from: "-memlimit 900 MiB"}, b)
	_, err = demoBudget(-5, true)
	assert.ErrorContains(t, err, "-memlimit -5 MiB outside")
	// -memlimit 0 takes the runtime's limit (GOMEMLIMIT) when there is one.
	old := debug.SetMemoryLimit(2 << 30)
	defer debug.SetMemoryLimit(old)
	b, err = demoBudget(0, true)
	require.NoError(t, err)
	assert.Equal(t, int64(2<<30), b.bytes)
	assert.False(t, b.set)
	debug.SetMemoryLimit(math.MaxInt64)
	if total, ok := physicalMemory(); ok {
		_, err = demoBudget(int64(total>>20)+1, true)
		assert.ErrorContains(t, err, "over this machine's")
		b, err = demoBudget(0, true) // no GOMEMLIMIT: half the machine
		require.NoError(t, err)
		assert.Equal(t, int64(total/2), b.bytes)
		assert.False(t, b.set)
	} else if runtime.GOOS == "linux" {
		t.Fatal("physicalMemory unknown on Linux")
	}
}
