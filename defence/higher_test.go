package defence

import (
	"math/big"
	"testing"
)

// TestLadderHigherIsBetter: on a score whose higher values are better
// (accuracy), the fixed-step Ladder moves only on a score above its best
// by more than η and repeats its best otherwise, worse scores included;
// the parameter-free one compares the 0/1 losses' paired spread on that
// side too.
func TestLadderHigherIsBetter(t *testing.T) {
	l, err := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 100)})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChain(4, l)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct{ v, want string }{
		{"0.8", "4/5"},     // the first score is released
		{"0.7", "4/5"},     // worse: the best repeated
		{"0.805", "4/5"},   // better by less than η
		{"0.83", "83/100"}, // better by more than η: released on the η grid
		{"0.835", "83/100"},
	} {
		sub := scoreSub("", s.v, 4)
		sub.HigherIsBetter = true
		r, err := c.Release(sub)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Score.RatString(); got != s.want {
			t.Errorf("score %s: got %v, want %v", s.v, got, s.want)
		}
	}

	pf, err := NewLadder(LadderOptions{Kind: ParameterFree})
	if err != nil {
		t.Fatal(err)
	}
	c, err = NewChain(4, pf)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(losses []float64) string {
		r, err := c.Release(Submission{Losses: losses, HigherIsBetter: true, Mean: func(rows []int) (*big.Rat, error) {
			right := 0
			for _, i := range rows {
				if losses[i] == 0 {
					right++
				}
			}
			return big.NewRat(int64(right), int64(len(rows))), nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		return r.Score.RatString()
	}
	if got := rel([]float64{0, 1, 1, 1}); got != "1/4" {
		t.Errorf("rel([]float64{0, 1, 1, 1}) = %v, want %v", got, "1/4")
	}
	if got := rel([]float64{1, 1, 1, 1}); got != "1/4" {
		t.Errorf("worse: repeated: got %v, want %v", got, "1/4")
	}
	if got := rel([]float64{0, 0, 0, 0}); got != "1" {
		t.Errorf("every row right: the paired spread is exceeded: got %v, want %v", got, "1")
	}
}
