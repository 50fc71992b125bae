package passive

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

func TestThresholdAttacks(t *testing.T) {
	p := []float64{0.1, 0.5, 0.3, 0.9, 0.2, 0.4}
	// mean 0.4, median (0.3+0.4)/2 = 0.35.
	for _, tt := range []struct {
		kind AttackKind
		want []int
	}{
		{ThresholdFixed, []int{0, 1, 0, 1, 0, 0}},
		{ThresholdMean, []int{0, 1, 0, 1, 0, 1}}, // 0.4 ≥ 0.4
		{ThresholdMedian, []int{0, 1, 0, 1, 0, 1}},
	} {
		got, err := Attack{Kind: tt.kind}.Infer(nil, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v: got %v, want %v", tt.kind, got, tt.want)
		}
	}
	got, err := Attack{Kind: ThresholdMedian}.Infer(nil, []float64{0.2, 0.6, 0.4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("odd count: median 0.4: got %v, want %v", got, want)
	}
}

func TestDeltaMargin(t *testing.T) {
	dm := Attack{Kind: DeltaMargin, Alpha: 1, Beta: 1}
	sym := Attack{Kind: DeltaMarginSymmetric, Alpha: 1, Beta: 1}
	for _, tt := range []struct {
		name     string
		p        float64
		trained  int
		want     int // as written
		wantSym  int
		scoreSym float64 // α·m − β·ℓ of the symmetric rule, for the record
	}{
		// p₁ = 0.9, label 1: m = 0.8, ℓ = −ln 0.9 = 0.105 → s > 0 → 1.
		{"confident right", 0.9, 1, 1, 1, 0.8 + math.Log(0.9)},
		// p₁ = 0.9, label 0: ℓ = −ln 0.1 = 2.30 → s < 0 → 0 (both rules).
		{"confident wrong", 0.9, 0, 0, 0, 0.8 + math.Log(0.1)},
		// p₁ = 0.6, label 1: m = 0.2 < ℓ = 0.51 → 0 as written; the
		// symmetric rule answers the other class than the top one: 0.
		{"unsure", 0.6, 1, 0, 0, 0.2 + math.Log(0.6)},
		// p₁ = 0.1, label 0: as written, p₁ < ½ always gives 0; the
		// symmetric rule: m = 0.8, ℓ = 0.105 → top class 0.
		{"low p, label 0", 0.1, 0, 0, 0, 0.8 + math.Log(0.9)},
		// p₁ = 0.1, label 1: as written 0; symmetric: ℓ = 2.30 → s < 0 →
		// the other class, 1.
		{"low p, label 1", 0.1, 1, 0, 1, 0.8 + math.Log(0.1)},
		// p₁ = 0 and label 1: ℓ = +Inf, s = −Inf, no NaN.
		{"certain wrong", 0, 1, 0, 1, math.Inf(-1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dm.Infer(nil, []float64{tt.p}, []int{tt.trained})
			if err != nil {
				t.Fatal(err)
			}
			if got[0] != tt.want {
				t.Errorf("got[0] = %v, want %v", got[0], tt.want)
			}
			got, err = sym.Infer(nil, []float64{tt.p}, []int{tt.trained})
			if err != nil {
				t.Fatal(err)
			}
			if got[0] != tt.wantSym {
				t.Errorf("got[0] = %v, want %v", got[0], tt.wantSym)
			}
		})
	}
	// β = 0 makes delta-margin label-free: as written it is p₁ > ½.
	free := Attack{Kind: DeltaMargin, Alpha: 2}
	if free.ReadsLabels() {
		t.Error("free.ReadsLabels() is true")
	}
	got, err := free.Infer(nil, []float64{0.5, 0.51, 0.2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("got = %v, want %v", got, want)
	}
}

// TestSymmetricIsSymmetric checks the defining property of the symmetric
// rule on random rows: relabelling the classes (p₁ → 1 − p₁, t → 1 − t)
// relabels the guess.
func TestSymmetricIsSymmetric(t *testing.T) {
	rng := testrand.New(t)
	sym := Attack{Kind: DeltaMarginSymmetric, Alpha: 1.5, Beta: 0.7}
	const n = 1000
	p, q := make([]float64, n), make([]float64, n)
	tr, tq := make([]int, n), make([]int, n)
	for i := range n {
		p[i] = rng.Float64()
		if p[i] == 0.5 {
			p[i] = 0.25 // the tie goes to class 1 and breaks the symmetry
		}
		tr[i] = rng.IntN(2)
		q[i], tq[i] = 1-p[i], 1-tr[i]
	}
	a, err := sym.Infer(nil, p, tr)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sym.Infer(nil, q, tq)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if want := 1 - a[i]; b[i] != want {
			t.Fatalf("row %d: p=%v t=%d: got %v, want %v", i, p[i], tr[i], b[i], want)
		}
	}
}

func TestLossInversion(t *testing.T) {
	rng := testrand.New(t)
	const n = 1000
	p := make([]float64, n)
	tr := make([]int, n)
	for i := range n {
		p[i] = rng.Float64()
		tr[i] = rng.IntN(2)
	}
	got, err := Attack{Kind: LossInversion}.Infer(nil, p, tr)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, tr) {
		t.Errorf("the loss against the training label gives the label away: got %v, want %v", got, tr)
	}
}

func TestRowLossSubnormal(t *testing.T) {
	// Go's amd64 math.Log gives 709.09 for 2^−1074; ln 2^−1074 = −744.44.
	if got := rowLoss(0x1p-1074, 1); got != 744.4400719213812 {
		t.Errorf("rowLoss(0x1p-1074, 1) = %v, want %v", got, 744.4400719213812)
	}
	if got := rowLoss(0x1p-1040, 1); got != 720.8730677823431 {
		t.Errorf("rowLoss(0x1p-1040, 1) = %v, want %v", got, 720.8730677823431)
	}
}

func TestAttackErrors(t *testing.T) {
	p := []float64{0.2, 0.7}
	for _, tt := range []struct {
		name    string
		a       Attack
		p       []float64
		trained []int
		want    string
	}{
		{"no rows", Attack{}, nil, nil, "no rows"},
		{"NaN", Attack{}, []float64{math.NaN()}, nil, "outside [0, 1]"},
		{"above 1", Attack{}, []float64{1.5}, nil, "outside [0, 1]"},
		{"alpha 0", Attack{Kind: DeltaMargin, Beta: 1}, p, []int{0, 1}, "α"},
		{"beta negative", Attack{Kind: DeltaMargin, Alpha: 1, Beta: -1}, p, []int{0, 1}, "β"},
		{"beta NaN", Attack{Kind: DeltaMarginSymmetric, Alpha: 1, Beta: math.NaN()}, p, []int{0, 1}, "β"},
		{"labels missing", Attack{Kind: DeltaMargin, Alpha: 1, Beta: 1}, p, nil, "needs 2 training labels"},
		{"label 2", Attack{Kind: LossInversion}, p, []int{0, 2}, "not 0 or 1"},
		{"unknown kind", Attack{Kind: 99}, p, nil, "unknown attack"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.a.Infer(nil, tt.p, tt.trained)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	if got := AttackKind(99).String(); got != "AttackKind(99)" {
		t.Errorf("AttackKind(99).String() = %v, want %v", got, "AttackKind(99)")
	}
}
