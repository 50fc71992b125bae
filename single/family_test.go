package single

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/loss"
)

func newLoss(t *testing.T, k loss.Kind, alpha float64, a [4]float64) *loss.Binary {
	t.Helper()
	l, err := loss.NewBinary(k, alpha, a)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// familyScore is N·ℓ of labels at θ, exactly (big.Float at prec bits), plus
// noise uniform in [−Nτ, Nτ], divided by N: the observed score.
func familyScore(t *testing.T, p *FamilyPlan, labels []int, noise float64) *big.Float {
	s := new(big.Float).SetPrec(p.Prec() + 64)
	for i, y := range labels {
		term, err := p.Loss.Term(new(big.Float).SetPrec(p.Prec()+64), y, p.Theta[i])
		if err != nil {
			t.Fatal(err)
		}
		s.Add(s, term)
	}
	s.Add(s, new(big.Float).SetFloat64(noise*float64(len(labels))))
	return s.Quo(s, new(big.Float).SetInt64(int64(len(labels))))
}

// TestFamilyAttack recovers labels from one noisy score for every loss of
// the family [EA, Appendix F], with the noise at its bound.
func TestFamilyAttack(t *testing.T) {
	rng := testrand.New(t)
	trials := 4
	if testing.Short() {
		trials = 2 // the noise at its bound, and one random
	}
	for _, tt := range []struct {
		l   *loss.Binary
		n   int
		tau float64
		cg  bool // Conway–Guy weights expected (bounded loss)
	}{
		{newLoss(t, loss.CE, 0, [4]float64{}), 12, 0.1, false},
		{newLoss(t, loss.SigmoidCE, 0, [4]float64{}), 16, 1, false}, // at scale, logits go through PlanRobust
		{newLoss(t, loss.IS, 0, [4]float64{}), 40, 1, false},        // θ ≈ 1/(W·2^i): singly exponential
		{newLoss(t, loss.SE, 0, [4]float64{}), 16, 1e-7, false},
		{newLoss(t, loss.NL, 3, [4]float64{}), 16, 1e-7, false},
		{newLoss(t, loss.Mahalanobis, 0, [4]float64{2, 0.5, 0.5, 1}), 16, 1e-7, false},
		{newLoss(t, loss.SE, 0, [4]float64{}), 20, 6e-8, true}, // powers of two overflow sup|d| = 1; Conway–Guy fits
	} {
		if testing.Short() && tt.l.Kind == loss.NL {
			tt.n = 10 // its d goes through exp and log at each root: the full run takes 16
		}
		if testing.Short() && tt.l.Kind == loss.IS {
			tt.n = 20 // TestFamilyRootAccuracy plans Itakura–Saito at N = 55 under -short too
		}
		t.Run(fmt.Sprintf("%v/n=%d/tau=%g", tt.l, tt.n, tt.tau), func(t *testing.T) {
			p, err := PlanFamily(context.Background(), FamilyOptions{Loss: tt.l, N: tt.n, Tau: tt.tau})
			if err != nil {
				t.Fatal(err)
			}
			if p.ConwayGuy != tt.cg {
				t.Errorf("p.ConwayGuy = %v, want %v", p.ConwayGuy, tt.cg)
			}
			if familySeparation(p) <= 2*tt.tau {
				t.Errorf("Λ > 2τ: familySeparation(p) = %v, want > 2*tt.tau = %v", familySeparation(p), 2*tt.tau)
			}
			if familySeparation(p) >= 2*tt.tau*1.2 {
				t.Errorf("Λ ≈ 2τ(1+δ): familySeparation(p) = %v, want < 2*tt.tau*1.2 = %v", familySeparation(p), 2*tt.tau*1.2)
			}
			for trial := range trials {
				labels := make([]int, tt.n)
				for i := range labels {
					labels[i] = rng.IntN(2)
				}
				noise := tt.tau * (2*rng.Float64() - 1)
				if trial == 0 {
					noise = tt.tau * (1 - 1e-9)
				}
				got, err := p.Decode(familyScore(t, p, labels, noise), 0)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.Labels, labels) {
					t.Errorf("got.Labels = %v, want %v", got.Labels, labels)
				}
				if !got.Verified {
					t.Error("got.Verified is false")
				}
			}
		})
	}
}

// TestFamilyThroughFPA scores with every term and the sum computed in
// binary64, as a float64 server would: Itakura–Saito with 20 labels at
// τ = 1e−3 survives the server's rounding (counted in the error bound).
func TestFamilyThroughFPA(t *testing.T) {
	rng := testrand.New(t)
	l := newLoss(t, loss.IS, 0, [4]float64{})
	const n, tau = 20, 1e-3
	p, err := PlanFamily(context.Background(), FamilyOptions{Loss: l, N: n, Tau: tau})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		labels := make([]int, n)
		for i := range labels {
			labels[i] = rng.IntN(2)
		}
		sum := fpa.New(fpa.Binary64)
		var mag float64
		for i, y := range labels {
			x, _ := p.Theta[i].Float64()
			term, err := l.TermFPA(fpa.Binary64, y, x)
			if err != nil {
				t.Fatal(err)
			}
			sum.Add(sum, term)
			f, _ := term.Float64()
			mag += math.Abs(f)
		}
		s, _ := sum.Float64()
		score := new(big.Float).SetFloat64(s/n + tau*(2*rng.Float64()-1))
		// Recursive summation: |error| ≤ γ_(n−1)·Σ|terms| plus a few ulps
		// per term from the terms themselves and the rounded θ.
		serverErr := (float64(n)*0x1p-52 + 1e-12) * mag
		got, err := p.Decode(score, serverErr)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Labels, labels) {
			t.Errorf("got.Labels = %v, want %v", got.Labels, labels)
		}
	}
}

func TestFamilyNegativeResults(t *testing.T) {
	se := newLoss(t, loss.SE, 0, [4]float64{})
	// EA Thm 13 / ICML Thm 5–6: a bounded weight cannot separate many
	// labels under large noise.
	_, err := PlanFamily(context.Background(), FamilyOptions{Loss: se, N: 20, Tau: 0.01})
	var ns *NotSeparableError
	if !errors.As(err, &ns) {
		t.Fatalf("%v: errors.As(err, &ns) is false", err)
	}
	if !strings.Contains(err.Error(), "not τ-separable") {
		t.Errorf("err.Error() = %q, want it to contain %q", err.Error(), "not τ-separable")
	}
	if ns.Sup != 1.0 {
		t.Errorf("ns.Sup = %v, want %v", ns.Sup, 1.0)
	}
	mh := newLoss(t, loss.Mahalanobis, 0, [4]float64{2, 0.5, 0.5, 1})
	// EA Thm 8 claims τ < α/N suffices (α = 2, N = 10: τ < 0.2); the
	// bound says τ = 0.01 is already impossible.
	_, err = PlanFamily(context.Background(), FamilyOptions{Loss: mh, N: 10, Tau: 0.01})
	if !errors.As(err, &ns) {
		t.Fatalf("%v: errors.As(err, &ns) is false", err)
	}
	// Between the lower bound and what our sets reach, no claim is made.
	_, err = PlanFamily(context.Background(), FamilyOptions{Loss: se, N: 30, Tau: 1e-10})
	if err == nil {
		t.Fatal("err is nil, want an error")
	}
	if errors.As(err, &ns) {
		t.Error("errors.As(err, &ns) is true")
	}
	if !strings.Contains(err.Error(), "no construction found") {
		t.Errorf("err.Error() = %q, want it to contain %q", err.Error(), "no construction found")
	}

	for _, bad := range []struct {
		n   int
		tau float64
	}{{0, 1}, {5000, 1}, {5, 0}, {5, math.Inf(1)}} {
		_, err := PlanFamily(context.Background(), FamilyOptions{Loss: se, N: bad.n, Tau: bad.tau})
		if err == nil {
			t.Error("err is nil, want an error")
		}
	}
}

// TestSeparationDiscreteLp checks [EA, Theorem 11]: with predictions in
// {0,1}^N, ‖θ − σ‖_p is never separable (two labelings one flip away from
// θ tie), for every θ and several p; and the robust plan's Λ from
// exhaustion agrees with familySeparation.
func TestSeparationDiscreteLp(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 4
	}
	for _, p := range []float64{0.5, 1, 2, 3} {
		for th := range 1 << n {
			lam, err := separation(n, func(sigma []int) float64 {
				var s float64
				for i, y := range sigma {
					s += math.Pow(math.Abs(float64(th>>i&1-y)), p)
				}
				return math.Pow(s, 1/p)
			})
			if err != nil {
				t.Fatal(err)
			}
			if lam != 0 {
				t.Errorf("p=%g θ=%b: lam = %v, want 0", p, th, lam)
			}
		}
	}
	const ln = 10
	l := newLoss(t, loss.IS, 0, [4]float64{})
	plan, err := PlanFamily(context.Background(), FamilyOptions{Loss: l, N: ln, Tau: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	// Each point's two terms, computed once for the 2^10 labelings.
	var terms [ln][2]*big.Float
	for i := range terms {
		for y := range 2 {
			terms[i][y], err = l.Term(new(big.Float).SetPrec(200), y, plan.Theta[i])
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	lam, err := separation(ln, func(sigma []int) float64 {
		s := new(big.Float).SetPrec(200)
		for i, y := range sigma {
			s.Add(s, terms[i][y])
		}
		f, _ := s.Float64()
		return f / float64(ln)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !(math.Abs(lam-familySeparation(plan)) <= 1e-9*math.Abs(familySeparation(plan))) {
		t.Errorf("lam = %v, want %v within a relative 1e-9", lam, familySeparation(plan))
	}
	if lam <= 0.02 {
		t.Errorf("lam = %v, want > 0.02", lam)
	}
	_, err = separation(0, nil)
	if err == nil {
		t.Error("err is nil, want an error")
	}
}

// familyServer holds labels and answers θ with the exact loss of the
// family plus a fixed noise (in [−τ, τ]).
type familyServer struct {
	t      *testing.T
	l      *loss.Binary
	labels []int
	noise  float64
}

func (s *familyServer) N() int { return len(s.labels) }
func (s *familyServer) K() int { return 2 }

func (s *familyServer) Score(ctx context.Context, theta []*big.Float) (*big.Float, error) {
	p := &FamilyPlan{Loss: s.l, Theta: theta, prec: 256}
	return familyScore(s.t, p, s.labels, s.noise), nil
}

// TestAttackFamily runs the one-call form against a server holding the
// labels: one query, every label known.
func TestAttackFamily(t *testing.T) {
	rng := testrand.New(t)
	l := newLoss(t, loss.CE, 0, [4]float64{})
	const n, tau = 12, 0.1
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(2)
	}
	s := &familyServer{t: t, l: l, labels: labels, noise: tau * 0.5}
	res, err := AttackFamily(context.Background(), s, FamilyOptions{Loss: l, N: n, Tau: tau})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Labels, labels) {
		t.Errorf("res.Labels = %v, want %v", res.Labels, labels)
	}
	if res.Queries != 1 {
		t.Errorf("res.Queries = %v, want %v", res.Queries, 1)
	}
	if !res.Verified {
		t.Error("res.Verified is false")
	}
	_, err = AttackFamily(context.Background(), s, FamilyOptions{Loss: l, N: n + 1, Tau: tau})
	if err == nil {
		t.Error("N mismatch accepted: err is nil, want an error")
	}
}
