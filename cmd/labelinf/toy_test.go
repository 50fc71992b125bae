package main

// This file adds an attack to the catalogue the way the package doc of
// catalog says (one Register call), from a test file, and runs it through
// labelinf attack's code path: nothing else in the command changes.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// toyEnv makes the test binary register the toy attack: TestToyAttack
// runs itself in a child process with it set, so that the other tests
// see the catalogue as it is.
const toyEnv = "LABELINF_TEST_TOY_ATTACK"

func init() {
	if os.Getenv(toyEnv) != "1" {
		return
	}
	catalog.Register(&catalog.Attack{
		Name: "toy", Kind: catalog.MultiQuery,
		Doc: "test only: one label a query, each point moved off 1/2 alone",
		Applies: func(t catalog.Target) error {
			if t.Metric != "" || t.Model == nil || t.K != 2 {
				return errors.New("toy attacks binary log-loss")
			}
			return nil
		},
		Estimate: func(_ context.Context, t catalog.Target, _ catalog.EstimateOptions) (*catalog.Estimate, error) {
			return &catalog.Estimate{Queries: t.N + 1, Lower: t.N + 1}, nil
		},
		Run: toyRun,
	})
}

// toyRun reads label i from the score of the prediction that moves point
// i alone from 1/2 to 1/4 (its term rises by ln 2 for label 1, falls by
// ln(4/3) for label 0), then verifies: the recovered labels must give
// every observed score exactly under the model.
func toyRun(ctx context.Context, o catalog.Oracle, t catalog.Target, opt catalog.Options) (*decode.Result, error) {
	res := &decode.Result{Labels: make([]int, t.N), Known: make([]bool, t.N)}
	pred := func(i int) *scorer.Pred {
		p := &scorer.Pred{K: 2, P: make([]float64, t.N)}
		for j := range p.P {
			p.P[j] = 0.5
		}
		if i >= 0 {
			p.P[i] = 0.25
		}
		return p
	}
	var preds []*scorer.Pred
	var scores []*big.Rat
	ask := func(p *scorer.Pred) (*big.Rat, error) {
		s, err := o.Score(ctx, p)
		res.Queries++
		preds, scores = append(preds, p), append(scores, s)
		return s, err
	}
	s0, err := ask(pred(-1))
	if err != nil {
		return res, err
	}
	for i := range t.N {
		s, err := ask(pred(i))
		if err != nil {
			return res, err
		}
		if s.Cmp(s0) > 0 {
			res.Labels[i] = 1
		}
	}
	for q, p := range preds {
		want, err := t.Model.Eval(res.Labels, p)
		if err != nil || want.Cmp(scores[q]) != 0 {
			return res, fmt.Errorf("toy: the labels do not explain score %d", q)
		}
	}
	for i := range res.Known {
		res.Known[i] = true
	}
	res.Verified = true
	return res, nil
}

// TestToyAttack: an attack registered in a test file runs through attack
// (and is listed by plan and help attacks) like the built-in ones.
func TestToyAttack(t *testing.T) {
	if os.Getenv(toyEnv) != "1" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestToyAttack$", "-test.v")
		cmd.Env = append(os.Environ(), toyEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestToyAttack") {
			t.Fatalf("the toy attack's run: %v\n%s", err, out)
		}
		return
	}
	var out, errb bytes.Buffer
	if code := run([]string{"attack", "-strategy", "toy", "-n", "30", "-scorer", "float64-sklearn", "-json"}, &out, &errb); code != 0 {
		t.Fatalf("attack -strategy toy: exit %d: %s%s", code, out.String(), errb.String())
	}
	var a attackOut
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	if a.Strategy != "toy" || a.Queries != 31 || !a.Verified || a.Accuracy == nil || *a.Accuracy != 1 {
		t.Errorf("attack -strategy toy: %+v", a)
	}
	p := planJSON(t, "-n", "30")
	found := false
	for _, r := range p.Strategies {
		found = found || r.Strategy == "toy" && r.Queries == 31
	}
	if !found {
		t.Errorf("plan does not list toy: %+v", p.Strategies)
	}
	out.Reset()
	run([]string{"help", "attacks"}, &out, &errb)
	if !strings.Contains(out.String(), "\ttoy ") {
		t.Error("help attacks does not list toy")
	}
}
