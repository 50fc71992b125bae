// This file implements the Hybrid strategy's plan: like Carry it has no
// dry run (every query follows the scores before it), so [PlanMulti]
// returns an estimate from its construction and [BoundMulti] a lower
// bound.

package decode

import (
	"context"
	"math"
)

// plan is Hybrid's estimate (see QueryEstimate) for PlanMulti, from its design
// (hybQuery.design): a query takes k ≤ hybFresh top fresh points and l
// digits of unit g_d ≥ max(hybUnit·δ, minUnit), δ the resolution of the
// sum, as many as keep the expected list at the target.
//
//   - Lower, a bound for every labeling: every point is fresh in exactly
//     one query, and a query takes at most hybFresh top points and l
//     digits with g_d·2^(l−1) ≤ W, g_d ≥ minUnit (or MaxBlock in all):
//     ⌈N/FreshCap⌉.
//   - Low, an estimate: a list of one, k + l the largest with
//     1 + (2^(k+l) − 1)·δ/(2·s·√π) ≤ T, s = √(7k/48)·W the top's spread
//     (fresh weights uniform on [W/2, W]), capped by the digits' room.
//   - High, an estimate: a list at its target T whose sums coincide,
//     1 + (T·2^(k+l) − 1)·δ/(2·s·√π) ≤ T.
//
// Both walk the attack with δ shrinking in proportion to the unknown
// points (the neutral terms make the sum whose spacing δ is); neither is
// a bound. TestPlanMeasured in cmd/labelinf checks measured runs against
// the band.
func (hybrid) plan(ctx context.Context, a *multi) (*MultiPlan, error) {
	if err := hybridApplies(a); err != nil {
		return nil, err
	}
	cell, b0, err := a.firstCell()
	if err != nil {
		return nil, err
	}
	st := &lbState{a: a, cell: cell} // sumDelta's
	w := a.wmax
	k := min(hybFresh, a.n)
	delta := st.sumDelta(float64(k) * 0.75 * w)
	e := &QueryEstimate{Cell: delta, Target: int(hybTarget), FreshCap: a.opt.blockCap(k + maxDigits(minUnit, w, hybMaxDigits)), CellRatio: 1}
	s := math.Sqrt(7*float64(k)/48) * w
	t := hybTarget
	// fresh returns k + l for a resolution δ and a list of size list at
	// the start of the query.
	fresh := func(delta, list float64) int {
		gd := max(hybUnit*delta, 2*b0/hybReadings, minUnit)
		kl := math.Floor(math.Log2(((t-1)*2*s*math.Sqrt(math.Pi)/delta + 1) / list))
		return max(1, min(e.FreshCap, k+maxDigits(gd, w, hybMaxDigits), int(kl)))
	}
	one := func(delta float64) int { return fresh(delta, 1) }
	target := func(delta float64) int { return fresh(delta, t) }
	e.FreshOne, e.FreshTarget = one(delta), target(delta)
	e.Lower, e.Low, e.High = a.ceilQueries(e.FreshCap), a.walkCell(delta, one), a.walkCell(delta, target)
	return estimatePlan(ctx, Hybrid, e)
}
