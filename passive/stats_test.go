package passive

import (
	"math"
	"math/bits"
	"reflect"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"gonum.org/v1/gonum/mathext"
)

func TestBinomialHalfUpper(t *testing.T) {
	// Small n against the definition.
	for n := 0; n <= 12; n++ {
		for k := -1; k <= n+1; k++ {
			var want float64
			for x := 0; x < 1<<n; x++ {
				if popcount(x) >= k {
					want++
				}
			}
			want /= float64(int(1) << n)
			if dev := math.Abs(want - BinomialHalfUpper(k, n)); !(dev <= 1e-15) {
				t.Errorf("n=%d k=%d: got %v, want %v within %v", n, k, BinomialHalfUpper(k, n), want, 1e-15)
			}
		}
	}
	// Large n against the regularized incomplete beta function:
	// P(X ≥ k) = I_{1/2}(k, n−k+1) (an independent formula and code).
	for _, tt := range []struct{ k, n int }{{260, 520}, {270, 520}, {300, 520}, {1400, 2600}, {1500, 2600}} {
		want := mathext.RegIncBeta(float64(tt.k), float64(tt.n-tt.k+1), 0.5)
		if got := BinomialHalfUpper(tt.k, tt.n); !(math.Abs(got-want)/math.Abs(want) <= 1e-9) {
			t.Errorf("k=%d n=%d: got %v, want %v", tt.k, tt.n, got, want)
		}
	}
	// Far in the tail the exact sum stays accurate where float sums fail:
	// P(X ≥ 1000 | 1000) = 2^−1000.
	if got, want := BinomialHalfUpper(1000, 1000), math.Ldexp(1, -1000); got != want {
		t.Errorf("BinomialHalfUpper(1000, 1000) = %v, want %v", got, want)
	}
}

func popcount(x int) int { return bits.OnesCount(uint(x)) }

func TestPoissonBinomialUpper(t *testing.T) {
	rng := testrand.New(t)
	for trial := range 20 {
		n := 1 + trial%12
		q := make([]float64, n)
		for i := range q {
			q[i] = rng.Float64()
		}
		for k := 0; k <= n+1; k++ {
			var want float64 // enumerate all 2ⁿ outcomes
			for x := 0; x < 1<<n; x++ {
				if popcount(x) < k {
					continue
				}
				pr := 1.0
				for i := range n {
					if x>>i&1 == 1 {
						pr *= q[i]
					} else {
						pr *= 1 - q[i]
					}
				}
				want += pr
			}
			if dev := math.Abs(want - PoissonBinomialUpper(q, k)); !(dev <= 1e-12) {
				t.Errorf("n=%d k=%d: got %v, want %v within %v", n, k, PoissonBinomialUpper(q, k), want, 1e-12)
			}
		}
	}
	half := make([]float64, 520)
	for i := range half {
		half[i] = 0.5
	}
	for _, k := range []int{0, 200, 260, 280, 320} {
		if got, want := PoissonBinomialUpper(half, k), BinomialHalfUpper(k, 520); !(math.Abs(got-want)/math.Abs(want) <= 1e-10) {
			t.Errorf("k=%d: got %v, want %v", k, got, want)
		}
	}
}

func TestConfidenceIntervals(t *testing.T) {
	// Closed forms at the edges: k = 0 gives [0, 1 − (α/2)^{1/n}], k = n
	// gives [(α/2)^{1/n}, 1].
	ci := ClopperPearson(0, 10, 0.95)
	if ci[0] != 0.0 {
		t.Errorf("ci[0] = %v, want %v", ci[0], 0.0)
	}
	if dev := math.Abs((1 - math.Pow(0.025, 0.1)) - ci[1]); !(dev <= 1e-12) {
		t.Errorf("got %v, want %v within %v", ci[1], 1-math.Pow(0.025, 0.1), 1e-12)
	}
	ci = ClopperPearson(10, 10, 0.95)
	if dev := math.Abs(math.Pow(0.025, 0.1) - ci[0]); !(dev <= 1e-12) {
		t.Errorf("got %v, want %v within %v", ci[0], math.Pow(0.025, 0.1), 1e-12)
	}
	if ci[1] != 1.0 {
		t.Errorf("ci[1] = %v, want %v", ci[1], 1.0)
	}
	// Wilson, k = 5 of 10: 0.5 ± 1.95996/1.38415·√(0.025 + 0.0096036).
	w := Wilson(5, 10, 0.95)
	if dev := math.Abs(0.236593 - w[0]); !(dev <= 1e-6) {
		t.Errorf("got %v, want %v within %v", w[0], 0.236593, 1e-6)
	}
	if dev := math.Abs(0.763407 - w[1]); !(dev <= 1e-6) {
		t.Errorf("got %v, want %v within %v", w[1], 0.763407, 1e-6)
	}
	if got, want := ClopperPearson(0, 0, 0.95), [2]float64{0, 1}; got != want {
		t.Errorf("ClopperPearson(0, 0, 0.95) = %v, want %v", got, want)
	}

	// Clopper–Pearson is exact: its coverage is ≥ 95% at every p. Compute
	// the coverage exactly by summing the binomial pmf over the k whose
	// interval contains p.
	const n = 60
	ints := make([][2]float64, n+1)
	for k := range ints {
		ints[k] = ClopperPearson(k, n, 0.95)
		if !(ints[k][0] <= float64(k)/n) {
			t.Errorf("ints[k][0] = %v, want <= %v", ints[k][0], float64(k)/n)
		}
		if !(ints[k][1] >= float64(k)/n) {
			t.Errorf("ints[k][1] = %v, want >= %v", ints[k][1], float64(k)/n)
		}
	}
	for _, p := range []float64{0.01, 0.1, 0.3, 0.5, 0.517, 0.8, 0.95} {
		var cover float64
		for k := 0; k <= n; k++ {
			if ints[k][0] <= p && p <= ints[k][1] {
				cover += math.Exp(lchoose(n, k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
			}
		}
		if !(cover >= 0.95-1e-12) {
			t.Errorf("coverage at p=%v", p)
		}
	}
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// TestEvaluateNullCalibration simulates models that memorized nothing
// (outputs independent of the labels) and checks that PCond rejects at
// most about α of the time for every attack, while PHalf rejects the
// delta-margin attack far more often: the bias the conditional test
// removes.
func TestEvaluateNullCalibration(t *testing.T) {
	rng := testrand.New(t)
	const trials, n = 400, 300
	attacks := []Attack{
		{Kind: ThresholdFixed}, {Kind: ThresholdMedian},
		{Kind: DeltaMargin, Alpha: 1, Beta: 1}, {Kind: DeltaMarginSymmetric, Alpha: 1, Beta: 1},
		{Kind: LossInversion},
	}
	for _, keep := range []float64{1, 0.7} {
		cond := make([]int, len(attacks))
		half := make([]int, len(attacks))
		for range trials {
			p := make([]float64, n)
			y, tr := make([]int, n), make([]int, n)
			for i := range n {
				p[i] = math.Pow(rng.Float64(), 2.5) // skewed towards 0, like Census
				y[i] = rng.IntN(2)
				tr[i] = y[i]
				if rng.Float64() >= keep {
					tr[i] = 1 - y[i]
				}
			}
			for a, at := range attacks {
				o, err := Evaluate(at, p, y, tr, keep)
				if err != nil {
					t.Fatal(err)
				}
				cond[a] += b2i(o.PCond < Alpha)
				half[a] += b2i(o.PHalf < Alpha)
			}
		}
		for a, at := range attacks {
			// α·trials = 4; the binomial 99.9% point is 11.
			if !(cond[a] <= 11) {
				t.Errorf("keep=%v %v: PCond rejects %d/%d null models", keep, at, cond[a], trials)
			}
			if !at.ReadsLabels() {
				if cond[a] != half[a] {
					t.Errorf("label-free attacks: the two tests coincide: got %v, want %v", cond[a], half[a])
				}
			}
		}
		if keep == 1 {
			if !(half[2] > trials/4) {
				t.Errorf("PHalf wrongly detects memorization for delta-margin on null models: %v <= %v", half[2], trials/4)
			}
			if half[4] != trials {
				t.Errorf("loss inversion always 'succeeds': got %v, want %v", half[4], trials)
			}
		}
	}
}

func TestEvaluateDetectsMemorization(t *testing.T) {
	rng := testrand.New(t)
	const n = 500
	// A model that memorized 60% of its training labels.
	p := make([]float64, n)
	y := make([]int, n)
	for i := range n {
		y[i] = rng.IntN(2)
		p[i] = 0.2 + 0.6*rng.Float64()
		if rng.Float64() < 0.6 {
			p[i] = 0.05 + 0.9*float64(y[i])
		}
	}
	o, err := Evaluate(Attack{Kind: ThresholdFixed}, p, y, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Detected {
		t.Error("o.Detected is false")
	}
	if !(o.Rate > 0.7) {
		t.Errorf("o.Rate = %v, want > %v", o.Rate, 0.7)
	}
	if !(o.PCond < 1e-10) {
		t.Errorf("o.PCond = %v, want < %v", o.PCond, 1e-10)
	}
	if !(o.CI[0] < o.Rate && o.Rate < o.CI[1]) {
		t.Error("o.CI[0] < o.Rate && o.Rate < o.CI[1] is false")
	}

	// Pooling two halves gives the counts of the whole and the tail of
	// the concatenated null.
	a, err := Evaluate(Attack{Kind: ThresholdFixed}, p[:200], y[:200], y[:200], 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Evaluate(Attack{Kind: ThresholdFixed}, p[200:], y[200:], y[200:], 1)
	if err != nil {
		t.Fatal(err)
	}
	pooled := Pool(a, b)
	if pooled.Successes != o.Successes {
		t.Errorf("pooled.Successes = %v, want %v", pooled.Successes, o.Successes)
	}
	if pooled.N != o.N {
		t.Errorf("pooled.N = %v, want %v", pooled.N, o.N)
	}
	if !(math.Abs(pooled.PCond-o.PCond)/math.Abs(o.PCond) <= 1e-9) {
		t.Errorf("pooled.PCond = %v, want %v", pooled.PCond, o.PCond)
	}
	if got, want := Pool(), (Outcome{}); !reflect.DeepEqual(got, want) {
		t.Errorf("Pool() = %v, want %v", got, want)
	}

	for _, tt := range []struct {
		name string
		run  func() error
	}{
		{"length", func() error { _, err := Evaluate(Attack{}, p, y[:3], y, 1); return err }},
		{"keep", func() error { _, err := Evaluate(Attack{}, p, y, y, 0.3); return err }},
		{"label", func() error { _, err := Evaluate(Attack{}, []float64{0.5}, []int{3}, []int{0}, 1); return err }},
	} {
		if tt.run() == nil {
			t.Errorf("%v: no error", tt.name)
		}
	}
}
