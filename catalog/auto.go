package catalog

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// AutoName is the name that asks for [Auto]'s pick (labelinf attack
// -strategy auto). No attack registers it.
const AutoName = "auto"

// AutoDoc is AutoName's line in the catalogue's lists ([Help]).
const AutoDoc = "the one rule, Auto: leaderboard for a binary score rounded to decimals, hybrid for a binary float score whose model names its log, carry for another binary float32 score it can emulate, kbin for K > 2 against an unrounded model that names its log (klist for a summed score), else cross; the applicable attack with the fewest estimated queries where that one cannot carry a label a query, and for another metric"

// Auto returns the attack that spends the fewest queries on t, by one
// rule (BENCHMARKS.md, "The leaderboard: list decoding across queries",
// "List decoding for float scorers", "List top over digits", "K-ary list
// top", "kbin"). For a log-loss target:
//
//   - [leaderboard] for a binary score rounded to decimals;
//   - hybrid for a binary float score whose model names its log
//     (float64-sklearn, torch-bce: every term the server's own): 512
//     queries on float64-sklearn at N = 25,000 where cross takes 548, and
//     1,196 on torch-bce where carry takes 1,224;
//   - carry for another binary float score of at most float32's
//     precision that can be emulated (float32-keras, binary32): a
//     binary64 block carries about 45 labels, more than carry's meet in
//     the middle lists;
//   - kbin for K > 2 against an unrounded model that names its log
//     (1,350 queries at most on float64-sklearn, K = 6, N = 25,000, over
//     the 23 benchmark labelings, where klist took 1,359 and cross
//     1,473), klist where the score is summed;
//   - cross otherwise (exact scorers too: a single-query attack needs
//     the arbitrary-precision oracle, which labelinf attack
//     -strategy robust runs, and Auto never picks one).
//
// If the rule's pick does not apply to t, and for targets of other
// metrics,
// Auto returns the applicable attack whose estimate is the fewest
// queries ([Estimate.Best]), the verified attacks first; an error if
// none applies. [RunAuto] runs the pick, and where it cannot carry one
// label a query (before its first query) that attack instead.
func Auto(t Target) (*Attack, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if a, ok := discreteAuto(t); ok {
		return a, nil
	}
	if t.metric() == LogLoss {
		if a := Lookup(autoRule(t)); a != nil && a.Applies(t) == nil {
			return a, nil
		}
	}
	var best *Attack
	bestQ := 0
	for _, a := range Applicable(t) {
		if a.Kind == SingleQuery || a.Run == nil || !verifies(a) {
			continue
		}
		e, err := a.Estimate(context.Background(), t, EstimateOptions{})
		if err != nil {
			continue
		}
		if q := e.Best(); q > 0 && (best == nil || q < bestQ) {
			best, bestQ = a, q
		}
	}
	if best == nil {
		return nil, fmt.Errorf("catalog: no attack of the catalogue applies to %s with N = %d, K = %d", t.metric(), t.N, t.K)
	}
	return best, nil
}

// verifies reports whether a's labels are verified (every attack but the
// statistical ones: averaging and boosting guess).
func verifies(a *Attack) bool { return a.Name != "average" && a.Name != "boost" }

// autoRule is Auto's rule for a log-loss target: the name of its pick.
func autoRule(t Target) string {
	m := t.Model
	switch {
	case m.Exact:
		return "cross"
	case t.K != 2:
		if exactLog(t) {
			if !m.Loss.Total {
				return "kbin"
			}
			return "klist"
		}
		return "cross"
	case m.Decimals >= 0:
		return "leaderboard"
	case !emulated(t):
		return "cross"
	case exactLog(t) && !m.Loss.Total:
		return "hybrid"
	case m.Loss.Format.Prec() > 24:
		return "cross"
	}
	return "carry"
}

// RunAuto runs [Auto]'s pick against o and returns the attack that ran.
// If the pick stops before its first query because no label a query fits
// the scorer's error budget (a *decode.BudgetError: binary16 at
// N = 2,000, where every block code's labelings must lie 25 apart in
// N·score and one point moves it by 16.6), the applicable attack that
// verifies its labels with the fewest estimated queries runs instead
// (the threshold crossing, which reads one label a query and recovers
// the constant and alternating labelings there), so that auto fails only
// where every attack of the catalogue would.
func RunAuto(ctx context.Context, o Oracle, t Target, opt Options) (*Attack, *decode.Result, error) {
	a, err := Auto(t)
	if err != nil {
		return nil, nil, err
	}
	res, err := a.Run(ctx, o, t, opt)
	var be *decode.BudgetError
	if !errors.As(err, &be) || res != nil && res.Queries > 0 || o.Queries() > 0 {
		return a, res, err
	}
	var next *Attack
	bestQ := 0
	for _, b := range Applicable(t) {
		if b == a || b.Kind == SingleQuery || b.Run == nil || !verifies(b) {
			continue
		}
		if b.Kind == Adaptive && t.Noise.Kind != scorer.NoNoise && t.Noise.HalfWidth(0, 1) >= math.Log(4.0/3)/(2*float64(t.N)) {
			// The threshold crossing reads a label from a move of the
			// score by ln(4/3)/N at least; noise half as large makes
			// its readings coins (adaptive.ErrNoisy).
			continue
		}
		e, eerr := b.Estimate(ctx, t, EstimateOptions{})
		if eerr != nil {
			continue
		}
		if q := e.Best(); q > 0 && (next == nil || q < bestQ) {
			next, bestQ = b, q
		}
	}
	if next == nil {
		return a, res, err
	}
	res2, err2 := next.Run(ctx, o, t, opt)
	return next, res2, err2
}
