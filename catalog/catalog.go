package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

// LogLoss is the metric of the scorer models (package scorer): the
// cross-entropy, binary or of K classes, as a library computes it. It is
// the metric of a [Target] whose Metric is empty.
const LogLoss = "log-loss"

// A Target is what an attack is told of the scorer before it runs: the
// metric and the model the attacker plans with, N and K, the noise it
// assumes and the defences in place. [Attack.Applies] reads it; so do
// the estimates and the runs.
type Target struct {
	// Metric is the score: "" or [LogLoss] for a scorer model; the
	// metrics of other packages register their own names (for example
	// "accuracy", "roc-auc", "brier").
	Metric string
	// Model is the log-loss model the attacker plans with (its format,
	// clip, summation and decimals: Model.Decimals ≥ 0 rounds the score).
	// Nil for another metric.
	Model *scorer.Model
	// N is the number of labels (≥ 1), K the number of classes (≥ 2).
	N, K int
	// Decimals rounds another metric's released score (−1: not
	// rounded); a log-loss target rounds as its Model does.
	Decimals int
	// Noise is the noise the attacker assumes on every score.
	Noise scorer.Noise
	// Defence is what the host deploys beyond rounding and noise (a
	// ladder, Thresholdout, a public/private split, keyed noise); nil is
	// none.
	Defence *defence.Settings
	// NoEmulation decodes log-loss scores with the rigorous error budget
	// alone, no emulated brackets of the model's summation.
	NoEmulation bool
}

// metric returns t's metric, [LogLoss] for the empty name.
func (t Target) metric() string {
	if t.Metric == "" {
		return LogLoss
	}
	return t.Metric
}

// check returns an error for a target no attack can take.
func (t Target) check() error {
	switch {
	case t.N < 1:
		return fmt.Errorf("catalog: N = %d, want ≥ 1", t.N)
	case t.K < 2:
		return fmt.Errorf("catalog: K = %d, want ≥ 2", t.K)
	case t.metric() == LogLoss && t.Model == nil:
		return errors.New("catalog: a log-loss target needs its scorer model")
	}
	return t.Noise.Validate()
}

// checkLogLoss is check for an attack on log-loss scores: an error
// naming the attack for another metric.
func (t Target) checkLogLoss(name string) error {
	if err := t.check(); err != nil {
		return err
	}
	if m := t.metric(); m != LogLoss {
		return fmt.Errorf("%s attacks log-loss scores, not %s", name, m)
	}
	return nil
}

// decimals returns the decimals t's score is rounded to (−1: none).
func (t Target) decimals() int {
	if t.metric() == LogLoss {
		if t.Model.Exact {
			return -1
		}
		return t.Model.Decimals
	}
	return t.Decimals
}

// An Oracle is a scorer as every attack of the catalogue sees it: N and
// K, and the exact score of a prediction (a rational: the decimal a
// leaderboard shows, or the float a library returns, exactly). The
// single-query attacks submit arbitrary-precision predictions: they need
// an oracle that also answers those ([Precise]).
type Oracle = scorer.Server

// Kind is the family an attack belongs to.
type Kind int

// The kinds of attack.
const (
	// MultiQuery attacks recover the labels a block or a list at a time
	// from a finite-precision score (package decode).
	MultiQuery Kind = iota
	// Reference attacks are the papers' constructions, kept for
	// comparison and for the figures repro publishes.
	Reference
	// Adaptive attacks read the released score of a defended
	// leaderboard (package adaptive).
	Adaptive
	// SingleQuery attacks recover every label from one score computed in
	// arbitrary precision.
	SingleQuery
)

func (k Kind) String() string {
	switch k {
	case MultiQuery:
		return "multi-query"
	case Reference:
		return "reference"
	case SingleQuery:
		return "single-query"
	case Adaptive:
		return "adaptive"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// An Estimate is what an attack is expected to spend on a target, before
// it runs.
type Estimate struct {
	// Queries is the count of a dry run (every query designed as the run
	// would, each decoding its whole block): 0 where the attack has none.
	Queries int
	// Low and High are the band of an attack without a dry run (its
	// queries follow the scores), estimated from its construction: not
	// bounds. High is 0 where the band has no upper end.
	Low, High int
	// Lower is a proven lower bound on the queries of every run of the
	// attack on the target (every labeling): never above Queries, nor
	// above Low where those are set. 0: no bound.
	Lower int
	// Note says how the figures were obtained (or why one is missing).
	Note string
	// Plan is the multi-query plan the figures come from (nil for other
	// kinds): its blocks, gap and budget.
	Plan *decode.MultiPlan
	// Exact marks Queries as the attack's own plan for the target: its
	// queries do not follow the scores, it sends exactly Queries (the
	// check included where asked), and every score it reads decodes
	// under the target's rounding and noise (against fresh noise, with
	// the probability its repeats are chosen for). A run cut short may
	// be projected to Queries.
	Exact bool
	// Rows, where set (an Exact plan whose cost on part of the rows is
	// known: discrete.PlanRows), returns the queries with which the
	// attack, aimed at m of the N rows, decodes those m labels: what a
	// run cut short before its first label can be projected to for a
	// part of the labels, instead of assuming they arrive at a steady
	// rate.
	Rows func(m int) (int, error)
}

// Best returns the estimate's figure for comparing attacks: Queries, or
// the band's low end, or the bound; 0 if it has none.
func (e *Estimate) Best() int {
	switch {
	case e.Queries > 0:
		return e.Queries
	case e.Low > 0:
		return e.Low
	}
	return e.Lower
}

// EstimateOptions configures [Attack.Estimate].
type EstimateOptions struct {
	// Check counts the final check query (Options.Check).
	Check bool
	// DryRunMax is the largest N for which the block codes' dry runs
	// run (they design every block: blocks, cross took 70 s at
	// N = 300,000 and over 120 s at 10^6, issue 12's measurements on 2
	// cores); beyond, their estimate is the bound alone. 0 means
	// [DefaultDryRunMax].
	DryRunMax int
}

// DefaultDryRunMax is EstimateOptions.DryRunMax's default.
const DefaultDryRunMax = 100_000

// Options configures one run of an attack.
type Options struct {
	// Check spends one more query verifying every label at once.
	Check bool
	// MaxQueries stops the attack after that many queries (0: its own
	// limit); the labels verified so far are returned.
	MaxQueries int
	// Seed seeds an attack that draws at random (boosting).
	Seed uint64
	// Progress, if set, is called after each query with the labels
	// known and the queries spent.
	Progress func(known, queries int)
	// Margin, Encoding and Weights configure robust-single's plan
	// (single.RobustOptions; zero: its defaults).
	Margin   float64
	Encoding scorer.Encoding
	Weights  single.WeightSet
}

// An Attack is one entry of the catalogue.
type Attack struct {
	// Name is the attack's name (labelinf attack -strategy NAME);
	// Aliases are other names it answers to.
	Name    string
	Aliases []string
	// Doc is one line: what the attack does and where it is best.
	Doc  string
	Kind Kind
	// Applies returns nil if the attack can be run against t, else an
	// error saying why not (the metric, K, the rounding, the noise, the
	// defence, or a scorer whose precision cannot carry it).
	Applies func(t Target) error
	// Estimate returns the queries the attack is expected to spend on t
	// (t passed Applies) and a lower bound on them.
	Estimate func(ctx context.Context, t Target, o EstimateOptions) (*Estimate, error)
	// Strategy is the decode strategy of a multi-query or reference
	// entry (nil for the other kinds).
	Strategy decode.Strategy
	// Run attacks o (which holds t.N labels of t.K classes) and returns
	// what it recovered: a label is Known only if verified. Run returns
	// the labels verified so far with an error. A decode strategy's entry
	// returns an error before querying if it does not apply to t (decode
	// would run its fallback under its name). Every entry has one (a
	// test runs each through labelinf attack); a single-query attack
	// needs o to be [Precise] and returns an error before querying if
	// it is not.
	Run func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error)
}

// Names returns the attack's name and aliases.
func (a *Attack) Names() []string { return append([]string{a.Name}, a.Aliases...) }

// registry holds the attacks in the order they registered.
var registry []*Attack

// Register adds a to the catalogue. It panics if a's name or an alias is
// taken, is "auto" (the one rule, [Auto]) or empty, or if a lacks Applies
// or Estimate: a programmer error at init.
func Register(a *Attack) {
	if a.Applies == nil || a.Estimate == nil || a.Doc == "" {
		panic("catalog: attack " + a.Name + " registered without Applies, Estimate or Doc")
	}
	for _, n := range a.Names() {
		if n == "" || n == AutoName {
			panic(fmt.Sprintf("catalog: attack name %q is reserved", n))
		}
		if Lookup(n) != nil {
			panic("catalog: attack " + n + " registered twice")
		}
	}
	// Kept in the order of the kinds, then of registration: the lists
	// read multi-query, reference, adaptive, single-query.
	i := len(registry)
	for i > 0 && registry[i-1].Kind > a.Kind {
		i--
	}
	registry = slices.Insert(registry, i, a)
}

// All returns every registered attack, by kind (multi-query, reference,
// adaptive, single-query), each kind in registration order.
func All() []*Attack { return slices.Clone(registry) }

// Lookup returns the attack called name (a name or an alias), or nil.
func Lookup(name string) *Attack {
	for _, a := range registry {
		if slices.Contains(a.Names(), name) {
			return a
		}
	}
	return nil
}

// Parse returns the attack called name, or for [AutoName] the one [Auto]
// picks for t.
func Parse(name string, t Target) (*Attack, error) {
	if name == AutoName {
		return Auto(t)
	}
	if a := Lookup(name); a != nil {
		return a, nil
	}
	var re *decode.RetiredError
	if _, err := decode.ParseStrategy(name); errors.As(err, &re) {
		return nil, err
	}
	return nil, fmt.Errorf("catalog: unknown attack %q (want %s or one of %s)", name, AutoName, strings.Join(Names(), ", "))
}

// Names returns every attack's name, in registration order.
func Names() []string {
	out := make([]string, len(registry))
	for i, a := range registry {
		out[i] = a.Name
	}
	return out
}

// Applicable returns the attacks that apply to t, in registration order.
func Applicable(t Target) []*Attack {
	var out []*Attack
	for _, a := range registry {
		if a.Applies(t) == nil {
			out = append(out, a)
		}
	}
	return out
}

// Help returns the catalogue as text, one attack a line ("name (aliases):
// doc"), indented by indent: what every -h text and the manual list.
func Help(indent string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s: %s\n", indent, AutoName, AutoDoc)
	for _, a := range registry {
		name := a.Name
		if len(a.Aliases) > 0 {
			name += " (" + strings.Join(a.Aliases, ", ") + ")"
		}
		fmt.Fprintf(&b, "%s%s: %s\n", indent, name, a.Doc)
	}
	return b.String()
}
