package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/internal/cputime"
	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/serve"
)

// metricScorer is a -scorer (or -assume) naming a metric of package
// discrete: accuracy, roc-auc (auc) or brier, optionally ",dec=D" or
// ",dec=none" (default: serve's 5 decimals).
type metricScorer struct {
	metric   discrete.Metric
	decimals int
}

// parseMetricScorer parses s; ok is false if s names no such metric.
func parseMetricScorer(s string) (m metricScorer, ok bool, err error) {
	name, rest, _ := strings.Cut(s, ",")
	mt, perr := discrete.ParseMetric(name)
	if perr != nil {
		return m, false, nil
	}
	m = metricScorer{metric: mt, decimals: 5}
	if rest != "" {
		d, found := strings.CutPrefix(rest, "dec=")
		if !found {
			return m, true, fmt.Errorf("-scorer %s: want %s or %s,dec=D|none", s, name, name)
		}
		if d == "none" {
			m.decimals = -1
		} else if v, err := strconv.Atoi(d); err != nil || v < 0 || v > 30 {
			return m, true, fmt.Errorf("-scorer %s: decimals %q: want 0..30 or none", s, d)
		} else {
			m.decimals = v
		}
	}
	return m, true, nil
}

// discreteTarget returns the metric to attack with package discrete, if
// the scorer flags name one: a simulated -scorer METRIC[,dec=D], or a
// served competition whose metric is one (-assume then empty or that
// metric). ok is false for the log-loss attacks.
func discreteTarget(ctx context.Context, a *attackFlags) (m metricScorer, ok bool, err error) {
	if isHTTPScorer(*a.scorer) {
		if *a.assume != "" {
			if _, isM, _ := parseMetricScorer(*a.assume); !isM {
				return m, false, nil
			}
		}
		c, err := serve.NewClient(ctx, *a.scorer, "", nil)
		if err != nil {
			return m, false, err
		}
		mt, err := discrete.ParseMetric(c.Metric())
		if err != nil {
			if *a.assume != "" {
				return m, true, flagError{fmt.Errorf("-assume %s, but the served competition's metric is %s", *a.assume, c.Metric())}
			}
			return m, false, nil
		}
		if *a.assume != "" {
			if am, _, _ := parseMetricScorer(*a.assume); am.metric != mt {
				return m, true, flagError{fmt.Errorf("-assume %s, but the served competition's metric is %s", *a.assume, c.Metric())}
			}
		}
		return metricScorer{metric: mt, decimals: c.Decimals()}, true, nil
	}
	m, ok, err = parseMetricScorer(*a.scorer)
	if err != nil {
		err = flagError{err}
	}
	return m, ok, err
}

// runDiscrete is attack against accuracy, ROC AUC or the Brier score.
func runDiscrete(e *env, a *attackFlags, ms metricScorer) int {
	fail := func(err error) int { return usageError(e.stderr, "attack", err) }
	if err := rejectFlags(a.set, "to accuracy, roc-auc and brier", "encoding", "weights", "margin", "no-emulate", "timeout"); err != nil {
		return fail(err)
	}
	var err error
	// Noise as the log-loss attacks take it: bounded, or fresh Gaussian
	// or Laplace noise, which the attacks average over repeated
	// submissions (discrete.NoiseRepeats).
	nz, err := scorer.ParseNoise(*a.noise, *a.tau, *a.delta)
	if err != nil {
		return fail(err)
	}
	switch nz.Kind {
	case scorer.NoNoise:
		if a.set["tau"] || a.set["delta"] {
			return fail(errors.New("-tau and -delta need -noise"))
		}
	case scorer.Bounded, scorer.Gaussian, scorer.Laplace:
		if !(nz.Tau > 0) || math.IsInf(nz.Tau, 0) {
			return fail(fmt.Errorf("-tau %v: -noise %s needs a finite noise scale > 0", nz.Tau, *a.noise))
		}
	default:
		return fail(fmt.Errorf("-noise %s: against %v only bounded, gaussian and laplace noise are modelled", *a.noise, ms.metric))
	}
	tau := nz.Tau
	n, k := *a.n, *a.k
	if k < 2 || k > 64 {
		return fail(fmt.Errorf("-k %d outside [2, 64]", k))
	}
	var sc scorer.Server
	var truth []int
	var client *serve.Client
	scorerName := *a.scorer
	if isHTTPScorer(*a.scorer) {
		if *a.labels != "" {
			return fail(errors.New("-labels is for simulated scorers; a served competition holds its own labels"))
		}
		if a.set["seed"] {
			return fail(errors.New("-seed is for simulated scorers"))
		}
		if *a.apiKeyFile == "" {
			return fail(errors.New("-scorer http://… needs -api-key-file FILE"))
		}
		if client, err = httpScorer(e.ctx, *a.scorer, *a.apiKeyFile, &scorer.Model{}); err != nil {
			return failure(e.stderr, "attack", err)
		}
		if a.set["n"] && n != client.N() || a.set["k"] && k != client.K() {
			return fail(fmt.Errorf("-n %d -k %d, but the served competition has N = %d, K = %d", n, k, client.N(), client.K()))
		}
		n, k = client.N(), client.K()
		if n > maxAttackN {
			return fail(fmt.Errorf("the served competition has N = %d, over the %d this command runs", n, maxAttackN))
		}
		if !a.set["check"] {
			*a.check = true
		}
		sc = client
	} else {
		if a.set["assume"] || a.set["api-key-file"] {
			return fail(errors.New("-assume and -api-key-file are for a served competition"))
		}
		if truth, err = privateLabels(*a.labels, n, k, *a.seed, maxAttackN); err != nil {
			return fail(err)
		}
		n = len(truth)
		sm, err := metric.Parse(ms.metric.String(), "")
		if err != nil {
			return fail(err)
		}
		sim, err := discrete.NewSim(sm, truth, k, ms.decimals)
		if err != nil {
			return fail(err)
		}
		sc = sim
		if nz.Kind != scorer.NoNoise {
			if sc, err = oracle.NewNoisy(sim, nz, *a.seed); err != nil {
				return fail(err)
			}
		}
	}
	if ms.metric == discrete.AUC && k != 2 {
		return fail(fmt.Errorf("-k %d: roc-auc is binary", k))
	}
	// The attack from the catalogue: auto is its rule (discrete.Choose
	// for these metrics), a name must apply to the metric and K.
	tg := catalog.Target{Metric: ms.metric.String(), N: n, K: k, Decimals: ms.decimals}
	tg.Noise = nz
	var at *catalog.Attack
	if *a.strategy == catalog.AutoName {
		at, err = catalog.Auto(tg)
	} else {
		at, err = catalog.Parse(*a.strategy, tg)
	}
	if err != nil {
		return fail(err)
	}
	if err := at.Applies(tg); err != nil {
		return fail(fmt.Errorf("-strategy %s: %w", at.Name, err))
	}
	ts := &timed{Server: sc, now: e.now}
	bar := newProgress(e.stderr, n)
	progress := func(known, q int) { bar.step(known, fmt.Sprintf("labels, %d queries", q)) }
	t0 := e.now()
	c0, cok0 := cputime.Process()
	var res *decode.Result
	var aerr error
	if err := await(e.ctx, func() {
		res, aerr = at.Run(e.ctx, ts, tg, catalog.Options{Check: *a.check, Progress: progress})
	}); err != nil {
		bar.done()
		return failure(e.stderr, "attack", err)
	}
	bar.done()
	el := e.since(t0)
	c1, cok1 := cputime.Process()
	assume := ms.metric.String()
	if ms.decimals >= 0 {
		assume += fmt.Sprintf(",dec=%d", ms.decimals)
	} else {
		assume += ",dec=none"
	}
	noise := nz.Kind.String()
	out := attackOut{N: n, K: k, Scorer: scorerName, Assume: assume, Strategy: at.Name, Noise: noise, Tau: tau,
		Seconds: el, ScorerSeconds: ts.d.Seconds(), AttackSeconds: el - ts.d.Seconds()}
	out.AttackCPUSeconds, out.ScorerCPUSeconds = ts.cpuSeconds(c1-c0, cok0 && cok1)
	labels, known, verified := out.result(res, aerr)
	floor := 0
	values := discrete.Values(ms.metric, n, k, ms.decimals)
	if truth != nil {
		values = discrete.ValuesOf(ms.metric, truth, k, ms.decimals) // the class counts labelBits assumes
	}
	if f, err := discrete.Floor(labelBits(truth, n, k), values); err == nil {
		floor = f
	}
	return finishAttack(e, a, &out, func(o attackOut) any { return discreteOut{attackOut: o, Floor: floor} }, labels, known, truth, verified, func() {
		acc := "unknown"
		if out.Accuracy != nil {
			acc = strconv.FormatFloat(*out.Accuracy*100, 'f', 2, 64) + "%"
		}
		fmt.Fprintf(e.stdout, "%s against %s (%s): N = %d, K = %d, %d queries (information floor %d), accuracy %s, verified %v, checked %v, %.2fs (attack %.2fs, scorer %.2fs)\n",
			out.Strategy, out.Scorer, assume, n, k, out.Queries, floor, acc, out.Verified, out.Checked, out.Seconds, out.AttackSeconds, out.ScorerSeconds)
	})
}

// discreteOut is attack's JSON against a metric of package discrete.
type discreteOut struct {
	attackOut
	// Floor is the information bound on the queries of any attack
	// (discrete.Floor).
	Floor int `json:"floor"`
}

// labelBits is the labels' information for the floor: log₂ of the
// labelings with their class counts when the labels are known, else
// N·log₂K.
func labelBits(truth []int, n, k int) float64 {
	if truth != nil {
		return discrete.LabelBits(truth, k)
	}
	return float64(n) * math.Log2(float64(k))
}
