package bench

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/labelinf/labelinf/precision"

	"github.com/labelinf/labelinf/fpa"
)

// TestLargestRobustN pins the largest N one noisy binary64 score recovers
// with probability predictions (BENCHMARKS.md §8; ICML Fig 1(e) reports
// 12 and 6 at its smallest and largest noise): past it, θ = 1/(1+e^(W·2^(N−1)))
// underflows. Logits go further (42 at τ = 1).
func TestLargestRobustN(t *testing.T) {
	for _, tt := range []struct {
		logit bool
		tau   float64
		want  int
	}{{false, 0.01, 12}, {false, 1, 6}, {false, 1e-4, 18}} {
		got, err := precision.LargestRobustN(context.Background(), fpa.Binary64, tt.logit, tt.tau, 64, 7)
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("precision.LargestRobustN(binary64, logit=%v, τ=%g): got %v, want %v", tt.logit, tt.tau, got, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := precision.LargestRobustN(ctx, fpa.Binary64, false, 1, 64, 7)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
}

// BenchmarkLargestN finds, per format, encoding and τ, the largest N that
// one noisy score recovers at 100% (precision.RobustTrials labelings), the quantity of
// ICML Fig 1 (N = 12, 8, 6 in float64 as the noise grows). The arbitrary-
// precision rows are in BENCHMARKS.md from single.MaxProbRows and
// BenchmarkRobustSingle.
func BenchmarkLargestN(b *testing.B) {
	for _, f := range []struct {
		name string
		f    fpa.Format
	}{{"binary64", fpa.Binary64}, {"binary32", fpa.Binary32}} {
		for _, logit := range []bool{false, true} {
			enc := "prob"
			if logit {
				enc = "logit"
			}
			for _, tau := range []float64{1e-6, 1e-4, 1e-2, 1} {
				b.Run(fmt.Sprintf("format=%s/enc=%s/tau=%g", f.name, enc, tau), func(b *testing.B) {
					var best int
					for b.Loop() {
						var err error
						if best, err = precision.LargestRobustN(context.Background(), f.f, logit, tau, 64, 7); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(best), "labels")
				})
			}
		}
	}
}
