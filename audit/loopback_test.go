package audit

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/defence"
)

// TestLoopbackEqualsInProcess: the same small grid audited in process
// and against real labelinf serve instances over loopback HTTP gives the
// same JSON, byte for byte: every defence of the default grid's kinds
// (rounding, fresh noise, both Ladders global and per team, a daily
// limit, a split, random subsets), unrounded and rounded, with the
// honest submissions as separate teams.
func TestLoopbackEqualsInProcess(t *testing.T) {
	rows, measure := 60, 200
	if testing.Short() {
		rows, measure = 24, 100
	}
	grid := []Cell{
		{Name: "none"},
		{Name: "round 2", Defence: defence.Settings{Decimals: intp(2)}},
		{Name: "gauss", Defence: defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.02}}},
		{Name: "ladder fixed", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01"}}},
		{Name: "ladder free per team", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", PerTeam: true}, Decimals: intp(5)}},
		{Name: "5/day", Defence: defence.Settings{Limits: defence.LimitSettings{PerDay: 5}}},
		{Name: "split", Defence: defence.Settings{Split: &defence.SplitSettings{Public: 0.5}}},
		{Name: "subset", Defence: defence.Settings{Subset: rows / 2}},
	}
	if testing.Short() {
		grid = []Cell{grid[2], grid[4], grid[6]}
	}
	js := func(f TargetFactory) string {
		t.Helper()
		cfg := &Config{Rows: rows, LabelSeed: 3, Seed: 4, Measure: measure, Grid: grid, Metric: "float64-sklearn", Clip: "1e-3", Decimals: intp(4)}
		rep, err := Run(context.Background(), cfg, Options{Target: f, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// The servers' databases go to tmpfs where there is one: the test
	// checks the scores, not the disk's fsync.
	dir, err := os.MkdirTemp(shm(), "labelinf-audit-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	in, lo := js(InProcess), js(Loopback(LoopbackOptions{Dir: dir}))
	if in != lo {
		os.WriteFile(dir+"/inprocess.json", []byte(in), 0o644)
		os.WriteFile(dir+"/loopback.json", []byte(lo), 0o644)
		t.Fatalf("in-process and loopback JSON differ (%d and %d bytes)\nin-process:\n%s\nloopback:\n%s", len(in), len(lo), in, lo)
	}
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("%d target directories left behind", len(left))
	}
}

// shm returns /dev/shm if it is a writable directory, else "" (the
// default temporary directory).
func shm() string {
	f, err := os.CreateTemp("/dev/shm", "labelinf-probe-")
	if err != nil {
		return ""
	}
	f.Close()
	os.Remove(f.Name())
	return "/dev/shm"
}

// shmDir returns a new directory under shm() for the loopback servers'
// databases, removed when t ends: the tests check the scores, not the
// disk's fsync (each submission commits with synchronous=FULL), which on
// a disk took two thirds of TestAuditMetrics' loopback wall time.
func shmDir(t *testing.T) string {
	dir, err := os.MkdirTemp(shm(), "labelinf-audit-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// TestLoopbackBadConfig: a server that cannot start (an unknown metric)
// is an error naming serve's complaint, and leaves no directory behind.
func TestLoopbackBadConfig(t *testing.T) {
	dir := t.TempDir()
	_, err := Loopback(LoopbackOptions{Dir: dir})(context.Background(), Spec{Labels: []int{0, 1, 1}, Metric: "no-such-scorer", Cell: Cell{Name: "none"}})
	if err == nil || !strings.Contains(err.Error(), "labelinf serve did not start") || !strings.Contains(err.Error(), "no-such-scorer") {
		t.Fatalf("Loopback with a bad metric: err = %v; want serve's complaint", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("%d directories left behind", len(left))
	}
}
