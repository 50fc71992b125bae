// This file defines the multi-query strategies' interface and registry.
// A strategy is one file: an exported value implementing Strategy (a
// block designer's a designer: its setup and block design) and an init
// that registers its names (see blocks.go, primes.go, alg3.go for block
// designers, leaderboard.go for a list decoder).

package decode

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/labelinf/labelinf/scorer"
)

// A Strategy is a multi-query attack. There are two kinds: a block
// designer ([Blocks], [Cross], [Primes], [Alg3]) designs one block of
// unknown points a query, and the engine queries, decodes and verifies
// it and dry-runs its design (designer.attack and plan, multi.go); a list
// decoder ([Leaderboard], [Carry], [Hybrid], [KList], [KBin]) runs the whole
// attack on the list engine (lbState, leaderboard.go), every query
// following the scores before it, and has an estimate instead of a dry
// run. [Strategies] lists them; [ParseStrategy] finds one by name. A nil
// Strategy means Cross.
type Strategy interface {
	// String returns the strategy's name, as ParseStrategy accepts it.
	String() string
	// setup prepares a new attack's state (point order, emulation, known
	// points predicted neutral: multi.neutralKnown) and
	// returns the strategy that runs it: itself, or where it does not
	// apply the one it falls back to (KBin to KList, either to Cross).
	// Carry and Hybrid fall back to none: where they do not apply their
	// attack and plan return an error.
	setup(a *multi) Strategy
	// attack runs the attack on a's state against s.
	attack(ctx context.Context, a *multi, s scorer.Server) (*Result, error)
	// plan returns the dry run (a block designer's) or the estimate (a
	// list decoder's) of the attack on a's state.
	plan(ctx context.Context, a *multi) (*MultiPlan, error)
}

// A designer is a block designer: init prepares its attack's state
// (setup) and next designs the next block of at most kmax unknown points.
// Its attack and plan are the engine's block loop and dry run (multi.go).
type designer struct {
	name string
	init func(a *multi)
	next func(a *multi, kmax int) (*blockPlan, error)
}

func (d *designer) String() string { return d.name }

func (d *designer) setup(a *multi) Strategy {
	d.init(a)
	return d
}

// registry lists the strategies in the order they registered, each with
// the names ParseStrategy accepts for it.
var registry []registered

type registered struct {
	s     Strategy
	names []string
}

// register makes s known to ParseStrategy under its name and aliases.
func register(s Strategy, aliases ...string) {
	registry = append(registry, registered{s, append([]string{s.String()}, aliases...)})
}

// ParseStrategy returns the strategy called name ("alg1" is Primes).
// Package catalog lists every attack, these among them, and its Auto
// picks one for a scorer.
func ParseStrategy(name string) (Strategy, error) {
	var all []string
	for _, r := range registry {
		for _, n := range r.names {
			if n == name {
				return r.s, nil
			}
			all = append(all, n)
		}
	}
	if r, ok := retired[name]; ok {
		return nil, &RetiredError{Name: name, Use: r[0], Why: r[1]}
	}
	return nil, fmt.Errorf("decode: unknown strategy %q (want one of %s)", name, strings.Join(all, ", "))
}

// RetiredError reports the name of a retired strategy and the strategy
// that replaces it.
type RetiredError struct {
	Name, Use string
	Why       string // why Use replaces it
}

func (e *RetiredError) Error() string {
	return fmt.Sprintf("decode: strategy %q is retired: use %s (%s)", e.Name, e.Use, e.Why)
}

// retired holds, for each retired strategy, the one that replaces it and
// why.
var retired = map[string][2]string{
	"lean": {"cross", "cross is lean's partial decoding with labels carried across queries and exact terms, and takes fewer queries on every scorer"},
}

// Strategies returns the multi-query strategies, in the order they
// registered (their files' names).
func Strategies() []Strategy {
	out := make([]Strategy, len(registry))
	for i, r := range registry {
		out[i] = r.s
	}
	return out
}

// A reader reads a block's labels from t, the label-dependent part of
// N·score; it returns nil if t does not decode. Verification follows.
type reader func(a *multi, t *big.Float, p *blockPlan) []int

// blockPlan is one query's block design.
type blockPlan struct {
	read   reader
	g      float64 // weight unit (0 for Primes, whose gap is in gap)
	rows   []rowInfo
	v      [][]*big.Float // v[j][c] = t_j(c) − t_j(0), exact
	gap    *big.Float     // realized minimum separation of block sums
	budget float64        // error budget of the query, sum units
	xmax   *big.Int       // Primes: Π p_j^(K−1)
	emu    bool           // decode by emulated brackets
	// pair, if > 0, is the point whose row repeats point 0's (Cross):
	// labelings that swap their labels have one exact sum, and a score
	// whose every explaining labeling gives the two points one label 1
	// ties them (multi.tie).
	pair int
	// each, if set, enumerates the block's candidate labelings for
	// decoding by brackets (nil: superincreasing digits, eachDigits): it
	// calls f on every labeling whose exact block sum lies in [low, high]
	// (a superset is allowed) until f returns false, and reports false if
	// it could not list them all.
	each func(a *multi, p *blockPlan, low, high *big.Float, f func(sigma []int) bool) bool
}

// fixedState is the state of the strategies with one block design for
// the whole attack (Primes, Alg3).
type fixedState struct {
	fixed     *blockPlan // the design
	primeList []uint64   // Primes: the primes of its rows
}

// setNeutralKnown is the setup of the strategies that predict known
// points neutral (Primes, Alg3: multi.neutralKnown).
func setNeutralKnown(a *multi) { a.neutralKnown = true }

// fixedPlan is the planning of the strategies with one block design for
// the whole attack (Primes, Alg3): design makes it, for at most kmax
// points, given the previous design (nil at first). The design is kept;
// its budget is recomputed for the block's own points, and the block
// shrinks if the design does not fit there.
func (a *multi) fixedPlan(kmax int, design func(kmax int, prev *blockPlan) (*blockPlan, error)) (*blockPlan, error) {
	for {
		if a.fixed == nil || kmax < len(a.fixed.rows) || len(a.fixed.rows) > a.nUnk {
			var err error
			if a.fixed, err = design(kmax, a.fixed); err != nil {
				return nil, err
			}
		}
		p := *a.fixed
		p.budget = a.budgetFor(a.nextIdx(len(p.rows)), p.rows, true)
		if gapOK(p.gap, p.budget) {
			return &p, nil
		}
		if len(p.rows) == 1 {
			return nil, &BudgetError{Model: a.m.Name, Budget: 2 * p.budget, Room: a.wmax}
		}
		kmax = len(p.rows) - 1
	}
}

// gapOK reports gap > 2·budget.
func gapOK(gap *big.Float, budget float64) bool {
	return gap.Cmp(new(big.Float).SetFloat64(2*budget)) > 0
}
