package serve

import (
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/defence"
)

// BenchmarkDefendedSubmit is one submission's latency (HTTP, parse,
// score, charge, release, commit) at N = 25,000 under a per-team
// parameter-free Ladder on SQLite: "moves" makes every submission the
// team's new leader (its 25,000 per-row losses are stored each time),
// "repeats" never moves it. It reports p50 and p99 in ms. The same code
// runs against servers that kept the state in defence_state_file (it
// sets one; a server with the state in the database imports nothing from
// a missing file), so that both can be timed in one run. cpu-ms/op is
// the process's user and system CPU (client and server) per submission,
// less sensitive than latency to a loaded machine.
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
	for _, mode := range []string{"moves", "repeats"} {
		b.Run("N=25000/ladder="+mode, func(b *testing.B) {
			five := 5
			cc := CompetitionConfig{ID: "d", Classes: 2, Metric: "float64-sklearn", DefenceStateFile: filepath.Join(b.TempDir(), "state.json"),
				Defence: &defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", PerTeam: true}, Decimals: &five}}
			e := newEnv(b, [][]int{labels}, cc)
			tok := e.key("bench")
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
			if a := e.post("/v1/competitions/d/submissions", tok, "application/json", bodies[0]); a.Status != http.StatusCreated {
				b.Fatal(a.Raw)
			}
			lat := make([]time.Duration, 0, b.N)
			cpu0 := cpuTime()
			b.ResetTimer()
			for i := range b.N {
				t0 := time.Now()
				a := e.post("/v1/competitions/d/submissions", tok, "application/json", bodies[i+1])
				lat = append(lat, time.Since(t0))
				if a.Status != http.StatusCreated {
					b.Fatal(a.Raw)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			slices.Sort(lat)
			ms := func(q float64) float64 {
				return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(ms(0.5), "p50-ms")
			b.ReportMetric(ms(0.99), "p99-ms")
		})
	}
}
