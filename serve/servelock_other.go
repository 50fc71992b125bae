//go:build !unix

package serve

import "os"

// Without flock(2) the lock is not taken (SQLite's own locking still
// serialises writers).
func tryLock(f *os.File) error { return nil }

func unlock(f *os.File) {}
