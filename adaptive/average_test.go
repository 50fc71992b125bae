package adaptive_test

import (
	"context"
	"math"
	"testing"

	"github.com/labelinf/labelinf/adaptive"
	"github.com/labelinf/labelinf/defence"
)

// TestAverage: m repeats of one prediction average fresh noise down to
// σ/√m; keyed noise gives m equal answers and nothing to average.
func TestAverage(t *testing.T) {
	const n, m, sigma = 100, 400, 0.02
	y := labels(12, n, 0.5)
	pred := make([]float64, n)
	for i := range pred {
		pred[i] = 0.5
	}
	truth := math.Ln2 // every row predicts 1/2
	secret := []byte("a secret the host keeps, 32 byte")
	for _, key := range []defence.NoiseKey{defence.Fresh, defence.KeyedPrediction} {
		t.Run(key.String(), func(t *testing.T) {
			z, err := defence.NewNoise(defence.NoiseOptions{Kind: defence.Gaussian, Scale: sigma, Key: key, Secret: secret})
			if err != nil {
				t.Fatal(err)
			}
			b := board(t, defence.LogLoss{Eps: 1e-3}, y, z)
			res, err := adaptive.Average(context.Background(), b, pred, m)
			if err != nil {
				t.Fatal(err)
			}
			if res.Submissions != m {
				t.Errorf("res.Submissions = %v, want %v", res.Submissions, m)
			}
			if key == defence.Fresh {
				if res.Distinct != m {
					t.Errorf("res.Distinct = %v, want %v", res.Distinct, m)
				}
				// |mean − truth| < 5σ/√m = 0.005; sd within 20% of σ (se(sd) ≈ σ/√(2m) = 3.5%).
				if d := math.Abs(truth - res.Mean); !(d <= 5*sigma/math.Sqrt(m)) {
					t.Errorf("got %v, want %v within %v", res.Mean, truth, 5*sigma/math.Sqrt(m))
				}
				if d := math.Abs(sigma - res.SD); !(d <= 0.2*sigma) {
					t.Errorf("got %v, want %v within %v", res.SD, sigma, 0.2*sigma)
				}
			} else {
				if res.Distinct != 1 {
					t.Errorf("keyed noise repeats: got %v, want %v", res.Distinct, 1)
				}
				if res.SD != 0.0 {
					t.Errorf("res.SD = %v, want %v", res.SD, 0.0)
				}
			}
		})
	}
	_, err := adaptive.Average(context.Background(), nil, pred, 0)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

// TestAverageLabels: with N = 50 and Gaussian σ = 0.2 a single answer
// decides a label with error Φ(−gap/2σ) ≈ 0.37 (gap = ln(999)/50); m =
// RepeatsFor(σ, gap, 10⁻³) answers averaged bring it to ≤ 10⁻³ against
// fresh noise. Keyed noise holds the error at ≈ 0.37 for exact repeats;
// perturbed repeats (one other row moved by a few ulps) get fresh draws
// again and the attack succeeds.
func TestAverageLabels(t *testing.T) {
	const n, sigma, eps = 50, 0.2, 1e-3
	gap := math.Log((1-eps)/eps) / n
	m, err := adaptive.RepeatsFor(sigma, gap, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if m != 116 {
		t.Fatalf("⌈8σ²·ln(1000)/gap²⌉: got %v, want %v", m, 116)
	}
	y := labels(13, n, 0.5)
	secret := []byte("a secret the host keeps, 32 byte")
	wrong := func(key defence.NoiseKey, perturb bool) (int, *adaptive.AverageLabelsResult) {
		z, err := defence.NewNoise(defence.NoiseOptions{Kind: defence.Gaussian, Scale: sigma, Key: key, Secret: secret})
		if err != nil {
			t.Fatal(err)
		}
		b := board(t, defence.LogLoss{Eps: eps}, y, z)
		res, err := adaptive.AverageLabels(context.Background(), b, adaptive.AverageOptions{N: n, Eps: eps, Repeats: m, Perturb: perturb})
		if err != nil {
			t.Fatal(err)
		}
		if want := n * m; res.Submissions != want {
			t.Fatalf("res.Submissions = %v, want %v", res.Submissions, want)
		}
		if res.Known != n {
			t.Fatalf("res.Known = %v, want %v", res.Known, n)
		}
		w := 0
		for i, v := range y {
			if int8(v) != res.Labels[i] {
				w++
			}
		}
		return w, res
	}
	// Fresh: expected errors 50·10⁻³; P(≥ 2) < 0.002.
	w, res := wrong(defence.Fresh, false)
	if !(w <= 1) {
		t.Errorf("fresh noise averaged away: %v > %v", w, 1)
	}
	if res.Repeated != 0 {
		t.Errorf("res.Repeated = %v, want %v", res.Repeated, 0)
	}
	// Keyed, exact repeats: each label decided by one draw, error ≈ 0.37;
	// P(fewer than 6 wrong of 50) < 10⁻⁶.
	w, res = wrong(defence.KeyedPrediction, false)
	if !(w >= 6) {
		t.Errorf("keyed noise is not averaged: %v < %v", w, 6)
	}
	if res.Repeated != n {
		t.Errorf("every label's answers were equal: got %v, want %v", res.Repeated, n)
	}
	// Keyed on the prediction or on the losses, perturbed repeats: fresh
	// draws again.
	for _, key := range []defence.NoiseKey{defence.KeyedPrediction, defence.KeyedLosses} {
		w, _ = wrong(key, true)
		if !(w <= 1) {
			t.Errorf("%v noise with perturbed repeats", key)
		}
	}

	_, err = adaptive.RepeatsFor(math.NaN(), 1, 0.1)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = adaptive.AverageLabels(context.Background(), nil, adaptive.AverageOptions{N: 1, Eps: eps, Repeats: 1})
	if err == nil {
		t.Error("want an error, got nil")
	}
}
