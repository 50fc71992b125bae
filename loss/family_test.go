package loss

import (
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/fpa"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustBinary(t *testing.T, k Kind, alpha float64, a [4]float64) *Binary {
	t.Helper()
	l, err := NewBinary(k, alpha, a)
	require.NoError(t, err)
	return l
}

// float64 transcriptions of [EA, (2), (8), (10), (11)] and Mahalanobis, the
// independent oracle of Term.
func refTerm(l *Binary, y int, x float64) float64 {
	u := x
	if y == 0 {
		u = 1 - x
	}
	switch l.Kind {
	case CE:
		return -math.Log(u)
	case SigmoidCE:
		if y == 1 {
			return math.Log1p(math.Exp(-x))
		}
		return math.Log1p(math.Exp(x))
	case IS:
		return 1/u + math.Log(u) - 1
	case SE:
		return (1 - u) * (1 - u)
	case NL:
		a := l.Alpha
		return 1 + (a-1)*math.Pow(u, a) - a*math.Pow(u, a-1) + (a-1)*math.Pow(1-u, a)
	case Mahalanobis:
		return (l.A[0] + l.A[3] - l.A[1] - l.A[2]) * (1 - u) * (1 - u)
	}
	panic("no reference")
}

func family(t *testing.T) []*Binary {
	return []*Binary{
		mustBinary(t, CE, 0, [4]float64{}),
		mustBinary(t, SigmoidCE, 0, [4]float64{}),
		mustBinary(t, IS, 0, [4]float64{}),
		mustBinary(t, SE, 0, [4]float64{}),
		mustBinary(t, NL, 2, [4]float64{}),
		mustBinary(t, NL, 3.5, [4]float64{}),
		mustBinary(t, Mahalanobis, 0, [4]float64{2, 0.5, 0.5, 1}),
	}
}

func TestTermAgainstFloat64(t *testing.T) {
	for _, l := range family(t) {
		for _, x := range []float64{1e-6, 0.1, 0.3, 0.5, 0.77, 0.999} {
			xv := x
			if l.LogitDomain() {
				xv = 20*x - 10
			}
			for y := range 2 {
				want := refTerm(l, y, xv)
				got, err := l.Term(new(big.Float).SetPrec(200), y, big.NewFloat(xv))
				require.NoError(t, err)
				g, _ := got.Float64()
				assert.InDelta(t, want, g, 1e-12*math.Max(1, math.Abs(want)), "%v Term(%d, %g)", l, y, xv)
				// The same formula in emulated binary64 agrees to a few ulps.
				f, err := l.TermFPA(fpa.Binary64, y, xv)
				require.NoError(t, err)
				ff, _ := f.Float64()
				assert.InDelta(t, want, ff, 1e-10*math.Max(1, math.Abs(want)), "%v TermFPA(%d, %g)", l, y, xv)
			}
		}
	}
}

// TestWeights checks d(½) = 0 (0 for a zero logit), that d decreases, and
// that Invert finds x*(y) for weights across magnitudes.
func TestWeightsAndInvert(t *testing.T) {
	for _, l := range family(t) {
		half := big.NewFloat(0.5)
		if l.LogitDomain() {
			half = new(big.Float)
		}
		d0, err := l.D(new(big.Float).SetPrec(100), half)
		require.NoError(t, err)
		assert.InDelta(t, 0, func() float64 { f, _ := d0.Float64(); return f }(), 1e-25, "%v d(½)", l)
		ys := []float64{1e-6, 0.01, 0.5}
		if math.IsInf(l.DSup(), 1) {
			ys = append(ys, 10, 1e4)
			if l.Kind != CE { // CE's x*(1e9) = e^−1e9 costs seconds of apa
				ys = append(ys, 1e9)
			}
		} else {
			ys = append(ys, 0.9*l.DSup())
		}
		for _, y := range ys {
			x, err := l.Invert(big.NewFloat(y), 128)
			require.NoError(t, err, "%v Invert(%g)", l, y)
			d, err := l.D(new(big.Float).SetPrec(128), x)
			require.NoError(t, err)
			df, _ := d.Float64()
			assert.InEpsilon(t, y, df, 1e-12, "%v: d(x*(%g))", l, y)
		}
		_, err = l.Invert(big.NewFloat(-1), 64)
		assert.Error(t, err)
		if !math.IsInf(l.DSup(), 1) {
			_, err = l.Invert(big.NewFloat(l.DSup()), 64)
			assert.Error(t, err, "%v: weight at sup |d|", l)
		}
	}
}

func TestFamilyErrors(t *testing.T) {
	for _, tt := range []struct {
		k     Kind
		alpha float64
		a     [4]float64
	}{{NL, 1.5, [4]float64{}}, {NL, math.NaN(), [4]float64{}}, {Mahalanobis, 0, [4]float64{1, 2, 2, 1}}, {Mahalanobis, 0, [4]float64{1, 0.5, 0.4, 1}}, {Bregman, 0, [4]float64{}}, {99, 0, [4]float64{}}} {
		_, err := NewBinary(tt.k, tt.alpha, tt.a)
		assert.Error(t, err, "%v %v %v", tt.k, tt.alpha, tt.a)
	}
	l := mustBinary(t, IS, 0, [4]float64{})
	_, err := l.Term(new(big.Float), 2, big.NewFloat(0.5))
	assert.Error(t, err)
	_, err = l.Term(new(big.Float), 1, big.NewFloat(1))
	assert.Error(t, err)
	_, err = l.TermFPA(fpa.Binary64, 1, math.NaN())
	assert.Error(t, err)
	_, err = NewBregman(nil, nil, 1)
	assert.Error(t, err)
}

// TestBregman builds KL from h(v) = v·ln v: its terms are cross-entropy's,
// and its weight is h′(1−x) − h′(x) = ln((1−x)/x), not [EA, Theorem 7]'s
// h′(x) + h′(1−x).
func TestBregman(t *testing.T) {
	h := func(z, x *big.Float) error {
		if x.Sign() == 0 {
			z.SetInt64(0)
			return nil
		}
		if _, err := apa.Log(z, x); err != nil {
			return err
		}
		z.Mul(z, x)
		return nil
	}
	hp := func(z, x *big.Float) error { // ln x + 1
		if _, err := apa.Log(z, x); err != nil {
			return err
		}
		z.Add(z, big.NewFloat(1))
		return nil
	}
	kl, err := NewBregman(h, hp, math.Inf(1))
	require.NoError(t, err)
	ce := mustBinary(t, CE, 0, [4]float64{})
	for _, x := range []float64{0.01, 0.3, 0.5, 0.9} {
		for y := range 2 {
			a, err := kl.Term(new(big.Float).SetPrec(100), y, big.NewFloat(x))
			require.NoError(t, err)
			b, err := ce.Term(new(big.Float).SetPrec(100), y, big.NewFloat(x))
			require.NoError(t, err)
			af, _ := a.Float64()
			bf, _ := b.Float64()
			assert.InDelta(t, bf, af, 1e-25, "x=%g y=%d", x, y)
		}
		d, err := kl.D(new(big.Float).SetPrec(100), big.NewFloat(x))
		require.NoError(t, err)
		df, _ := d.Float64()
		assert.InDelta(t, math.Log((1-x)/x), df, 1e-25)
		eaSum := math.Log(x) + 1 + math.Log(1-x) + 1
		if x != 0.5 {
			assert.NotEqual(t, math.Round(eaSum*1e9), math.Round(df*1e9), "EA Thm 7's sum is not the weight")
		}
	}
	_, err = kl.TermFPA(fpa.Binary64, 1, 0.5)
	assert.Error(t, err)
}

// TestMahalanobisTheorem8IsFalse: [EA, Theorem 8] claims 2τ-separability
// for every θ with max θ_i ≤ ½(1 − Nτ/α). θ = (¼, ¼) qualifies for small
// τ, yet the labelings (1,0) and (0,1) score the same: Λ = 0.
func TestMahalanobisTheorem8IsFalse(t *testing.T) {
	l := mustBinary(t, Mahalanobis, 0, [4]float64{2, 0.5, 0.5, 1})
	theta := []*big.Float{big.NewFloat(0.25), big.NewFloat(0.25)}
	score := func(sigma []int) *big.Float {
		s := new(big.Float).SetPrec(100)
		for i, y := range sigma {
			t1, err := l.Term(new(big.Float).SetPrec(100), y, theta[i])
			require.NoError(t, err)
			s.Add(s, t1)
		}
		return s
	}
	assert.Zero(t, score([]int{1, 0}).Cmp(score([]int{0, 1})))
}
