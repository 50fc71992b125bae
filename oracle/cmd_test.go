package oracle

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/scorer"
)

// TestMain doubles as an external scorer: with LABELINF_TEST_SCORER set,
// the test binary reads prediction lines and answers as the variable says.
func TestMain(m *testing.M) {
	if mode := os.Getenv("LABELINF_TEST_SCORER"); mode != "" {
		fakeScorer(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeScorer serves float64-sklearn scores of labels i%2, or misbehaves.
func fakeScorer(mode string) {
	m, _ := scorer.ParseModel(scorer.Float64Sklearn)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		switch mode {
		case "die":
			os.Exit(3)
		case "garbage":
			fmt.Println("hello")
			continue
		case "slow":
			time.Sleep(time.Hour)
		case "long":
			// A line of 2 MiB, twice what Cmd reads.
			fmt.Println(strings.Repeat("1", 2<<20))
			continue
		}
		var req struct{ Predictions []float64 }
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(4)
		}
		labels := make([]int, len(req.Predictions))
		for i := range labels {
			labels[i] = i % 2
		}
		r, err := m.Eval(labels, &scorer.Pred{K: 2, P: req.Predictions})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(5)
		}
		f, _ := r.Float64()
		fmt.Println(strconv.FormatFloat(f, 'g', -1, 64))
	}
}

func selfScorer(t *testing.T, mode string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	return "LABELINF_TEST_SCORER=" + mode + " '" + exe + "'"
}

func TestCmdScorer(t *testing.T) {
	c, err := NewCmd(selfScorer(t, "ok"), 5, 2, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.RoundTo = &fpa.Binary64
	p := &scorer.Pred{K: 2, P: []float64{0.1, 0.9, 0.5, 1e-300, 0.75}}
	got, err := c.Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := scorer.ParseModel(scorer.Float64Sklearn)
	want, _ := m.Eval([]int{0, 1, 0, 1, 0}, p)
	if got.Cmp(want) != 0 {
		t.Errorf("external score %s, want %s", got.FloatString(20), want.FloatString(20))
	}
	if c.Queries() != 1 {
		t.Errorf("Queries = %d", c.Queries())
	}
	if _, err := c.Score(context.Background(), &scorer.Pred{K: 2, P: []float64{0.5}}); err == nil {
		t.Error("wrong shape accepted")
	}
}

// TestCmdScorerFailures: a scorer that dies, answers garbage or never
// answers fails its query with an error that says which, and stays
// failed. The timeout is what is measured only for the scorer that never
// answers; the others get a deadline far beyond their start-up on any
// machine load, so that the test checks the failure, not the clock.
func TestCmdScorerFailures(t *testing.T) {
	const slowTimeout = 300 * time.Millisecond
	for _, c := range []struct {
		mode, want string
		timeout    time.Duration
	}{
		{"die", "exited", time.Minute},
		{"garbage", "not a decimal", time.Minute},
		{"slow", "did not answer", slowTimeout},
		{"long", "longer than", time.Minute},
	} {
		s, err := NewCmd(selfScorer(t, c.mode), 2, 2, c.timeout)
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		_, err = s.Score(context.Background(), &scorer.Pred{K: 2, P: []float64{0.5, 0.5}})
		el := time.Since(t0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.mode, err, c.want)
		}
		if c.mode == "slow" && el < slowTimeout {
			t.Errorf("slow: gave up after %v, before its timeout %v", el, slowTimeout)
		}
		if _, err2 := s.Score(context.Background(), &scorer.Pred{K: 2, P: []float64{0.5, 0.5}}); err2 == nil {
			t.Errorf("%s: scorer usable after a failure", c.mode)
		}
		s.Close()
	}
	if _, err := NewCmd("  ", 2, 2, 0); err == nil {
		t.Error("empty command accepted")
	}
}

// TestCmdScorerCancel: a scorer that never answers (with a child of its
// own) is stopped by its context within a second, and no process of its
// process group survives.
func TestCmdScorerCancel(t *testing.T) {
	// The shell starts a grandchild first, so the group has more than one
	// process.
	c, err := NewCmd("sleep 3600 & "+selfScorer(t, "slow"), 2, 2, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pgid := c.cmd.Process.Pid
	ctx, cancel := context.WithCancel(context.Background())
	const after = 100 * time.Millisecond
	time.AfterFunc(after, cancel)
	t0 := time.Now()
	_, err = c.Score(ctx, &scorer.Pred{K: 2, P: []float64{0.5, 0.5}})
	el := time.Since(t0)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
	if !(el < after+time.Second) {
		t.Errorf("Score returned %v after the cancellation", el-after)
	}
	// SIGKILL takes effect at once, but a killed grandchild stays a zombie
	// until its new parent reaps it: wait up to a second for the group's
	// live processes to be gone.
	var live []string
	for deadline := time.Now().Add(time.Second); ; time.Sleep(10 * time.Millisecond) {
		live = liveInGroup(t, pgid)
		if len(live) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(live) != 0 {
		t.Errorf("processes of the scorer's group survived: %v, want empty", live)
	}
}

// liveInGroup lists the processes of group pgid that are not zombies, from
// /proc/PID/stat ("pid (comm) state ppid pgrp ...").
func liveInGroup(t *testing.T, pgid int) []string {
	if syscall.Kill(-pgid, 0) == syscall.ESRCH {
		return nil
	}
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc to list the group: %v", err)
	}
	var live []string
	for _, d := range dirs {
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid pgrp ...
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			live = append(live, s[:i+1]+" "+f[0])
		}
	}
	return live
}
