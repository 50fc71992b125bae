package catalog

// This file registers package decode's multi-query strategies: one entry
// each, with its doc line and what it applies to; the estimates come from
// decode's dry runs (PlanMulti), construction estimates and bounds
// (BoundMulti).

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// multiEntry is one multi-query strategy's entry: its name in decode,
// aliases, kind, doc line and what it needs beyond a log-loss target.
type multiEntry struct {
	name    string
	aliases []string
	kind    Kind
	doc     string
	applies func(t Target) error
}

// needBinary and the others are the conditions of the entries below.
func needBinary(name string) func(Target) error {
	return func(t Target) error {
		if t.K != 2 {
			return fmt.Errorf("%s needs K = 2, not %d", name, t.K)
		}
		return nil
	}
}

// needEmulated: a binary score whose model can be emulated (binary64 or
// binary32, a monotone summation).
func needEmulated(name string) func(Target) error {
	return func(t Target) error {
		if t.K != 2 {
			return fmt.Errorf("%s needs K = 2, not %d", name, t.K)
		}
		if !emulated(t) {
			return fmt.Errorf("%s needs a model it can emulate (binary64 or binary32, unrounded, round to nearest, a monotone sum), not %s", name, t.Model.Name)
		}
		return nil
	}
}

// needPointTerms: needEmulated's target whose model names its log (every
// term the server's own) and means its terms (Hybrid's condition in
// decode, hybridApplies).
func needPointTerms(name string) func(Target) error {
	emu := needEmulated(name)
	return func(t Target) error {
		if err := emu(t); err != nil {
			return err
		}
		if !exactLog(t) || t.Model.Loss.Total {
			return fmt.Errorf("%s needs a model that names its log and means its terms (float64-sklearn, torch-bce), not %s", name, t.Model.Name)
		}
		return nil
	}
}

// needKary: K > 2 against an unrounded model that names its log.
func needKary(name string) func(Target) error {
	return func(t Target) error {
		if t.K < 3 {
			return fmt.Errorf("%s needs K > 2, not %d", name, t.K)
		}
		if !exactLog(t) {
			return fmt.Errorf("%s needs an unrounded model that names its log (float64-sklearn, torch-bce), not %s", name, t.Model.Name)
		}
		return nil
	}
}

// needSummed: needKary's target whose score sums its terms (reduce=sum).
// KList's list top over Cross's digits is retired where the score is the
// mean: kbin covers it with fewer queries on every labeling (at most
// 1,350 against 1,359 at N = 25,000, K = 6), and kbin falls back to
// klist where the score is summed.
func needSummed(name string) func(Target) error {
	kary := needKary(name)
	return func(t Target) error {
		if err := kary(t); err != nil {
			return err
		}
		if !t.Model.Loss.Total {
			return fmt.Errorf("%s needs a summed score (reduce=sum): against the mean of %s kbin takes fewer queries", name, t.Model.Name)
		}
		return nil
	}
}

// emulated reports whether t's model can be emulated for decoding.
func emulated(t Target) bool {
	if t.NoEmulation || t.Model.Exact || t.Model.Decimals >= 0 {
		return false
	}
	_, err := t.Model.NewEmulator()
	return err == nil
}

// exactLog reports whether t's model is emulated on the server's own
// terms (it names its log), unrounded.
func exactLog(t Target) bool {
	if t.NoEmulation || t.Model.Exact || t.Model.Decimals >= 0 {
		return false
	}
	e, err := t.Model.NewEmulator()
	return err == nil && e.ExactLog()
}

// multiEntries are decode's strategies as the catalogue lists them, in
// the order of labelinf attack -h.
var multiEntries = []multiEntry{
	{name: "hybrid", aliases: []string{"list-digits"}, kind: MultiQuery, applies: needPointTerms("hybrid"),
		doc: "carry's list top over binary digits read from the residual; binary scorers whose model names its log (float64-sklearn, torch-bce): the fewest queries there"},
	{name: "carry", kind: MultiQuery, applies: needEmulated("carry"),
		doc: "list decoding across queries by emulated brackets; binary float scorers (float32-keras, binary32)"},
	{name: "kbin", aliases: []string{"klist-bin"}, kind: MultiQuery, applies: needKary("kbin"),
		doc: "klist's list top over hybrid's digits (binary, radix 3 on three-label points); K > 2 against an unrounded model that names its log"},
	{name: "klist", kind: MultiQuery, applies: needSummed("klist"),
		doc: "cross's K-ary digits under a list-decoded top of binary questions; K > 2 against an unrounded model that names its log and sums its terms (kbin for the mean), N ≥ 400 (cross below)"},
	{name: "leaderboard", aliases: []string{"list"}, kind: MultiQuery, applies: needBinary("leaderboard"),
		doc: "list decoding across queries; binary scores rounded to decimals"},
	{name: "cross", kind: MultiQuery,
		doc: "block code with labels carried across queries by parity ties, a paired top digit and the model's exact terms; any log-loss scorer"},
	{name: "blocks", kind: Reference,
		doc: "our adaptive block code of superincreasing digits (the audit's block code)"},
	{name: "primes", aliases: []string{"alg1"}, kind: Reference,
		doc: "ICML 2021 Alg 1: blocks of prime-power rows"},
	{name: "alg3", kind: Reference,
		doc: "ICML 2021 Alg 3"},
}

func init() {
	for _, e := range multiEntries {
		s, err := decode.ParseStrategy(e.name)
		if err != nil {
			continue // retired from decode: TestMultiEntries fails
		}
		Register(multiAttack(e, s))
	}
}

// multiAttack returns the catalogue entry of decode strategy s.
func multiAttack(e multiEntry, s decode.Strategy) *Attack {
	var a *Attack
	a = &Attack{
		Name: e.name, Aliases: e.aliases, Doc: e.doc, Kind: e.kind, Strategy: s,
		Applies: func(t Target) error {
			if err := t.checkLogLoss(e.name); err != nil {
				return err
			}
			if e.applies != nil {
				return e.applies(t)
			}
			return nil
		},
		Estimate: func(ctx context.Context, t Target, o EstimateOptions) (*Estimate, error) {
			return multiEstimate(ctx, s, t, o)
		},
		Run: func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
			if err := a.Applies(t); err != nil {
				// Not run: decode would fall back to another strategy
				// and report its queries as this one's.
				return nil, fmt.Errorf("catalog: %s does not apply: %w", e.name, err)
			}
			return decode.AttackMulti(ctx, o, decode.MultiOptions{
				N: t.N, K: t.K, Strategy: s, Model: t.Model, Noise: t.Noise, Check: opt.Check,
				NoEmulation: t.NoEmulation, MaxQueries: opt.MaxQueries, Progress: opt.Progress,
			})
		},
	}
	return a
}

// multiEstimate is a decode strategy's estimate: its dry run (the fixed
// designs' count is also their bound), or its construction estimate, and
// BoundMulti's lower bound, made consistent: a bound above the dry run
// means the dry run does not describe the real runs (a strategy that
// carries labels across queries, which the dry run decodes whole), and
// the estimate is then the bound onward.
func multiEstimate(ctx context.Context, s decode.Strategy, t Target, o EstimateOptions) (*Estimate, error) {
	opt := decode.MultiOptions{N: t.N, K: t.K, Strategy: s, Model: t.Model, Noise: t.Noise, NoEmulation: t.NoEmulation, Check: o.Check}
	dryMax := cmp.Or(o.DryRunMax, DefaultDryRunMax)
	est := &Estimate{}
	lower := func() {
		if b, err := decode.BoundMulti(ctx, opt); err == nil && (b.Lower || b.Exact) {
			est.Lower = b.Queries
		}
	}
	if designsBlocks(s) && t.N > dryMax {
		lower()
		est.Note = fmt.Sprintf("dry run not run: N = %d > -dry-run-max %d (minutes at 10^6); its count is at least the bound", t.N, dryMax)
		return est, nil
	}
	p, err := decode.PlanMulti(ctx, opt)
	var budget *decode.BudgetError
	switch {
	case errors.As(err, &budget):
		return nil, err // not one label a query: nothing to estimate
	case err != nil:
		// No dry run (the queries follow the scores) and no estimate
		// from the construction: one run against a simulated scorer of
		// the model on a seeded random labeling, where N allows.
		lower()
		est.Note = "no dry run (its queries follow the scores) and no estimate; the bound alone"
		if q, ok := simulatedRun(ctx, s, t, o); ok {
			est.Low, est.High = max(q, est.Lower), max(q, est.Lower)
			est.Note = fmt.Sprintf("no dry run (its queries follow the scores): %d queries in one run against a simulated %s on a seeded random labeling; an estimate, not a bound", q, t.Model.Name)
		}
		return est, nil
	case p.Estimate != nil:
		pe := p.Estimate
		est.Plan, est.Low, est.High, est.Lower = p, pe.Low, pe.High, pe.Lower
		est.Note = fmt.Sprintf("an estimate from its construction, not a bound: %d with a list of one, %d with lists at their target of %d", pe.Low, pe.High, pe.Target)
		if pe.High == 0 {
			est.Note = fmt.Sprintf("an estimate from its construction: %d when every list holds at most 45 candidates; no upper end (its budget follows each query's terms)", pe.Low)
		}
	default:
		est.Plan, est.Queries = p, p.Queries
		if s == decode.Primes || s == decode.Alg3 {
			est.Lower = p.Queries // one design repeated: its count is exact
		} else {
			lower()
		}
	}
	if est.Queries > 0 && est.Lower > est.Queries {
		est.Note = fmt.Sprintf("the dry run's %d is below the bound: the runs carry labels across queries, which the dry run decodes whole", est.Queries)
		est.Low, est.Queries = est.Lower, 0
	}
	if est.Low > 0 && est.Lower > est.Low {
		est.Low = est.Lower
	}
	if est.High > 0 && est.High < est.Low {
		est.High = est.Low
	}
	return est, nil
}

// designsBlocks reports whether s's dry run designs every block.
func designsBlocks(s decode.Strategy) bool {
	return s == decode.Blocks || s == decode.Cross
}

// simMax bounds N for simulatedRun: a K-ary list decoder's run takes about
// 1.5 s of CPU at N = 25,000 (KBin, K = 6; BENCHMARKS.md "kbin").
const simMax = 25_000

// simulatedRun runs s against a simulated scorer of t's model holding
// seeded random labels (labelinf attack -seed 1's) and returns its
// queries if it recovered every label, verified.
func simulatedRun(ctx context.Context, s decode.Strategy, t Target, o EstimateOptions) (int, bool) {
	if t.N > simMax || t.Model.Exact {
		return 0, false
	}
	labels := SeededLabels(1, t.N, t.K)
	sim, err := oracle.NewSim(t.Model, labels, t.K)
	if err != nil {
		return 0, false
	}
	var sc scorer.Server = sim
	if t.Noise.Kind != scorer.NoNoise {
		if sc, err = oracle.NewNoisy(sim, t.Noise, 1); err != nil {
			return 0, false
		}
	}
	res, err := decode.AttackMulti(ctx, scorer.PerPoint(sc, t.Model), decode.MultiOptions{
		Strategy: s, Model: t.Model, Noise: t.Noise, NoEmulation: t.NoEmulation, Check: o.Check,
	})
	if err != nil || !res.Verified || !slices.Equal(res.Labels, labels) {
		return 0, false
	}
	return res.Queries, true
}
