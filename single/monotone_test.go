package single

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestMonotoneTheorem12 checks [EA, Theorem 12] on cross-entropy at fixed
// predictions θ_i < ½ (every weight d_i = ln((1−θ_i)/θ_i) > 0, so the
// mean loss grows as labels turn to 1): the exhaustive bound equals the
// closed form min d_i/(2n), the separation Λ never exceeds twice it (the
// theorem's content: τ above it is hopeless), and a mixed-sign prediction
// is not monotone.
func TestMonotoneTheorem12(t *testing.T) {
	theta := []float64{0.4, 0.3, 0.45, 0.1, 0.2, 0.35}
	n := len(theta)
	ce := func(th []float64) func([]int) float64 {
		return func(sigma []int) float64 {
			var s float64
			for i, y := range sigma {
				if y == 1 {
					s -= math.Log(th[i])
				} else {
					s -= math.Log(1 - th[i])
				}
			}
			return s / float64(n)
		}
	}
	bound, set, j, ok, err := monotoneBound(n, ce(theta))
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatal("ok is false")
	}
	d := make([]float64, n)
	for i, th := range theta {
		d[i] = math.Log((1 - th) / th)
	}
	cb, cj, cok := AdditiveMonotoneBound(d, n)
	if !cok {
		t.Fatal("cok is false")
	}
	if !(math.Abs(bound-cb) <= 1e-9*math.Abs(cb)) {
		t.Errorf("bound = %v, want %v within a relative 1e-9", bound, cb)
	}
	if j != 2 {
		t.Errorf("θ = 0.45 has the smallest weight: j = %v, want %v", j, 2)
	}
	if j != cj {
		t.Errorf("j = %v, want %v", j, cj)
	}
	if slices.Contains(set, j) {
		t.Errorf("set %v contains j = %v", set, j)
	}
	lam, err := separation(n, ce(theta))
	if err != nil {
		t.Fatal(err)
	}
	if lam > 2*bound*(1+1e-12) {
		t.Errorf("Λ ≤ 2·bound: two labelings one flip apart: lam = %v, want <= 2*bound*(1+1e-12) = %v", lam, 2*bound*(1+1e-12))
	}

	// Mixed signs: θ_3 > ½ makes its weight negative; no claim.
	mixed := append([]float64(nil), theta...)
	mixed[3] = 0.9
	_, _, _, ok, err = monotoneBound(n, ce(mixed))
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Error("ok is true")
	}
	d[3] = -1
	_, _, ok = AdditiveMonotoneBound(d, n)
	if ok {
		t.Error("ok is true")
	}

	// The mirror image (all θ > ½) is monotone non-increasing.
	hi := make([]float64, n)
	for i, th := range theta {
		hi[i] = 1 - th
	}
	b2, _, _, ok, err := monotoneBound(n, ce(hi))
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Error("ok is false")
	}
	if !(math.Abs(b2-bound) <= 1e-9*math.Abs(bound)) {
		t.Errorf("b2 = %v, want %v within a relative 1e-9", b2, bound)
	}

	_, _, _, _, err = monotoneBound(0, nil)
	if err == nil {
		t.Error("err is nil, want an error")
	}
	_, _, _, _, err = monotoneBound(2, func([]int) float64 { return math.NaN() })
	if err == nil {
		t.Error("err is nil, want an error")
	}
	var me *MonotoneError
	if errors.As(err, &me) {
		t.Error("errors.As(err, &me) is true")
	}
	msg := (&MonotoneError{N: 6, Tau: 1, Bound: 0.5, J: 2}).Error()
	if !strings.Contains(msg, "EA Thm 12") {
		t.Errorf("msg = %q, want it to contain %q", msg, "EA Thm 12")
	}
}
