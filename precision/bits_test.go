package precision

import (
	"context"
	"errors"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

// exactFails reports whether the exact attack misreads some labeling of n
// binary labels from a score rounded to p bits: the slow twin of Bits's
// observation, written against the public API only.
func exactFails(t *testing.T, n int, p uint) bool {
	t.Helper()
	q, err := single.NewQuery(n, 2)
	if err != nil {
		t.Fatal(err)
	}
	for m := range 1 << n {
		y := make([]int, n)
		for i := range y {
			y[i] = m >> i & 1
		}
		o, err := oracle.NewExact(y, 2, p)
		if err != nil {
			t.Fatal(err)
		}
		s, err := o.Score(context.Background(), q.Prediction())
		if err != nil {
			t.Fatal(err)
		}
		res, err := q.Decode(s, single.Options{ScorePrec: p, AllowLowPrecision: true})
		if err != nil || !slices.Equal(res.Labels, y) {
			return true
		}
	}
	return false
}

func TestBitsExact(t *testing.T) {
	rep, err := Bits(context.Background(), BitsOptions{Loss: "cross-entropy", N: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unit != "score-bits" {
		t.Errorf("rep.Unit = %v, want %v", rep.Unit, "score-bits")
	}
	// Paper: ⌈1·4·log2(4 ln 4)⌉ = ⌈4·2.471⌉ = 10.
	if want := uint(10); rep.Paper.Bits != want {
		t.Errorf("rep.Paper.Bits = %v, want %v", rep.Paper.Bits, want)
	}
	q, err := single.NewQuery(4, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := q.Prec(); rep.Ours.Bits != want {
		t.Errorf("rep.Ours.Bits = %v, want %v", rep.Ours.Bits, want)
	}
	if rep.Labelings != 16 {
		t.Errorf("rep.Labelings = %v, want %v", rep.Labelings, 16)
	}
	obs := rep.Observed.Bits
	if obs == 0 {
		t.Fatalf("no observed P: %s", rep.Observed.Missing)
	}
	if exactFails(t, 4, obs) {
		t.Errorf("every labeling decodes at the observed P = %d", obs)
	}
	if !exactFails(t, 4, obs-1) {
		t.Errorf("P = %d must fail somewhere", obs-1)
	}
	if rep.GapOurs == nil {
		t.Fatal("rep.GapOurs is nil")
	}
	if got, want := *rep.GapOurs, int(rep.Ours.Bits)-int(obs); got != want {
		t.Errorf("*rep.GapOurs = %v, want %v", got, want)
	}
	if got, want := *rep.GapPaper, int(rep.Paper.Bits)-int(obs); got != want {
		t.Errorf("*rep.GapPaper = %v, want %v", got, want)
	}
	if rep.Ours.Works == nil {
		t.Fatal("rep.Ours.Works is nil")
	}
	if !(*rep.Ours.Works) {
		t.Error("our plan must work")
	}
}

func TestBitsRobust(t *testing.T) {
	const n, tau = 8, 0.01
	rep, err := Bits(context.Background(), BitsOptions{Loss: "ce", N: n, Tau: tau})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unit != "phi" {
		t.Errorf("rep.Unit = %v, want %v", rep.Unit, "phi")
	}
	if want := uint(13); rep.Paper.Bits != want {
		t.Errorf("rep.Paper.Bits = %v, want %v", rep.Paper.Bits, want)
	} // ⌈−2·log2 0.01 − 1⌉ = ⌈12.29⌉
	a, err := NewPow2Attack(n, tau)
	if err != nil {
		t.Fatal(err)
	}
	ours, _, err := fpa.MinPhi(fpa.Loss{Sum: fpa.SumOptions{Order: fpa.Pairwise}}, a.Need())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ours.Bits != ours {
		t.Errorf("rep.Ours.Bits = %v, want %v", rep.Ours.Bits, ours)
	}
	obs := rep.Observed.Bits
	if obs == 0 {
		t.Fatalf("no observed P: %s", rep.Observed.Missing)
	}
	// EA Prop 3 asks for fewer bits than work at N = 8 (MATH.md §6).
	if !(rep.Paper.Bits < obs) {
		t.Errorf("rep.Paper.Bits = %v, want < %v", rep.Paper.Bits, obs)
	}
	if rep.Paper.Works == nil {
		t.Fatal("rep.Paper.Works is nil")
	}
	if *rep.Paper.Works {
		t.Error("*rep.Paper.Works is true")
	}
	if rep.Ours.Works == nil {
		t.Fatal("rep.Ours.Works is nil")
	}
	if !(*rep.Ours.Works) {
		t.Error("*rep.Ours.Works is false")
	}
	if !(obs <= rep.Ours.Bits) {
		t.Errorf("the planner's φ is an upper bound: %v > %v", obs, rep.Ours.Bits)
	}
	// At the observed φ, the slow decoder (wide logs per call) decodes
	// every labeling under each noise value, as the cached one did; one φ
	// lower, some labeling or noise value fails (this loop, not Bits's
	// scan, finds it).
	// Under -short, every 32nd labeling at the observed φ (the search for a
	// failure one φ lower stops at the first).
	stride := 1
	if testing.Short() {
		stride = 32
	}
	for _, phi := range []uint{obs, obs - 1} {
		f, err := fpa.FPA(phi)
		if err != nil {
			t.Fatal(err)
		}
		p := a.Predictions(f)
		server := scorer.FloatLoss{Loss: fpa.Loss{Format: f, Sum: fpa.SumOptions{Order: fpa.Pairwise}}}
		dec := a.decoder(p)
		failed := false
		step := stride
		if phi != obs {
			step = 1
		}
		for m := 0; m < 1<<n && !failed; m += step {
			y := make([]int, n)
			for i := range y {
				y[i] = m >> i & 1
			}
			score, _, err := server.Binary(nil, y, p)
			if err != nil {
				failed = true
				continue
			}
			for _, z := range []float64{-tau * (1 - 0x1p-20), 0, tau * (1 - 0x1p-20)} {
				s := fpa.New(f).Add(score, fpa.New(wide).SetFloat64(z))
				var got []int
				var ok bool
				if phi == obs {
					got, ok = a.Decode(p, s) // the slow path
				} else {
					got, ok = dec.decode(s)
				}
				if !ok || !slices.Equal(got, y) {
					failed = true
				}
			}
		}
		if want := phi != obs; failed != want {
			t.Errorf("φ = %d: got %v, want %v", phi, failed, want)
		}
	}
}

func TestBitsNotMeasured(t *testing.T) {
	rep, err := Bits(context.Background(), BitsOptions{Loss: "log-loss", N: 40, Tau: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Observed.Bits != 0 {
		t.Errorf("observed P = %d, want none", rep.Observed.Bits)
	}
	if !strings.Contains(rep.Observed.Missing, "not measured: 2^40 labelings exceed 1024") {
		t.Errorf("%q lacks %q", rep.Observed.Missing, "not measured: 2^40 labelings exceed 1024")
	}
	if rep.Ours.Bits == 0 {
		t.Error("no P of ours")
	}
	if rep.GapOurs != nil {
		t.Errorf("rep.GapOurs = %v, want nil", rep.GapOurs)
	}
	rep, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 7, K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Observed.Missing, "K^N = 3^7 labelings exceed 1024") {
		t.Errorf("%q lacks %q", rep.Observed.Missing, "K^N = 3^7 labelings exceed 1024")
	}
	rep, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Paper.Missing, "N = 1") {
		t.Errorf("%q lacks %q", rep.Paper.Missing, "N = 1")
	}
	if rep.Observed.Bits == 0 {
		t.Errorf("no observed P: %s", rep.Observed.Missing)
	}
	if rep.GapPaper != nil {
		t.Errorf("rep.GapPaper = %v, want nil", rep.GapPaper)
	}
	// Past Pow2Attack's N ≤ 60 our planner has nothing to plan.
	rep, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 61, Tau: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Ours.Missing, "not computed") {
		t.Errorf("%q lacks %q", rep.Ours.Missing, "not computed")
	}
	// ObserveMax lowers the cut-off.
	rep, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 4, ObserveMax: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Observed.Missing, "exceed 8") {
		t.Errorf("%q lacks %q", rep.Observed.Missing, "exceed 8")
	}
}

func TestBitsErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		opt  BitsOptions
		want string
	}{
		{"n=0", BitsOptions{Loss: "ce", N: 0}, "N = 0"},
		{"k=1", BitsOptions{Loss: "ce", N: 3, K: 1}, "K = 1"},
		{"tau<0", BitsOptions{Loss: "ce", N: 3, Tau: -1}, "τ = -1"},
		{"tau NaN", BitsOptions{Loss: "ce", N: 3, Tau: math.NaN()}, "τ = NaN"},
		{"tau Inf", BitsOptions{Loss: "ce", N: 3, Tau: math.Inf(1)}, "τ = +Inf"},
		{"robust k=3", BitsOptions{Loss: "ce", N: 3, K: 3, Tau: 1}, "binary"},
		{"observe<0", BitsOptions{Loss: "ce", N: 3, ObserveMax: -1}, "ObserveMax"},
		{"unknown", BitsOptions{Loss: "hinge", N: 3}, `unsupported loss "hinge" (want one of cross-entropy, sigmoid-ce,`},
		{"mahalanobis", BitsOptions{Loss: "mahalanobis", N: 3, Tau: 1}, "needs a matrix"},
		{"norm-like α", BitsOptions{Loss: "norm-like:x", N: 3, Tau: 1}, "not a number"},
		{"norm-like α < 2", BitsOptions{Loss: "norm-like:1", N: 3, Tau: 1}, "α ≥ 2"},
		{"family τ = 0", BitsOptions{Loss: "itakura-saito", N: 3}, "needs τ > 0"},
		{"family K = 3", BitsOptions{Loss: "sigmoid-ce", N: 3, K: 3, Tau: 1}, "binary"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Bits(context.Background(), tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	_, err := Bits(context.Background(), BitsOptions{Loss: "bregman", N: 3, Tau: 1})
	if !errors.Is(err, ErrUnsupportedLoss) {
		t.Error("errors.Is(err, ErrUnsupportedLoss) is false")
	}
	_, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 0})
	if !errors.Is(err, ErrBitsRequest) {
		t.Error("errors.Is(err, ErrBitsRequest) is false")
	}
	// Not a bad request: no prediction separates 10 labels under this
	// loss and noise (single.NotSeparableError), an answer, not misuse.
	_, err = Bits(context.Background(), BitsOptions{Loss: "squared-euclidean", N: 10, Tau: 0.01})
	var ns *single.NotSeparableError
	if !errors.As(err, &ns) {
		t.Errorf("error %v, want a *single.NotSeparableError", err)
	}
	if errors.Is(err, ErrBitsRequest) {
		t.Error("errors.Is(err, ErrBitsRequest) is true")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Bits(ctx, BitsOptions{Loss: "ce", N: 4})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
}

// familyFails reports whether the family attack misreads some labeling
// (or noise value) from a score rounded once to p bits: the slow twin of
// Bits's family observation, with its own exact terms.
func familyFails(t *testing.T, l *loss.Binary, plan *single.FamilyPlan, p uint) bool {
	t.Helper()
	n, tau := plan.N, plan.Tau
	for m := range 1 << n {
		y := make([]int, n)
		sum := new(big.Float).SetPrec(256)
		for i := range y {
			y[i] = m >> i & 1
			term, err := l.Term(new(big.Float).SetPrec(256), y[i], plan.Theta[i])
			if err != nil {
				t.Fatal(err)
			}
			sum.Add(sum, term)
		}
		for _, z := range []float64{-tau * (1 - 0x1p-20), 0, tau * (1 - 0x1p-20)} {
			score := new(big.Float).SetPrec(256).Quo(sum, big.NewFloat(float64(n)))
			score.Add(score, big.NewFloat(z)).SetPrec(p)
			got, err := plan.Decode(score, math.Ldexp(float64(n), score.MantExp(nil)-int(p)))
			if err != nil || !slices.Equal(got.Labels, y) {
				return true
			}
		}
	}
	return false
}

func TestBitsFamily(t *testing.T) {
	for _, tt := range []struct {
		name string
		n    int
		tau  float64
	}{
		{"itakura-saito", 6, 0.01},
		{"squared-euclidean", 4, 0.01},
		{"sigmoid-ce", 6, 1},
		{"norm-like", 4, 0.01},
	} {
		if testing.Short() {
			tt.n = min(tt.n, 3) // 8 labelings; the slow twin recomputes every term
		}
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Bits(context.Background(), BitsOptions{Loss: tt.name, N: tt.n, Tau: tt.tau})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Unit != "score-bits" {
				t.Errorf("rep.Unit = %v, want %v", rep.Unit, "score-bits")
			}
			phi, err := fpa.Prop3Phi(tt.tau)
			if err != nil {
				t.Fatal(err)
			}
			f, err := fpa.FPA(phi)
			if err != nil {
				t.Fatal(err)
			}
			if want := f.Prec(); rep.Paper.Bits != want {
				t.Errorf("Prop 3's φ = %d as a significand: got %v, want %v", phi, rep.Paper.Bits, want)
			}
			obs := rep.Observed.Bits
			if obs == 0 {
				t.Fatalf("no observed P: %s", rep.Observed.Missing)
			}
			l, err := familyLoss(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := single.PlanFamily(context.Background(), single.FamilyOptions{Loss: l, N: tt.n, Tau: tt.tau})
			if err != nil {
				t.Fatal(err)
			}
			if familyFails(t, l, plan, obs) {
				t.Errorf("P = %d", obs)
			}
			if !familyFails(t, l, plan, obs-1) {
				t.Errorf("P = %d", obs-1)
			}
			if rep.Ours.Works == nil {
				t.Fatal("rep.Ours.Works is nil")
			}
			if !(*rep.Ours.Works) {
				t.Error("*rep.Ours.Works is false")
			}
		})
	}
}
