package mutnet

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/onnx"
	"github.com/labelinf/labelinf/single"
)

// hostMean is a float64 host's mean log-loss of θ against y, summed in a
// random order (the bound covers any order).
func hostMean(th []float64, y []int, rng *rand.Rand) float64 {
	var s float64
	for _, i := range rng.Perm(len(th)) {
		if y[i] == 1 {
			s -= math.Log(th[i])
		} else {
			s -= math.Log(1 - th[i])
		}
	}
	return s / float64(len(th))
}

// TestPlanDecode: every labeling of small N decodes from the emulated
// host's score, plans survive a JSON round trip, and noise inside τ is
// tolerated while a score outside every bound is refused.
func TestPlanDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		n, block int
		tau      float64
	}{{8, 0, 0}, {8, 3, 0}, {20, 0, 1e-6}, {45, 0, 0}} {
		p, err := NewPlan(Options{N: c.n, Block: c.block, Tau: c.tau})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		p, err = ReadPlan(b)
		if err != nil {
			t.Fatal(err)
		}
		trials := 1 << c.n
		if c.n > 10 {
			trials = 200
		}
		if testing.Short() {
			trials = min(trials, 40)
		}
		for k := range trials {
			y := make([]int, c.n)
			for i := range y {
				if c.n <= 10 {
					y[i] = k >> i & 1
				} else {
					y[i] = rng.IntN(2)
				}
			}
			var scores []string
			for q := range p.Queries {
				th, err := p.Theta(q)
				if err != nil {
					t.Fatal(err)
				}
				s := hostMean(th, y, rng) + c.tau*(2*rng.Float64()-1)*0.99
				scores = append(scores, formatG(s))
			}
			res, err := p.Decode(context.Background(), scores)
			if err != nil {
				t.Fatalf("n=%d labels %v: %v", c.n, y, err)
			}
			if !slices.Equal(res.Labels, y) {
				t.Fatalf("res.Labels = %v, want %v", res.Labels, y)
			}
		}
	}
	p, err := NewPlan(Options{N: 8})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Decode(context.Background(), []string{"0.9"})
	var se *ScoreError
	if !errors.As(err, &se) {
		t.Errorf("%v", err)
	}
	for _, bad := range []string{"nan", "-1", "x", "inf"} {
		_, err = p.Decode(context.Background(), []string{bad})
		if err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
	_, err = p.Decode(context.Background(), []string{"0.5", "0.5"})
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func formatG(v float64) string { return fmtFloat(v) }

// TestPlanErrors: bad options, a block too large (CapacityError with the
// largest block), and Theorem 12 where it applies.
func TestPlanErrors(t *testing.T) {
	for _, o := range []Options{{N: 0}, {N: 5, Tau: -1}, {N: 5, Tau: math.NaN()}, {N: 5, Block: 6}, {N: 5, DType: onnx.Int64}, {N: 5, SigmoidULPs: -1}} {
		_, err := NewPlan(o)
		if err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
	_, err := NewPlan(Options{N: 46})
	var ce *CapacityError
	if !errors.As(err, &ce) {
		t.Fatalf("%v", err)
	}
	if ce.Max != 45 {
		t.Errorf("ce.Max = %v, want %v", ce.Max, 45)
	}
	_, err = NewPlan(Options{N: 18, DType: onnx.Float})
	if !errors.As(err, &ce) {
		t.Fatalf("%v", err)
	}
	if ce.Max != 17 {
		t.Errorf("ce.Max = %v, want %v", ce.Max, 17)
	}

	// [EA, Corollary 4 of Theorem 12]: the clipped host bounds every
	// weight by ln((1−ε)/ε) ≈ 36.04, so τ > 36.04/(2N) is hopeless for
	// any prediction.
	var me *single.MonotoneError
	_, err = NewPlan(Options{N: 10, Tau: 1.9})
	if !errors.As(err, &me) {
		t.Fatalf("%v", err)
	}
	if d := math.Abs((36.04 / 20) - me.Bound); !(d <= 1e-3) {
		t.Errorf("got %v, want %v within %v", me.Bound, 36.04/20, 1e-3)
	}
	if !strings.Contains(err.Error(), "EA Thm 12") {
		t.Errorf("%q lacks %q", err.Error(), "EA Thm 12")
	}
	// Just below the corollary's bound the theorem says nothing (our
	// planner still cannot do it: the weights must also double).
	_, err = NewPlan(Options{N: 10, Tau: 1.7})
	if errors.As(err, &me) {
		t.Error("errors.As(err, &me) is true")
	}
	// A plan file whose τ was raised past its smallest weight's half:
	// [EA, Theorem 12] at the plan's own θ.
	p, err := NewPlan(Options{N: 8, Tau: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	d, err := weight(mustLogit(t, p, 0), p.model())
	if err != nil {
		t.Fatal(err)
	}
	p.Tau = d / (2 * 8) * 1.01
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadPlan(b)
	if !errors.As(err, &me) {
		t.Fatalf("%v", err)
	}
	if me.J != 0 {
		t.Errorf("me.J = %v, want %v", me.J, 0)
	}
}

func mustLogit(t *testing.T, p *Plan, row int) float64 {
	x, err := p.RowLogits(0)
	if err != nil {
		t.Fatal(err)
	}
	return x[row]
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// TestReadPlanBad: malformed plan files are errors, never panics.
func TestReadPlanBad(t *testing.T) {
	p, err := NewPlan(Options{N: 6, Block: 3})
	if err != nil {
		t.Fatal(err)
	}
	good, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadPlan(good)
	if err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(p *Plan){
		"format":        func(p *Plan) { p.Format = "x" },
		"n":             func(p *Plan) { p.N = 0 },
		"dtype":         func(p *Plan) { p.DType = "int8" },
		"no queries":    func(p *Plan) { p.Queries = nil },
		"row repeated":  func(p *Plan) { p.Queries[1].Rows[0] = 0 },
		"row range":     func(p *Plan) { p.Queries[1].Rows[0] = 99 },
		"logit":         func(p *Plan) { p.Queries[0].Logits[0] = "nope" },
		"lengths":       func(p *Plan) { p.Queries[0].Logits = p.Queries[0].Logits[:1] },
		"bound":         func(p *Plan) { p.Queries[0].Bound = 0 },
		"bound shrunk":  func(p *Plan) { p.Queries[0].Bound /= 10 },
		"not separated": func(p *Plan) { p.Queries[0].Logits[1] = p.Queries[0].Logits[0] },
	} {
		var q Plan
		if err := json.Unmarshal(good, &q); err != nil {
			t.Fatal(err)
		}
		mutate(&q)
		b, err := json.Marshal(&q)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ReadPlan(b)
		if err == nil {
			t.Errorf("%v: no error", name)
		}
	}
	for _, b := range []string{"", "{", "[]", `{"format":"labelinf-mutnet-plan/1","n":1e9}`} {
		_, err := ReadPlan([]byte(b))
		if err == nil {
			t.Errorf("%v: no error", b)
		}
	}
}
