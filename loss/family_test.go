package loss

import (
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/fpa"
)

func mustBinary(t *testing.T, k Kind, alpha float64, a [4]float64) *Binary {
	t.Helper()
	l, err := NewBinary(k, alpha, a)
	if err != nil {
		t.Fatal(err)
	}
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
				if err != nil {
					t.Fatal(err)
				}
				g, _ := got.Float64()
				if d := math.Abs(want - g); !(d <= 1e-12*math.Max(1, math.Abs(want))) {
					t.Errorf("%v Term(%d, %g): got %v, want %v within %v", l, y, xv, g, want, 1e-12*math.Max(1, math.Abs(want)))
				}
				// The same formula in emulated binary64 agrees to a few ulps.
				f, err := l.TermFPA(fpa.Binary64, y, xv)
				if err != nil {
					t.Fatal(err)
				}
				ff, _ := f.Float64()
				if d := math.Abs(want - ff); !(d <= 1e-10*math.Max(1, math.Abs(want))) {
					t.Errorf("%v TermFPA(%d, %g): got %v, want %v within %v", l, y, xv, ff, want, 1e-10*math.Max(1, math.Abs(want)))
				}
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
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(func() float64 { f, _ := d0.Float64(); return f }()); !(d <= 1e-25) {
			t.Errorf("%v d(½): got %v, want 0 within %v", l, func() float64 { f, _ := d0.Float64(); return f }(), 1e-25)
		}
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
			if err != nil {
				t.Fatalf("%v Invert(%g): %v", l, y, err)
			}
			d, err := l.D(new(big.Float).SetPrec(128), x)
			if err != nil {
				t.Fatal(err)
			}
			df, _ := d.Float64()
			if r := math.Abs(df-y) / math.Abs(y); !(r <= 1e-12) {
				t.Errorf("%v: d(x*(%g)) = %v, relative error %g", l, y, df, r)
			}
		}
		_, err = l.Invert(big.NewFloat(-1), 64)
		if err == nil {
			t.Error("want an error, got nil")
		}
		if l.Kind == SigmoidCE { // a weight past float64 (loss-family's at N = 2,000)
			y := new(big.Float).SetMantExp(big.NewFloat(1), 2000)
			if x, err := l.Invert(y, 128); err != nil || x.Cmp(new(big.Float).Neg(y)) != 0 {
				t.Errorf("%v: Invert(2^2000) = %v, %v; want −2^2000", l, x, err)
			}
		}
		if !math.IsInf(l.DSup(), 1) {
			_, err = l.Invert(big.NewFloat(l.DSup()), 64)
			if err == nil {
				t.Errorf("%v: weight at sup |d|: no error", l)
			}
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
		if err == nil {
			t.Errorf("%v %v %v: no error", tt.k, tt.alpha, tt.a)
		}
	}
	l := mustBinary(t, IS, 0, [4]float64{})
	_, err := l.Term(new(big.Float), 2, big.NewFloat(0.5))
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = l.Term(new(big.Float), 1, big.NewFloat(1))
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = l.TermFPA(fpa.Binary64, 1, math.NaN())
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = NewBregman(nil, nil, 1)
	if err == nil {
		t.Error("want an error, got nil")
	}
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
	if err != nil {
		t.Fatal(err)
	}
	ce := mustBinary(t, CE, 0, [4]float64{})
	for _, x := range []float64{0.01, 0.3, 0.5, 0.9} {
		for y := range 2 {
			a, err := kl.Term(new(big.Float).SetPrec(100), y, big.NewFloat(x))
			if err != nil {
				t.Fatal(err)
			}
			b, err := ce.Term(new(big.Float).SetPrec(100), y, big.NewFloat(x))
			if err != nil {
				t.Fatal(err)
			}
			af, _ := a.Float64()
			bf, _ := b.Float64()
			if d := math.Abs(bf - af); !(d <= 1e-25) {
				t.Errorf("x=%g y=%d: got %v, want %v within %v", x, y, af, bf, 1e-25)
			}
		}
		d, err := kl.D(new(big.Float).SetPrec(100), big.NewFloat(x))
		if err != nil {
			t.Fatal(err)
		}
		df, _ := d.Float64()
		if d := math.Abs(math.Log((1-x)/x) - df); !(d <= 1e-25) {
			t.Errorf("got %v, want %v within %v", df, math.Log((1-x)/x), 1e-25)
		}
		eaSum := math.Log(x) + 1 + math.Log(1-x) + 1
		if x != 0.5 {
			if math.Round(eaSum*1e9) == math.Round(df*1e9) {
				t.Errorf("EA Thm 7's sum is not the weight: both %v", math.Round(eaSum*1e9))
			}
		}
	}
	_, err = kl.TermFPA(fpa.Binary64, 1, 0.5)
	if err == nil {
		t.Error("want an error, got nil")
	}
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
			if err != nil {
				t.Fatal(err)
			}
			s.Add(s, t1)
		}
		return s
	}
	if a, b := score([]int{1, 0}), score([]int{0, 1}); a.Cmp(b) != 0 {
		t.Errorf("score of [1 0] %v, of [0 1] %v: want equal", a, b)
	}
}
