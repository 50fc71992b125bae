package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// fakeClock returns a clock that advances 1 ms at every reading, so that
// the seconds the commands measure themselves are deterministic.
func fakeClock() func() time.Time {
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Millisecond)
		return t
	}
}

// Times measured inside the library (the robust attack's scorer time,
// blia's training time) are masked.
var (
	maskJSONSeconds = regexp.MustCompile(`("(?:\w+_)?seconds"): -?[0-9.e+-]+`)
	maskTextSeconds = regexp.MustCompile(`-?\b\d+\.\d+ ?s\b`)
)

func mask(s string) string {
	s = maskJSONSeconds.ReplaceAllString(s, `$1: MASKED`)
	return maskTextSeconds.ReplaceAllString(s, "MASKEDs")
}

// goldenCases are run in-process through runContext with a fake clock;
// each one's exit status, stdout and stderr are compared with
// testdata/golden/NAME.golden (rewritten by go test -update). Keep them
// small: together they take a few seconds. An argument TMPDIR is replaced
// by a fresh temporary directory (the golden file keeps the name).
var goldenCases = []struct {
	name string
	args []string
}{
	{"demo", []string{"demo", "-n", "100", "-kn", "30", "-k", "3"}},
	{"demo_json", []string{"demo", "-n", "100", "-kn", "30", "-k", "3", "-json", "-seed", "5"}},
	{"demo_cost", []string{"demo", "-n", "1", "-kn", "100", "-k", "65536", "-memlimit", "900"}}, // -memlimit: GOMEMLIMIT must not change the refusal
	{"fpa", []string{"fpa", "-format", "binary32", "-op", "log", "10", "-acc"}},
	{"fpa_flag_after_operands", []string{"fpa", "-op", "add", "1", "2", "-bogus"}},
	{"plan", []string{"plan", "-n", "500", "-scorer", "float32-keras"}},
	{"plan_leaderboard", []string{"plan", "-n", "198", "-scorer", "leaderboard"}},
	{"plan_bound", []string{"plan", "-n", "5000", "-dry-run-max", "1000"}},
	{"plan_json", []string{"plan", "-n", "100", "-scorer", "leaderboard", "-noise", "bounded", "-tau", "1e-6", "-json"}},
	{"attack", []string{"attack", "-n", "300", "-scorer", "float64-sklearn"}},
	{"attack_json", []string{"attack", "-n", "200", "-k", "3", "-check", "-json"}},
	{"attack_alg3", []string{"attack", "-n", "300", "-scorer", "leaderboard", "-strategy", "alg3", "-noise", "bounded", "-tau", "1e-6"}},
	{"attack_robust", []string{"attack", "-scorer", "apa", "-strategy", "robust-single", "-noise", "bounded", "-tau", "1", "-n", "300"}},
	{"attack_robust_json", []string{"attack", "-scorer", "apa", "-strategy", "robust-single", "-noise", "gaussian", "-tau", "0.5", "-n", "40", "-k", "3", "-json"}},
	{"attack_ln2_scorer", []string{"attack", "-n", "40", "-scorer", "cmd:while read l; do echo 0.6931471805599453; done", "-assume", "float64-sklearn", "-json"}},
	{"attack_scorer_died", []string{"attack", "-n", "40", "-scorer", "cmd:echo oops >&2; exit 3", "-assume", "float64-sklearn", "-json"}},
	{"attack_no_query", []string{"attack", "-n", "100", "-noise", "bounded", "-tau", "1", "-json"}},
	{"attack_robust_flag_with_blocks", []string{"attack", "-strategy", "blocks", "-weights", "conway-guy", "-n", "10"}},
	{"attack_blocks_flag_with_robust", []string{"attack", "-scorer", "apa", "-strategy", "robust-single", "-noise", "bounded", "-tau", "1", "-no-emulate", "-n", "10"}},
	{"attack_empty_cmd", []string{"attack", "-scorer", "cmd:", "-assume", "float64-sklearn", "-n", "10"}},
	{"blia", []string{"blia", "-data", "testdata/small.csv", "-epsilon", "inf,1", "-seeds", "2", "-workers", "1", "-canaries", "0.1"}},
	{"blia_json", []string{"blia", "-data", "testdata/small.csv", "-model", "mlp", "-hidden", "8", "-epochs", "3", "-epsilon", "inf", "-seeds", "1", "-workers", "1", "-canaries", "0.1", "-json"}},
	{"blia_diverged", []string{"blia", "-data", "testdata/small.csv", "-model", "mlp", "-lr", "1e308", "-epsilon", "inf", "-seeds", "1", "-canaries", "0.1"}},
	{"bits", []string{"bits", "-loss", "cross-entropy", "-n", "6"}},
	{"bits_json", []string{"bits", "-loss", "itakura-saito", "-n", "4", "-tau", "0.01", "-json"}},
	{"bits_bad_n", []string{"bits", "-n", "0"}},
	{"audit", []string{"audit", "-config", "testdata/audit_small.json", "-inprocess", "-workers", "1"}},
	{"audit_json", []string{"audit", "-config", "testdata/audit_small.json", "-inprocess", "-json", "-quiet"}},
	{"audit_bad_config", []string{"audit", "-config", "testdata/audit_bad.json", "-inprocess"}},
	{"repro_quick", []string{"repro", "-quick", "-out", "TMPDIR", "ea-thm5"}},
	{"repro_quick_robust_tau", []string{"repro", "-quick", "-out", "TMPDIR", "robust-tau"}},
	{"repro_no_item", []string{"repro", "-quick"}},
	{"repro_unknown", []string{"repro", "-out", "TMPDIR", "nosuch"}},
	{"repro_all_and_names", []string{"repro", "-all", "icml-table2"}},
	{"usage", []string{"help"}},
}

// shortGolden names the golden cases that run only without -short, each
// with the cheaper case that covers the same code under -short.
var shortGolden = map[string]string{
	"repro_quick": "repro_quick_robust_tau", // ea-thm5's quick case: 1.1 s of CPU against 0.4 s
}

func TestGolden(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			if by := shortGolden[tc.name]; by != "" && testing.Short() {
				t.Skipf("-short: %s runs the same command on a cheaper case", by)
			}
			var stdout, stderr bytes.Buffer
			args := append([]string(nil), tc.args...)
			for i, a := range args {
				if a == "TMPDIR" {
					args[i] = t.TempDir()
				}
			}
			code := runContext(context.Background(), args, &stdout, &stderr, fakeClock())
			var b strings.Builder
			fmt.Fprintf(&b, "$ labelinf %s\nexit %d\n-- stdout --\n%s-- stderr --\n%s", quoteArgs(tc.args), code, mask(stdout.String()), mask(stderr.String()))
			got := b.String()
			file := filepath.Join("testdata", "golden", tc.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if got != string(want) {
				gotFile := strings.TrimSuffix(file, ".golden") + ".got"
				os.WriteFile(gotFile, []byte(got), 0o644)
				t.Errorf("output differs from %s; wrote %s (diff them; go test -run TestGolden -update accepts it):\n%s", file, gotFile, got)
			}
		})
	}
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " ;>&$'\"") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}
