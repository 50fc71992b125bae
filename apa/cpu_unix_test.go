//go:build unix

package apa

import "syscall"

// cpuNanos returns the process's user+system CPU time in nanoseconds (all
// goroutines and the GC), or 0 if it cannot be read.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
