package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuditLoopback: labelinf audit's default mode, whose targets are
// real labelinf serve processes (this test binary as labelinf, see
// TestMain) attacked over loopback HTTP, prints the same JSON as
// -inprocess, byte for byte.
func TestAuditLoopback(t *testing.T) {
	// The servers' databases go to tmpfs where there is one: the test
	// checks the scores, not the disk's fsync.
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "labelinf-cli-test-"); err == nil {
			defer os.RemoveAll(dir)
			t.Setenv("TMPDIR", dir)
		}
	}
	args := []string{"audit", "-config", "testdata/audit_loopback.json", "-json", "-quiet", "-workers", "2"}
	var lo, in, errb bytes.Buffer
	require.Equal(t, 0, run(args, &lo, &errb), errb.String())
	require.Equal(t, 0, run(append(args, "-inprocess"), &in, &errb), errb.String())
	assert.Contains(t, lo.String(), `"ladder free/team"`)
	assert.Equal(t, in.String(), lo.String(), "loopback and in-process JSON differ")
}
