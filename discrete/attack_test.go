package discrete_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

func labelsOf(seed uint64, n, k int) []int {
	r := rand.New(rand.NewPCG(seed, 29))
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(k)
	}
	return y
}

func sim(t testing.TB, name string, y []int, k, decimals int) *discrete.Sim {
	m, err := metric.Parse(name, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := discrete.NewSim(m, y, k, decimals)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// What wantRecovered requires beyond the labels, verified.
const (
	verified          = iota
	checked           // and checked (Options.Check)
	checkedDecisively // and the check decisive
)

// wantRecovered fails t unless res holds the labels y, verified, and as
// checked as want says.
func wantRecovered(t testing.TB, res *decode.Result, y []int, want int) {
	t.Helper()
	if !slices.Equal(res.Labels, y) {
		t.Errorf("res.Labels = %v, want %v", res.Labels, y)
	}
	if !res.Verified {
		t.Error("res.Verified is false")
	}
	if want >= checked && !res.Checked {
		t.Error("res.Checked is false")
	}
	if want >= checkedDecisively && !res.CheckDecisive {
		t.Error("res.CheckDecisive is false")
	}
}

// TestAttacks: every strategy of every metric recovers all 1,000 labels,
// verified and checked, against the served metric's exact arithmetic.
func TestAttacks(t *testing.T) {
	const n = 1000
	for _, tc := range []struct {
		metric   discrete.Metric
		k        int
		decimals int
		st       discrete.Strategy
		maxQ     int
	}{
		{discrete.Accuracy, 2, 5, discrete.Flip, n + 1},
		{discrete.Accuracy, 2, 5, discrete.Group, 330},
		{discrete.AUC, 2, 5, discrete.Flip, n + 1},
		{discrete.AUC, 2, 5, discrete.Group, 330},
		{discrete.AUC, 2, 3, discrete.Group, 330}, // a label of S moves AUC by ≥ 2/N
		{discrete.Brier, 2, 5, discrete.Flip, n + 1},
		{discrete.Brier, 2, 5, discrete.Group, 330},
		{discrete.Brier, 2, 5, discrete.Family, 200},
		{discrete.Brier, 2, -1, discrete.Family, 60},
		{discrete.Accuracy, 3, 5, discrete.Flip, n + 2},
		{discrete.Accuracy, 3, 5, discrete.Group, 630},
		{discrete.Brier, 3, 5, discrete.Group, 630},
		{discrete.Accuracy, 5, 5, discrete.Group, 1260},
		{discrete.Brier, 3, 5, discrete.Flip, n + 2},
		{discrete.Accuracy, 5, 5, discrete.Flip, 2*n + 100},
	} {
		name := tc.metric.String() + "/" + tc.st.String()
		t.Run(name, func(t *testing.T) {
			y := labelsOf(uint64(tc.k*10+int(tc.metric)), n, tc.k)
			s := sim(t, tc.metric.String(), y, tc.k, tc.decimals)
			res, err := discrete.Attack(context.Background(), s, discrete.Options{Metric: tc.metric, N: n, K: tc.k, Decimals: tc.decimals, Strategy: tc.st, Check: true})
			if err != nil {
				t.Fatal(err)
			}
			wantRecovered(t, res, y, checkedDecisively)
			if !(res.Queries <= tc.maxQ) {
				t.Errorf("res.Queries = %v, want <= %v", res.Queries, tc.maxQ)
			}
			if want := s.Queries(); res.Queries != want {
				t.Errorf("res.Queries = %v, want %v", res.Queries, want)
			}
			t.Logf("%s K=%d d=%d: %d queries", name, tc.k, tc.decimals, res.Queries)
		})
	}
}

// TestPlan: Plan counts what Attack sends.
func TestPlan(t *testing.T) {
	const n = 700
	for _, k := range []int{2, 3} {
		for _, m := range []discrete.Metric{discrete.Accuracy, discrete.AUC, discrete.Brier} {
			for _, st := range discrete.Strategies(m, k) {
				y := labelsOf(9, n, k)
				dec := 5
				if st == discrete.Rank {
					dec = -1 // rank reads an unrounded AUC
				}
				o := discrete.Options{Metric: m, N: n, K: k, Decimals: dec, Strategy: st, Check: true}
				want, err := discrete.Plan(o)
				if err != nil {
					t.Fatal(err)
				}
				res, err := discrete.Attack(context.Background(), sim(t, m.String(), y, k, dec), o)
				if err != nil {
					t.Fatal(err)
				}
				if st == discrete.Edge || st == discrete.Swap || k > 2 && st == discrete.Flip {
					if !(res.Queries <= want) {
						t.Errorf("%v K=%d %v: a bound", m, k, st)
					}
					continue
				}
				if res.Queries != want {
					t.Errorf("%v K=%d %v: got %v, want %v", m, k, st, res.Queries, want)
				}
			}
		}
	}
}

// TestEdge: rounding coarser than one label (1, 2 and 3 decimals on
// 1,000 rows) does not stop the threshold-crossing attack: every label,
// verified and checked, in about N + the walk's queries.
func TestEdge(t *testing.T) {
	const n = 1000
	for _, tc := range []struct {
		metric discrete.Metric
		k, dec int
	}{
		{discrete.Accuracy, 2, 2}, {discrete.Accuracy, 2, 3},
		{discrete.Brier, 2, 2}, {discrete.Accuracy, 3, 2}, {discrete.Brier, 3, 2}, {discrete.Accuracy, 5, 2},
		{discrete.Accuracy, 2, 5}, // fine rounding: edge works too
	} {
		t.Run(fmt.Sprintf("%v/k=%d/dec=%d", tc.metric, tc.k, tc.dec), func(t *testing.T) {
			y := labelsOf(uint64(tc.dec*10+tc.k), n, tc.k)
			o := discrete.Options{Metric: tc.metric, N: n, K: tc.k, Decimals: tc.dec, Check: true}
			if tc.dec < 3 {
				if got := discrete.Choose(o); got != discrete.Edge {
					t.Fatalf("discrete.Choose(o) = %v, want %v", got, discrete.Edge)
				}
			}
			o.Strategy = discrete.Edge
			res, err := discrete.Attack(context.Background(), sim(t, tc.metric.String(), y, tc.k, tc.dec), o)
			if err != nil {
				t.Fatal(err)
			}
			wantRecovered(t, res, y, checkedDecisively)
			plan, err := discrete.Plan(o)
			if err != nil {
				t.Fatal(err)
			}
			if !(res.Queries <= plan) {
				t.Errorf("res.Queries = %v, want <= %v", res.Queries, plan)
			}
			t.Logf("%v K=%d dec=%d: %d queries (decisive check %v)", tc.metric, tc.k, tc.dec, res.Queries, res.CheckDecisive)
		})
	}
	// 1 decimal on 1,000 balanced rows: a bucket of 100 counts, which a
	// walk of ±1 steps does not leave: the attack stops, nothing claimed.
	y := labelsOf(1, n, 2)
	res, err := discrete.Attack(context.Background(), sim(t, "accuracy", y, 2, 1), discrete.Options{Metric: discrete.Accuracy, N: n, Decimals: 1, Strategy: discrete.Edge})
	var ae *discrete.AmbiguousError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v, want a %T", err, ae)
	}
	for _, k := range res.Known {
		if k {
			t.Fatal("k is true")
		}
	}
}

// TestFloor: the information bound on small cases, by hand.
func TestFloor(t *testing.T) {
	// 4 rows, 2 of each class: C(4, 2) = 6 labelings, log₂ 6 bits.
	if d := math.Abs(math.Log2(6) - discrete.LabelBits([]int{0, 1, 1, 0}, 2)); !(d <= 1e-12) {
		t.Errorf("got %v, want %v within %v", discrete.LabelBits([]int{0, 1, 1, 0}, 2), math.Log2(6), 1e-12)
	}
	// 1,000 rows of accuracy: 1,001 values, log₂ 1001 ≈ 9.97 bits a score.
	f, err := discrete.Floor(1000, discrete.Values(discrete.Accuracy, 1000, 2, 5))
	if err != nil {
		t.Fatal(err)
	}
	if f != 101 {
		t.Errorf("f = %v, want %v", f, 101)
	}
	// 2 decimals: 101 values.
	f, err = discrete.Floor(1000, discrete.Values(discrete.Accuracy, 1000, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	if f != 151 {
		t.Errorf("f = %v, want %v", f, 151)
	}
	_, err = discrete.Floor(math.NaN(), 10)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = discrete.Floor(10, 1)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

// TestNoiseRepeats: against fresh Gaussian noise the means of repeated
// submissions decode: every label, verified (accuracy; ROC AUC, whose
// subset queries move it by at least 2/N a label).
func TestNoiseRepeats(t *testing.T) {
	for _, tc := range []struct {
		m     discrete.Metric
		sigma float64
	}{{discrete.Accuracy, 0.0005}, {discrete.AUC, 0.002}} {
		t.Run(tc.m.String(), func(t *testing.T) { testNoiseRepeats(t, tc.m, tc.sigma) })
	}
}

func testNoiseRepeats(t *testing.T, m discrete.Metric, sigma float64) {
	const n = 300
	y := labelsOf(5, n, 2)
	z := scorer.Noise{Kind: scorer.Gaussian, Tau: sigma, Delta: 1e-6}
	o := discrete.Options{Metric: m, N: n, Decimals: 5, Strategy: discrete.Group, Check: true}
	reps, tau, err := discrete.NoiseRepeats(o, z)
	if err != nil {
		t.Fatal(err)
	}
	o.Repeats, o.Tau = reps, tau
	srv, err := oracle.NewNoisy(sim(t, m.String(), y, 2, 5), z, 7)
	if err != nil {
		t.Fatal(err)
	}
	res, err := discrete.Attack(context.Background(), srv, o)
	if err != nil {
		t.Fatal(err)
	}
	wantRecovered(t, res, y, verified)
	plan, err := discrete.Plan(o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Queries != plan {
		t.Errorf("res.Queries = %v, want %v", res.Queries, plan)
	}
	t.Logf("σ = %g, N = %d: %d repeats, τ = %.3g, %d queries", z.Tau, n, reps, tau, res.Queries)
	// The same noise, ignored: no labeling explains the scores.
	o.Repeats, o.Tau = 1, 0
	res, err = discrete.Attack(context.Background(), srv, o)
	if err == nil {
		t.Fatal("want an error, got nil")
	}
	// A budget stops it with what it read.
	o.Repeats, o.Tau, o.MaxQueries = reps, tau, plan/2
	res, err = discrete.Attack(context.Background(), srv, o)
	if !errors.Is(err, discrete.ErrBudget) {
		t.Fatalf("error %v, want %v", err, discrete.ErrBudget)
	}
	known := 0
	for i, k := range res.Known {
		if k {
			known++
			if res.Labels[i] != y[i] {
				t.Errorf("res.Labels[i] = %v, want %v", res.Labels[i], y[i])
			}
		}
	}
	if m == discrete.Accuracy {
		// (AUC's baseline leaves T to several candidates under noise:
		// its subset sums are decoded together at the end.)
		if !(known > 0) {
			t.Errorf("known = %v, want > %v", known, 0)
		}
	}
	t.Logf("budget %d: %d labels known", plan/2, known)
}

// TestValuesOf: given the class counts, the AUC takes at most 2n₀n₁ + 1
// values, fewer than N²/2 + 1 for unbalanced classes, and never more
// than the rounding leaves; the floor rises accordingly.
func TestValuesOf(t *testing.T) {
	y := make([]int, 1000)
	for i := range 100 {
		y[i] = 1
	}
	if got, want := discrete.ValuesOf(discrete.AUC, y, 2, -1), float64(2*100*900+1); got != want {
		t.Errorf("discrete.ValuesOf(discrete.AUC, y, 2, -1) = %v, want %v", got, want)
	}
	if got, want := discrete.Values(discrete.AUC, 1000, 2, -1), float64(1000*1000/2+1); got != want {
		t.Errorf("discrete.Values(discrete.AUC, 1000, 2, -1) = %v, want %v", got, want)
	}
	if got := discrete.ValuesOf(discrete.AUC, y, 2, 2); got != 101.0 {
		t.Errorf("discrete.ValuesOf(discrete.AUC, y, 2, 2) = %v, want %v", got, 101.0)
	}
	if got, want := discrete.ValuesOf(discrete.Accuracy, y, 2, 5), discrete.Values(discrete.Accuracy, 1000, 2, 5); got != want {
		t.Errorf("discrete.ValuesOf(discrete.Accuracy, y, 2, 5) = %v, want %v", got, want)
	}
	sharp, err := discrete.Floor(discrete.LabelBits(y, 2), discrete.ValuesOf(discrete.AUC, y, 2, -1))
	if err != nil {
		t.Fatal(err)
	}
	loose, err := discrete.Floor(discrete.LabelBits(y, 2), discrete.Values(discrete.AUC, 1000, 2, -1))
	if err != nil {
		t.Fatal(err)
	}
	if !(sharp > loose) {
		t.Errorf("sharp = %v, want > %v", sharp, loose)
	}
	t.Logf("n₁ = 100 of 1,000, unrounded: floor %d (2n₀n₁ + 1 values), %d (N²/2 + 1)", sharp, loose)
}
