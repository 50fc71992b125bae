package serve

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// startServeBin starts a server for cfg: this test binary in helper mode
// when bin is "", else the labelinf binary bin ("labelinf serve"). It
// returns the address listened on; the process is killed at cleanup.
func startServeBin(tb testing.TB, bin, cfg string) string {
	tb.Helper()
	addrFile := filepath.Join(tb.TempDir(), "addr")
	args := []string{"-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile}
	var cmd *exec.Cmd
	if bin == "" {
		cmd = exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "LABELINF_SERVE_HELPER=1", "LABELINF_SERVE_ARGS="+strings.Join(args, "\n"))
	} else {
		cmd = exec.Command(bin, append([]string{"serve"}, args...)...)
	}
	var log strings.Builder
	cmd.Stderr = &syncWriter{b: &log}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			return string(b)
		}
	}
	tb.Fatalf("server did not start: %s", log.String())
	return ""
}

// serveKeysAdd adds a key with bin's own serve keys add (so that a
// baseline binary writes its own schema) and returns the token.
func serveKeysAdd(tb testing.TB, bin, cfg, name string) string {
	tb.Helper()
	if bin == "" {
		var out, errb strings.Builder
		if err := Command(context.Background(), []string{"keys", "add", "-config", cfg, "-name", name}, &out, &errb); err != nil {
			tb.Fatalf("keys add: %v: %s", err, errb.String())
		}
		return strings.TrimSpace(out.String())
	}
	out, err := exec.Command(bin, "serve", "keys", "add", "-config", cfg, "-name", name).Output()
	if err != nil {
		tb.Fatalf("keys add: %v", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Scan()
	return strings.TrimSpace(sc.Text())
}

// BenchmarkReplicas is the latency and throughput of 1 and 2 serve
// processes on one PostgreSQL database under 32 clients (8 keys, 20
// submissions each, no budget limit) of a competition of N = 5,000 rows
// behind a fixed-step Ladder, global (every submission waits for the one
// ladder's lock) or per team (8 ladders): p50 and p99 latency of the accepted
// submissions (ms) and accepted submissions per second. With
// LABELINF_SERVE_BASELINE=path/to/labelinf it also runs that binary
// ("before"; the config then carries a defence_state_file, which servers
// that kept the state in a file require, and which two of them share),
// alternating with this build ("after") within each -count round.
func BenchmarkReplicas(b *testing.B) {
	const n, clients, perClient, keys = 5000, 32, 20, 8
	labels := randLabels(rand.New(rand.NewPCG(27, 3)), n, 2)
	lp := writeLabels(b, labels)
	bs := bodies(27, 16, n)
	type build struct{ name, bin string }
	builds := []build{{"after", ""}}
	if p := os.Getenv("LABELINF_SERVE_BASELINE"); p != "" {
		builds = []build{{"before", p}, {"after", ""}}
	}
	for _, scope := range []string{"global", "per-team"} {
		for _, bd := range builds {
			for _, replicas := range []int{1, 2} {
				b.Run(fmt.Sprintf("ladder=%s/%s/replicas=%d", scope, bd.name, replicas), func(b *testing.B) {
					for range b.N {
						dsn := newPostgresDB(b)
						dir := b.TempDir()
						cfg := filepath.Join(dir, "serve.json")
						if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`{"database": {"driver": "postgres", "dsn": %q}, "reject_rate": 1e9, "reject_burst": 1000000000,
						"competitions": [{"id": "d", "labels": %q, "classes": 2, "metric": "float64-sklearn", "defence_state_file": "state.json",
						"defence": {"ladder": {"kind": "fixed", "eta": "0.0001", "per_team": %t}, "decimals": 5}}]}`, dsn, lp, scope == "per-team")), 0o644); err != nil {
							b.Fatal(err)
						}
						toks := make([]string, keys)
						for i := range toks {
							toks[i] = serveKeysAdd(b, bd.bin, cfg, fmt.Sprintf("team%d", i))
						}
						var urls []string
						for range replicas {
							urls = append(urls, "http://"+startServeBin(b, bd.bin, cfg)+"/v1/competitions/d/submissions")
						}
						b.ResetTimer()
						res := runLoad(urls, toks, clients, perClient, bs, 5*time.Minute, nil)
						b.StopTimer()
						if len(res.acked) != clients*perClient {
							b.Fatalf("%d of %d accepted: %v, %d errors", len(res.acked), clients*perClient, res.other, res.errors)
						}
						b.ReportMetric(float64(res.quantile(0.5).Microseconds())/1000, "p50-ms")
						b.ReportMetric(float64(res.quantile(0.99).Microseconds())/1000, "p99-ms")
						b.ReportMetric(float64(len(res.acked))/res.elapsed.Seconds(), "subs/s")
					}
				})
			}
		}
	}
}
