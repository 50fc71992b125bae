package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"
	"time"

	"github.com/labelinf/labelinf/fingerprint"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// autoModel is the -assume value that identifies the model by probing.
const autoModel = "auto"

type probeOut struct {
	Purpose string  `json:"purpose"`
	Score   *string `json:"score"`
	Error   string  `json:"error,omitempty"`
	Fits    int     `json:"fits"`
}

type componentOut struct {
	Name     string   `json:"name"`
	Value    string   `json:"value"`
	Fits     []string `json:"fits"`
	Evidence string   `json:"evidence"`
}

type fingerprintOut struct {
	N          int            `json:"n"`
	K          int            `json:"k"`
	Scorer     string         `json:"scorer"`
	Model      string         `json:"model,omitempty"`
	Exact      bool           `json:"exact"`
	NoFit      string         `json:"no_fit,omitempty"`
	Probes     []probeOut     `json:"probes"`
	Components []componentOut `json:"components"`
	Seconds    float64        `json:"seconds"`
}

func fingerprintReport(scorerName string, n, k int, res *fingerprint.Result) fingerprintOut {
	out := fingerprintOut{N: n, K: k, Scorer: scorerName, Exact: res.Exact, NoFit: res.NoFit}
	if res.Model != nil {
		out.Model = res.Model.Name
	}
	for _, p := range res.Probes {
		po := probeOut{Purpose: p.Purpose, Fits: p.Fits}
		if p.Score != nil {
			s := ratDecimal(p.Score)
			po.Score = &s
		}
		if p.Err != nil {
			po.Error = p.Err.Error()
		}
		out.Probes = append(out.Probes, po)
	}
	for _, c := range res.Components {
		out.Components = append(out.Components, componentOut(c))
	}
	return out
}

// ratDecimal prints r with up to 17 significant digits.
func ratDecimal(r *big.Rat) string {
	f, _ := new(big.Float).SetPrec(200).SetRat(r).Float64()
	return fmt.Sprint(f)
}

// printFingerprint writes the identification as text.
func printFingerprint(w io.Writer, o fingerprintOut) {
	fmt.Fprintf(w, "fingerprint of %s: N = %d, K = %d, %d probe queries\n", o.Scorer, o.N, o.K, len(o.Probes))
	for i, p := range o.Probes {
		score := "error: " + p.Error
		if p.Score != nil {
			score = "score " + *p.Score
		}
		fmt.Fprintf(w, "  probe %d: %s: %s (%d candidate models fit)\n", i+1, p.Purpose, score, p.Fits)
	}
	for _, c := range o.Components {
		ev := c.Evidence
		if ev == "" {
			ev = "every candidate has this value"
		}
		fmt.Fprintf(w, "  %-7s %-12s %s\n", c.Name, c.Value, ev)
	}
	switch {
	case o.NoFit != "":
		fmt.Fprintf(w, "no model fits: %s\n", o.NoFit)
	case o.Exact:
		fmt.Fprintf(w, "model: %s (the only candidate that fits every probe)\n", o.Model)
	default:
		fmt.Fprintf(w, "model: %s (several candidates fit every probe; this is the one with the largest error budget, PyTorch's cascade sum only if the probes rule out every other order)\n", o.Model)
	}
}

// identify probes s and returns the identified model, or an error saying
// no model fits. An external scorer then reports floats in the model's
// format.
func identify(ctx context.Context, s scorer.Server, scorerName string) (*fingerprint.Result, fingerprintOut, error) {
	res, err := fingerprint.Identify(ctx, s)
	if err != nil {
		return nil, fingerprintOut{}, err
	}
	o := fingerprintReport(scorerName, s.N(), s.K(), res)
	if res.Model == nil {
		return res, o, fmt.Errorf("no model fits: %s", res.NoFit)
	}
	if c, ok := s.(*oracle.Cmd); ok && res.Model.Decimals < 0 {
		f := res.Model.Loss.Format
		c.RoundTo = &f
	}
	return res, o, nil
}

func runFingerprint(e *env, args []string) int {
	fs := newFlagSet("fingerprint", e.stderr)
	name := fs.String("scorer", scorer.Float64Sklearn, "scorer to identify: a model ("+strings.Join(scorer.ModelNames, ", ")+", or composed) simulated, or cmd:PROGRAM")
	n := fs.Int("n", 0, "number of private labels `N` (8..131072; required unless -labels FILE gives it)")
	k := fs.Int("k", 2, "number of classes (2..64)")
	seed := fs.Uint64("seed", 1, "seed of the simulated labels")
	labels := fs.String("labels", "", "file of private labels, one per line (simulated scorers)")
	timeout := fs.Duration("timeout", time.Minute, "cmd:PROGRAM: longest wait for one score (> 0)")
	asJSON := fs.Bool("json", false, "print JSON")
	if !parseFlags(fs, args, e.stderr) {
		return 2
	}
	set := setFlags(fs)
	fail := func(err error) int { return usageError(e.stderr, "fingerprint", err) }
	if *timeout <= 0 {
		return fail(fmt.Errorf("-timeout %v: want a duration > 0", *timeout))
	}
	if *k < 2 || *k > 64 {
		return fail(fmt.Errorf("-k %d outside [2, 64]", *k))
	}
	var sc scorer.Server
	if p, ok := strings.CutPrefix(*name, "cmd:"); ok {
		if *labels != "" {
			return fail(errors.New("-labels is for simulated scorers; an external scorer holds its own labels"))
		}
		if set["seed"] {
			return fail(errors.New("-seed is for simulated scorers"))
		}
		if *n < 8 || *n > maxAttackN {
			return fail(fmt.Errorf("-n %d outside [8, %d]", *n, maxAttackN))
		}
		c, err := oracle.NewCmd(strings.TrimSpace(p), *n, *k, *timeout)
		if err != nil {
			return fail(err)
		}
		defer func() {
			if e.ctx.Err() != nil {
				c.Kill()
			}
			c.Close()
		}()
		sc = c
	} else {
		if set["timeout"] {
			return fail(errors.New("-timeout applies to cmd:PROGRAM only"))
		}
		m, err := scorer.ParseModel(*name)
		if err != nil {
			return fail(scorerError(*name, err))
		}
		if *labels == "" && (*n < 8 || *n > maxAttackN) {
			// The probes need 8 points (privateLabels would say 1).
			return fail(fmt.Errorf("-n %d outside [8, %d]", *n, maxAttackN))
		}
		truth, err := privateLabels(*labels, *n, *k, *seed, maxAttackN)
		if err != nil {
			return fail(err)
		}
		if len(truth) < 8 {
			return fail(fmt.Errorf("%d labels: the probes need at least 8", len(truth)))
		}
		if sc, err = oracle.NewSim(m, truth, *k); err != nil {
			return fail(err)
		}
	}
	t0 := e.now()
	var o fingerprintOut
	var ierr error
	if err := await(e.ctx, func() { _, o, ierr = identify(e.ctx, sc, *name) }); err != nil {
		return failure(e.stderr, "fingerprint", err)
	}
	if ierr != nil && o.Scorer == "" {
		return failure(e.stderr, "fingerprint", ierr)
	}
	o.Seconds = e.since(t0)
	if *asJSON {
		writeJSON(e.stdout, o)
	} else {
		printFingerprint(e.stdout, o)
	}
	if ierr != nil {
		return 1
	}
	return 0
}

// roundTo makes an external scorer read its text answers in m's format
// when m reports unrounded scores (a decimal text is read exactly
// otherwise).
func roundTo(sc scorer.Server, m *scorer.Model) {
	if c, ok := sc.(*oracle.Cmd); ok {
		c.RoundTo = nil
		if m.Decimals < 0 {
			f := m.Loss.Format
			c.RoundTo = &f
		}
	}
}

// reidentOut is one re-identification mid-attack (-assume auto).
type reidentOut struct {
	AfterQuery int    `json:"after_query"`
	Failed     string `json:"failed"`
	Why        string `json:"why"`
	Model      string `json:"model"`
	How        string `json:"how"`
	Probes     int    `json:"probes"`
	Labels     int    `json:"labels"`
	Stale      int    `json:"stale"`
}

// refineOut is one change of decimals mid-attack (-assume auto).
type refineOut struct {
	AfterQuery int    `json:"after_query"`
	From       string `json:"from"`
	To         string `json:"to"`
	Decimals   int    `json:"decimals"`
}

func orNone(s string) string {
	if s == "" {
		return "no model"
	}
	return s
}
