package audit

import (
	"context"
	"fmt"
	"os"
	"testing"
)

// BenchmarkTargetSubmit: one submission of an N-row prediction through
// each target, the in-process simulation and a real labelinf serve over
// loopback HTTP (serve.Command on a goroutine, its database in the
// default temporary directory), no defence.
//
//	go test ./audit -run '^$' -bench TargetSubmit -benchtime 200x
func BenchmarkTargetSubmit(b *testing.B) {
	for _, n := range []int{198, 25000} {
		cfg := &Config{Rows: n, LabelSeed: 3}
		comp, err := cfg.resolve()
		if err != nil {
			b.Fatal(err)
		}
		for _, tg := range []struct {
			name string
			f    TargetFactory
		}{{"inprocess", InProcess}, {"loopback", Loopback(LoopbackOptions{Dir: os.TempDir()})}} {
			b.Run(fmt.Sprintf("target=%s/n=%d", tg.name, n), func(b *testing.B) {
				t, err := tg.f(context.Background(), Spec{Labels: comp.labels, Model: comp.model, Metric: DefaultMetric, Cell: Cell{Name: "none"}})
				if err != nil {
					b.Fatal(err)
				}
				defer t.Close()
				p := make([]float64, n)
				for i := range p {
					p[i] = 0.25 + float64(i%512)/1024
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := t.Submit(context.Background(), "attacker", p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
