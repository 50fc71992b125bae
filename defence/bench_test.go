package defence

import (
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// BenchmarkRelease measures one release of a 25,000-row log-loss
// submission through each chain a server would run (the scoring server's
// budget is p50 < 10 ms per submission, issue 13).
func BenchmarkRelease(b *testing.B) {
	const n = 25000
	r := rand.New(rand.NewPCG(1, 2))
	losses := make([]float64, n)
	for i := range losses {
		losses[i] = r.Float64() * 3
	}
	pred := make([]float64, n)
	for i := range pred {
		pred[i] = r.Float64()
	}
	predBytes := CanonicalPred(pred)
	mk := map[string]func() []Stage{
		"round5": func() []Stage { s, _ := NewRound(5); return []Stage{s} },
		"ladder-fixed+round5": func() []Stage {
			l, _ := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 100)})
			s, _ := NewRound(5)
			return []Stage{l, s}
		},
		"ladder-free+round5": func() []Stage {
			l, _ := NewLadder(LadderOptions{Kind: ParameterFree})
			s, _ := NewRound(5)
			return []Stage{l, s}
		},
		"noise-keyed-prediction+round2": func() []Stage {
			z, _ := NewNoise(NoiseOptions{Kind: Gaussian, Scale: 1e-3, Key: KeyedPrediction})
			s, _ := NewRound(2)
			return []Stage{z, s}
		},
		"noise-keyed-losses+round2": func() []Stage {
			z, _ := NewNoise(NoiseOptions{Kind: Gaussian, Scale: 1e-3, Key: KeyedLosses})
			s, _ := NewRound(2)
			return []Stage{z, s}
		},
		"split0.3+subset+round5": func() []Stage {
			sp, _ := NewSplit(n, 0.3, [32]byte{}, time.Time{}, nil)
			sb, _ := NewSubset(n*3/20, nil)
			s, _ := NewRound(5)
			return []Stage{sp, sb, s}
		},
	}
	for _, name := range []string{"round5", "ladder-fixed+round5", "ladder-free+round5", "noise-keyed-prediction+round2", "noise-keyed-losses+round2", "split0.3+subset+round5"} {
		b.Run("chain="+name, func(b *testing.B) {
			c, err := NewChain(n, mk[name]()...)
			if err != nil {
				b.Fatal(err)
			}
			sub := Submission{Team: "t", Pred: predBytes, Losses: losses}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Release(sub); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestReleaseAllocs: a release over all rows allocates a constant number
// of objects, not one per row (the losses are aliased, not copied).
func TestReleaseAllocs(t *testing.T) {
	allocs := func(n int) float64 {
		l := make([]float64, n)
		for i := range l {
			l[i] = float64(i%7) / 3
		}
		lad, _ := NewLadder(LadderOptions{Kind: ParameterFree})
		z, _ := NewNoise(NoiseOptions{Kind: Gaussian, Scale: 1e-3, Key: KeyedLosses})
		r, _ := NewRound(5)
		c, err := NewChain(n, lad, z, r)
		if err != nil {
			t.Fatal(err)
		}
		sub := Submission{Losses: l}
		return testing.AllocsPerRun(20, func() {
			if _, err := c.Release(sub); err != nil {
				t.Fatal(err)
			}
		})
	}
	// A per-row allocation would add ~20,000; the big integers of the
	// exact mean and the rounding grow by a few words, a few allocations.
	small, large := allocs(100), allocs(20000)
	if large > small+20 {
		t.Errorf("Release allocates %v objects at N = 20,000 and %v at N = 100; want no per-row allocation", large, small)
	}
}
