package cputime

import (
	"runtime"
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD (getrusage(2)).
const rusageThread = 1

// Process returns the CPU time the process has used so far, user plus
// system, and whether the clock could be read.
func Process() (time.Duration, bool) { return usage(syscall.RUSAGE_SELF) }

// Now returns the process's CPU time so far, user plus system (every
// goroutine and the GC), or 0 where the clock cannot be read: the one
// helper of the benchmarks' and calibrations' cpu-ns/op.
func Now() time.Duration {
	d, _ := Process()
	return d
}

// Thread returns the CPU time the calling OS thread has used so far, and
// whether the clock could be read (Linux only). The caller must hold its
// goroutine on the thread (runtime.LockOSThread) between two readings.
func Thread() (time.Duration, bool) {
	if runtime.GOOS != "linux" {
		return 0, false
	}
	return usage(rusageThread)
}

func usage(who int) (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// Call runs f on the calling goroutine locked to its OS thread and returns
// the thread CPU time f used (ok = false if the thread clock cannot be
// read; f still runs).
func Call(f func()) (d time.Duration, ok bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok0 := Thread()
	f()
	t1, ok1 := Thread()
	if !ok0 || !ok1 {
		return 0, false
	}
	return t1 - t0, true
}
