package audit

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/labelinf/labelinf/internal/cputime"
)

// BenchmarkTargetSubmit: one submission of an N-row prediction through
// each target, the in-process simulation and a real labelinf serve over
// loopback HTTP (serve.Command on a goroutine, its database in the
// default temporary directory), no defence. Two prediction patterns:
// "attack", what the audit's attacks submit (every row 0.5 but a block
// of 40 rows of distinct 16-digit values: the block code's, Alg 1's and
// the threshold-crossing attack's queries all look so), and "distinct",
// 512 different values in turn (a model's predictions; the worst case
// for encoding and parsing). cpu-ns/op is the process's CPU time, user
// and system, per submission: client and server both, as the server runs
// in this process; on a loaded machine it means more than ns/op.
//
//	go test ./audit -run '^$' -bench TargetSubmit -benchtime 200x
func BenchmarkTargetSubmit(b *testing.B) {
	for _, n := range []int{198, 25000} {
		cfg := &Config{Rows: n, LabelSeed: 3}
		comp, err := cfg.resolve()
		if err != nil {
			b.Fatal(err)
		}
		patterns := []struct {
			name string
			p    []float64
		}{{"attack", make([]float64, n)}, {"distinct", make([]float64, n)}}
		for i := range n {
			patterns[0].p[i] = 0.5
			if i >= n/3 && i < n/3+40 {
				patterns[0].p[i] = 0.5 + float64(i%40+1)/(3*1024*1024+1)
			}
			patterns[1].p[i] = 0.25 + float64(i%512)/1024
		}
		for _, tg := range []struct {
			name string
			f    TargetFactory
		}{{"inprocess", InProcess}, {"loopback", Loopback(LoopbackOptions{Dir: os.TempDir()})}} {
			for _, pat := range patterns {
				b.Run(fmt.Sprintf("target=%s/n=%d/pattern=%s", tg.name, n, pat.name), func(b *testing.B) {
					t, err := tg.f(context.Background(), Spec{Labels: comp.labels, Model: comp.model, Metric: DefaultMetric, Cell: Cell{Name: "none"}})
					if err != nil {
						b.Fatal(err)
					}
					defer t.Close()
					b.ReportAllocs()
					c0 := cputime.Now()
					for b.Loop() {
						if _, err := t.Submit(context.Background(), "attacker", pat.p); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(cputime.Now()-c0)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}
