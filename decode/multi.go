// This file implements the multi-query attack against finite-precision
// scorers: its options, [AttackMulti] and the dry run [PlanMulti]. The
// strategies are in strategy.go (the interface) and one file each:
// blocks.go, primes.go (ICML Alg 1), alg3.go (ICML Alg 3).

package decode

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/labelinf/labelinf/scorer"
)

// MultiOptions configures a multi-query attack.
type MultiOptions struct {
	// N and K are the labels and classes: required by [PlanMulti] and
	// [BoundMulti]; [AttackMulti] takes the server's (0) or checks that
	// they match.
	N, K int
	// Strategy is the block layout; nil means [Cross].
	Strategy Strategy
	// Model is the scorer model the attack plans for (its error budget);
	// required.
	Model *scorer.Model
	// Noise is the noise the attacker assumes on each score.
	Noise scorer.Noise
	// Check spends one more query, with every point predicted as its
	// recovered label, to verify all labels at once end to end.
	Check bool
	// MaxQueries stops the attack with an error after that many queries;
	// 0 means 4N + 64.
	MaxQueries int
	// Progress, if set, is called after each query with the number of
	// labels known and queries spent.
	Progress func(known, queries int)
	// NoEmulation makes the block code decode with the rigorous error
	// budget alone. By default, against a binary64/binary32 model with a
	// monotone summation, Blocks brackets each candidate labeling's
	// reported score by emulating the server on the lowest and highest
	// values its faithful log can return (scorer.Emulator), which
	// separates labelings far closer than the budget does.
	NoEmulation bool
	// MaxBlock caps the points decoded per query (0: no cap, the
	// strategy's largest block). ICML Table 2 runs Alg 1 at exactly N/5
	// queries: Primes with MaxBlock 5.
	MaxBlock int
	// Known, if not nil, holds labels learned before the attack (N
	// entries, −1 where unknown), for example from the probe queries that
	// identified the scorer (package fingerprint): the attack starts with
	// them known and spends no query on them. They are as trustworthy as
	// their source; Check verifies them with the rest.
	Known []int
	// OnFail, if set, is called after a block fails verification, with
	// the labels known so far (−1 unknown, the failed block's points
	// among them); a non-nil error stops the attack at once with that
	// error, wrapped in ErrInconsistent, instead of retrying a smaller
	// block: a caller that can tell the score refutes the model (package
	// fingerprint replays it, ReplayTranscript) re-identifies the scorer
	// rather than retrying blindly.
	OnFail func(labels []int) error

	// Tests' hooks: debugState is given the state of the attack,
	// debugKList KList's (and KBin's) list state.
	debugState func(a *multi)
	debugKList func(st *klState)
}

// blockCap is the largest block a query may decode.
func (opt *MultiOptions) blockCap(n int) int {
	if opt.MaxBlock > 0 {
		return min(n, opt.MaxBlock)
	}
	return n
}

// MultiPlan is the dry run of a strategy: the blocks it would decode, in
// order, without querying.
type MultiPlan struct {
	Strategy Strategy
	Queries  int
	Blocks   []int
	// Gap is the weight unit g of the first block (the separation of its
	// subset sums, in units of the sum N·score).
	Gap float64
	// Budget is the error budget of the first query, in units of the sum.
	Budget float64
	// Estimate, if not nil, stands for the dry run of a strategy whose
	// queries follow the scores (Leaderboard): Queries is 0, Blocks and
	// Gap are empty, and the estimate gives the band of counts.
	Estimate *QueryEstimate
}

// AttackMulti attacks s with the strategy of opt: it recovers all N labels
// with as few queries as the strategy allows, verifying every block. It
// stops with ctx's error (and the labels verified so far) when ctx is
// done; the scorer's Score sees ctx too.
func AttackMulti(ctx context.Context, s scorer.Server, opt MultiOptions) (*Result, error) {
	if (opt.N != 0 && opt.N != s.N()) || (opt.K != 0 && opt.K != s.K()) {
		return nil, errors.New("decode: options do not match the scorer's N and K")
	}
	a, err := newMulti(s.N(), s.K(), opt)
	if err != nil {
		return nil, err
	}
	if opt.MaxBlock < 0 {
		return nil, fmt.Errorf("decode: MaxBlock = %d; want ≥ 0", opt.MaxBlock)
	}
	if opt.Known != nil {
		// Labels known before the attack.
		if err := checkKnown(opt.Known, a.n, a.k); err != nil {
			return nil, err
		}
		var idx, sigma []int
		for i, c := range opt.Known {
			if c >= 0 {
				idx, sigma = append(idx, i), append(sigma, c)
			}
		}
		if len(idx) > 0 {
			a.learn(idx, sigma)
		}
	}
	if opt.debugState != nil {
		opt.debugState(a)
	}
	return a.st.attack(ctx, a, s)
}

// attack is a block designer's attack, the engine's: it queries the
// blocks d designs, one a query, decoding and verifying each, shrinking a
// block that fails verification, until every label is known.
func (d *designer) attack(ctx context.Context, a *multi, s scorer.Server) (*Result, error) {
	res := &Result{Verified: true}
	kmax, fails := a.opt.blockCap(a.n), 0
	design := func() ([]int, *blockPlan, error) {
		p, err := d.next(a, kmax)
		if err != nil {
			return nil, nil, err
		}
		return a.nextIdx(len(p.rows)), p, nil
	}
	return a.queryLoop(ctx, s, res, true, design, func(score *big.Rat, idx []int, p *blockPlan) (int, error) {
		if sigma, ok := a.decode(score, idx, p); ok {
			fails, kmax = 0, a.opt.blockCap(a.n)
			return a.learn(idx, sigma), nil
		}
		// Too large a block for what the scorer really does: shrink it
		// and query again.
		if err := a.onFail(); err != nil {
			return 0, err
		}
		res.Retries++
		if fails++; fails > maxFails {
			return 0, fmt.Errorf("%w: %d consecutive blocks failed verification against %s (is the scorer model right?)", ErrInconsistent, fails, a.m.Name)
		}
		kmax = max(1, len(idx)/2)
		if p.emu {
			// The bracket check failed: the emulated separation was
			// estimated short. Its factor has grown; shrink by one.
			kmax = max(1, len(idx)-1)
		}
		return -1, nil
	})
}

// queryLoop is the engine's attack loop (a block designer's,
// designer.attack, and the list engine's, lbState.queries): until every
// label is known, design returns the points of the next query and their
// rows, the query is sent (and its block undone in the prediction:
// learning rewrites the known points' rows), and decode reads its score:
// the labels it learned (−1: none, the query is a retry) or an error that
// stops the attack; then the final check query (MultiOptions.Check). A
// query that learned part of its points counts in res.Partial if
// countPartial. A failed score stops the attack: the result returned then
// has the labels known so far if ctx is done (cancelled: what is known
// stays known), none otherwise.
func (a *multi) queryLoop(ctx context.Context, s scorer.Server, res *Result, countPartial bool,
	design func() ([]int, *blockPlan, error), decode func(score *big.Rat, idx []int, p *blockPlan) (int, error)) (*Result, error) {
	for a.nUnk > 0 {
		if err := ctx.Err(); err != nil {
			return a.partial(res), err
		}
		if a.queries >= a.maxQ {
			return a.partial(res), fmt.Errorf("decode: query limit %d reached with %d labels unknown", a.maxQ, a.nUnk)
		}
		idx, p, err := design()
		if err != nil {
			return a.failed(res), err
		}
		score, err := s.Score(ctx, a.prediction(idx, p))
		a.queries++
		for _, i := range idx {
			a.putRow(i)
		}
		if err != nil && ctx.Err() != nil {
			return a.partial(res), err
		}
		if err != nil {
			return a.failed(res), err
		}
		got, err := decode(score, idx, p)
		if err != nil {
			return a.failed(res), err
		}
		if got >= 0 {
			res.Blocks = append(res.Blocks, got)
		}
		if countPartial && got >= 0 && got < len(idx) {
			res.Partial++
		}
		if a.opt.Progress != nil {
			a.opt.Progress(a.n-a.nUnk, a.queries)
		}
	}
	// The result is the failed one with ErrInconsistent when the check
	// does not match the recovered labels.
	if a.opt.Check {
		ok, decisive, err := a.check(ctx, s)
		if err != nil {
			return a.failed(res), err
		}
		res.Checked, res.CheckDecisive = true, decisive
		if !ok {
			return a.failed(res), fmt.Errorf("%w: the final check query does not match the recovered labels", ErrInconsistent)
		}
	}
	return a.partial(res), nil
}

// maxFails is the number of consecutive blocks that may fail verification
// before the attack gives up on the model: each failure at least halves
// the block (or, under emulation, shrinks it by one and raises the safety
// factor ×1.5, so that six failures raise it elevenfold), and a model that
// is right decodes a block of one label whenever the budget allows one.
const maxFails = 6

// partial completes res with the labels decoded so far, all known.
func (a *multi) partial(res *Result) *Result {
	res.Labels = slices.Clone(a.labels)
	res.Known = make([]bool, a.n)
	for i, c := range a.labels {
		res.Known[i] = c >= 0
	}
	res.Queries = a.queries
	res.Verified = res.Verified && a.nUnk == 0
	return res
}

// failed marks res unverified: an error means the scorer did not behave
// as the model says, so earlier blocks are suspect too and no label is
// known (Labels keeps them for diagnosis).
func (a *multi) failed(res *Result) *Result {
	res.Verified = false
	a.partial(res)
	clear(res.Known)
	return res
}

// PlanMulti is the dry run of opt's strategy for opt.N labels of opt.K classes: the
// blocks it would decode if every query verified. Known points are counted
// at the class with the largest term (the worst case for the budget).
// A real run may differ from the dry run's count: retries and partially
// decoded blocks (Cross) add queries, known points whose terms are
// below the worst case may save some; none spends fewer than BoundMulti's. A strategy
// whose queries follow the scores (Leaderboard) has no dry run: its plan
// is an estimate ([MultiPlan].Estimate).
//
// For Cross's K-ary code (K > 2 against a model that names its log,
// kties.go) the dry run decodes every block whole, which its units below
// the spacing of the score do not: it is no upper bound there, only the
// blocks' sizes (1,377 queries at N = 25,000, K = 6, float64-sklearn,
// where [BoundMulti] proves at least 1,443 and the attack takes about
// 1,470).
//
// It returns ctx's error when ctx is done.
func PlanMulti(ctx context.Context, opt MultiOptions) (*MultiPlan, error) {
	a, err := newMulti(opt.N, opt.K, opt)
	if err != nil {
		return nil, err
	}
	return a.st.plan(ctx, a)
}

// plan is a block designer's plan, the engine's dry run: the blocks d
// designs if every query verifies, known points counted at the class with
// the largest term.
func (d *designer) plan(ctx context.Context, a *multi) (*MultiPlan, error) {
	worst := 0
	for c := range a.k {
		if a.known[c].tf[c] > a.known[worst].tf[worst] {
			worst = c
		}
	}
	out := &MultiPlan{Strategy: a.st}
	for a.nUnk > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, err := d.next(a, a.opt.blockCap(a.n))
		if err != nil {
			return nil, err
		}
		if out.Queries == 0 {
			out.Gap, out.Budget = p.g, p.budget
			if p.g == 0 { // Primes: no unit, the gap of its products
				out.Gap, _ = p.gap.Float64()
			}
		}
		idx := a.nextIdx(len(p.rows))
		a.learn(idx, slices.Repeat([]int{worst}, len(idx)))
		out.Queries++
		out.Blocks = append(out.Blocks, len(idx))
		if out.Queries > a.maxQ {
			return nil, fmt.Errorf("decode: plan exceeds %d queries", a.maxQ)
		}
	}
	if a.opt.Check {
		out.Queries++
	}
	return out, nil
}

// BudgetError reports a scorer whose error budget leaves no room for even
// one label per query: two labelings must differ by more than Budget in
// the sum, and one point can move it by at most Room.
type BudgetError struct {
	Model        string
	Budget, Room float64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("decode: %s: the score's error budget needs labelings %.3g apart in N·score, one point can move it by at most %.3g: not even one label per query is recoverable", e.Model, e.Budget, e.Room)
}

// onFail tells MultiOptions.OnFail, if set, that a score failed
// verification, with the labels known so far; its error, wrapped in
// ErrInconsistent, stops the attack.
func (a *multi) onFail() error {
	if a.opt.OnFail == nil {
		return nil
	}
	if err := a.opt.OnFail(slices.Clone(a.labels)); err != nil {
		return fmt.Errorf("%w: %w", ErrInconsistent, err)
	}
	return nil
}
