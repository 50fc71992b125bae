package defence

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLadderHigherIsBetter: on a score whose higher values are better
// (accuracy), the fixed-step Ladder moves only on a score above its best
// by more than η and repeats its best otherwise, worse scores included;
// the parameter-free one compares the 0/1 losses' paired spread on that
// side too.
func TestLadderHigherIsBetter(t *testing.T) {
	l, err := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 100)})
	require.NoError(t, err)
	c, err := NewChain(4, l)
	require.NoError(t, err)
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
		require.NoError(t, err)
		assert.Equal(t, s.want, r.Score.RatString(), "score %s", s.v)
	}

	pf, err := NewLadder(LadderOptions{Kind: ParameterFree})
	require.NoError(t, err)
	c, err = NewChain(4, pf)
	require.NoError(t, err)
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
		require.NoError(t, err)
		return r.Score.RatString()
	}
	assert.Equal(t, "1/4", rel([]float64{0, 1, 1, 1}))
	assert.Equal(t, "1/4", rel([]float64{1, 1, 1, 1}), "worse: repeated")
	assert.Equal(t, "1", rel([]float64{0, 0, 0, 0}), "every row right: the paired spread is exceeded")
}
