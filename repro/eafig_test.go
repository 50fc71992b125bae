package repro

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/datasets"
)

// bruteDecode is LABELINF's step 3 by a linear scan over every labeling,
// the oracle for labelInf.decode: the least |loss − score|, the lower
// loss between two equally near, the least labeling index among equal
// losses.
func bruteDecode(li *labelInf, score float64) int {
	best, bestV := -1, math.NaN()
	total := int(math.Pow(float64(li.k), float64(li.n)))
	y := make([]int, li.n)
	for code := range total {
		c := code
		for i := range y {
			y[i] = c % li.k
			c /= li.k
		}
		v := li.score(y, 0)
		if math.IsNaN(v) {
			continue
		}
		if best < 0 {
			best, bestV = code, v
			continue
		}
		d, bd := math.Abs(v-score), math.Abs(bestV-score)
		if v == score {
			d = 0
		}
		if bestV == score {
			bd = 0
		}
		if d < bd || (d == bd && v < bestV) {
			best, bestV = code, v
		}
	}
	return best
}

func labelCode(y []int, k int) int {
	code, p := 0, 1
	for _, c := range y {
		code += c * p
		p *= k
	}
	return code
}

// TestLabelInfDecode checks the sorted lookup against the linear scan, on
// predictions inside and past float64's limit (where losses tie and
// become +Inf or NaN).
func TestLabelInfDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct {
		c    construction
		n, k int
		tau  float64
	}{
		{thm3CE, 4, 2, 0.01},
		{thm3CE, 9, 2, 1},   // past the limit: +Inf losses
		{thm3CE, 3, 3, 0.1}, // K = 3
		{icmlCE, 6, 2, 1},   // 1 − θ rounds to 0
		{softmaxNaive, 4, 2, 1},
		{softmaxNaive, 3, 3, 1}, // NaN losses
		{softmaxStable, 5, 2, 1},
		{sigmoidNaive, 6, 2, 1},
		{sigmoidStable, 6, 2, 1},
	} {
		li := newLabelInf(tt.c.terms(tt.n, tt.k, tt.tau), tt.k)
		y := make([]int, tt.n)
		var got []int
		for range 200 {
			for i := range y {
				y[i] = rng.IntN(tt.k)
			}
			s := li.score(y, (2*rng.Float64()-1)*tt.tau)
			var ok bool
			got, ok = li.decode(got, s)
			want := bruteDecode(li, s)
			if math.IsNaN(s) {
				if ok {
					t.Errorf("%v: NaN score decoded", tt.c)
				}
				continue
			}
			if !ok {
				t.Fatal("ok is false")
			}
			if got := labelCode(got, tt.k); got != want {
				t.Errorf("%v N=%d τ=%g: decode(%v): got %v, want %v", tt.c, tt.n, tt.tau, s, got, want)
			}
		}
		// Every loss in the table and the float64 just above it: the
		// latter's nearest is a run of equal losses to its left, which
		// must give the run's least labeling.
		for _, v := range li.vals {
			for _, s := range []float64{v, math.Nextafter(v, math.Inf(1))} {
				got, _ = li.decode(got, s)
				if got, want := labelCode(got, tt.k), bruteDecode(li, s); got != want {
					t.Errorf("%v N=%d τ=%g: decode(%v): got %v, want %v", tt.c, tt.n, tt.tau, s, got, want)
				}
			}
		}
	}
}

// TestLabelInfRecovers: within float64's range every labeling, with noise
// up to just under τ either way, decodes to itself (Theorem 3's
// separation survives float64 at small N); past it some do not.
func TestLabelInfRecovers(t *testing.T) {
	for _, c := range []construction{thm3CE, icmlCE, softmaxNaive, softmaxStable, sigmoidNaive, sigmoidStable} {
		k := 3
		if c.binary() {
			k = 2
		}
		n, tau := 3, 0.01
		li := newLabelInf(c.terms(n, k, tau), k)
		y := make([]int, n)
		var got []int
		for code := range int(math.Pow(float64(k), float64(n))) {
			cc := code
			for i := range y {
				y[i] = cc % k
				cc /= k
			}
			for _, u := range []float64{-0.99 * tau, 0, 0.99 * tau} {
				got, _ = li.decode(got, li.score(y, u))
				if !slices.Equal(got, y) {
					t.Errorf("%v: labeling %v, noise %g: got %v, want %v", c, y, u, got, y)
				}
			}
		}
	}
	y, err := datasets.Labels("titanic")
	if err != nil {
		t.Fatal(err)
	}
	st := runTrials(thm3CE, y, 2, 12, 1e-4, 100, rand.New(rand.NewPCG(1, 1)))
	if !(st.all < st.trials) {
		t.Errorf("Thm 3 at N = 12, τ = 1e−4 should exceed float64 (limit N = 10): %v >= %v", st.all, st.trials)
	}
}

// TestEAFigClaims pins the EA text's claims our binary64 runs contradict
// (REPRO.md's claims section): sigmoid cross-entropy reaches 100% exactly
// as far as cross-entropy [EA, Fig 2(a), "100% not observed"], and the
// log-softmax recovers more labels than cross-entropy [EA, Fig 1(c),
// "smaller for softmax"], while the textbook softmax recovers no more.
func TestEAFigClaims(t *testing.T) {
	trials := 100
	ti, err := datasets.Labels("titanic")
	if err != nil {
		t.Fatal(err)
	}
	ir, err := datasets.Labels("iris")
	if err != nil {
		t.Fatal(err)
	}
	for _, tau := range []float64{1e-4, 1} {
		ce, _, _, _ := largestN(thm3CE, ti, 2, tau, trials, eaSeed)
		sg, _, _, _ := largestN(sigmoidNaive, ti, 2, tau, trials, eaSeed)
		if !(sg > 0) {
			t.Errorf("sigmoid at τ = %g reaches 100%% at some N: %v, want > 0", tau, sg)
		}
		if sg != ce {
			t.Errorf("sigmoid (4) and cross-entropy, τ = %g: got %v, want %v", tau, sg, ce)
		}
		ceI, _, _, _ := largestN(thm3CE, ir, 3, tau, trials, eaSeed)
		_, naive, _, _ := largestN(softmaxNaive, ir, 3, tau, trials, eaSeed)
		_, stable, capped, _ := largestN(softmaxStable, ir, 3, tau, trials, eaSeed)
		if !(naive <= ceI) {
			t.Errorf("textbook softmax on Iris, τ = %g", tau)
		}
		if !(stable > ceI) {
			t.Errorf("log-softmax on Iris, τ = %g", tau)
		}
		if !capped {
			t.Error("log-softmax reaches the enumeration cap")
		}
	}
	// App J's multi-query figures on sigmoid (4): 100% at M = 10 and 4
	// points per query, ⌈2201/10⌉ = 221 and ⌈2201/4⌉ = 551 queries.
	for _, tt := range []struct {
		tau  float64
		m    int
		want float64
	}{{1e-4, 10, 1}, {1, 4, 1}} {
		if got := blockAccuracy(sigmoidNaive, ti, 2, tt.m, tt.tau, eaSeed); got != tt.want {
			t.Errorf("τ = %g, M = %d: got %v, want %v", tt.tau, tt.m, got, tt.want)
		}
		if !(blockAccuracy(sigmoidNaive, ti, 2, tt.m+1, tt.tau, eaSeed) < 1.0) {
			t.Errorf("τ = %g, M = %d", tt.tau, tt.m+1)
		}
	}
}

func TestSampleRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		r := sampleRows(rng, 10, 7)
		seen := map[int]bool{}
		for _, v := range r {
			if !(v >= 0 && v < 10) {
				t.Error("v >= 0 && v < 10 is false")
			}
			if seen[v] {
				t.Errorf("repeated row %d in %v", v, r)
			}
			seen[v] = true
		}
	}
}

// TestEAFigItems runs the three EA items (a second or two each; under
// -short only ea-fig3, the cheapest) and checks their verdicts.
func TestEAFigItems(t *testing.T) {
	names := []string{"ea-fig1", "ea-fig2", "ea-fig3"}
	if testing.Short() {
		names = names[2:]
	}
	res, err := Run(context.Background(), &Config{Out: t.TempDir(), Commit: "test"}, names)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Status != Differs {
			t.Errorf("%v: got %v, want %v", r.Item.Name, r.Status, Differs)
		}
		if len(r.Figures) == 0 {
			t.Errorf("%v: empty", r.Item.Name)
		}
		var claims int
		for _, row := range r.Rows {
			if row.Status != "" {
				claims++
			}
		}
		if !(claims >= 2) {
			t.Errorf("%v", r.Item.Name)
		}
		if !(strings.Contains(r.Why, "softmax") || strings.Contains(r.Why, "sigmoid")) {
			t.Errorf("%v", r.Why)
		}
	}
}
