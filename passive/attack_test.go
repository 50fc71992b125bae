package passive

import (
	"math"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%v", tt.kind)
	}
	got, err := Attack{Kind: ThresholdMedian}.Infer(nil, []float64{0.2, 0.6, 0.4}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 1}, got, "odd count: median 0.4")
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
			require.NoError(t, err)
			assert.Equal(t, tt.want, got[0])
			got, err = sym.Infer(nil, []float64{tt.p}, []int{tt.trained})
			require.NoError(t, err)
			assert.Equal(t, tt.wantSym, got[0])
		})
	}
	// β = 0 makes delta-margin label-free: as written it is p₁ > ½.
	free := Attack{Kind: DeltaMargin, Alpha: 2}
	assert.False(t, free.ReadsLabels())
	got, err := free.Infer(nil, []float64{0.5, 0.51, 0.2}, nil)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 0}, got)
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
	require.NoError(t, err)
	b, err := sym.Infer(nil, q, tq)
	require.NoError(t, err)
	for i := range n {
		require.Equal(t, 1-a[i], b[i], "row %d: p=%v t=%d", i, p[i], tr[i])
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
	require.NoError(t, err)
	assert.Equal(t, tr, got, "the loss against the training label gives the label away")
}

func TestRowLossSubnormal(t *testing.T) {
	// Go's amd64 math.Log gives 709.09 for 2^−1074; ln 2^−1074 = −744.44.
	assert.Equal(t, 744.4400719213812, rowLoss(0x1p-1074, 1))
	assert.Equal(t, 720.8730677823431, rowLoss(0x1p-1040, 1))
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
			assert.ErrorContains(t, err, tt.want)
		})
	}
	assert.Equal(t, "AttackKind(99)", AttackKind(99).String())
}
