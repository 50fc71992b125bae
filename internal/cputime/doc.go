// Package cputime reads the CPU time (user plus system) of the process and
// of the calling OS thread, so that an attack can report its own CPU time
// with an in-process scorer's excluded: the scorer's calls are timed on
// their thread (the goroutine locked to it for the call) and subtracted
// from the process's CPU time over the attack.
//
// The thread clock is getrusage(RUSAGE_THREAD) on Linux; elsewhere
// [Thread] reports ok = false and callers fall back to wall time.
package cputime
