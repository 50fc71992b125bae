package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/pgtest"
	"github.com/labelinf/labelinf/internal/testmain"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manual returns doc.go's package doc, which go doc ./cmd/labelinf prints.
func manual(t *testing.T) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	require.NoError(t, err)
	p, err := doc.NewFromFiles(fset, []*ast.File{f}, "github.com/labelinf/labelinf/cmd/labelinf")
	require.NoError(t, err)
	return p.Doc
}

// flagSets returns every subcommand's flag set, as the command builds it,
// by running the command with -h (which prints the defaults and stops).
func flagSets(t *testing.T) map[string]*flag.FlagSet {
	t.Helper()
	sets := map[string]*flag.FlagSet{}
	for _, c := range commands {
		var errb bytes.Buffer
		code := run([]string{c.name, "-h"}, io.Discard, &errb)
		require.Equal(t, 2, code, "%s -h", c.name)
		sets[c.name] = parseDefaults(t, errb.String())
	}
	return sets
}

// parseDefaults reads the flag names out of a flag set's PrintDefaults.
func parseDefaults(t *testing.T, s string) *flag.FlagSet {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`).FindAllStringSubmatch(s, -1) {
		fs.Bool(m[1], false, "")
	}
	return fs
}

func TestManualNamesEveryFlag(t *testing.T) {
	man := manual(t)
	usageLines := map[string]string{}
	for _, l := range strings.Split(usage, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "usage:"))
		if name, ok := strings.CutPrefix(l, "labelinf "); ok {
			cmd, _, _ := strings.Cut(name, " ")
			usageLines["cur"] = cmd
		}
		usageLines[usageLines["cur"]] += " " + l
	}
	n := 0
	for name, fs := range flagSets(t) {
		fs.VisitAll(func(f *flag.Flag) {
			n++
			re := regexp.MustCompile(`(^|[\s\[(,])-` + regexp.QuoteMeta(f.Name) + `\b`)
			assert.True(t, re.MatchString(man), "the manual does not name %s's flag -%s", name, f.Name)
			assert.True(t, re.MatchString(usageLines[name]), "the short usage of %s does not name -%s", name, f.Name)
		})
	}
	assert.Greater(t, n, 40, "flags found")
}

func TestUsageMatchesManual(t *testing.T) {
	man := manual(t)
	_, block, ok := strings.Cut(man, "Usage:\n\n")
	require.True(t, ok)
	block, _, _ = strings.Cut(block, "\n\n")
	var want []string
	for _, l := range strings.Split(block, "\n") {
		want = append(want, strings.TrimPrefix(l, "\t"))
	}
	var got []string
	for _, l := range strings.Split(usage, "\n") {
		if strings.HasPrefix(l, "run 'labelinf help'") {
			continue
		}
		got = append(got, strings.TrimPrefix(strings.TrimPrefix(l, "usage: "), "       "))
	}
	assert.Equal(t, want, got, "the short usage (run.go) and the manual's Usage block (main.go) differ")
}

// failWriter fails every write, as a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func TestWriteErrorsExitNonZero(t *testing.T) {
	for _, args := range [][]string{
		{"plan", "-n", "100", "-json"},
		{"plan", "-n", "100"},
		{"demo", "-n", "50", "-kn", "0"},
		{"demo", "-n", "50", "-kn", "0", "-json"},
		{"fpa", "-op", "add", "1", "2"},
		{"attack", "-n", "50", "-json"},
		{"attack", "-n", "50"},
		{"version"},
		{"help"},
	} {
		var errb bytes.Buffer
		code := run(args, failWriter{}, &errb)
		assert.Equal(t, 1, code, "%v", args)
		assert.Contains(t, errb.String(), "no space left on device", "%v", args)
	}
}

func TestRejectedValues(t *testing.T) {
	// The demo's size check reads GOMEMLIMIT when -memlimit is not given:
	// a limit in the tester's environment must not turn a refusal into a
	// run of N = 3·10^6.
	t.Setenv("GOMEMLIMIT", "")
	dir := t.TempDir()
	long := filepath.Join(dir, "long.txt")
	require.NoError(t, os.WriteFile(long, []byte("0\n1\n"+strings.Repeat("1", 70_000)+"\n"), 0o644))
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"attack", "-n", "10", "-noise", "gaussian", "-tau", "0.1", "-delta", "0"}, "-delta 0 outside (0, 1)"},
		{[]string{"attack", "-n", "10", "-noise", "gaussian", "-tau", "0.1", "-delta", "1"}, "δ = 1 outside (0, 1)"},
		{[]string{"attack", "-n", "10", "-noise", "bounded", "-tau", "0.1", "-delta", "0.1"}, "-delta does not apply"},
		{[]string{"attack", "-n", "10", "-tau", "0.1"}, "-tau does not apply without -noise"},
		{[]string{"plan", "-n", "10", "-delta", "0.1"}, "-delta does not apply without -noise"},
		{[]string{"attack", "-n", "10", "-noise", "bounded"}, "-tau 0: -noise bounded needs"},
		{[]string{"attack", "-n", "10", "-scorer", "cmd:cat", "-assume", "float64-sklearn", "-timeout", "0"}, "-timeout 0s"},
		{[]string{"attack", "-n", "10", "-timeout", "5s"}, "-timeout does not apply to a simulated scorer"},
		{[]string{"attack", "-n", "10", "-assume", "float64-sklearn"}, "-assume is only for"},
		{[]string{"attack", "-scorer", "cmd:   ", "-assume", "float64-sklearn", "-n", "10"}, "the program is empty"},
		{[]string{"attack", "-n", "100", "-scorer", "fpa:11,1000000"}, "1000000 fraction bits, over the 16384"},
		{[]string{"attack", "-n", "67108864"}, "-n 67108864 outside [1, 131072]"},
		{[]string{"attack", "-n", "1000", "-scorer", "fpa:11,10000"}, "N²·M = 1e+10, over the 4294967296"},
		{[]string{"attack", "-strategy", "blocks", "-weights", "conway-guy", "-n", "10"}, "-weights does not apply to -strategy blocks"},
		{[]string{"attack", "-n", "10", "-margin", "0.1"}, "-margin does not apply"},
		// A multi-query strategy that does not apply is not run (kbin fell
		// back to cross at K = 2): the error says why and names auto's pick.
		{[]string{"attack", "-n", "500", "-strategy", "kbin"}, "-strategy kbin does not apply: kbin needs K > 2, not 2 (-strategy auto picks hybrid here)"},
		{[]string{"attack", "-n", "500", "-k", "3", "-strategy", "hybrid"}, "hybrid needs K = 2, not 3 (-strategy auto picks kbin here)"},
		{[]string{"attack", "-n", "500", "-scorer", "leaderboard", "-strategy", "carry"}, "-strategy auto picks leaderboard here"},
		{[]string{"attack", "-n", "10", "-encoding", "prob"}, "-encoding does not apply"},
		{[]string{"attack", "-scorer", "apa", "-strategy", "robust-single", "-noise", "bounded", "-tau", "1", "-n", "10", "-check"}, "-check does not apply to -strategy robust-single"},
		{[]string{"attack", "-scorer", "apa", "-strategy", "robust-single", "-noise", "bounded", "-tau", "1", "-n", "10", "-partial-out", "x"}, "-partial-out does not apply"},
		{[]string{"attack", "-scorer", "apa", "-strategy", "robust-single", "-noise", "bounded", "-tau", "1", "-n", "10", "-margin", "0"}, "-margin 0"},
		{[]string{"attack", "-out", "a", "-partial-out", "./a", "-n", "10"}, "same file"},
		{[]string{"attack", "-labels", long}, "long.txt:3: line longer than"},
		{[]string{"blia", "-hidden", "-5"}, "-hidden \"-5\""},
		{[]string{"blia", "-model", "mlp", "-hidden", "8,0"}, "widths ≥ 1"},
		{[]string{"blia", "-model", "logreg", "-hidden", "8"}, "-hidden does not apply to -model logreg"},
		{[]string{"blia", "-epochs", "3"}, "-epochs does not apply to -model logreg"},
		{[]string{"blia", "-model", "mlp", "-lambda", "0.1"}, "-lambda does not apply to -model mlp"},
		{[]string{"demo", "-n", "1", "-kn", "100", "-k", "65536"}, "6.07e+07 bits"},
		// The size check follows -memlimit: over the default 900 MiB, and
		// (a model of over 5 GiB) over 1,000 MiB, before allocating.
		{[]string{"demo", "-n", "3000000", "-kn", "0"}, "over -memlimit 900 MiB; lower -n, -kn or -k, or raise -memlimit"},
		{[]string{"demo", "-n", "10000000", "-kn", "0", "-memlimit", "1000"}, "over -memlimit 1000 MiB"},
		{[]string{"demo", "-memlimit", "-1"}, "-memlimit -1 MiB outside [0, 1099511627776]"},
		{[]string{"demo", "-memlimit", "2000000000000"}, "-memlimit 2000000000000 MiB outside"},
		{[]string{"fpa", "-op", "add", "1", "2", "-nope"}, "flag provided but not defined: -nope"},
		{[]string{"version", "extra"}, "unexpected argument"},
	} {
		var out, errb bytes.Buffer
		code := run(tt.args, &out, &errb)
		assert.Equal(t, 2, code, "%v: %s", tt.args, errb.String())
		assert.Contains(t, errb.String(), tt.want, "%v", tt.args)
		assert.Empty(t, out.String(), "%v", tt.args)
	}
}

func TestOutOnlyVerified(t *testing.T) {
	dir := t.TempDir()
	outFile, partial := filepath.Join(dir, "out.txt"), filepath.Join(dir, "partial.txt")
	// A scorer that always answers ln 2 is no scorer of these labels: the
	// attack fails, -out must not be written, -partial-out says so.
	var out, errb bytes.Buffer
	code := run([]string{"attack", "-n", "40", "-scorer", "cmd:while read l; do echo 0.6931471805599453; done", "-assume", "float64-sklearn",
		"-out", outFile, "-partial-out", partial}, &out, &errb)
	assert.Equal(t, 1, code)
	assert.Contains(t, errb.String(), "not written")
	_, err := os.Stat(outFile)
	assert.True(t, errors.Is(err, os.ErrNotExist), "-out written by a failed attack")
	b, err := os.ReadFile(partial)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	assert.True(t, strings.HasPrefix(lines[0], "# labelinf partial labels: NOT verified"), lines[0])
	_, err = strconv.Atoi(lines[0])
	assert.Error(t, err, "a reader of -out's format must reject the partial file")
	rows := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		require.Len(t, f, 3, l)
		assert.Equal(t, strconv.Itoa(rows), f[0])
		assert.Contains(t, []string{"model", "unknown"}, f[2], l)
		if f[2] == "unknown" {
			assert.Equal(t, "-1", f[1])
		}
		rows++
	}
	assert.Equal(t, 40, rows)

	// -allow-partial exits 0 but still writes no unverified -out.
	code = run([]string{"attack", "-n", "40", "-scorer", "cmd:while read l; do echo 0.6931471805599453; done", "-assume", "float64-sklearn",
		"-out", outFile, "-allow-partial"}, &out, &errb)
	assert.Equal(t, 0, code)
	_, err = os.Stat(outFile)
	assert.True(t, errors.Is(err, os.ErrNotExist), "-out written by a failed attack with -allow-partial")

	// A verified attack writes exactly one label per line, and -partial-out
	// marks every row verified.
	labels := filepath.Join(dir, "y.txt")
	require.NoError(t, os.WriteFile(labels, []byte("1\n0\n2\n1\n0\n2\n2\n0\n"), 0o644))
	code = run([]string{"attack", "-k", "3", "-labels", labels, "-out", outFile, "-partial-out", partial}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	b, err = os.ReadFile(outFile)
	require.NoError(t, err)
	assert.Equal(t, "1\n0\n2\n1\n0\n2\n2\n0\n", string(b))
	b, err = os.ReadFile(partial)
	require.NoError(t, err)
	assert.Contains(t, string(b), "# labelinf partial labels: verified")
	assert.Contains(t, string(b), "\n7 0 verified\n")
}

func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"version"}, &out, &errb), errb.String())
	// In a test binary the main module is the package's module.
	assert.Regexp(t, `^labelinf \S+ \S+`, out.String())
}

// TestMain makes the test binary labelinf itself when
// LABELINF_TEST_MAIN=1, so that the tests that need a real process (exit
// status, signals, /dev/full) run the real main without building it.
func TestMain(m *testing.M) {
	if os.Getenv("LABELINF_TEST_MAIN") == "1" {
		main()
		return
	}
	selfEnv = []string{"LABELINF_TEST_MAIN=1"}
	code := testmain.Run(m)
	pgtest.StopShared() // the queue tests' shared PostgreSQL
	os.Exit(code)
}

// labelinfProcess returns labelinf with args as a real process: the test binary
// running main (see TestMain).
func labelinfProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "LABELINF_TEST_MAIN=1")
	return cmd
}

func TestDevFull(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full on this system")
	}
	defer full.Close()
	cmd := labelinfProcess(t, "plan", "-n", "100", "-json")
	cmd.Stdout = full
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "labelinf plan -json > /dev/full must fail")
	assert.Equal(t, 1, ee.ExitCode())
	assert.Contains(t, errb.String(), "writing output")
}

// groupAlive reports the processes of group pgid that are alive (not
// zombies), read from /proc.
func groupAlive(t *testing.T, pgid int) []string {
	ents, err := os.ReadDir("/proc")
	require.NoError(t, err)
	var alive []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && f[0] != "Z" {
			alive = append(alive, e.Name()+" "+s[:strings.LastIndexByte(s, ')')+1])
		}
	}
	return alive
}

func TestSignalKillsScorerGroup(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			// The scorer ignores SIGTERM, SIGINT and the end of its input,
			// and has a child: only a kill of its whole group ends it.
			script := "trap '' TERM INT; echo $$ > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; sleep 300 & while :; do sleep 1; done"
			cmd := labelinfProcess(t, "attack", "-n", "20", "-scorer", "cmd:"+script, "-assume", "float64-sklearn", "-timeout", "10m")
			var errb bytes.Buffer
			cmd.Stderr = &errb
			require.NoError(t, cmd.Start())
			var pgid int
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) {
				if b, err := os.ReadFile(pidFile); err == nil {
					pgid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			require.NotZero(t, pgid, "the scorer never started")
			t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
			// Wait until the scorer's child exists, so that the group has two
			// processes to kill.
			for time.Now().Before(deadline) && len(groupAlive(t, pgid)) < 2 {
				time.Sleep(20 * time.Millisecond)
			}
			require.NoError(t, cmd.Process.Signal(sig))
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				var ee *exec.ExitError
				require.ErrorAs(t, err, &ee, "labelinf must exit non-zero on %v", sig)
				assert.Equal(t, 1, ee.ExitCode())
				assert.Contains(t, errb.String(), "interrupted")
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("labelinf did not exit within 20 s of %v", sig)
			}
			// SIGKILL is delivered at once, but give the kernel a moment.
			var alive []string
			for i := 0; i < 100; i++ {
				if alive = groupAlive(t, pgid); len(alive) == 0 {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			assert.Empty(t, alive, "processes of the scorer's group survived labelinf")
		})
	}
}

// TestRunContextCancelled checks the in-process path of a signal: a
// cancelled context makes a command return non-zero.
func TestRunContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := runContext(ctx, []string{"demo", "-n", "50", "-kn", "0"}, &out, &errb, time.Now)
	assert.Equal(t, 1, code)
}
