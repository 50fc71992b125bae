package adaptive_test

import (
	"context"
	"fmt"

	"github.com/labelinf/labelinf/adaptive"
	"github.com/labelinf/labelinf/defence"
)

// The threshold-crossing attack against a leaderboard that rounds a
// clipped log-loss to one decimal: one label moves the score by at most
// ln(999)/100 ≈ 0.069, below the step 0.1, yet every label is read.
func ExampleEdge() {
	labels := make([]int, 100)
	for i := range labels {
		labels[i] = (i * i / 7) % 2
	}
	r1, _ := defence.NewRound(1)
	chain, _ := defence.NewChain(len(labels), r1)
	board, _ := defence.NewBoard(defence.BoardOptions{Metric: defence.LogLoss{Eps: 1e-3}, Labels: labels, Chain: chain})

	res, err := adaptive.Edge(context.Background(), board, adaptive.EdgeOptions{N: 100, Eps: 1e-3, Verify: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	right := 0
	for i, l := range res.Labels {
		if int(l) == labels[i] {
			right++
		}
	}
	fmt.Printf("%d submissions, %d labels verified, %d right\n", res.Submissions, res.NumVerified, right)
	// Output:
	// 255 submissions, 100 labels verified, 100 right
}
