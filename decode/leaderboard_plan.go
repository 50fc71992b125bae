// This file implements the Leaderboard strategy's plan: it has no dry run
// (every query follows the scores before it), so [PlanMulti] returns an
// estimate from its construction and [BoundMulti] a lower bound.

package decode

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// QueryEstimate is the plan of a strategy without a dry run (Leaderboard,
// whose queries follow the scores): a band of query counts derived from
// the strategy's construction, and the per-query figures it rests on.
// Every count includes the check query if asked for.
type QueryEstimate struct {
	// Lower is a lower bound for every run (every labeling): each unknown
	// point enters exactly one query as a fresh point, a query takes at
	// most FreshCap fresh points and the last one (which separates every
	// candidate) at most Final.
	Lower int
	// Low is the count when every query starts from a list of at most
	// lbDiagList candidates (the constant labelings do: their sums sit
	// at the edge of the distribution, where a cell holds one candidate),
	// each taking at most FreshOne fresh points; a lower bound for such
	// runs, an estimate otherwise. High is the count when every list is
	// at the target with its carried sums not spread apart, FreshTarget
	// fresh points a query: an estimate, not a bound (a list may exceed
	// its target), and only for a score rounded to decimals whose cell is
	// the same in every query (CellRatio), else 0. Measured runs lie in [Low, High]
	// (TestPlanMeasured in cmd/labelinf).
	Low, High int
	// FreshCap, FreshOne and FreshTarget are the fresh points of one
	// query: the construction's cap (lbMaxFresh, MaxBlock), the most
	// with a list of one, and the most with a list at the target whose
	// sums coincide. Final is the most fresh points the last query (a
	// Conway–Guy set a cell apart) takes.
	FreshCap, FreshOne, FreshTarget, Final int
	// Target is the list target (lbTargetFew or lbTargetMany) and Cell
	// the width Δ of a reported step of N·score (twice the budget of a
	// query with no block; noise included).
	Target int
	Cell   float64
	// CellRatio (≥ 1) is the budget of a query with a full block of
	// extreme rows over that of a query without one: 1 for a score
	// rounded to decimals, where the rounding dominates the budget; a
	// float scorer's budget grows with the block's terms, its lists end
	// up longer than the design expects, and High is then 0 (no
	// estimate: measured runs went past it).
	CellRatio float64
}

// lbFixedCell is the largest CellRatio for which the cell counts as the
// same in every query (High is estimated, with lists CellRatio times
// the target): lists that much longer cost the design log2(1 + 2^−6) =
// 0.022 bits a query. The leaderboard preset's ratio is 1 + 10^−9;
// float32-keras rounded to 5 decimals has 1.24 at N = 198, 1.013 at
// 5,000 and 1.002 at 25,000; unrounded float scorers 1.4 and more at
// N ≤ 1,000, where measured runs went past the estimate.
const lbFixedCell = 1 + 0x1p-6

// lbDiagList is the largest list whose every pair lbExpected sums over
// (diagonal included): beyond, it strides through lbPairs of the L²
// ordered pairs, and the diagonal's share 1/L is no longer guaranteed.
const lbDiagList = 45 // largest L with L²/lbPairs < 2

// plan is Leaderboard's estimate (see QueryEstimate) for PlanMulti. The design of a
// query (lbState.design) takes the largest k fresh points whose expected
// list after the query, 1 + (L·2^k − 1)·Δ·m/(2·s·√π), is at most the
// target, s² = Σ w²/4 over the fresh weights w ∈ [βW, W] and m the mean
// of exp(−d²/(4s²)) over pairs of the list's carried sums (d their
// difference):
//
//   - With all pairs counted (L ≤ lbDiagList), m ≥ 1/L (the diagonal)
//     and s ≤ √k·W/2, so k ≤ FreshOne: the largest k with
//     1 + (2^k − 1)·Δ/(√(πk)·W) ≤ target, whatever the list.
//   - A list at r·T, T the target and r = CellRatio (a query's own cell
//     is up to r times the design's, and its list that much longer),
//     whose sums coincide (m = 1), with fresh weights of mean square
//     7W²/12 (uniform on [W/2, W]), gives FreshTarget: the largest k
//     with 1 + (r·T·2^k − 1)·Δ/(2·s·√π) ≤ T, s = √(7k/48)·W.
//
// Every point is fresh in exactly one query, so at most k fresh points a
// query, and at most Final in the last (which ends the attack), take at
// least min(⌈N/k⌉, 1 + ⌈(N − Final)/k⌉) queries (Lower, Low); High counts
// k in every query and Final in the last, 1 + ⌈(N − Final)/k⌉.
func (leaderboard) plan(ctx context.Context, a *multi) (*MultiPlan, error) {
	if a.k != 2 {
		return nil, fmt.Errorf("decode: the leaderboard strategy needs K = 2, not %d", a.k)
	}
	cell, _, err := a.firstCell()
	if err != nil {
		return nil, err
	}
	e := &QueryEstimate{Cell: cell, Target: lbTargetMany, FreshCap: a.opt.blockCap(lbMaxFresh)}
	if a.n <= lbFewN {
		e.Target = lbTargetFew
	}
	// The last query: a Conway–Guy set at a unit g ≥ cell·(1 + 2^−8)
	// (final grows g, never shrinks it), whatever MaxBlock.
	e.Final = a.kConwayGuy(cell*(1+0x1p-8), maxCG)
	// The estimate's premise: every query's score pins its sum to a cell
	// of the same width, the one the design plans with (a query without a
	// block). That holds when rounding to decimals dominates the budget;
	// an unrounded scorer's budget follows each query's terms (it grows
	// with the block and shrinks as known points leave the neutral row),
	// and its lists differ from what the design expects. CellRatio
	// compares the budget of FreshCap fresh and log2(target) carried
	// points at the extreme row with the design's.
	kq := min(a.nUnk, e.FreshCap+bits.Len(uint(e.Target))-1)
	row, err := a.rowInfo([]float64{1 - a.pExt, a.pExt})
	if err != nil {
		return nil, err
	}
	e.CellRatio = max(1, 2*a.budgetFor(a.order[:kq], slices.Repeat([]rowInfo{row}, kq), false)/cell)
	e.FreshOne, e.FreshTarget = e.freshOne(cell, a.wmax), e.freshTarget(cell, a.wmax, e.CellRatio)
	n, check := a.nUnk, 0
	if a.opt.Check {
		check = 1
	}
	// last counts the queries for k fresh points a query and a last one
	// of at most Final, 1 + ⌈(n − Final)/k⌉, and the check; a bound is
	// the fewer of it and ⌈n/k⌉ (ceilQueries: no last query).
	last := func(k int) int { return 1 + (max(0, n-e.Final)+k-1)/k + check }
	e.Lower, e.Low = min(last(e.FreshCap), a.ceilQueries(e.FreshCap)), min(last(e.FreshOne), a.ceilQueries(e.FreshOne))
	if a.m.Decimals >= 0 && e.CellRatio <= lbFixedCell {
		e.High = last(e.FreshTarget)
	}
	return estimatePlan(ctx, Leaderboard, e)
}

// freshOne returns the fresh points a query of Leaderboard's design (and
// Carry's) takes for a cell and the largest weight w with a list of one:
// the largest k with 1 + (2^k − 1)·cell/(√(πk)·w) ≤ T, the target (see
// leaderboard.plan), at most e.FreshCap and at least 1.
func (e *QueryEstimate) freshOne(cell, w float64) int {
	return e.largest(func(k float64) bool { return 1+(math.Exp2(k)-1)*cell/(math.Sqrt(math.Pi*k)*w) <= float64(e.Target) })
}

// freshTarget returns the fresh points a query of Leaderboard's design
// (and Carry's) takes with a list at ratio times the target T whose sums
// coincide: the largest k with 1 + (ratio·T·2^k − 1)·cell/(2·s·√π) ≤ T,
// s = √(7k/48)·w, at most e.FreshCap and at least 1.
func (e *QueryEstimate) freshTarget(cell, w, ratio float64) int {
	t := float64(e.Target)
	return e.largest(func(k float64) bool {
		s := math.Sqrt(7*k/48) * w
		return 1+(ratio*t*math.Exp2(k)-1)*cell/(2*s*math.Sqrt(math.Pi)) <= t
	})
}

// largest returns the largest k ≤ e.FreshCap for which fits holds (it
// holds up to some k), and 1 if there is none.
func (e *QueryEstimate) largest(fits func(k float64) bool) int {
	k := 0
	for k < e.FreshCap && fits(float64(k+1)) {
		k++
	}
	return max(k, 1)
}

// estimatePlan is the plan PlanMulti returns for a strategy st without a
// dry run: no blocks, half the estimate's cell as the budget, and the
// estimate e; ctx's error when ctx is done.
func estimatePlan(ctx context.Context, st Strategy, e *QueryEstimate) (*MultiPlan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &MultiPlan{Strategy: st, Budget: e.Cell / 2, Estimate: e}, nil
}

// firstCell returns the budget b0 of a query with no block and its cell
// 2·b0, the width of sums a score leaves; a *BudgetError where the cell
// is not below the room of one point.
func (a *multi) firstCell() (cell, b0 float64, err error) {
	b0 = a.budgetFor(nil, nil, false)
	cell = 2 * b0
	if !(cell > 0) || math.IsInf(cell, 0) || cell >= a.wmax {
		return 0, 0, &BudgetError{Model: a.m.Name, Budget: cell, Room: a.wmax}
	}
	return cell, b0, nil
}

// walkQueries counts the queries of an attack whose query takes
// fresh(left) of the left unknown points, and the check.
func (a *multi) walkQueries(fresh func(left int) int) int {
	q := 0
	for left := a.nUnk; left > 0; q++ {
		left -= fresh(left)
	}
	if a.opt.Check {
		q++
	}
	return q
}

// walkCell counts the queries of an attack whose query takes fresh(c) of
// the unknown points, c the cell shrunk from cell in proportion to the
// points left (their neutral terms make the sum whose spacing the cell
// is), and the check.
func (a *multi) walkCell(cell float64, fresh func(c float64) int) int {
	n := a.nUnk
	return a.walkQueries(func(left int) int { return fresh(cell * float64(left) / float64(n)) })
}

// ceilQueries counts the queries of k fresh points each, and the check.
func (a *multi) ceilQueries(k int) int { return a.walkQueries(func(int) int { return k }) }
