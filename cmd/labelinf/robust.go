package main

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
)

// runRobust is labelinf attack -strategy robust-single: ICML Alg 2 against
// an arbitrary-precision scorer, all labels from one noisy score.
func runRobust(e *env, a *attackFlags, sp scorerSpec) int {
	fail := func(err error) int { return usageError(e.stderr, "attack", err) }
	if sp.isCmd || !sp.model.Exact || !strings.HasPrefix(*a.scorer, "apa") {
		return fail(errors.New("-strategy robust-single needs -scorer apa or apa:BITS (an arbitrary-precision server)"))
	}
	var tau float64
	switch sp.noise.Kind {
	case oracle.Bounded:
		tau = sp.noise.Tau
	case oracle.Gaussian, oracle.Laplace:
		// One query: |noise| ≤ σ·√(2 ln(2/δ)) (Gaussian) or b·ln(1/δ)
		// (Laplace) with probability 1 − δ.
		tau = sp.noise.HalfWidth(0, 1)
	case oracle.Multiplicative:
		return fail(errors.New("-strategy robust-single: multiplicative noise grows with the score, and one query cannot separate it (ICML Thm 11); use bounded or gaussian"))
	default:
		return fail(errors.New("-strategy robust-single needs noise (-noise bounded -tau T); without noise use labelinf demo's exact attack"))
	}
	if !(*a.margin > 0) || math.IsInf(*a.margin, 0) {
		return fail(fmt.Errorf("-margin %v: want a finite δ > 0", *a.margin))
	}
	enc, err := oracle.ParseEncoding(*a.encoding)
	if err != nil {
		return fail(err)
	}
	var ws decode.WeightSet
	switch *a.weights {
	case "powers":
		ws = decode.PowerWeights
	case "conway-guy":
		ws = decode.ConwayGuyWeights
	default:
		return fail(fmt.Errorf("-weights %q: want powers or conway-guy", *a.weights))
	}
	k := *a.k
	truth, err := privateLabels(*a.labels, *a.n, k, *a.seed, decode.MaxRobustN)
	if err != nil {
		return fail(err)
	}
	n := len(truth)
	t0 := e.now()
	plan, err := decode.PlanRobust(decode.RobustOptions{N: n, K: k, Tau: tau, Margin: *a.margin, Encoding: enc, Weights: ws})
	if err != nil {
		return fail(err)
	}
	prec := sp.model.Prec
	if *a.scorer == "apa" {
		prec = plan.Prec() // an arbitrary-precision server answers with the bits asked for
	}
	srv, err := oracle.NewBigExact(truth, k, prec, sp.noise, *a.seed)
	if err != nil {
		return fail(err)
	}
	out := attackOut{N: n, K: k, Scorer: *a.scorer, Assume: fmt.Sprintf("apa:%d", prec), Strategy: "robust-single", Noise: sp.noise.Kind.String(), Tau: sp.noise.Tau}
	var res *decode.RobustAttack
	var aerr error
	if err := await(e.ctx, func() { res, aerr = plan.Attack(srv) }); err != nil {
		return failure(e.stderr, "attack", err)
	}
	out.Seconds = e.since(t0)
	out.Queries = srv.Queries()
	var labels []int
	if aerr != nil {
		out.Error = aerr.Error()
	} else {
		out.ScorerSeconds = res.ScoreSeconds
		out.AttackSeconds = out.Seconds - res.ScoreSeconds
		out.Verified = true
		labels = res.Labels
	}
	asJSON := func(o attackOut) any { return robustOut{o, plan.Prec(), enc.String(), *a.weights} }
	return finishAttack(e, a, &out, asJSON, labels, truth, out.Verified, func() {
		acc := "unknown"
		if out.Accuracy != nil {
			acc = fmt.Sprintf("%.2f%%", *out.Accuracy*100)
		}
		fmt.Fprintf(e.stdout, "robust-single against %s (%d-bit scores, %v predictions, τ = %g): N = %d, K = %d, %d query, accuracy %s, verified %v, %.2fs (attack %.2fs, scorer %.2fs)\n",
			out.Scorer, prec, enc, tau, n, k, out.Queries, acc, out.Verified, out.Seconds, out.AttackSeconds, out.ScorerSeconds)
	})
}
