package serve

// This file keeps a second serving process off a SQLite database: the
// serving process holds an exclusive flock(2) on DATABASE.serve-lock
// while it accepts requests. Key management (serve keys add|revoke) does
// not take it, so it works against a live server; SQLite's own locking
// serialises their writes with the server's.
//
// Restarts: the old process releases the lock when it stops accepting
// connections, at the start of its drain, and the new one waits for it
// for up to -lock-wait (default 5 s). Old and new may therefore overlap
// while the old one finishes its requests in flight; that is safe,
// because every submission reads and writes the budget and the defence
// state inside one SQLite write transaction (defstate.go): two processes
// on one file behave as one. What the lock prevents is two servers
// accepting submissions at once by mistake, e.g. two copies of one
// config started by hand. PostgreSQL needs no lock: replicas are meant
// to share it. Nor does a defence_state_file: servers no longer write it;
// it is read once, under the database's lock on the import scope, then
// renamed (defstate.go), so two servers given one file import it once.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A serveLock is a held lock; release drops it.
type serveLock struct {
	mu sync.Mutex
	f  *os.File
}

// acquireServeLock takes the exclusive lock beside the SQLite database at
// dbPath, retrying every 50 ms for up to wait; it writes the holder's pid
// into the lock file for the message of the process refused.
func acquireServeLock(ctx context.Context, dbPath string, wait time.Duration) (*serveLock, error) {
	path := dbPath + ".serve-lock"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("serve: lock file: %w", err)
	}
	deadline := time.Now().Add(wait)
	for {
		err := tryLock(f)
		if err == nil {
			break
		}
		if !errors.Is(err, errLocked) {
			f.Close()
			return nil, fmt.Errorf("serve: lock %s: %w", path, err)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			b, _ := os.ReadFile(path)
			holder := strings.TrimSpace(string(b))
			f.Close()
			if holder == "" {
				holder = "another process"
			} else {
				holder = "process " + holder
			}
			return nil, fmt.Errorf("serve: the SQLite database %s is served by %s (lock %s held for %v): one server per SQLite file; run replicas on PostgreSQL, or stop the other server first", dbPath, holder, path, wait)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &serveLock{f: f}, nil
}

// release drops the lock (idempotent).
func (l *serveLock) release() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return
	}
	unlock(l.f)
	l.f.Close()
	l.f = nil
}

var errLocked = errors.New("locked")
