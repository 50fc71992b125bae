package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

// runRobust is labelinf attack -strategy robust-single: ICML Alg 2 against
// an arbitrary-precision scorer, all labels from one noisy score.
func runRobust(e *env, a *attackFlags, sp scorerSpec) int {
	fail := func(err error) int { return usageError(e.stderr, "attack", err) }
	if sp.isCmd || sp.url != "" || !sp.model.Exact || !strings.HasPrefix(*a.scorer, "apa") {
		return fail(errors.New("-strategy robust-single needs -scorer apa or apa:BITS (an arbitrary-precision server)"))
	}
	var tau float64
	switch sp.noise.Kind {
	case scorer.Bounded:
		tau = sp.noise.Tau
	case scorer.Gaussian, scorer.Laplace:
		// One query: |noise| ≤ σ·√(2 ln(2/δ)) (Gaussian) or b·ln(1/δ)
		// (Laplace) with probability 1 − δ.
		tau = sp.noise.HalfWidth(0, 1)
	case scorer.Multiplicative:
		return fail(errors.New("-strategy robust-single: multiplicative noise grows with the score, and one query cannot separate it (ICML Thm 11); use bounded or gaussian"))
	default:
		return fail(errors.New("-strategy robust-single needs noise (-noise bounded -tau T); without noise use labelinf demo's exact attack"))
	}
	if !(*a.margin > 0) || math.IsInf(*a.margin, 0) {
		return fail(fmt.Errorf("-margin %v: want a finite δ > 0", *a.margin))
	}
	enc, err := scorer.ParseEncoding(*a.encoding)
	if err != nil {
		return fail(err)
	}
	var ws single.WeightSet
	switch *a.weights {
	case "powers":
		ws = single.PowerWeights
	case "conway-guy":
		ws = single.ConwayGuyWeights
	default:
		return fail(fmt.Errorf("-weights %q: want powers or conway-guy", *a.weights))
	}
	k := *a.k
	truth, err := privateLabels(*a.labels, *a.n, k, *a.seed, single.MaxRobustN)
	if err != nil {
		return fail(err)
	}
	n := len(truth)
	t0 := e.now()
	var r robustRun
	if err := await(e.ctx, func() {
		r = attackRobust(e.ctx, e.now, single.RobustOptions{N: n, K: k, Tau: tau, Margin: *a.margin, Encoding: enc, Weights: ws}, *a.scorer == "apa", sp, truth, *a.seed)
	}); err != nil {
		return failure(e.stderr, "attack", err)
	}
	if r.usageErr != nil {
		return fail(r.usageErr)
	}
	out := attackOut{N: n, K: k, Scorer: *a.scorer, Assume: fmt.Sprintf("apa:%d", r.prec), Strategy: "robust-single", Noise: sp.noise.Kind.String(), Tau: sp.noise.Tau}
	out.Seconds = e.since(t0)
	out.Queries = r.queries
	var labels []int
	var known []bool
	if r.err != nil {
		out.Error = r.err.Error()
	} else {
		out.ScorerSeconds = r.scorer.Seconds()
		out.AttackSeconds = out.Seconds - out.ScorerSeconds
		out.Verified = r.res.Verified
		labels, known = r.res.Labels, r.res.Known
	}
	prec := r.prec
	asJSON := func(o attackOut) any { return robustOut{o, r.plan.Prec(), enc.String(), *a.weights} }
	return finishAttack(e, a, &out, asJSON, labels, known, truth, out.Verified, func() {
		acc := "unknown"
		if out.Accuracy != nil {
			acc = fmt.Sprintf("%.2f%%", *out.Accuracy*100)
		}
		fmt.Fprintf(e.stdout, "robust-single against %s (%d-bit scores, %v predictions, τ = %g): N = %d, K = %d, %d query, accuracy %s, verified %v, %.2fs (attack %.2fs, scorer %.2fs)\n",
			out.Scorer, prec, enc, tau, n, k, out.Queries, acc, out.Verified, out.Seconds, out.AttackSeconds, out.ScorerSeconds)
	})
}

// robustRun is the outcome of attackRobust.
type robustRun struct {
	plan     *single.RobustPlan
	prec     uint // the server's score precision
	queries  int
	res      *decode.Result
	scorer   time.Duration // time spent in the server
	err      error         // the attack's failure
	usageErr error         // an impossible plan or server
}

// attackRobust is robust-single's one call into decode and oracle: the
// plan, an arbitrary-precision server holding truth (answering with the
// bits the plan asks for if exactBits, else the model's), and the attack.
func attackRobust(ctx context.Context, now func() time.Time, opt single.RobustOptions, exactBits bool, sp scorerSpec, truth []int, seed uint64) (r robustRun) {
	if r.plan, r.usageErr = single.PlanRobust(ctx, opt); r.usageErr != nil {
		return r
	}
	r.prec = sp.model.Prec
	if exactBits {
		r.prec = r.plan.Prec()
	}
	srv, err := oracle.NewBigExact(truth, opt.K, r.prec, sp.noise, seed)
	if err != nil {
		r.usageErr = err
		return r
	}
	ts := &timedBig{BigServer: srv, now: now}
	r.res, r.err = r.plan.Attack(ctx, ts)
	r.queries = srv.Queries()
	r.scorer = ts.d
	return r
}

// timedBig measures the time spent in an arbitrary-precision scorer.
type timedBig struct {
	scorer.BigServer
	now func() time.Time
	d   time.Duration
}

func (t *timedBig) Score(ctx context.Context, p *scorer.BigPred) (*big.Float, error) {
	t0 := t.now()
	r, err := t.BigServer.Score(ctx, p)
	t.d += t.now().Sub(t0)
	return r, err
}
