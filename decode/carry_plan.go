// This file implements the Carry strategy's plan: like Leaderboard it has
// no dry run (every query follows the scores before it), so [PlanMulti]
// returns an estimate from its construction and [BoundMulti] a lower
// bound.

package decode

import (
	"context"
	"math"
)

// estimate is Carry's plan (see QueryEstimate), from the construction it
// shares with Leaderboard (lbState.design), with the cell replaced by
// Carry's resolution: the width of sums one score leaves, the emulated
// bracket of the first query's state (every point unknown, neutral) plus
// one reported spacing.
//
//   - Lower, a bound for every labeling: every point is fresh in exactly
//     one query and a query takes at most carryMaxFresh (or MaxBlock)
//     fresh points; Carry has no final Conway–Guy query (its brackets,
//     not the rigorous budget, separate candidates), so ⌈N/FreshCap⌉.
//   - Low, an estimate: FreshOne fresh points a query, the largest k with
//     1 + (2^k − 1)·cell/(√(πk)·W) ≤ target (a list of one whose fresh
//     sums spread over √k·W/2), ⌈N/FreshOne⌉.
//   - High, an estimate: FreshTarget a query, the largest k with
//     1 + (T·2^k − 1)·cell/(2·s·√π) ≤ T, s = √(7k/48)·W (a list at its
//     target T whose sums coincide, fresh weights uniform on [W/2, W]).
//
// Neither Low nor High is a bound: the resolution changes from query to
// query (it shrinks as known points leave the neutral terms, and the
// list's carried points widen what a query must separate).
// TestPlanMeasured in cmd/labelinf checks measured runs against the band.
func (carry) estimate(a *multi) (*QueryEstimate, error) {
	st := newLbState(a)
	var err error
	if st.cell, _, err = a.firstCell(); err != nil {
		return nil, err
	}
	cell := st.resolution()
	e := &QueryEstimate{Cell: cell, Target: carryTarget, FreshCap: carryMaxFresh, CellRatio: 1}
	if pointTerms(a, nil) {
		e.Target = carryTargetPoint
	}
	if a.opt.MaxBlock > 0 {
		e.FreshCap = min(e.FreshCap, a.opt.MaxBlock)
	}
	w, t := a.wmax, float64(e.Target)
	largest := func(fits func(k float64) bool) int { return largestFresh(e.FreshCap, fits) }
	one := func(cell float64) int {
		return largest(func(k float64) bool {
			return 1+(math.Exp2(k)-1)*cell/(math.Sqrt(math.Pi*k)*w) <= t
		})
	}
	target := func(cell float64) int {
		return largest(func(k float64) bool {
			s := math.Sqrt(7*k/48) * w
			return 1+(t*math.Exp2(k)-1)*cell/(2*s*math.Sqrt(math.Pi)) <= t
		})
	}
	e.FreshOne, e.FreshTarget = one(cell), target(cell)
	n := a.nUnk
	// walk counts the queries when the resolution shrinks in proportion
	// to the unknown points (their neutral terms make the sum whose
	// bracket and spacing the resolution is) and each query takes
	// fresh(resolution) fresh points.
	walk := func(fresh func(float64) int) int {
		return a.walkQueries(func(left int) int { return fresh(cell * float64(left) / float64(n)) })
	}
	e.Lower, e.Low, e.High = a.ceilQueries(e.FreshCap), walk(one), walk(target)
	return e, nil
}

// plan returns Carry's plan for PlanMulti: no blocks, the first
// query's resolution as its budget, and the estimate.
func (c carry) plan(ctx context.Context, a *multi) (*MultiPlan, error) {
	return estimatePlan(ctx, Carry, c.estimate, a)
}
