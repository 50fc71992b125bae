package precision

import (
	"context"
	"errors"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exactFails reports whether the exact attack misreads some labeling of n
// binary labels from a score rounded to p bits: the slow twin of Bits's
// observation, written against the public API only.
func exactFails(t *testing.T, n int, p uint) bool {
	t.Helper()
	q, err := single.NewQuery(n, 2)
	require.NoError(t, err)
	for m := range 1 << n {
		y := make([]int, n)
		for i := range y {
			y[i] = m >> i & 1
		}
		o, err := oracle.NewExact(y, 2, p)
		require.NoError(t, err)
		s, err := o.Score(context.Background(), q.Prediction())
		require.NoError(t, err)
		res, err := q.Decode(s, single.Options{ScorePrec: p, AllowLowPrecision: true})
		if err != nil || !slices.Equal(res.Labels, y) {
			return true
		}
	}
	return false
}

func TestBitsExact(t *testing.T) {
	rep, err := Bits(context.Background(), BitsOptions{Loss: "cross-entropy", N: 4})
	require.NoError(t, err)
	assert.Equal(t, "score-bits", rep.Unit)
	// Paper: ⌈1·4·log2(4 ln 4)⌉ = ⌈4·2.471⌉ = 10.
	assert.Equal(t, uint(10), rep.Paper.Bits)
	q, err := single.NewQuery(4, 2)
	require.NoError(t, err)
	assert.Equal(t, q.Prec(), rep.Ours.Bits)
	assert.Equal(t, 16, rep.Labelings)
	obs := rep.Observed.Bits
	require.NotZero(t, obs, rep.Observed.Missing)
	assert.False(t, exactFails(t, 4, obs), "every labeling decodes at the observed P = %d", obs)
	assert.True(t, exactFails(t, 4, obs-1), "P = %d must fail somewhere", obs-1)
	require.NotNil(t, rep.GapOurs)
	assert.Equal(t, int(rep.Ours.Bits)-int(obs), *rep.GapOurs)
	assert.Equal(t, int(rep.Paper.Bits)-int(obs), *rep.GapPaper)
	require.NotNil(t, rep.Ours.Works)
	assert.True(t, *rep.Ours.Works, "our plan must work")
}

func TestBitsRobust(t *testing.T) {
	const n, tau = 8, 0.01
	rep, err := Bits(context.Background(), BitsOptions{Loss: "ce", N: n, Tau: tau})
	require.NoError(t, err)
	assert.Equal(t, "phi", rep.Unit)
	assert.Equal(t, uint(13), rep.Paper.Bits) // ⌈−2·log2 0.01 − 1⌉ = ⌈12.29⌉
	a, err := NewPow2Attack(n, tau)
	require.NoError(t, err)
	ours, _, err := fpa.MinPhi(fpa.Loss{Sum: fpa.SumOptions{Order: fpa.Pairwise}}, a.Need())
	require.NoError(t, err)
	assert.Equal(t, ours, rep.Ours.Bits)
	obs := rep.Observed.Bits
	require.NotZero(t, obs, rep.Observed.Missing)
	// EA Prop 3 asks for fewer bits than work at N = 8 (MATH.md §6).
	assert.Less(t, rep.Paper.Bits, obs)
	require.NotNil(t, rep.Paper.Works)
	assert.False(t, *rep.Paper.Works)
	require.NotNil(t, rep.Ours.Works)
	assert.True(t, *rep.Ours.Works)
	assert.LessOrEqual(t, obs, rep.Ours.Bits, "the planner's φ is an upper bound")
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
		require.NoError(t, err)
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
		assert.Equal(t, phi != obs, failed, "φ = %d", phi)
	}
}

func TestBitsNotMeasured(t *testing.T) {
	rep, err := Bits(context.Background(), BitsOptions{Loss: "log-loss", N: 40, Tau: 0.01})
	require.NoError(t, err)
	assert.Zero(t, rep.Observed.Bits)
	assert.Contains(t, rep.Observed.Missing, "not measured: 2^40 labelings exceed 1024")
	assert.NotZero(t, rep.Ours.Bits)
	assert.Nil(t, rep.GapOurs)
	rep, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 7, K: 3})
	require.NoError(t, err)
	assert.Contains(t, rep.Observed.Missing, "K^N = 3^7 labelings exceed 1024")
	rep, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 1})
	require.NoError(t, err)
	assert.Contains(t, rep.Paper.Missing, "N = 1")
	assert.NotZero(t, rep.Observed.Bits)
	assert.Nil(t, rep.GapPaper)
	// Past Pow2Attack's N ≤ 60 our planner has nothing to plan.
	rep, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 61, Tau: 1})
	require.NoError(t, err)
	assert.Contains(t, rep.Ours.Missing, "not computed")
	// ObserveMax lowers the cut-off.
	rep, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 4, ObserveMax: 8})
	require.NoError(t, err)
	assert.Contains(t, rep.Observed.Missing, "exceed 8")
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
			assert.ErrorContains(t, err, tt.want)
		})
	}
	_, err := Bits(context.Background(), BitsOptions{Loss: "bregman", N: 3, Tau: 1})
	assert.True(t, errors.Is(err, ErrUnsupportedLoss))
	_, err = Bits(context.Background(), BitsOptions{Loss: "ce", N: 0})
	assert.True(t, errors.Is(err, ErrBitsRequest))
	// Not a bad request: no prediction separates 10 labels under this
	// loss and noise (single.NotSeparableError), an answer, not misuse.
	_, err = Bits(context.Background(), BitsOptions{Loss: "squared-euclidean", N: 10, Tau: 0.01})
	var ns *single.NotSeparableError
	assert.ErrorAs(t, err, &ns)
	assert.False(t, errors.Is(err, ErrBitsRequest))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Bits(ctx, BitsOptions{Loss: "ce", N: 4})
	assert.ErrorIs(t, err, context.Canceled)
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
			require.NoError(t, err)
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
			require.NoError(t, err)
			assert.Equal(t, "score-bits", rep.Unit)
			phi, err := fpa.Prop3Phi(tt.tau)
			require.NoError(t, err)
			f, err := fpa.FPA(phi)
			require.NoError(t, err)
			assert.Equal(t, f.Prec(), rep.Paper.Bits, "Prop 3's φ = %d as a significand", phi)
			obs := rep.Observed.Bits
			require.NotZero(t, obs, rep.Observed.Missing)
			l, err := familyLoss(tt.name)
			require.NoError(t, err)
			plan, err := single.PlanFamily(context.Background(), single.FamilyOptions{Loss: l, N: tt.n, Tau: tt.tau})
			require.NoError(t, err)
			assert.False(t, familyFails(t, l, plan, obs), "P = %d", obs)
			assert.True(t, familyFails(t, l, plan, obs-1), "P = %d", obs-1)
			require.NotNil(t, rep.Ours.Works)
			assert.True(t, *rep.Ours.Works)
		})
	}
}
