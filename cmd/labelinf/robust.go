package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// robustArgs are the parsed attack flags robust-single uses.
type robustArgs struct {
	sf                  *scorerFlags
	m                   *scorer.Model
	prog                string
	nz                  scorer.Noise
	seed                uint64
	labelsFile, outFile string
	encoding, weights   string
	margin              float64
}

// runRobust is labelinf attack -strategy robust-single: ICML Alg 2 against
// an arbitrary-precision scorer, all labels from one noisy score.
func runRobust(a robustArgs, stdout, stderr io.Writer) int {
	usage := func(err error) int {
		fmt.Fprintf(stderr, "labelinf attack: %v\n", err)
		return 2
	}
	if a.prog != "" || !a.m.Exact || !strings.HasPrefix(*a.sf.scorer, "apa") {
		return usage(errors.New("--strategy robust-single needs --scorer apa or apa:BITS (an arbitrary-precision server)"))
	}
	var tau float64
	switch a.nz.Kind {
	case scorer.Bounded:
		tau = a.nz.Tau
	case scorer.Gaussian, scorer.Laplace:
		// One query: |noise| ≤ σ·√(2 ln(2/δ)) (Gaussian) or b·ln(1/δ)
		// (Laplace) with probability 1 − δ.
		tau = a.nz.HalfWidth(0, 1)
	case scorer.Multiplicative:
		return usage(errors.New("--strategy robust-single: multiplicative noise grows with the score, and one query cannot separate it (ICML Thm 11); use bounded or gaussian"))
	default:
		return usage(errors.New("--strategy robust-single needs noise (--noise bounded --tau T); without noise use labelinf demo's exact attack"))
	}
	enc, err := scorer.ParseEncoding(a.encoding)
	if err != nil {
		return usage(err)
	}
	var ws decode.WeightSet
	switch a.weights {
	case "powers":
		ws = decode.PowerWeights
	case "conway-guy":
		ws = decode.ConwayGuyWeights
	default:
		return usage(fmt.Errorf("--weights %q: want powers or conway-guy", a.weights))
	}
	k := *a.sf.k
	truth, err := privateLabels(a.labelsFile, *a.sf.n, k, a.seed, decode.MaxRobustN)
	if err != nil {
		return usage(err)
	}
	n := len(truth)
	opt := decode.RobustOptions{N: n, K: k, Tau: tau, Margin: a.margin, Encoding: enc, Weights: ws}
	t0 := time.Now()
	plan, err := decode.PlanRobust(context.Background(), opt)
	if err != nil {
		return usage(err)
	}
	prec := a.m.Prec
	if *a.sf.scorer == "apa" {
		prec = plan.Prec() // an arbitrary-precision server answers with the bits asked for
	}
	srv, err := oracle.NewBigExact(truth, k, prec, a.nz, a.seed)
	if err != nil {
		return usage(err)
	}
	out := attackOut{N: n, K: k, Scorer: *a.sf.scorer, Assume: fmt.Sprintf("apa:%d", prec), Strategy: "robust-single", Noise: a.nz.Kind.String(), Tau: a.nz.Tau}
	ok := false
	ts := &timedBig{BigServer: srv}
	res, aerr := plan.Attack(context.Background(), ts)
	out.Seconds = time.Since(t0).Seconds()
	out.Queries = srv.Queries()
	if aerr != nil {
		out.Error = aerr.Error()
	} else {
		out.ScorerSeconds = ts.d.Seconds()
		out.AttackSeconds = out.Seconds - out.ScorerSeconds
		out.Verified = true
		acc, all := accuracyOf(res.Labels, truth)
		out.Accuracy = &acc
		ok = all
		if a.outFile != "" {
			if err := writeLabels(a.outFile, res.Labels); err != nil {
				fmt.Fprintf(stderr, "labelinf attack: %v\n", err)
				return 1
			}
		}
	}
	if *a.sf.asJSON {
		je := json.NewEncoder(stdout)
		je.SetIndent("", "  ")
		je.Encode(struct {
			attackOut
			ScoreBits uint   `json:"score_bits"`
			Encoding  string `json:"encoding"`
			Weights   string `json:"weights"`
		}{out, plan.Prec(), enc.String(), a.weights})
	} else {
		acc := "unknown"
		if out.Accuracy != nil {
			acc = strconv.FormatFloat(*out.Accuracy*100, 'f', 2, 64) + "%"
		}
		fmt.Fprintf(stdout, "robust-single against %s (%d-bit scores, %v predictions, τ = %g): N = %d, K = %d, %d query, accuracy %s, verified %v, %.2fs (attack %.2fs, scorer %.2fs)\n",
			out.Scorer, prec, enc, tau, n, k, out.Queries, acc, out.Verified, out.Seconds, out.AttackSeconds, out.ScorerSeconds)
		if out.Error != "" {
			fmt.Fprintf(stdout, "error: %s\n", out.Error)
		}
	}
	if !ok {
		return 1
	}
	return 0
}

// timedBig measures the time spent in an arbitrary-precision scorer.
type timedBig struct {
	scorer.BigServer
	d time.Duration
}

func (t *timedBig) Score(ctx context.Context, p *scorer.BigPred) (*big.Float, error) {
	t0 := time.Now()
	r, err := t.BigServer.Score(ctx, p)
	t.d += time.Since(t0)
	return r, err
}
