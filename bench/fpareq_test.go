package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/precision"

	"github.com/labelinf/labelinf/fpa"
)

// TestBitRequirementHolds: at the φ fpa.MinPhi predicts, every trial of
// the attack succeeds (the guarantee), and far below it trials fail.
func TestBitRequirementHolds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{4, 8} {
		a, err := precision.NewPow2Attack(n, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		phi, f, err := fpa.MinPhi(fpa.Loss{Sum: fpa.SumOptions{Order: fpa.Pairwise}}, a.Need())
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			ok, err := a.Trial(f, r)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Errorf("n=%d φ=%d: attack failed at the predicted φ", n, phi)
			}
		}
		low, err := fpa.FPA(max(5, phi-16))
		if err != nil {
			t.Fatal(err)
		}
		fails := 0
		for range 10 {
			ok, err := a.Trial(low, r)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				fails++
			}
		}
		if !(fails > 0) {
			t.Errorf("n=%d: no failure 16 bits below the prediction", n)
		}
	}
}

// BenchmarkBitRequirement sweeps φ around the prediction for several N and
// reports, per (N, φ), the fraction of trials that recover all labels, the
// predicted φ (ours and EA Prop 3's).
//
//	go test ./bench -run '^$' -bench BitRequirement -benchtime 1x
func BenchmarkBitRequirement(b *testing.B) {
	const tau, trials = 0.01, 20
	prop3, _ := fpa.Prop3Phi(tau)
	for _, n := range benchNs {
		a, err := precision.NewPow2Attack(n, tau)
		if err != nil {
			b.Fatal(err)
		}
		pred, _, err := fpa.MinPhi(fpa.Loss{Sum: fpa.SumOptions{Order: fpa.Pairwise}}, a.Need())
		if err != nil {
			b.Fatal(err)
		}
		for phi := max(5, int(pred)-30); phi <= int(pred)+1; phi++ {
			f, err := fpa.FPA(uint(phi))
			if err != nil {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/phi=%d", n, phi), func(b *testing.B) {
				r := rand.New(rand.NewPCG(uint64(n), uint64(phi)))
				ok := 0
				for b.Loop() {
					ok = 0
					for range trials {
						s, err := a.Trial(f, r)
						if err != nil {
							b.Fatal(err)
						}
						if s {
							ok++
						}
					}
				}
				b.ReportMetric(float64(ok)/trials, "success")
				b.ReportMetric(float64(pred), "predicted_phi")
				b.ReportMetric(float64(prop3), "prop3_phi")
			})
		}
	}
}

var benchNs = []int{4, 8, 16, 24, 32}
