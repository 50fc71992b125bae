package passive

import (
	"math"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

func TestKeepProb(t *testing.T) {
	for _, tt := range []struct {
		eps, want float64
	}{
		{math.Inf(1), 1},
		{0, 0.5},
		{math.Log(3), 0.75}, // e^ε = 3
		{1, math.E / (1 + math.E)},
		{800, 1}, // e^800 overflows; 1/(1+e^−800) does not
	} {
		got, err := KeepProb(tt.eps)
		if err != nil {
			t.Fatal(err)
		}
		if dev := math.Abs(tt.want - got); !(dev <= 1e-15) {
			t.Errorf("KeepProb(%v): got %v, want %v within %v", tt.eps, got, tt.want, 1e-15)
		}
	}
	for _, eps := range []float64{-1, math.NaN(), math.Inf(-1)} {
		_, err := KeepProb(eps)
		if err == nil {
			t.Errorf("KeepProb(%v): no error", eps)
		}
	}
}

func TestCanaries(t *testing.T) {
	rng := testrand.New(t)
	c, err := Canaries(26048, 0.02, rng)
	if err != nil {
		t.Fatal(err)
	}
	if len(c) != 520 {
		t.Errorf("len %d, want %d", len(c), 520)
	} // [BLIA, Table 1]
	if !slices.IsSorted(c) {
		t.Error("slices.IsSorted(c) is false")
	}
	if got, want := len(slices.Compact(slices.Clone(c))), len(c); got != want {
		t.Errorf("distinct: got %v, want %v", got, want)
	}
	if !(c[0] >= 0 && c[len(c)-1] < 26048) {
		t.Error("c[0] >= 0 && c[len(c)-1] < 26048 is false")
	}
	// Every row is chosen with probability frac: over many draws the
	// counts of rows 0..9 are Bin(trials, ½).
	const trials = 4000
	var hits [10]int
	for range trials {
		c, err := Canaries(10, 0.5, rng)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range c {
			hits[i]++
		}
	}
	for i, h := range hits {
		// 5σ of Bin(4000, ½) is 158.
		if dev := h - trials/2; dev < -158 || dev > 158 {
			t.Errorf("row %d chosen %d times, want %d within 158", i, h, trials/2)
		}
	}
	for _, tt := range []struct {
		n    int
		frac float64
	}{{100, 0}, {100, 1}, {100, math.NaN()}, {10, 0.05}} {
		_, err := Canaries(tt.n, tt.frac, rng)
		if err == nil {
			t.Errorf("Canaries(%d, %v): no error", tt.n, tt.frac)
		}
	}
}

func TestFlipAndRandomizedResponse(t *testing.T) {
	rng := testrand.New(t)
	const n = 200000
	// All-ones labels: flipping every canary with probability ½ makes them
	// fair coins whatever they were.
	labels := make([]int, n)
	idx := make([]int, n)
	for i := range labels {
		labels[i], idx[i] = 1, i
	}
	FlipCanaries(labels, idx, rng)
	ones := 0
	for _, y := range labels {
		ones += y
	}
	sigma := math.Sqrt(n * 0.25)
	if dev := math.Abs(n/2 - float64(ones)); !(dev <= 5*sigma) {
		t.Errorf("got %v, want %v within %v", ones, n/2, 5*sigma)
	}

	u := RRUniforms(n, rng)
	var prev []int
	for _, eps := range []float64{math.Inf(1), 4, 1, 0.3, 0} {
		keep, err := KeepProb(eps)
		if err != nil {
			t.Fatal(err)
		}
		out, flipped := RandomizedResponse(make([]int, n), labels, keep, u)
		want := (1 - keep) * n
		if dev := math.Abs(want - float64(flipped)); !(dev <= 5*math.Sqrt(n*keep*(1-keep))+0.5) {
			t.Errorf("ε=%v: got %v, want %v within %v", eps, flipped, want, 5*math.Sqrt(n*keep*(1-keep))+0.5)
		}
		changed := 0
		for i := range out {
			if out[i] != labels[i] {
				changed++
			}
			// Coupling: a label flipped at a larger ε stays flipped.
			if prev != nil && prev[i] != labels[i] {
				if labels[i] == out[i] {
					t.Fatalf("ε=%v row %d: both %v", eps, i, labels[i])
				}
			}
		}
		if changed != flipped {
			t.Errorf("changed = %v, want %v", changed, flipped)
		}
		prev = out
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("RandomizedResponse with mismatched lengths did not panic")
			}
		}()
		RandomizedResponse(make([]int, 2), labels, 1, u)
	}()
}
