package serve

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/labelinf/labelinf/defence"
)

// BenchmarkDefendedSubmit is one submission's latency (HTTP, parse,
// score, charge, release, commit) at N = 25,000 under a per-team
// parameter-free Ladder, on SQLite and on PostgreSQL (skipped under
// -short): "moves" makes every submission the team's new leader (its
// 25,000 per-row losses are stored each time), "repeats" never moves it.
// It reports p50 and p99 in ms, and cpu-ms/op, the process's user and
// system CPU (client, server and, for SQLite, the database) per
// submission, less sensitive than latency to a loaded machine. The same
// code runs against servers that kept the state in defence_state_file
// (it sets one; a server with the state in the database imports nothing
// from a missing file), so that both can be timed in one run.
func BenchmarkDefendedSubmit(b *testing.B) {
	const n = 25000
	labels := randLabels(rand.New(rand.NewPCG(25, 25)), n, 2)
	pred := func(s float64) []byte {
		p := make([]float64, n)
		for i, y := range labels {
			p[i] = 0.5 + (2*float64(y)-1)*s
		}
		return predJSON(p)
	}
	for _, store := range []string{"sqlite", "postgres"} {
		for _, mode := range []string{"moves", "repeats"} {
			b.Run("store="+store+"/N=25000/ladder="+mode, func(b *testing.B) {
				ctx := context.Background()
				var st Store
				var err error
				if store == "sqlite" {
					st, err = OpenSQLite(ctx, filepath.Join(b.TempDir(), "serve.db"))
				} else {
					st, err = OpenPostgres(ctx, newPostgresDB(b))
				}
				if err != nil {
					b.Fatal(err)
				}
				defer st.Close()
				five := 5
				cc := CompetitionConfig{ID: "d", Classes: 2, Metric: "float64-sklearn", PublicFraction: 1, Labels: writeLabels(b, labels),
					DefenceStateFile: filepath.Join(b.TempDir(), "state.json"),
					Defence:          &defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", PerTeam: true}, Decimals: &five}}
				c, err := NewCompetition(cc, nil)
				if err != nil {
					b.Fatal(err)
				}
				srv, err := NewServer(Options{Store: st, Competitions: []*Competition{c}, MaxBodyBytes: 1 << 20})
				if err != nil {
					b.Fatal(err)
				}
				hs := httptest.NewServer(srv)
				defer hs.Close()
				k, tok, err := NewKey("bench", time.Now())
				if err != nil {
					b.Fatal(err)
				}
				if err := st.AddKey(ctx, k); err != nil {
					b.Fatal(err)
				}
				post := func(body []byte) {
					req, _ := http.NewRequest("POST", hs.URL+"/v1/competitions/d/submissions", bytes.NewReader(body))
					req.Header.Set("Authorization", "Bearer "+tok)
					req.Header.Set("Content-Type", "application/json")
					resp, err := http.DefaultClient.Do(req)
					if err != nil {
						b.Fatal(err)
					}
					raw, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusCreated {
						b.Fatalf("%d %s", resp.StatusCode, raw)
					}
				}
				bodies := make([][]byte, b.N+1)
				for i := range bodies {
					s := 0.1
					switch {
					case i == 0:
						s = 0.4
					case mode == "moves":
						// Strictly better each time (every row's loss falls):
						// the parameter-free Ladder moves.
						s = 0.4 + 0.09*float64(i)/float64(b.N)
					}
					bodies[i] = pred(s)
				}
				post(bodies[0])
				lat := make([]time.Duration, 0, b.N)
				cpu0 := benchCPU()
				b.ResetTimer()
				for i := range b.N {
					t0 := time.Now()
					post(bodies[i+1])
					lat = append(lat, time.Since(t0))
				}
				b.StopTimer()
				b.ReportMetric(float64((benchCPU()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				slices.Sort(lat)
				ms := func(q float64) float64 {
					return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
				}
				b.ReportMetric(ms(0.5), "p50-ms")
				b.ReportMetric(ms(0.99), "p99-ms")
			})
		}
	}
}

// benchCPU is this process's user plus system CPU time.
func benchCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
