// This file implements the Carry strategy's plan: like Leaderboard it has
// no dry run (every query follows the scores before it), so [PlanMulti]
// returns an estimate from its construction and [BoundMulti] a lower
// bound.

package decode

import "context"

// plan is Carry's estimate (see QueryEstimate) for PlanMulti, from the construction it
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
func (carry) plan(ctx context.Context, a *multi) (*MultiPlan, error) {
	if err := a.carryApplies(Carry); err != nil {
		return nil, err
	}
	c0, _, err := a.firstCell()
	if err != nil {
		return nil, err
	}
	cell := (&lbState{a: a, cell: c0}).resolution()
	e := &QueryEstimate{Cell: cell, Target: carryTarget, FreshCap: a.opt.blockCap(carryMaxFresh), CellRatio: 1}
	if pointTerms(a, nil) {
		e.Target = carryTargetPoint
	}
	one := func(c float64) int { return e.freshOne(c, a.wmax) }
	target := func(c float64) int { return e.freshTarget(c, a.wmax, 1) }
	e.FreshOne, e.FreshTarget = one(cell), target(cell)
	e.Lower, e.Low, e.High = a.ceilQueries(e.FreshCap), a.walkCell(cell, one), a.walkCell(cell, target)
	return estimatePlan(ctx, Carry, e)
}
