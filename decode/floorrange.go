// This file computes the floor of codes whose queries' sums span a bounded
// range (the K-ary code of kties.go, and every block code of digits).

package decode

import (
	"context"
	"errors"
	"math"
)

// RangeFloor returns a lower bound on the queries of every code, on every
// labeling, whose queries each move the sum N·score over a range of at
// most c·W, W = TMax − TMin the room of one point (FloorMulti), while
// every point outside the query's block of at most blockMax points gives
// the neutral term ln K if its label is unknown: block codes of
// superincreasing digits span (1 + 1/(K−1))·W (c = 1.2 for K = 6), the
// K-ary code's mixed-radix blocks at most 2·W (a binary digit on top).
//
// Each score then lies in [S0, S0 + c·W]/N, S0 = (nUnk − blockMax)·ln K +
// (N − nUnk)·tmin, and its entropy is at most log2 of the reportable
// values there; the labels' entropy N·log2 K must be spent, and while
// nUnk labels are unknown at most nUnk·log2 K bits remain, so nUnk falls
// by at most bits/log2 K a query (the fastest trajectory: a lower bound).
// Carrying label sets and ties across queries does not change this: it
// only decides which bits a score spends, not how many it holds.
func RangeFloor(ctx context.Context, opt MultiOptions, c float64, blockMax int) (int, error) {
	if !(c > 0) || blockMax < 1 {
		return 0, errors.New("decode: RangeFloor needs c > 0 and blockMax ≥ 1")
	}
	a, tmin, err := floorState(opt)
	if err != nil {
		return 0, err
	}
	w := a.tTop - tmin
	lnK, lk := math.Log(float64(a.k)), math.Log2(float64(a.k))
	n := float64(a.n)
	q := 0
	for nUnk := n; nUnk > 1e-9; q++ {
		if q%1024 == 0 && ctx.Err() != nil {
			return 0, ctx.Err()
		}
		s0 := max(0, nUnk-float64(blockMax))*lnK + (n-nUnk)*tmin
		nUnk -= a.log2Count(s0/n, (s0+c*w)/n) / lk
	}
	return q, nil
}
