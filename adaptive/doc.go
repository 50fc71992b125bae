// Package adaptive holds the attacks a host must run against each defence
// of package defence before calling it a defence: they submit adaptively
// chosen predictions to a [Leaderboard] and read only the released
// scores.
//
//   - [Boost]: the boosting attack of [BH15] (k random 0/1 vectors, keep
//     those that scored ≤ 1/2 or lowered the ladder, majority vote): it
//     overfits the holdout, driving the reported loss below the true
//     1/2; the Ladder is the defence it tests.
//   - [Edge]: the threshold-crossing attack against rounding, in the
//     style of [Whitehill16]: put the log-loss score next to a rounding
//     edge, then read one label per submission from the side of the edge
//     the score lands on.
//   - [Average] and [AverageLabels]: averaging against fresh noise
//     (repeat a submission m times; the mean's noise shrinks as σ/√m),
//     which keyed noise stops for exact repeats but not for perturbed
//     ones.
//
// Every attack reports the submissions it used and the labels it
// recovered, and marks a label verified only when two independent
// readings agree ([Edge] with Verify); statistical decisions (averaging)
// and boosting guesses are never marked verified. A Submit error (a
// submission limit, a cancelled context) stops an attack, which returns
// what it had so far together with the error.
//
// The package depends on no leaderboard implementation: defence.Board
// satisfies [Leaderboard] in-process, and an HTTP client of the scoring
// server can satisfy it over the network.
//
// # References
//
//   - [BH15] A. Blum, M. Hardt, "The Ladder: A Reliable Leaderboard for
//     Machine Learning Competitions", ICML 2015; the attack as coded in
//     mrtzh/Ladder.jl examples/attacks.jl.
//   - [Whitehill16] J. Whitehill, "Exploiting an oracle that reports AUC
//     scores in machine learning contests", AAAI 2016; arXiv:1707.01825
//     (log-loss).
package adaptive

import (
	"context"
	"math/big"
)

// Leaderboard is a scoring server as an attacker sees it: a prediction in
// (one value per row, in the server's order), the released score out,
// exactly (the decimal the leaderboard shows, or the float a library
// returns, as a rational), as every attack of the project reads it
// (scorer.Server, the catalogue's oracle): two released scores are
// compared exactly, never through float64.
type Leaderboard interface {
	Submit(ctx context.Context, pred []float64) (*big.Rat, error)
}

// Unknown marks a label an attack did not recover.
const Unknown int8 = -1

// count returns the number of known labels and of verified ones.
func count(labels []int8, verified []bool) (known, ver int) {
	for i, l := range labels {
		if l != Unknown {
			known++
		}
		if verified != nil && verified[i] {
			ver++
		}
	}
	return known, ver
}
