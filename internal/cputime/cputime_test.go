package cputime

import (
	"runtime"
	"testing"
	"time"
)

// spin burns about d of CPU on the calling thread.
func spin(d time.Duration) (x float64) {
	for t0 := time.Now(); time.Since(t0) < d; {
		for i := range 1000 {
			x += float64(i) * 1e-9
		}
	}
	return x
}

// TestCall checks that a busy loop's thread CPU is counted and that a
// sleep's is not, and that the process clock covers the thread's.
func TestCall(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, ok := Call(func() {}); ok {
			t.Fatal("Call reports a thread clock off Linux")
		}
		return
	}
	p0, ok := Process()
	if !ok {
		t.Fatal("no process clock")
	}
	busy, ok := Call(func() { spin(60 * time.Millisecond) })
	if !ok {
		t.Fatal("no thread clock on Linux")
	}
	idle, _ := Call(func() { time.Sleep(60 * time.Millisecond) })
	p1, _ := Process()
	// A loaded machine may give the spin less than its wall time, but
	// some of it; a sleep costs (almost) none.
	if busy < time.Millisecond || idle > 20*time.Millisecond {
		t.Errorf("busy %v, idle %v: want busy ≥ 1ms and idle < 20ms", busy, idle)
	}
	if p1-p0 < busy {
		t.Errorf("process CPU %v below the thread's %v", p1-p0, busy)
	}
}
