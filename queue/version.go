package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

var version struct {
	once sync.Once
	v    string
}

// Version is the code's version as the queue records it in every job:
// the VCS revision of a clean build ("git:<revision>"), else the SHA-256
// of the executable ("exe:<hash>", for a modified tree, a test binary
// or a build without VCS stamping). Workers and coordinator must agree
// on it; a coordinator and workers built from one clean commit agree on
// every machine.
func Version() string {
	version.once.Do(func() { version.v = computeVersion() })
	return version.v
}

func computeVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, modified string
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				modified = kv.Value
			}
		}
		if rev != "" && modified == "false" {
			return "git:" + rev
		}
	}
	exe, err := os.Executable()
	if err == nil {
		if f, err := os.Open(exe); err == nil {
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				return "exe:" + hex.EncodeToString(h.Sum(nil))
			}
		}
	}
	// No way to identify the code: a version no other process shares.
	return "unknown:" + hex.EncodeToString(sha256.New().Sum([]byte(exe)))
}

// queueName is the River queue of a version's cells.
func queueName(version string) string {
	h := sha256.Sum256([]byte(version))
	return "labelinf_" + hex.EncodeToString(h[:8])
}
