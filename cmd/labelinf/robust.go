package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

// runSingle is labelinf attack with a single-query attack of the
// catalogue (robust-single: ICML Alg 2; exact, loss-family, prime-log,
// mutnet): one score of an arbitrary-precision scorer gives every label.
// The attack is the catalogue's entry, run against oracle.Precise.
func runSingle(e *env, a *attackFlags, sp scorerSpec, at *catalog.Attack) int {
	fail := func(err error) int { return usageError(e.stderr, "attack", err) }
	robust := at.Name == "robust-single"
	if sp.isCmd || sp.url != "" || !sp.model.Exact || !strings.HasPrefix(*a.scorer, "apa") {
		return fail(fmt.Errorf("-strategy %s needs -scorer apa or apa:BITS (an arbitrary-precision server)", at.Name))
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
		return fail(fmt.Errorf("-strategy %s: multiplicative noise grows with the score, and one query cannot separate it (ICML Thm 11); use bounded or gaussian", at.Name))
	default:
		if robust {
			return fail(errors.New("-strategy robust-single needs noise (-noise bounded -tau T); without noise use -strategy exact"))
		}
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
	// -scorer apa answers with the bits the plan asks for (the target's
	// precision is free); apa:BITS with its own.
	m := *sp.model
	if *a.scorer == "apa" {
		m.Prec = 0
	}
	tg := catalog.Target{Model: &m, N: n, K: k, Noise: sp.noise}
	// Applies is asked with the precision free: a scorer with too few
	// bits is the run's error (*single.PrecisionError, reported with the
	// bits the plan needs), as before the catalogue ran it.
	free := m
	free.Prec = 0
	if err := at.Applies(catalog.Target{Model: &free, N: n, K: k, Noise: sp.noise}); err != nil {
		return fail(fmt.Errorf("-strategy %s: %w", at.Name, err))
	}
	t0 := e.now()
	var r singleRun
	if err := await(e.ctx, func() {
		r = attackSingle(e.ctx, e.now, at, tg, m.Prec, truth, catalog.Options{Seed: *a.seed, Margin: *a.margin, Encoding: enc, Weights: ws})
	}); err != nil {
		return failure(e.stderr, "attack", err)
	}
	if r.usageErr != nil {
		return fail(r.usageErr)
	}
	out := attackOut{N: n, K: k, Scorer: *a.scorer, Assume: fmt.Sprintf("apa:%d", r.prec), Strategy: at.Name, Noise: sp.noise.Kind.String(), Tau: sp.noise.Tau}
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
	asJSON := func(o attackOut) any { return o }
	if robust {
		asJSON = func(o attackOut) any { return robustOut{o, r.asked, enc.String(), *a.weights} }
	}
	return finishAttack(e, a, &out, asJSON, labels, known, truth, out.Verified, func() {
		acc := "unknown"
		if out.Accuracy != nil {
			acc = fmt.Sprintf("%.2f%%", *out.Accuracy*100)
		}
		if robust {
			fmt.Fprintf(e.stdout, "robust-single against %s (%d-bit scores, %v predictions, τ = %g): N = %d, K = %d, %d query, accuracy %s, verified %v, %.2fs (attack %.2fs, scorer %.2fs)\n",
				out.Scorer, r.prec, enc, tau, n, k, out.Queries, acc, out.Verified, out.Seconds, out.AttackSeconds, out.ScorerSeconds)
			return
		}
		fmt.Fprintf(e.stdout, "%s against %s (%d-bit scores, τ = %g): N = %d, K = %d, %d query, accuracy %s, verified %v, %.2fs (attack %.2fs, scorer %.2fs)\n",
			at.Name, out.Scorer, r.prec, tau, n, k, out.Queries, acc, out.Verified, out.Seconds, out.AttackSeconds, out.ScorerSeconds)
	})
}

// singleRun is the outcome of attackSingle.
type singleRun struct {
	asked    uint // the bits the attack asked for (its plan's)
	prec     uint // the server's score precision
	queries  int
	res      *decode.Result
	scorer   time.Duration // time spent in the server
	err      error         // the attack's failure
	usageErr error         // an impossible server
}

// attackSingle is a single-query attack's one call into the catalogue and
// oracle: an arbitrary-precision server holding truth (answering with the
// bits the attack asks for if prec is 0, else prec), and the entry's run.
func attackSingle(ctx context.Context, now func() time.Time, at *catalog.Attack, tg catalog.Target, prec uint, truth []int, opt catalog.Options) (r singleRun) {
	srv, err := oracle.NewPrecise(truth, tg.K, prec, tg.Noise, opt.Seed)
	if err != nil {
		r.usageErr = err
		return r
	}
	ts := &timedPrecise{Precise: srv, now: now, run: &r}
	r.res, r.err = at.Run(ctx, ts, tg, opt)
	if r.err != nil && !ts.viewed {
		// The attack failed before it asked for the scorer: its plan
		// cannot be made (options, sizes), a usage error.
		r.usageErr = r.err
		return r
	}
	var pe *single.PrecisionError
	if errors.As(r.err, &pe) && r.prec == 0 {
		r.prec = pe.Have
	}
	r.queries = srv.Queries()
	return r
}

// timedPrecise measures the time spent in an arbitrary-precision scorer's
// views, and records the precision the attack asked for and got.
type timedPrecise struct {
	*oracle.Precise
	now    func() time.Time
	run    *singleRun
	viewed bool // a view was asked for
}

func (t *timedPrecise) timeIt(f func()) {
	t0 := t.now()
	f()
	t.run.scorer += t.now().Sub(t0)
}

func (t *timedPrecise) asked(want, got uint) {
	t.run.asked, t.run.prec, t.viewed = want, got, true
}

func (t *timedPrecise) Big(prec uint) (scorer.BigServer, error) {
	s, err := t.Precise.Big(prec)
	if err != nil {
		return nil, err
	}
	t.asked(prec, s.Prec())
	return &timedBig{BigServer: s, t: t}, nil
}

func (t *timedPrecise) Rat(prec uint) (scorer.RatServer, error) {
	s, err := t.Precise.Rat(prec)
	if err != nil {
		return nil, err
	}
	got := prec
	if t.Precise.Prec() != 0 {
		got = t.Precise.Prec()
	}
	t.asked(prec, got)
	return &timedRat{RatServer: s, t: t, prec: got}, nil
}

func (t *timedPrecise) Family(l *loss.Binary, prec uint) (scorer.FamilyServer, error) {
	s, err := t.Precise.Family(l, prec)
	if err != nil {
		return nil, err
	}
	got := prec
	if t.Precise.Prec() != 0 {
		got = t.Precise.Prec()
	}
	t.asked(prec, got)
	return &timedFamily{FamilyServer: s, t: t, prec: got}, nil
}

var _ catalog.Precise = (*timedPrecise)(nil)

type timedBig struct {
	scorer.BigServer
	t *timedPrecise
}

func (s *timedBig) Score(ctx context.Context, p *scorer.BigPred) (r *big.Float, err error) {
	s.t.timeIt(func() { r, err = s.BigServer.Score(ctx, p) })
	return r, err
}

type timedRat struct {
	scorer.RatServer
	t    *timedPrecise
	prec uint
}

func (s *timedRat) Prec() uint { return s.prec }

func (s *timedRat) Score(ctx context.Context, p *loss.Rat) (r *big.Float, err error) {
	s.t.timeIt(func() { r, err = s.RatServer.Score(ctx, p) })
	return r, err
}

type timedFamily struct {
	scorer.FamilyServer
	t    *timedPrecise
	prec uint
}

func (s *timedFamily) Prec() uint { return s.prec }

func (s *timedFamily) Score(ctx context.Context, theta []*big.Float) (r *big.Float, err error) {
	s.t.timeIt(func() { r, err = s.FamilyServer.Score(ctx, theta) })
	return r, err
}
