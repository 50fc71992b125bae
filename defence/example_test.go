package defence_test

import (
	"context"
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/defence"
)

// A fixed-step Ladder (η = 0.01) before 5-decimal rounding: a submission
// moves the leaderboard only if it beats the best by more than η.
func Example() {
	labels := []int{1, 0, 1, 1, 0, 0, 1, 0, 1, 1}
	lad, _ := defence.NewLadder(defence.LadderOptions{Kind: defence.FixedStep, Eta: big.NewRat(1, 100)})
	r5, _ := defence.NewRound(5)
	chain, _ := defence.NewChain(len(labels), lad, r5)
	board, _ := defence.NewBoard(defence.BoardOptions{Metric: defence.ZeroOne{}, Labels: labels, Chain: chain})
	for _, pred := range [][]float64{
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, // 6 errors: 0.6
		{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, // 5 errors: beats 0.6 by 0.1 > η
		{1, 0, 1, 1, 0, 0, 1, 0, 1, 1}, // 0 errors
		{1, 0, 1, 1, 0, 0, 1, 0, 1, 0}, // 1 error: no better, repeats 0
	} {
		r, _ := board.SubmitAs(context.Background(), "team", pred)
		fmt.Println(r.Text(), r.Events)
	}
	// Output:
	// 0.60000 [ladder: moved]
	// 0.50000 [ladder: moved]
	// 0.00000 [ladder: moved]
	// 0.00000 [ladder: repeated best]
}
