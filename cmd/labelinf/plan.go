package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// scorerFlags are the flags plan and attack share.
type scorerFlags struct {
	n, k          *int
	scorer        *string
	assume        *string
	noise         *string
	tau, delta    *float64
	asJSON, check *bool
}

func addScorerFlags(fs *flag.FlagSet) *scorerFlags {
	return &scorerFlags{
		n:      fs.Int("n", 0, "number of private labels `N` (required unless -labels FILE or a served competition gives it)"),
		k:      fs.Int("k", 2, "number of classes (2..64)"),
		scorer: fs.String("scorer", scorer.Float64Sklearn, "scorer: "+strings.Join(scorer.ModelNames, ", ")+", cmd:PROGRAM, or a served competition http://HOST:PORT/v1/competitions/ID"),
		assume: fs.String("assume", "", "the scorer model to plan for (required with cmd:PROGRAM and http://…)"),
		noise:  fs.String("noise", "none", "noise on each score: none, bounded, gaussian, laplace, multiplicative"),
		tau:    fs.Float64("tau", 0, "noise scale (> 0): bounded half-width, Gaussian σ, Laplace b, multiplicative ε"),
		delta:  fs.Float64("delta", 1e-6, "Gaussian and Laplace noise: overall failure probability in (0, 1)"),
		asJSON: fs.Bool("json", false, "print JSON"),
		check:  fs.Bool("check", false, "spend one more query verifying every label at once (default true for cmd:PROGRAM)"),
	}
}

// scorerSpec is the parsed scorer flags.
type scorerSpec struct {
	model *scorer.Model
	prog  string // the program of cmd:PROGRAM
	isCmd bool
	url   string // a served competition, http://HOST:PORT/v1/competitions/ID
	// auto: -assume auto, the model is identified by probe queries
	// (package fingerprint) before the attack.
	auto  bool
	noise scorer.Noise
}

// parse checks the scorer flags (set holds those given on the command
// line) and returns the model to plan for, the program of cmd:PROGRAM (or
// the URL of a served competition) and the noise.
func (f *scorerFlags) parse(set map[string]bool) (scorerSpec, error) {
	var sp scorerSpec
	name := *f.scorer
	if p, ok := strings.CutPrefix(name, "cmd:"); ok {
		sp.isCmd, sp.prog = true, strings.TrimSpace(p)
		if sp.prog == "" {
			return sp, errors.New("-scorer cmd:PROGRAM: the program is empty")
		}
		if *f.assume == "" {
			return sp, errors.New("-scorer cmd:PROGRAM needs -assume MODEL, the model to plan for")
		}
		name = *f.assume
		if name == autoModel {
			// Identified by probing once the scorer runs; until then the
			// checks below see a float64 model.
			sp.auto, name = true, scorer.Float64Sklearn
		}
	} else if isHTTPScorer(name) {
		sp.url = name
		if *f.assume == "" {
			return sp, errors.New("-scorer http://… needs -assume MODEL, the model to plan for")
		}
		name = *f.assume
		if name == autoModel {
			sp.auto, name = true, scorer.Float64Sklearn
		}
	} else if set["assume"] {
		if *f.assume != autoModel {
			return sp, errors.New("-assume is only for -scorer cmd:PROGRAM or http://…, or auto (identify the simulated scorer by probing)")
		}
		sp.auto = true
	}
	m, err := scorer.ParseModel(name)
	if err != nil {
		return sp, scorerError(name, err)
	}
	sp.model = m
	if sp.noise, err = scorer.ParseNoise(*f.noise, *f.tau, *f.delta); err != nil {
		return sp, err
	}
	switch sp.noise.Kind {
	case scorer.NoNoise:
		if err := rejectFlags(set, "without -noise", "tau", "delta"); err != nil {
			return sp, err
		}
	default:
		if !(*f.tau > 0) || math.IsInf(*f.tau, 0) {
			return sp, fmt.Errorf("-tau %v: -noise %s needs a finite noise scale > 0", *f.tau, *f.noise)
		}
		gl := sp.noise.Kind == scorer.Gaussian || sp.noise.Kind == scorer.Laplace
		if gl && !(*f.delta > 0 && *f.delta < 1) {
			return sp, fmt.Errorf("-delta %v outside (0, 1)", *f.delta)
		}
		if !gl && set["delta"] {
			return sp, fmt.Errorf("-delta does not apply to -noise %s (only gaussian and laplace)", *f.noise)
		}
	}
	if *f.k < 2 || *f.k > 64 {
		return sp, fmt.Errorf("-k %d outside [2, 64]", *f.k)
	}
	return sp, nil
}

// blockStats summarises block sizes.
type blockStats struct {
	First  int `json:"first"`
	Min    int `json:"min"`
	Median int `json:"median"`
	Max    int `json:"max"`
	Last   int `json:"last"`
}

func statsOf(b []int) *blockStats {
	if len(b) == 0 {
		return nil
	}
	s := slices.Clone(b)
	slices.Sort(s)
	return &blockStats{First: b[0], Min: s[0], Median: s[len(s)/2], Max: s[len(s)-1], Last: b[len(b)-1]}
}

type planRow struct {
	Strategy string `json:"strategy"`
	// Kind is the attack's kind in the catalogue (multi-query,
	// reference, adaptive).
	Kind string `json:"kind"`
	// Auto marks the attack -strategy auto picks for this scorer
	// (catalog.Auto, with emulation).
	Auto bool `json:"auto,omitempty"`
	// Queries is the dry run's count (decode.PlanMulti): every block
	// decoded whole; a real run adds its retries and partially decoded
	// blocks (measured: its whole blocks never more than Queries). Zero
	// where the dry run's count would lie below the attack's bound (its
	// runs carry labels across queries, which the dry run decodes
	// whole): EstimateLow is then the bound.
	Queries int         `json:"queries,omitempty"`
	Labels  float64     `json:"labels_per_query,omitempty"`
	Blocks  *blockStats `json:"blocks,omitempty"`
	Gap     float64     `json:"gap,omitempty"`
	Budget  float64     `json:"budget,omitempty"`
	// LowerBound is a proven lower bound on the attack's queries for
	// every labeling (decode.BoundMulti, or its construction's), never
	// above Queries or EstimateLow.
	LowerBound int `json:"lower_bound,omitempty"`
	// EstimateLow and EstimateHigh are the band of an attack without a
	// dry run (its queries follow the scores), estimated from its
	// construction (decode.QueryEstimate): estimates, not bounds;
	// EstimateHigh is 0 where the band has no upper end.
	EstimateLow  int `json:"estimate_low,omitempty"`
	EstimateHigh int `json:"estimate_high,omitempty"`
	// DryRun says how the figures were obtained, or why one is missing.
	DryRun string `json:"dry_run,omitempty"`
	Error  string `json:"error,omitempty"`
}

// planSkip is an attack of the catalogue that does not apply, and why.
type planSkip struct {
	Strategy string `json:"strategy"`
	Why      string `json:"why"`
}

type planOut struct {
	N            int     `json:"n"`
	K            int     `json:"k"`
	Scorer       string  `json:"scorer"`
	Noise        string  `json:"noise"`
	Tau          float64 `json:"tau"`
	ScoreBits    float64 `json:"score_bits"`
	FloorQueries float64 `json:"floor_queries"`
	// BackgroundFloor is the floor of every code on its worst labeling
	// with the scores below the candidates' background left out
	// (decode.Floor.AnyBackground); zero under noise.
	BackgroundFloor int `json:"background_floor,omitempty"`
	// BlockFloor and SeparatedFloor are lower bounds on the queries of
	// any block code and of the block codes whose sums must be a reported
	// spacing apart (decode.FloorMulti); zero under noise.
	BlockFloor     int `json:"block_floor,omitempty"`
	SeparatedFloor int `json:"separated_block_floor,omitempty"`
	// Strategies are the attacks of the catalogue that apply, in its
	// order; NotApplicable the others, with why.
	Strategies    []planRow  `json:"strategies"`
	NotApplicable []planSkip `json:"not_applicable,omitempty"`
	// Auto is the attack -strategy auto picks ("" if none applies, with
	// AutoError).
	Auto      string `json:"auto,omitempty"`
	AutoError string `json:"auto_error,omitempty"`
	// Served is the competition's URL with -scorer http://…, and
	// ServedModel the model it publishes (GET /v1/competitions/ID).
	Served      string `json:"served,omitempty"`
	ServedModel string `json:"served_model,omitempty"`
}

func runPlan(e *env, args []string) int {
	fs := newFlagSet("plan", e.stderr)
	sf := addScorerFlags(fs)
	dryMax := fs.Int("dry-run-max", defaultDryRunMax, "run the dry runs of the block codes (blocks, cross) only for N ≤ `M`; beyond, print their lower bounds alone")
	if !parseFlags(fs, args, e.stderr) {
		return 2
	}
	set := setFlags(fs)
	var served string // the model the served competition publishes
	decimals := -1
	if isHTTPScorer(*sf.scorer) {
		// N, K, the model, its clip and decimals come from the server.
		n, k, model, d, err := servedModel(e.ctx, sf, set)
		if err != nil {
			return servedError(e, "plan", err)
		}
		*sf.n, *sf.k, served, decimals = n, k, model, d
	}
	sp, err := sf.parse(set)
	if err == nil && sp.url != "" && set["assume"] {
		// An assumed model reports the server's decimals, as in attack.
		sp.model.Decimals = decimals
	}
	if err == nil && sp.auto {
		err = errors.New("-assume auto identifies the scorer by probe queries: attack and fingerprint do, plan cannot")
	}
	if err == nil && (*sf.n < 1 || *sf.n > decode.MaxN) {
		err = fmt.Errorf("-n %d outside [1, %d]", *sf.n, decode.MaxN)
	}
	if err == nil && *dryMax < 0 {
		err = fmt.Errorf("-dry-run-max %d: want ≥ 0", *dryMax)
	}
	if err != nil {
		return usageError(e.stderr, "plan", err)
	}
	var out planOut
	if err := await(e.ctx, func() { out = planStrategies(e.ctx, *sf.n, *sf.k, sp, *sf.check, *dryMax) }); err != nil {
		return failure(e.stderr, "plan", err)
	}
	if sp.url != "" {
		out.Served, out.ServedModel = sp.url, served
	}
	if *sf.asJSON {
		writeJSON(e.stdout, out)
		return 0
	}
	writePlan(e.stdout, &out, sp.model)
	return 0
}

// writePlan prints plan's table for out, a plan of model m.
func writePlan(w io.Writer, out *planOut, m *scorer.Model) {
	if out.Served != "" {
		fmt.Fprintf(w, "served competition %s: N = %d, K = %d, published model %s\n", out.Served, out.N, out.K, orNone(out.ServedModel))
	}
	fmt.Fprintf(w, "N = %d, K = %d, scorer %s (%s), noise %s τ = %g\n", out.N, out.K, m.Name, m.Desc, out.Noise, out.Tau)
	fmt.Fprintf(w, "information floor: %.1f queries (%.1f bits per score)\n", out.FloorQueries, out.ScoreBits)
	if out.BackgroundFloor > 0 {
		fmt.Fprintf(w, "every code, worst labeling, scores below the candidates' background left out: at least %d queries\n", out.BackgroundFloor)
	}
	if out.BlockFloor > 0 {
		fmt.Fprintf(w, "block-code floors: %d queries (any block code), %d (sums a reported spacing apart)\n", out.BlockFloor, out.SeparatedFloor)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "attack\tqueries\tat least\tlabels/query\tfirst\tmedian\tlast\tgap\tbudget\t")
	for _, r := range out.Strategies {
		name := r.Strategy
		if r.Auto {
			name += " *"
		}
		lb := "-"
		if r.LowerBound > 0 {
			lb = strconv.Itoa(r.LowerBound)
		}
		switch {
		case r.Error != "":
			fmt.Fprintf(tw, "%s\t-\t%s\t-\t-\t-\t-\t-\t-\t\n", name, lb)
		case r.Queries == 0 || r.Blocks == nil:
			if r.Queries > 0 {
				r.EstimateLow, r.EstimateHigh = r.Queries, r.Queries
			}
			budget := "-"
			if r.Budget > 0 {
				budget = fmt.Sprintf("%.3g", r.Budget)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t-\t-\t-\t%s\t\n", name, band(r.EstimateLow, r.EstimateHigh), lb, budget)
		default:
			fmt.Fprintf(tw, "%s\t%d\t%s\t%.1f\t%d\t%d\t%d\t%.3g\t%.3g\t\n", name, r.Queries, lb, r.Labels, r.Blocks.First, r.Blocks.Median, r.Blocks.Last, r.Gap, r.Budget)
		}
	}
	tw.Flush()
	fmt.Fprintln(w, "queries: the dry run's count, every block decoded whole (a real run adds its retries and partially decoded blocks); a–b, a+, ≈a: an estimate, from the attack's construction or one simulated run (its note says which)")
	fmt.Fprintln(w, "at least: a proven lower bound on the attack's queries, never above its own count or estimate: its own for every labeling, or the floor above (every attack) where that is higher")
	for _, r := range out.Strategies {
		if r.DryRun != "" && r.Error == "" {
			fmt.Fprintf(w, "%s: %s\n", r.Strategy, r.DryRun)
		}
	}
	// An error shared by several attacks is printed once, with their
	// names.
	var errs []string
	byErr := map[string][]string{}
	for _, r := range out.Strategies {
		if r.Error != "" {
			if byErr[r.Error] == nil {
				errs = append(errs, r.Error)
			}
			byErr[r.Error] = append(byErr[r.Error], r.Strategy)
		}
	}
	for _, msg := range errs {
		fmt.Fprintf(w, "%s: %s\n", strings.Join(byErr[msg], ", "), msg)
	}
	if len(out.NotApplicable) > 0 {
		var names []string
		for _, s := range out.NotApplicable {
			names = append(names, s.Strategy)
		}
		fmt.Fprintf(w, "not applicable here: %s (-json says why)\n", strings.Join(names, ", "))
	}
	fmt.Fprintln(w, verdict(out))
}

// defaultDryRunMax is plan's default -dry-run-max.
const defaultDryRunMax = catalog.DefaultDryRunMax

// band formats an estimate's band: "a–b", "≈a" or "a+" (no upper end);
// "-" for none.
func band(lo, hi int) string {
	switch {
	case lo == 0:
		return "-"
	case hi == lo:
		return "≈" + strconv.Itoa(lo)
	case hi > 0:
		return fmt.Sprintf("%d–%d", lo, hi)
	}
	return strconv.Itoa(lo) + "+"
}

// verdict is plan's one verdict line: auto's pick, its estimate and
// bound, and the information floor.
func verdict(out *planOut) string {
	floor := fmt.Sprintf("information floor %.1f queries (every attack, all but a vanishing share of the labelings)", out.FloorQueries)
	if out.Auto == "" {
		return fmt.Sprintf("verdict: no attack of the catalogue recovers these labels from this scorer (%s); %s", out.AutoError, floor)
	}
	for _, r := range out.Strategies {
		if r.Strategy != out.Auto {
			continue
		}
		est := band(r.EstimateLow, r.EstimateHigh)
		if r.Queries > 0 {
			est = strconv.Itoa(r.Queries) + " (dry run)"
		}
		switch {
		case r.Error != "":
			return fmt.Sprintf("verdict: -strategy auto runs %s, which cannot attack this scorer (its error above); %s", out.Auto, floor)
		case est == "-":
			est = "no estimate of its"
		}
		lb := ""
		if r.LowerBound > 0 {
			lb = fmt.Sprintf(", at least %d", r.LowerBound)
		}
		return fmt.Sprintf("verdict: -strategy auto runs %s: %s queries%s; %s", out.Auto, est, lb, floor)
	}
	return fmt.Sprintf("verdict: -strategy auto runs %s; %s", out.Auto, floor)
}

// planStrategies is plan's one call into the catalogue: every attack that
// applies to the scorer with its estimate and bound (the block codes'
// dry runs only for at most dryMax labels), the others with why not, and
// the attack auto picks.
func planStrategies(ctx context.Context, n, k int, sp scorerSpec, check bool, dryMax int) planOut {
	m, nz := sp.model, sp.noise
	out := planOut{N: n, K: k, Scorer: m.Name, Noise: nz.Kind.String(), Tau: nz.Tau}
	// The largest mean a query can have: every point at the largest term.
	out.ScoreBits = m.ScoreBits(maxTerm(m))
	if f, err := decode.FloorMulti(ctx, decode.MultiOptions{N: n, K: k, Model: m}); err == nil && nz.Kind == 0 {
		// Noise-free: count the scores between the smallest and the
		// largest term (a clipped scorer never reports less than the
		// smallest), not down to 0.
		out.ScoreBits = f.ScoreBits
		out.BlockFloor, out.SeparatedFloor = f.BlockCount, f.BlockSeparated
		out.BackgroundFloor = f.AnyBackground
	}
	out.FloorQueries = float64(n) * math.Log2(float64(k)) / out.ScoreBits
	tg := catalog.Target{Model: m, N: n, K: k, Noise: nz}
	if a, err := catalog.Auto(tg); err == nil {
		out.Auto = a.Name
	} else {
		out.AutoError = err.Error()
	}
	for _, a := range catalog.All() {
		if a.Kind == catalog.SingleQuery {
			continue
		}
		if err := a.Applies(tg); err != nil {
			out.NotApplicable = append(out.NotApplicable, planSkip{a.Name, err.Error()})
			continue
		}
		row := planRow{Strategy: a.Name, Kind: a.Kind.String(), Auto: a.Name == out.Auto}
		e, err := a.Estimate(ctx, tg, catalog.EstimateOptions{Check: check, DryRunMax: dryMax})
		if err != nil {
			row.Error = err.Error()
			out.Strategies = append(out.Strategies, row)
			continue
		}
		row.Queries, row.EstimateLow, row.EstimateHigh, row.LowerBound, row.DryRun = e.Queries, e.Low, e.High, e.Lower, e.Note
		// The information floor bounds every attack on all but a
		// vanishing share of the labelings: a row's bound is at least
		// that, but never above its own count or estimate.
		if f := int(math.Ceil(out.FloorQueries)); f > row.LowerBound {
			row.LowerBound = f
			if best := e.Best(); e.Queries > 0 || e.Low > 0 {
				row.LowerBound = min(f, best)
			}
		}
		if p := e.Plan; p != nil {
			row.Budget = p.Budget
			if e.Queries > 0 {
				row.Blocks, row.Gap = statsOf(p.Blocks), p.Gap
				row.Labels = float64(n) / float64(len(p.Blocks))
			}
		}
		out.Strategies = append(out.Strategies, row)
	}
	return out
}

// maxTerm is the largest term one point can contribute under m.
func maxTerm(m *scorer.Model) float64 {
	t, err := m.Terms([]float64{0})
	if err != nil || t[1].IsInf() {
		t, err = m.Terms([]float64{0x1p-1074})
		if err != nil {
			return 745
		}
	}
	f, _ := t[1].Float64()
	return f
}
