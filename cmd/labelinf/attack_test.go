package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAttackJSON(t *testing.T) {
	dir := t.TempDir()
	labels := filepath.Join(dir, "y.txt")
	os.WriteFile(labels, []byte("1\n0\n\n2\n1\n0\n2\n2\n0\n"), 0o644)
	outFile := filepath.Join(dir, "out.txt")
	var out, errb bytes.Buffer
	code := run([]string{"attack", "-scorer", "float64-sklearn", "-k", "3", "-labels", labels, "-out", outFile, "-json", "-check"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, out.String(), errb.String())
	}
	var a attackOut
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	if a.N != 8 || a.K != 3 || a.Accuracy == nil || *a.Accuracy != 1 || !a.Verified || a.Queries < 1 || a.Strategy != "kbin" {
		t.Errorf("attack = %+v", a)
	}
	got, _ := os.ReadFile(outFile)
	if string(got) != "1\n0\n2\n1\n0\n2\n2\n0\n" {
		t.Errorf("-out wrote %q", got)
	}
	out.Reset()
	if code := run([]string{"attack", "-n", "300", "-scorer", "leaderboard", "-strategy", "alg3", "-noise", "bounded", "-tau", "1e-6"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "accuracy 100.00%") {
		t.Errorf("exit %d: %s", code, out.String())
	}
}

// -strategy auto attacks a binary score rounded to decimals with the
// leaderboard strategy: 11 queries or fewer at N = 198 (blocks: 13);
// under -short N = 60 in at most 4, its estimate's high end (decode's TestLeaderboardStrategy198
// runs N = 198 under -short).
func TestAttackLeaderboardDefault(t *testing.T) {
	n, most := "198", 11
	if testing.Short() {
		n, most = "60", 4
	}
	var out, errb bytes.Buffer
	if code := run([]string{"attack", "-n", n, "-scorer", "leaderboard", "-json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var a attackOut
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	if a.Strategy != "leaderboard" || !a.Verified || a.Accuracy == nil || *a.Accuracy != 1 || a.Queries > most || a.AttackCPUSeconds == nil {
		t.Errorf("attack = %+v", a)
	}
}

func TestAttackUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"attack"}, // no n
		{"attack", "-n", "10", "-scorer", "nope"},     // bad scorer
		{"attack", "-n", "10", "-strategy", "magic"},  // bad strategy
		{"attack", "-n", "10", "-scorer", "cmd:true"}, // cmd without -assume
		{"attack", "-n", "10", "-noise", "bounded", "-tau", "-1"},
		{"attack", "-labels", "/nonexistent/file"},
		{"plan", "-n", "0"},
		{"plan", "-n", "10", "-k", "1"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errb.String())
		}
	}
	// A retired strategy: exit 2, naming its replacement.
	var out, errb bytes.Buffer
	if code := run([]string{"attack", "-n", "10", "-strategy", "lean"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "use -strategy cross") {
		t.Errorf("-strategy lean: exit %d, %q; want 2 naming cross", code, errb.String())
	}
	// A scorer that answers garbage: a clear error, exit 1.
	out.Reset()
	errb.Reset()
	code := run([]string{"attack", "-n", "10", "-scorer", "cmd:while read l; do echo nan-ish; done", "-assume", "float64-sklearn", "-json"}, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "not a decimal") {
		t.Errorf("garbage scorer: exit %d, %s", code, out.String())
	}
}

func TestAttackRobustSingle(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"attack", "--scorer", "apa", "--strategy", "robust-single", "--noise", "bounded", "--tau", "1", "--n", "3000", "--seed", "1", "--json"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, errb.String(), out.String())
	}
	var r struct {
		Queries   int      `json:"queries"`
		Accuracy  *float64 `json:"accuracy"`
		Verified  bool     `json:"verified"`
		ScoreBits uint     `json:"score_bits"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Queries != 1 || r.Accuracy == nil || *r.Accuracy != 1 || !r.Verified || r.ScoreBits < 3000 {
		t.Fatalf("robust-single = %+v", r)
	}
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--scorer", "float64-sklearn", "--noise", "bounded", "--tau", "1"}, 2, "needs -scorer apa"},
		{[]string{"--scorer", "apa"}, 2, "needs noise"},
		{[]string{"--scorer", "apa", "--noise", "multiplicative", "--tau", "0.1"}, 2, "multiplicative"},
		{[]string{"--scorer", "apa", "--noise", "bounded", "--tau", "1", "--encoding", "odds"}, 2, "encoding"},
		{[]string{"--scorer", "apa", "--noise", "bounded", "--tau", "1", "--encoding", "prob", "--n", "40"}, 2, "exponent range"},
		{[]string{"--scorer", "apa:256", "--noise", "bounded", "--tau", "1", "--n", "1000"}, 1, "needs at least"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"attack", "--strategy", "robust-single", "--n", "100"}, tt.args...)
		code := run(args, &out, &errb)
		if code != tt.code || !strings.Contains(errb.String()+out.String(), tt.want) {
			t.Errorf("%v: exit %d, %q %q; want exit %d and %q", tt.args, code, out.String(), errb.String(), tt.code, tt.want)
		}
	}
}
