package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

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
	// Auto marks the strategy -strategy auto picks for this scorer
	// (decode.Auto, with emulation).
	Auto bool `json:"auto,omitempty"`
	// Queries is the dry run's count (decode.PlanMulti): every block
	// decoded whole; a real run adds its retries and partially decoded
	// blocks (measured: its whole blocks never more than Queries).
	Queries int         `json:"queries,omitempty"`
	Labels  float64     `json:"labels_per_query,omitempty"`
	Blocks  *blockStats `json:"blocks,omitempty"`
	Gap     float64     `json:"gap,omitempty"`
	Budget  float64     `json:"budget,omitempty"`
	// LowerBound is decode.BoundMulti's count: no run of the strategy
	// decodes every label in fewer queries (for primes and alg3 it is the
	// dry run's own count). It is computed at every N, in seconds.
	LowerBound int `json:"lower_bound,omitempty"`
	// EstimateLow and EstimateHigh are the band of a strategy without a
	// dry run (leaderboard: its queries follow the scores), estimated from
	// its construction (decode.QueryEstimate): low when every list holds
	// at most 45 candidates, high when lists stay at their target
	// unspread (0: no estimate, the scorer's budget is not fixed).
	// Estimates, not bounds; LowerBound is the bound.
	EstimateLow  int `json:"estimate_low,omitempty"`
	EstimateHigh int `json:"estimate_high,omitempty"`
	// DryRun says why Queries is missing when the dry run was not run.
	DryRun string `json:"dry_run,omitempty"`
	Error  string `json:"error,omitempty"`
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
	BlockFloor     int       `json:"block_floor,omitempty"`
	SeparatedFloor int       `json:"separated_block_floor,omitempty"`
	Strategies     []planRow `json:"strategies"`
	// Served is the competition's URL with -scorer http://…, and
	// ServedModel the model it publishes (GET /v1/competitions/ID).
	Served      string `json:"served,omitempty"`
	ServedModel string `json:"served_model,omitempty"`
}

func runPlan(e *env, args []string) int {
	fs := newFlagSet("plan", e.stderr)
	sf := addScorerFlags(fs)
	dryMax := fs.Int("dry-run-max", defaultDryRunMax, "run the dry runs of the block codes (blocks, lean, cross) only for N ≤ `M`; beyond, print their lower bounds alone")
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
	m := sp.model
	if out.Served != "" {
		fmt.Fprintf(e.stdout, "served competition %s: N = %d, K = %d, published model %s\n", out.Served, out.N, out.K, orNone(out.ServedModel))
	}
	fmt.Fprintf(e.stdout, "N = %d, K = %d, scorer %s (%s), noise %s τ = %g\n", out.N, out.K, m.Name, m.Desc, out.Noise, out.Tau)
	fmt.Fprintf(e.stdout, "information floor: %.1f queries (%.1f bits per score)\n", out.FloorQueries, out.ScoreBits)
	if out.BackgroundFloor > 0 {
		fmt.Fprintf(e.stdout, "every code, worst labeling, scores below the candidates' background left out: at least %d queries\n", out.BackgroundFloor)
	}
	if out.BlockFloor > 0 {
		fmt.Fprintf(e.stdout, "block-code floors: %d queries (any block code), %d (sums a reported spacing apart)\n", out.BlockFloor, out.SeparatedFloor)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tqueries\tat least\tlabels/query\tfirst\tmedian\tlast\tgap\tbudget\t")
	auto := ""
	for _, r := range out.Strategies {
		name := r.Strategy
		if r.Auto {
			name, auto = name+" *", r.Strategy
		}
		lb := "-"
		if r.LowerBound > 0 {
			lb = strconv.Itoa(r.LowerBound)
		}
		switch {
		case r.Error != "":
			fmt.Fprintf(tw, "%s\t-\t%s\t-\t-\t-\t-\t-\t-\t\n", name, lb)
		case r.EstimateLow > 0:
			q := "-"
			switch {
			case r.EstimateHigh == r.EstimateLow:
				q = "≈" + strconv.Itoa(r.EstimateLow)
			case r.EstimateHigh > 0:
				q = fmt.Sprintf("%d–%d", r.EstimateLow, r.EstimateHigh)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t-\t-\t-\t-\t-\t%.3g\t\n", name, q, lb, r.Budget)
		case r.DryRun != "":
			fmt.Fprintf(tw, "%s\tnot run\t%s\t-\t-\t-\t-\t-\t-\t\n", name, lb)
		default:
			fmt.Fprintf(tw, "%s\t%d\t%s\t%.1f\t%d\t%d\t%d\t%.3g\t%.3g\t\n", name, r.Queries, lb, r.Labels, r.Blocks.First, r.Blocks.Median, r.Blocks.Last, r.Gap, r.Budget)
		}
	}
	tw.Flush()
	fmt.Fprintln(e.stdout, "queries: the dry run's count, every block decoded whole (a real run adds its retries and partially decoded blocks); a–b: an estimate")
	fmt.Fprintln(e.stdout, "at least: a lower bound on the queries for every labeling (decode.BoundMulti)")
	if auto != "" {
		fmt.Fprintf(e.stdout, "*: the strategy -strategy auto picks for this scorer (%s)\n", auto)
	}
	for _, r := range out.Strategies {
		if r.Error != "" {
			fmt.Fprintf(e.stdout, "%s: %s\n", r.Strategy, r.Error)
		} else if r.DryRun != "" {
			fmt.Fprintf(e.stdout, "%s: %s\n", r.Strategy, r.DryRun)
		}
	}
	return 0
}

// defaultDryRunMax is plan's default -dry-run-max: the dry runs of the
// block codes (blocks, lean, cross) design every block, which took 70 s
// at N = 300,000 and over 120 s at 10^6 for blocks (issue 12's
// measurements, 2 cores); at 10^5 they take seconds each.
const defaultDryRunMax = 100_000

// designsBlocks reports whether s's dry run designs every block (minutes
// at N = 10^6): the block codes. The fixed designs (primes, alg3) repeat
// one design, and leaderboard has an estimate instead of a dry run.
func designsBlocks(s decode.Strategy) bool {
	return s == decode.Blocks || s == decode.Lean || s == decode.Cross
}

// planStrategies is plan's one call into decode: the lower bound of every
// multi-query strategy (decode.Strategies), its dry run where it has one
// (the block codes' only for at most dryMax labels) or its estimate
// (leaderboard), and the strategy auto picks.
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
	auto := decode.Auto(m, k, false)
	for _, s := range decode.Strategies() {
		row := planRow{Strategy: s.String(), Auto: s == auto}
		opt := decode.MultiOptions{N: n, K: k, Strategy: s, Model: m, Noise: nz, Check: check}
		// The fixed designs' bound is their dry run's count, and an
		// estimate carries its own (decode.BoundMulti): both are taken
		// from PlanMulti, the others' from BoundMulti.
		fixed := s == decode.Primes || s == decode.Alg3
		bound := func() {
			if b, err := decode.BoundMulti(ctx, opt); err == nil && (b.Lower || b.Exact) {
				row.LowerBound = b.Queries
			}
		}
		if designsBlocks(s) && n > dryMax {
			bound()
			row.DryRun = fmt.Sprintf("dry run not run: N = %d > -dry-run-max %d (minutes at 10^6); its count is at least the bound", n, dryMax)
			out.Strategies = append(out.Strategies, row)
			continue
		}
		p, err := decode.PlanMulti(ctx, opt)
		switch {
		case err != nil:
			row.Error = err.Error()
		case p.Estimate != nil:
			pe := p.Estimate
			row.EstimateLow, row.EstimateHigh, row.Budget, row.LowerBound = pe.Low, pe.High, p.Budget, pe.Lower
			if p.Strategy == decode.Carry {
				as := ""
				if s != decode.Carry {
					as = "carry's here (the model's terms are brackets): "
				}
				row.DryRun = fmt.Sprintf("%sno dry run (its queries follow the scores); an estimate from its construction, not a bound: %d with a list of one, %d with lists at their target of %d unspread (%d and %d fresh labels in the first query), the emulated bracket shrinking with the unknown points; random labelings measured within 10%% and one query of the band, constant ones below it",
					as, pe.Low, pe.High, pe.Target, pe.FreshOne, pe.FreshTarget)
			} else if s == decode.Hybrid {
				row.DryRun = fmt.Sprintf("no dry run (its queries follow the scores); an estimate from its construction, not a bound: %d with a list of one, %d with lists at their target of %d unspread (%d and %d fresh labels in the first query: a top of generic weights over binary digits), the resolution shrinking with the unknown points; random labelings measured within 10%% and one query of the band, constant ones below it",
					pe.Low, pe.High, pe.Target, pe.FreshOne, pe.FreshTarget)
			} else if pe.High > 0 {
				row.DryRun = fmt.Sprintf("no dry run (its queries follow the scores); an estimate from its construction, not a bound: %d when every list holds at most 45 candidates (%d fresh labels a query), %d when lists stay at their target of %d unspread (%d a query)",
					pe.Low, pe.FreshOne, pe.High, pe.Target, pe.FreshTarget)
			} else {
				why := "this scorer does not round: its budget follows each query's terms"
				if m.Decimals >= 0 {
					why = fmt.Sprintf("the rounding step does not dominate this scorer's budget (×%.4g with a full block of extreme rows)", pe.CellRatio)
				}
				row.DryRun = fmt.Sprintf("no dry run (its queries follow the scores) and no estimate: it is built for scores rounded to decimals, and %s; %d when every list holds at most 45 candidates (%d fresh labels a query)",
					why, pe.Low, pe.FreshOne)
			}
		default:
			row.Queries, row.Blocks, row.Gap, row.Budget = p.Queries, statsOf(p.Blocks), p.Gap, p.Budget
			row.Labels = float64(n) / float64(len(p.Blocks))
		}
		switch {
		case err == nil && fixed:
			row.LowerBound = p.Queries
		case !fixed && (err != nil || p.Estimate == nil):
			bound()
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
