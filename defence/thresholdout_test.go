package defence

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestThresholdoutPerTeam: with PerTeam each team spends its own budget
// (one team's overfitting leaves another's answers alone), each team's
// state is read and set through TeamState/SetTeamState; TrainWhenExhausted
// answers the training score instead of ErrExhausted.
func TestThresholdoutPerTeam(t *testing.T) {
	seed := [32]byte{9}
	sub := func(team, h, tr string) Submission {
		s := scoreSub(team, h, 1)
		s.TrainScore = rat(tr)
		return s
	}
	for _, perTeam := range []bool{false, true} {
		th, err := NewThresholdout(ThresholdoutOptions{T: 0.05, Sigma: 1e-6, Budget: 2, Seed: &seed, PerTeam: perTeam})
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewChain(1, th)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			_, err := c.Release(sub("a", "0.40", "0.30")) // above the threshold: spends a's (or the) budget
			if err != nil {
				t.Fatal(err)
			}
		}
		_, err = c.Release(sub("a", "0.40", "0.30"))
		if !errors.Is(err, ErrExhausted) {
			t.Errorf("error %v, want %v", err, ErrExhausted)
		}
		got, err := c.Release(sub("b", "0.40", "0.30"))
		if !perTeam {
			if !errors.Is(err, ErrExhausted) {
				t.Errorf("global: a spent the budget for b too: error %v, want %v", err, ErrExhausted)
			}
			st, ok := th.TeamState("b")
			if !ok {
				t.Error("ok is false")
			}
			if want := th.State(); st != want {
				t.Errorf("one state for every team: got %v, want %v", st, want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("per team: b has its own budget: %v", err)
		}
		if dev := math.Abs(0.40 - got.Float64()); !(dev <= 1e-4) {
			t.Errorf("got %v, want %v within %v", got.Float64(), 0.40, 1e-4)
		}
		a, ok := th.TeamState("a")
		if !ok {
			t.Fatal("ok is false")
		}
		if a.Remaining != 0 {
			t.Errorf("a.Remaining = %v, want %v", a.Remaining, 0)
		}
		b, ok := th.TeamState("b")
		if !ok {
			t.Fatal("ok is false")
		}
		if b.Remaining != 1 {
			t.Errorf("b.Remaining = %v, want %v", b.Remaining, 1)
		}
		_, ok = th.TeamState("c")
		if ok {
			t.Error("c has not submitted")
		}
		if th.Restore(1) == nil {
			t.Errorf("a per-team budget is set per team: no error")
		}
		if th.SetState(a) == nil {
			t.Error("want an error, got nil")
		}
		if th.SetTeamState("a", &(ThresholdoutState{Remaining: 3, Threshold: 0.05})) == nil {
			t.Error("want an error, got nil")
		}
		if err := th.SetTeamState("a", &(ThresholdoutState{Remaining: 1, Threshold: a.Threshold})); err != nil {
			t.Fatal(err)
		}
		_, err = c.Release(sub("a", "0.40", "0.30"))
		if err != nil {
			t.Fatalf("a's restored budget answers: %v", err)
		}
		if err := th.SetTeamState("b", nil); err != nil {
			t.Fatal(err)
		}
		got, err = c.Release(sub("b", "0.40", "0.42"))
		if err != nil {
			t.Fatal(err)
		}
		if got := got.Score.RatString(); got != "21/50" {
			t.Errorf("b, forgotten, starts afresh: got %v, want %v", got, "21/50")
		}
		b, _ = th.TeamState("b")
		if b.Remaining != 2 {
			t.Errorf("b.Remaining = %v, want %v", b.Remaining, 2)
		}
	}

	th, err := NewThresholdout(ThresholdoutOptions{T: 0.05, Sigma: 1e-6, Budget: 1, Seed: &seed, TrainWhenExhausted: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(1, th)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Release(sub("a", "0.40", "0.30"))
	if err != nil {
		t.Fatal(err)
	}
	if got := th.Remaining(); got != 0 {
		t.Errorf("th.Remaining() = %v, want %v", got, 0)
	}
	for _, h := range []string{"0.40", "0.10", "0.99"} {
		got, err := c.Release(sub("b", h, "0.30"))
		if err != nil {
			t.Fatal(err)
		}
		if got := got.Score.RatString(); got != "3/10" {
			t.Errorf("spent: the training score whatever the holdout: got %v, want %v", got, "3/10")
		}
	}

	// Settings: per_team and exhausted reach the stage; a bad exhausted is refused.
	s := Settings{Thresholdout: &ThresholdoutSettings{T: 0.05, Sigma: 0.01, Budget: 3, PerTeam: true, Exhausted: "train"}}
	ch, err := s.Chain(10, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ch.Thresholdout().PerTeam() {
		t.Error("ch.Thresholdout().PerTeam() is false")
	}
	s.Thresholdout.Exhausted = "lie"
	_, err = s.Chain(10, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "thresholdout.exhausted") {
		t.Errorf("error %v, want one containing %q", err, "thresholdout.exhausted")
	}
}
