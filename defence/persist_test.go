package defence

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStreamStateHandOver: a chain that takes over another's stored state
// (stream positions, Thresholdout's budget and threshold, the Ladder's
// entry) after each submission releases what the first chain releases
// alone: two processes continuing one simulation behave as one. Without
// the hand-over they differ.
func TestStreamStateHandOver(t *testing.T) {
	ss := Settings{Subset: 40, Thresholdout: &ThresholdoutSettings{T: 0.01, Sigma: 0.01, Budget: 5},
		Ladder: &LadderSettings{Kind: "fixed", Eta: "0.001"}, Noise: &NoiseSettings{Kind: "gaussian", Scale: 0.01}}
	const n = 60
	r := rand.New(rand.NewPCG(1, 2))
	subs := make([]Submission, 12)
	for i := range subs {
		l := make([]float64, n)
		for j := range l {
			l[j] = r.Float64()
		}
		subs[i] = Submission{Losses: l, TrainScore: big.NewRat(int64(40+i%3), 100)}
	}
	seed := [32]byte{7}
	one, err := ss.SimulationChain(n, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range subs {
		rel, err := one.Release(s)
		if err != nil {
			want = append(want, err.Error())
			continue
		}
		want = append(want, rel.Text())
	}
	run := func(handOver bool) []string {
		a, err := ss.SimulationChain(n, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ss.SimulationChain(n, seed, nil)
		if err != nil {
			t.Fatal(err)
		}
		chains := []*Chain{a, b}
		var got []string
		for i, s := range subs {
			c, prev := chains[i%2], chains[(i+1)%2]
			if handOver && i > 0 {
				st, err := prev.StreamState()
				if err != nil {
					t.Fatal(err)
				}
				if err := c.SetStreamState(st); err != nil {
					t.Fatal(err)
				}
				if err := c.Thresholdout().SetState(prev.Thresholdout().State()); err != nil {
					t.Fatal(err)
				}
				if err := c.Ladder().Restore(prev.Ladder().Snapshot()); err != nil {
					t.Fatal(err)
				}
			}
			rel, err := c.Release(s)
			if err != nil {
				got = append(got, err.Error())
				continue
			}
			got = append(got, rel.Text())
		}
		return got
	}
	if got := run(true); !slices.Equal(got, want) {
		t.Errorf("run(true) = %v, want %v", got, want)
	}
	if slices.Equal(want, run(false)) {
		t.Errorf("both %v", want)
	}

	// A state that does not fit is refused and changes nothing.
	c, err := ss.SimulationChain(n, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := c.StreamState()
	if err != nil {
		t.Fatal(err)
	}
	if c.SetStreamState(st[:len(st)-1]) == nil {
		t.Error("want an error, got nil")
	}
	if c.SetStreamState(append(st, 0)) == nil {
		t.Error("want an error, got nil")
	}
	if c.SetStreamState([]byte{9}) == nil {
		t.Error("want an error, got nil")
	}
	if c.Thresholdout().SetState(ThresholdoutState{Remaining: 6}) == nil {
		t.Error("want an error, got nil")
	}
	st2, _ := c.StreamState()
	if !slices.Equal(st2, st) {
		t.Errorf("st2 = %v, want %v", st2, st)
	}
}
