package discrete

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// A Metric is a score whose value counts labels: the metrics of labelinf
// serve that are not log-loss models.
type Metric int

// The metrics, named as serve names them (metric.Accuracy, MetricAUC,
// MetricBrier).
const (
	Accuracy Metric = iota
	AUC
	Brier
)

var metricNames = [...]string{"accuracy", "roc-auc", "brier"}

func (m Metric) String() string {
	if m < 0 || int(m) >= len(metricNames) {
		return fmt.Sprintf("Metric(%d)", int(m))
	}
	return metricNames[m]
}

// ParseMetric returns the metric called name: accuracy, roc-auc (or auc)
// or brier.
func ParseMetric(name string) (Metric, error) {
	switch name {
	case "accuracy":
		return Accuracy, nil
	case "roc-auc", "auc":
		return AUC, nil
	case "brier":
		return Brier, nil
	}
	return 0, fmt.Errorf("discrete: unknown metric %q: want accuracy, roc-auc or brier", name)
}

// IsMetric reports whether name is a metric of this package.
func IsMetric(name string) bool {
	_, err := ParseMetric(name)
	return err == nil
}

// A Strategy is one of the package's attacks.
type Strategy int

// The strategies.
const (
	// Auto picks the strategy with the fewest queries for the metric, K
	// and rounding ([Choose]).
	Auto Strategy = iota
	// Flip reads one row per query: N queries (K = 2), about N + the rows
	// of classes ≥ 2 for K > 2.
	Flip
	// Group reads subset sums of a coin-weighing design: about
	// 2N/log₂N queries (K > 2: K − 1 times as many, one per class).
	Group
	// Family is the Brier score as the squared loss of [EA]'s family:
	// single.AttackFamilyMulti's blocks of M rows with weights 2^j, N/M
	// queries (binary Brier only).
	Family
	// Edge ("walk") is the threshold-crossing attack for a score rounded
	// more coarsely than one label moves it: a walk to a rounding edge,
	// then about N queries (accuracy and Brier). (package adaptive's
	// threshold crossing, "edge" in the catalogue, is the log-loss one.)
	Edge
	// Swap is the pair-swap attack on ROC AUC [Whitehill16] (swap.go): a
	// binary search along a path of swapped ranks to a rounding edge, then
	// one tie of adjacent ranks a row: about N + 2·log₂N queries at any
	// rounding, coarse ones included.
	Swap
	// Rank reads ROC AUC as a weighted sum of labels, Σ yᵢ·2ρᵢ over the
	// midranks ρ (rank.go): blocks of unknown rows spaced among known
	// ones, about log₂ of the known rows a query (N = 1,000: 120 queries
	// unrounded, 155 at 5 decimals, against group's 313).
	Rank
)

var strategyNames = [...]string{"auto", "flip", "group", "family", "walk", "swap", "rank"}

func (s Strategy) String() string {
	if s < 0 || int(s) >= len(strategyNames) {
		return fmt.Sprintf("Strategy(%d)", int(s))
	}
	return strategyNames[s]
}

// ParseStrategy returns the strategy called name.
func ParseStrategy(name string) (Strategy, error) {
	for i, n := range strategyNames {
		if n == name {
			return Strategy(i), nil
		}
	}
	return 0, fmt.Errorf("discrete: unknown strategy %q: want %s", name, strings.Join(strategyNames[:], ", "))
}

// Strategies returns the strategies that apply to metric m with k
// classes, Auto excluded.
func Strategies(m Metric, k int) []Strategy {
	switch {
	case k > 2 && m == AUC:
		return nil
	case k > 2:
		return []Strategy{Flip, Group, Edge}
	case m == Brier:
		return []Strategy{Flip, Group, Family, Edge}
	case m == AUC:
		return []Strategy{Flip, Group, Swap, Rank}
	}
	return []Strategy{Flip, Group, Edge}
}

// Options configures [Attack].
type Options struct {
	Metric Metric
	// N is the number of rows (≥ 1; ≥ 2 for AUC); K the classes (0 means
	// 2; AUC is binary).
	N, K int
	// Decimals the released score is rounded to (ties to even); −1: not
	// rounded.
	Decimals int
	// Tau, if positive, bounds the noise added to the exact score before
	// it is rounded: a count is decoded only if a single candidate lies
	// within Tau (plus half a unit of the last decimal) of the released
	// score.
	Tau float64
	// Strategy is the attack; Auto picks one ([Choose]).
	Strategy Strategy
	// Hidden says a public/private split may hide rows from the score
	// (Swap only): each row is then read by a probe that moves the AUC
	// whatever its label if it is public, about 2N queries, and private
	// rows stay unknown.
	Hidden bool
	// Check spends one more query submitting the recovered labels, whose
	// score must then be perfect (accuracy 1, AUC 1, Brier 0): the labels
	// are verified end to end, whatever the model assumed.
	Check bool
	// Repeats, if above 1, submits every prediction that many times and
	// decodes the mean of the released scores: against fresh noise, Tau
	// is then the bound on the mean's noise ([NoiseRepeats] picks both).
	Repeats int
	// MaxQueries, if positive, stops the attack with [ErrBudget] once it
	// has sent that many queries; flip and group then return the labels
	// decoded so far (a block at a time), verified as always.
	MaxQueries int
	// Progress, if set, is called after each query with the labels known
	// so far and the queries sent.
	Progress func(known, queries int)
}

// ErrBudget is the error of an attack stopped at Options.MaxQueries.
var ErrBudget = errors.New("discrete: query budget reached")

func (o *Options) validate() error {
	if o.K == 0 {
		o.K = 2
	}
	if o.N < 1 {
		return fmt.Errorf("discrete: N = %d; want N ≥ 1", o.N)
	}
	if o.K < 2 || o.K > 64 {
		return fmt.Errorf("discrete: K = %d outside [2, 64]", o.K)
	}
	if o.Metric < 0 || int(o.Metric) >= len(metricNames) {
		return fmt.Errorf("discrete: unknown metric %d", o.Metric)
	}
	if o.Metric == AUC && o.K != 2 {
		return errors.New("discrete: roc-auc is binary (K = 2)")
	}
	if o.Metric == AUC && o.N < 2 {
		return errors.New("discrete: roc-auc needs N ≥ 2 (both classes present)")
	}
	if o.Decimals > 30 {
		return fmt.Errorf("discrete: %d decimals, over 30", o.Decimals)
	}
	if o.Repeats < 0 || o.MaxQueries < 0 {
		return fmt.Errorf("discrete: repeats %d, max queries %d: want ≥ 0", o.Repeats, o.MaxQueries)
	}
	if math.IsNaN(o.Tau) || o.Tau < 0 || math.IsInf(o.Tau, 0) {
		return fmt.Errorf("discrete: noise bound τ = %v; want a finite τ ≥ 0", o.Tau)
	}
	if o.Hidden && o.Strategy != Swap {
		return fmt.Errorf("discrete: only swap reads rows a split may hide, not %v", o.Strategy)
	}
	if o.Strategy == Rank && !rankApplies(*o) {
		return fmt.Errorf("discrete: rank needs a rounding unit of 2U below N/8 (5 decimals for N up to about 3,500, or unrounded), without noise; %d decimals on %d rows", o.Decimals, o.N)
	}
	if o.Strategy == Swap && (o.Tau > 0 || o.Repeats > 1) {
		return errors.New("discrete: swap reads exact rounding edges; noise moves them (τ > 0 or repeats)")
	}
	if o.Strategy != Auto {
		ok := false
		for _, s := range Strategies(o.Metric, o.K) {
			ok = ok || s == o.Strategy
		}
		if !ok {
			return fmt.Errorf("discrete: strategy %v does not apply to %v with K = %d", o.Strategy, o.Metric, o.K)
		}
	}
	return nil
}

// Choose returns the strategy Auto runs: Edge where the rounding (or
// noise) is coarser than one label's change of the score ([Resolves]
// false) and Edge applies, Swap there for ROC AUC without noise;
// otherwise, of the strategies that apply
// ([Strategies]), the one whose plan ([Plan]) sends the fewest queries
// (Family for the binary Brier score where its blocks hold more than a
// few rows: 126 against Group's 314 at N = 1,000 and 5 decimals, but
// 12,501 against 5,119 at N = 25,000), ties to the earlier.
func Choose(o Options) Strategy {
	all := Strategies(o.Metric, max(o.K, 2))
	if !Resolves(o) && slices.Contains(all, Edge) {
		return Edge
	}
	if !Resolves(o) && slices.Contains(all, Swap) && o.Tau == 0 && o.Repeats <= 1 {
		return Swap
	}
	best, bestQ := Flip, -1
	for _, st := range all {
		if st == Edge || st == Swap || st == Rank && !rankApplies(o) {
			continue
		}
		p := o
		p.Strategy, p.Check = st, false
		q, err := Plan(p)
		if err != nil {
			continue
		}
		if bestQ < 0 || q < bestQ {
			best, bestQ = st, q
		}
	}
	return best
}

// Resolves reports whether one label's change of the score (1/N; the
// multiclass Brier score's 2/N) exceeds the rounding unit 10^−Decimals
// plus twice the noise bound: then distinct counts of labels release
// distinct scores, as Flip and Group need. (AUC: their subset query on S
// moves it by N/(2T(N − T)) ≥ 2/N a label of S, T = Σ y (binary.go), and
// the baseline's two readings of y₀ are as far apart.)
func Resolves(o Options) bool {
	if o.Decimals < 0 && o.Tau == 0 {
		return true
	}
	step := labelStep(o)
	unit := 0.0
	if o.Decimals >= 0 {
		unit = math.Pow(10, -float64(o.Decimals))
	}
	return step > unit+2*o.Tau
}

// labelStep is the least change of the score one label makes in the
// queries of Flip and Group: 1/N, the multiclass Brier score's 2/N,
// AUC's N/(2T(N − T)) ≥ 2/N (N at least 1). (It was 1/(2N) for AUC, the
// least change of any ranking's AUC a label makes, which asked 16× the
// repeats against noise and gave up at 3 decimals on 1,000 rows, where
// group decodes.)
func labelStep(o Options) float64 {
	n := float64(max(o.N, 1))
	switch {
	case o.Metric == Brier && o.K > 2, o.Metric == AUC:
		return 2 / n
	}
	return 1 / n
}

// Attack recovers the labels of s, a served score of metric o.Metric
// rounded to o.Decimals, with o.Strategy. Each label it reports as known
// is the only one consistent with the scores under the metric's exact
// arithmetic (the Brier score's float64 arithmetic included); with
// o.Check, the labels are then submitted and must score perfectly.
//
// It returns the labels known so far with an error: a score no labeling
// explains (the server is not the metric assumed, or a defence changed
// the score) wraps [decode.ErrInconsistent]; a score two counts explain
// (rounding or noise coarser than one label) is an *[AmbiguousError]; the
// server's error and ctx's error are returned as they are.
func Attack(ctx context.Context, s scorer.Server, o Options) (*decode.Result, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	if s.N() != o.N || s.K() != o.K {
		return nil, fmt.Errorf("discrete: options say N = %d, K = %d; the scorer has N = %d, K = %d", o.N, o.K, s.N(), s.K())
	}
	st := o.Strategy
	if st == Auto {
		st = Choose(o)
	}
	r := newRun(s, o)
	var err error
	switch {
	case st == Family:
		err = r.family(ctx)
	case st == Edge:
		err = r.edge(ctx)
	case st == Rank:
		err = r.rank(ctx)
	case st == Swap && o.Hidden:
		err = r.swapHidden(ctx)
	case st == Swap:
		err = r.swap(ctx)
	case o.K > 2 && st == Group:
		err = r.kgroup(ctx)
	case o.K > 2:
		err = r.kflip(ctx)
	default:
		err = r.binary(ctx, st)
	}
	if err == nil {
		r.res.Verified = r.allKnown()
		if o.Check && st == Swap && o.Hidden && r.known() > 0 {
			// The rows read, on their labels, the others at ½: the
			// public AUC must be perfect.
			err = r.check(ctx)
		} else if o.Check && r.res.Verified {
			if st == Edge {
				err = r.edgeCheck(ctx)
			} else {
				err = r.check(ctx)
			}
		}
	}
	if err != nil {
		r.res.Verified = false
	}
	return r.res, err
}

// An AmbiguousError reports a score that more than one count explains:
// the rounding (or noise) is coarser than what one label changes.
type AmbiguousError struct {
	Query      int // the query, from 1
	Candidates int // counts consistent with the score (≥ 2)
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("discrete: query %d: %d label counts explain the score (rounding or noise coarser than one label)", e.Query, e.Candidates)
}

// planner returns the design planner of o: under a query budget with
// repeats that the whole design (and a check) would outlast, blocks
// small enough that one block's weighings, repeated, take at most a
// quarter of the budget (so that a budgeted run decodes whole blocks and
// its rate can be measured). A design that fits the budget is left
// whole: smaller blocks cost more queries and could push it past.
func (o Options) planner() planner {
	var pl planner
	if _, w := pl.plan(o.N); (2+(max(o.K, 2)-1)*w)*max(o.Repeats, 1) <= o.MaxQueries {
		return pl
	}
	if o.MaxQueries > 0 && o.Repeats > 1 {
		pl.top = -1
		for t := 1; t <= maxLevel; t++ {
			if _, q := levelSize(t); q*o.Repeats <= o.MaxQueries/4 {
				pl.top = t
			}
		}
		if pl.top < 0 {
			pl.top = 1 // three rows in three weighings: no worse than flip
		}
	}
	return pl
}

// Plan returns the queries [Attack] sends with o when every score
// decodes, the check query included if o.Check asks for it: flip N (AUC:
// N; K > 2: N + 1 plus, for K > 3, up to K − 3 per row of a label ≥ 2,
// counted at most), group 1 + the design's weighings, family ⌈N/M⌉;
// edge at most 1 + N + (N − 1)(K − 1) (its walk and probes depend on the
// labels: about N + the walk for K = 2), and its check ⌈N/e⌉ ≤ N queries
// (about 2), counted as N; swap at most 64 tries, the search's
// ⌈log₂ N(N − 1)⌉ + 1 and N − 2 probes (its tries depend on the labels:
// 1 to a few where a random ranking's AUC leaves ½'s rounding).
func Plan(o Options) (int, error) {
	if err := o.validate(); err != nil {
		return 0, err
	}
	st := o.Strategy
	if st == Auto {
		st = Choose(o)
	}
	q := 0
	switch {
	case st == Family:
		m, err := familyBlock(context.Background(), o)
		if err != nil {
			return 0, err
		}
		q = (o.N + m - 1) / m
	case st == Edge:
		// At most: the walk (N moves, the first query included) and,
		// per row, K − 1 probes.
		q = 1 + o.N + (o.N-1)*(o.K-1)
	case st == Rank:
		q = rankPlan(o)
	case st == Swap && o.Hidden:
		q = swapTries + 2*swapSearch(o.N) + 2*o.N + 2
	case st == Swap:
		q = swapPlan(o.N)
	case o.K > 2 && st == Group:
		pl := o.planner()
		_, w := pl.plan(o.N)
		q = 1 + (o.K-1)*w
	case o.K > 2:
		q = o.N + 1 + o.N*max(o.K-3, 0)
	case st == Flip:
		q = o.N
	default:
		rows := o.N
		if o.Metric == AUC {
			rows--
		}
		pl := o.planner()
		_, w := pl.plan(rows)
		q = 1 + w
	}
	if o.Check {
		if st == Edge {
			q += o.N
		} else {
			q++
		}
	}
	return q * max(o.Repeats, 1), nil
}
