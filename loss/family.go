// This file implements the binary loss family of [EA, Appendix F]: losses
// that decompose over points, evaluated once for two arithmetics, big.Float
// (through apa) and an emulated floating-point format (through fpa).

package loss

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/fpa"
)

// Arith is the arithmetic a loss term is written against, so that the same
// formula is evaluated exactly (big.Float at a precision) and as a server
// would in an emulated format (fpa). Operations set their first argument.
type Arith[T any] interface {
	New() T
	Set(z T, x float64)
	Add(z, x, y T)
	Sub(z, x, y T)
	Mul(z, x, y T)
	Quo(z, x, y T)
	Log(z, x T) error
	Exp(z, x T) error
	Log1p(z, x T) error
	Sign(x T) int
}

// BigArith evaluates in big.Float at Prec bits, each operation correctly
// rounded (log, exp and log1p by apa). Consts, if not nil, caches π and
// ln 2 across calls (results do not depend on it); with nil every log and
// exp computes them afresh, as apa's package-level functions do.
type BigArith struct {
	Prec   uint
	Consts *apa.Consts
}

func (a BigArith) New() *big.Float             { return new(big.Float).SetPrec(a.Prec) }
func (a BigArith) Set(z *big.Float, x float64) { z.SetFloat64(x) }
func (a BigArith) Add(z, x, y *big.Float)      { apa.Add(z, x, y) } // same rounding as z.Add, any exponent gap
func (a BigArith) Sub(z, x, y *big.Float)      { apa.Sub(z, x, y) }
func (a BigArith) Mul(z, x, y *big.Float)      { z.Mul(x, y) }
func (a BigArith) Quo(z, x, y *big.Float)      { z.Quo(x, y) }
func (a BigArith) Sign(x *big.Float) int       { return x.Sign() }
func (a BigArith) Log(z, x *big.Float) error {
	var err error
	if a.Consts != nil {
		_, err = a.Consts.Log(z, x)
	} else {
		_, err = apa.Log(z, x)
	}
	return err
}

func (a BigArith) Exp(z, x *big.Float) error {
	var err error
	if a.Consts != nil {
		_, err = a.Consts.Exp(z, x)
	} else {
		_, err = apa.Exp(z, x)
	}
	if errors.Is(err, apa.ErrRange) && x.Sign() < 0 {
		z.SetInt64(0) // below 2^(−2³¹): flush to zero, as IEEE underflow would
		return nil
	}
	return err
}

func (a BigArith) Log1p(z, x *big.Float) error {
	var err error
	if a.Consts != nil {
		_, err = a.Consts.Log1p(z, x)
	} else {
		_, err = apa.Log1p(z, x)
	}
	return err
}

// FPAArith evaluates in an emulated format, rounding to nearest-even after
// every operation as a server computing in that format would. NaN and
// infinities are results, not errors.
type FPAArith struct{ Format fpa.Format }

func (a FPAArith) New() *fpa.Float             { return fpa.New(a.Format) }
func (a FPAArith) Set(z *fpa.Float, x float64) { z.SetFloat64(x) }
func (a FPAArith) Add(z, x, y *fpa.Float)      { z.Add(x, y) }
func (a FPAArith) Sub(z, x, y *fpa.Float)      { z.Sub(x, y) }
func (a FPAArith) Mul(z, x, y *fpa.Float)      { z.Mul(x, y) }
func (a FPAArith) Quo(z, x, y *fpa.Float)      { z.Quo(x, y) }
func (a FPAArith) Log(z, x *fpa.Float) error   { z.Log(x); return nil }
func (a FPAArith) Exp(z, x *fpa.Float) error   { z.Exp(x); return nil }
func (a FPAArith) Log1p(z, x *fpa.Float) error { z.Log1p(x); return nil }
func (a FPAArith) Sign(x *fpa.Float) int {
	f, _ := x.Float64()
	switch {
	case f > 0:
		return 1
	case f < 0:
		return -1
	}
	return 0
}

// A Kind names a member of the loss family.
type Kind int

const (
	// CE is binary cross-entropy: g(x) = −ln x [EA, (2)].
	CE Kind = iota
	// SigmoidCE is cross-entropy on a logit z: softplus(−z) for label 1,
	// softplus(z) for label 0; its prediction is z ∈ ℝ, not a probability.
	SigmoidCE
	// IS is the Itakura–Saito loss: g(x) = 1/x + ln x − 1 [EA, (8)].
	IS
	// SE is the squared Euclidean loss: g(x) = (1−x)² [EA, (10)].
	SE
	// NL is the norm-like divergence loss with exponent α ≥ 2:
	// g(x) = 1 + (α−1)x^α − αx^(α−1) + (α−1)(1−x)^α [EA, (11)].
	NL
	// Mahalanobis is (σ−θ)ᵀA(σ−θ) on [σ, 1−σ] and [θ, 1−θ], which is
	// α(σ−θ)² with α = a + d − b − c [EA, §F.2].
	Mahalanobis
	// Bregman is the Bregman divergence of F(v) = h(v₁) + h(v₂) between
	// [σ, 1−σ] and [θ, 1−θ] [EA, Theorem 7], from h and h′.
	Bregman
)

var kindNames = [...]string{"cross-entropy", "sigmoid-ce", "itakura-saito", "squared-euclidean", "norm-like", "mahalanobis", "bregman"}

func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kindNames[k]
}

// A Binary is a loss that decomposes over points: a point with label y and
// prediction x contributes Term(y, x), so that
//
//	N·f(σ, θ) = C(θ) + Σ_i σ_i·d(θ_i),  C = Σ_i Term(0, θ_i),  d(x) = Term(1, x) − Term(0, x),
//
// a constant plus a subset sum of the weights d(θ_i) [EA, (1), Theorem 4].
// Create one with [NewBinary] or [NewBregman].
type Binary struct {
	Kind Kind
	// Alpha is NL's exponent; A is Mahalanobis's matrix [a b; c d].
	Alpha float64
	A     [4]float64
	// h and hp are Bregman's h and h′.
	h, hp func(z, x *big.Float) error
	// dSup is sup |d| over the prediction domain (+Inf if unbounded).
	dSup float64
	// consts caches π and ln 2 for Term, D and Invert: a plan evaluates
	// thousands of terms at the same few thousand bits, and computing the
	// constants afresh each time was most of its work.
	consts *apa.Consts
}

// NewBinary returns the loss of kind k; alpha is NL's exponent (≥ 2) and a
// Mahalanobis's matrix, row-major, which must be symmetric positive
// definite with a + d > b + c. Bregman losses come from [NewBregman]. It
// returns an error for invalid parameters.
func NewBinary(k Kind, alpha float64, a [4]float64) (*Binary, error) {
	l := &Binary{Kind: k, dSup: math.Inf(1), consts: new(apa.Consts)}
	switch k {
	case CE, SigmoidCE, IS:
	case SE:
		l.dSup = 1
	case NL:
		if !(alpha >= 2) || math.IsInf(alpha, 0) {
			return nil, fmt.Errorf("loss: norm-like exponent α = %v; want finite α ≥ 2", alpha)
		}
		l.Alpha, l.dSup = alpha, alpha
	case Mahalanobis:
		det := a[0]*a[3] - a[1]*a[2]
		if !(a[0] > 0 && det > 0) || a[1] != a[2] {
			return nil, fmt.Errorf("loss: Mahalanobis matrix %v is not symmetric positive definite", a)
		}
		al := a[0] + a[3] - a[1] - a[2]
		if !(al > 0) {
			return nil, fmt.Errorf("loss: Mahalanobis matrix %v has a + d ≤ b + c", a)
		}
		l.A, l.dSup = a, al
	case Bregman:
		return nil, errors.New("loss: use NewBregman for a Bregman loss")
	default:
		return nil, fmt.Errorf("loss: unknown loss %v", k)
	}
	return l, nil
}

// NewBregman returns the loss D_F([σ, 1−σ], [θ, 1−θ]) for F(v) = h(v₁) +
// h(v₂) strictly convex [EA, Theorem 7]. h must accept 0 and 1 (the label
// side of the divergence), hp = h′ must accept (0, 1); both set z at its
// precision. dSup is sup |h′(1−x) − h′(x)| over (0, 1) (+Inf if
// unbounded). Bregman losses evaluate in big.Float only.
//
// The weight is d(x) = h′(1−x) − h′(x). [EA, Theorem 7] writes it
// h′(x) + h′(1−x), which is not what its own definition gives: for
// h(v) = v·ln v (KL, so cross-entropy) the difference is ln((1−x)/x), the
// cross-entropy weight, while the sum is 2 + ln(x(1−x)) (TestBregman).
func NewBregman(h, hp func(z, x *big.Float) error, dSup float64) (*Binary, error) {
	if h == nil || hp == nil || !(dSup > 0) {
		return nil, errors.New("loss: Bregman loss needs h, h′ and sup |d| > 0")
	}
	return &Binary{Kind: Bregman, h: h, hp: hp, dSup: dSup, consts: new(apa.Consts)}, nil
}

// DSup returns sup |d(x)| over the prediction domain, +Inf if d is
// unbounded. A bounded d limits separation (see single.PlanFamily).
func (l *Binary) DSup() float64 { return l.dSup }

// LogitDomain reports whether predictions are logits in ℝ rather than
// probabilities in (0, 1).
func (l *Binary) LogitDomain() bool { return l.Kind == SigmoidCE }

func (l *Binary) String() string {
	switch l.Kind {
	case NL:
		return fmt.Sprintf("norm-like(α=%g)", l.Alpha)
	case Mahalanobis:
		return fmt.Sprintf("mahalanobis(%v)", l.A)
	}
	return l.Kind.String()
}

// Term sets z to the loss of one point with label y ∈ {0, 1} and
// prediction x in big.Float at z's precision (53 if 0), and returns z. It
// returns an error if y is not a label or x is outside the domain.
func (l *Binary) Term(z *big.Float, y int, x *big.Float) (*big.Float, error) {
	if z.Prec() == 0 {
		z.SetPrec(53)
	}
	if l.Kind == Bregman {
		return z, l.bregmanTerm(z, y, x)
	}
	if err := l.checkArgs(y, x.Sign(), x.Cmp(big.NewFloat(1))); err != nil {
		return z, err
	}
	r, err := TermIn(BigArith{Prec: z.Prec() + 16, Consts: l.consts}, l, y, x)
	if err != nil {
		return z, err
	}
	return z.Set(r), nil
}

// TermFPA returns the loss of one point computed in the emulated format f,
// every operation rounded as a server in that format would: the same
// formula as [Binary.Term]. The result may be ±Inf or NaN (overflow, a
// probability of 0). It returns an error for Bregman losses, a label
// other than 0 or 1, or x outside the domain.
func (l *Binary) TermFPA(f fpa.Format, y int, x float64) (*fpa.Float, error) {
	if l.Kind == Bregman {
		return nil, errors.New("loss: Bregman losses evaluate in big.Float only")
	}
	s, c := 0, 0
	switch {
	case x > 0:
		s = 1
	case x < 0:
		s = -1
	}
	switch {
	case x > 1:
		c = 1
	case x < 1:
		c = -1
	}
	if math.IsNaN(x) {
		return nil, errors.New("loss: prediction is NaN")
	}
	if err := l.checkArgs(y, s, c); err != nil {
		return nil, err
	}
	a := FPAArith{Format: f}
	xf := a.New()
	a.Set(xf, x)
	return TermIn(a, l, y, xf)
}

// checkArgs validates a label and, for probability losses, that the
// prediction (given by its sign and comparison with 1) is in (0, 1).
func (l *Binary) checkArgs(y, sign, cmp1 int) error {
	if y != 0 && y != 1 {
		return fmt.Errorf("loss: label %d is not 0 or 1", y)
	}
	if !l.LogitDomain() && (sign <= 0 || cmp1 >= 0) {
		return errors.New("loss: probability prediction outside (0, 1)")
	}
	return nil
}

// TermIn evaluates the loss of one point (label y, prediction x) in
// arithmetic a. The formulas are those of [EA, Appendix F], with label 0
// obtained by the symmetry x ↔ 1 − x where the loss has it.
func TermIn[T any](a Arith[T], l *Binary, y int, x T) (T, error) {
	one := a.New()
	a.Set(one, 1)
	u := a.New() // the prediction seen from the label's side
	if l.Kind == SigmoidCE {
		// softplus(−z) for y = 1, softplus(z) for y = 0:
		// max(v, 0) + log1p(exp(−|v|)) with v = ∓z.
		v := a.New()
		zero := a.New()
		if y == 1 {
			a.Sub(v, zero, x)
		} else {
			a.Add(v, zero, x)
		}
		neg := a.New()
		pos := a.New()
		if a.Sign(v) > 0 {
			a.Sub(neg, zero, v)
			a.Add(pos, zero, v)
		} else {
			a.Add(neg, zero, v)
		}
		r := a.New()
		if err := a.Exp(r, neg); err != nil {
			return r, err
		}
		if err := a.Log1p(r, r); err != nil {
			return r, err
		}
		a.Add(r, r, pos)
		return r, nil
	}
	if y == 1 {
		a.Add(u, x, a.New())
	} else {
		a.Sub(u, one, x)
	}
	r := a.New()
	switch l.Kind {
	case CE: // −ln u
		if err := a.Log(r, u); err != nil {
			return r, err
		}
		a.Sub(r, a.New(), r)
	case IS: // 1/u + ln u − 1
		lg := a.New()
		if err := a.Log(lg, u); err != nil {
			return r, err
		}
		a.Quo(r, one, u)
		a.Add(r, r, lg)
		a.Sub(r, r, one)
	case SE: // (1−u)²
		a.Sub(r, one, u)
		a.Mul(r, r, r)
	case NL: // 1 + (α−1)u^α − αu^(α−1) + (α−1)(1−u)^α
		al, am1 := a.New(), a.New()
		a.Set(al, l.Alpha)
		a.Set(am1, l.Alpha-1)
		w := a.New()
		a.Sub(w, one, u)
		pu, pu1, pw := a.New(), a.New(), a.New()
		if err := pow(a, pu, u, al); err != nil {
			return r, err
		}
		if err := pow(a, pu1, u, am1); err != nil {
			return r, err
		}
		if err := pow(a, pw, w, al); err != nil {
			return r, err
		}
		t := a.New()
		a.Mul(t, am1, pu)
		a.Add(r, one, t)
		a.Mul(t, al, pu1)
		a.Sub(r, r, t)
		a.Mul(t, am1, pw)
		a.Add(r, r, t)
	case Mahalanobis: // α(1−u)²
		al := a.New()
		a.Set(al, l.A[0]+l.A[3]-l.A[1]-l.A[2])
		a.Sub(r, one, u)
		a.Mul(r, r, r)
		a.Mul(r, r, al)
	default:
		return r, fmt.Errorf("loss: %v cannot be evaluated in this arithmetic", l.Kind)
	}
	return r, nil
}

// pow sets z = x^e for x > 0 (x = 0 gives 0, e > 0).
func pow[T any](a Arith[T], z, x, e T) error {
	if a.Sign(x) == 0 {
		a.Set(z, 0)
		return nil
	}
	if err := a.Log(z, x); err != nil {
		return err
	}
	a.Mul(z, z, e)
	return a.Exp(z, z)
}

// bregmanTerm is D_F([y, 1−y], [x, 1−x]) = Σ_j h(p_j) − h(q_j) − h′(q_j)(p_j − q_j).
func (l *Binary) bregmanTerm(z *big.Float, y int, x *big.Float) error {
	if err := l.checkArgs(y, x.Sign(), x.Cmp(big.NewFloat(1))); err != nil {
		return err
	}
	wp := z.Prec() + 16
	p := [2]*big.Float{big.NewFloat(float64(y)), big.NewFloat(float64(1 - y))}
	q := [2]*big.Float{new(big.Float).SetPrec(wp).Set(x), apa.Sub(new(big.Float).SetPrec(wp), big.NewFloat(1), x)}
	s := new(big.Float).SetPrec(wp)
	t := new(big.Float).SetPrec(wp)
	for j := range 2 {
		if err := l.h(t, p[j]); err != nil {
			return err
		}
		apa.Add(s, s, t)
		if err := l.h(t, q[j]); err != nil {
			return err
		}
		apa.Sub(s, s, t)
		if err := l.hp(t, q[j]); err != nil {
			return err
		}
		d := apa.Sub(new(big.Float).SetPrec(wp), p[j], q[j])
		apa.Sub(s, s, t.Mul(t, d))
	}
	z.Set(s)
	return nil
}

// D sets z to the weight d(x) = Term(1, x) − Term(0, x) at z's precision
// (53 if 0) and returns z.
func (l *Binary) D(z *big.Float, x *big.Float) (*big.Float, error) {
	if z.Prec() == 0 {
		z.SetPrec(53)
	}
	if l.Kind == SigmoidCE { // softplus(−z) − softplus(z) = −z exactly
		return z.Neg(x), nil
	}
	wp := z.Prec() + 32
	t1, err := l.Term(new(big.Float).SetPrec(wp), 1, x)
	if err != nil {
		return z, err
	}
	t0, err := l.Term(new(big.Float).SetPrec(wp), 0, x)
	if err != nil {
		return z, err
	}
	return apa.Sub(z, t1, t0), nil // terms far apart: no exact alignment
}

// Invert returns a prediction x with d(x) within a relative 2^(−prec/2)
// of y (exactly for the closed forms), at prec bits, for y > 0: the
// construction x*(y) of [EA, Theorem 4]. Every d here decreases strictly
// on its domain with d(½) = 0 (d(0) = 0 for logits), so a root with y > 0
// lies in (0, ½) and is found by bisection, first on the binary exponent
// of x (unbounded d grows without limit as x → 0), then on x itself. It
// returns an error if y ≤ 0 or y ≥ sup |d|.
func (l *Binary) Invert(y *big.Float, prec uint) (*big.Float, error) {
	if y.Sign() <= 0 || y.IsInf() {
		return nil, fmt.Errorf("loss: weight %v must be positive and finite", y)
	}
	// (A weight past float64's range is below an unbounded sup.)
	if yf, _ := y.Float64(); yf >= l.dSup && !math.IsInf(l.dSup, 1) {
		return nil, fmt.Errorf("loss: weight %g is not below sup |d| = %g of %v", yf, l.dSup, l)
	}
	x := new(big.Float).SetPrec(prec)
	switch l.Kind {
	case CE: // d = ln((1−x)/x): x = 1/(1 + e^y)
		e := new(big.Float).SetPrec(prec + 16)
		if _, err := l.consts.Exp(e, y); err != nil {
			return nil, fmt.Errorf("loss: cross-entropy weight %v: %w (the probability leaves big.Float's range; submit logits)", y.Text('g', 6), err)
		}
		apa.Add(e, e, big.NewFloat(1)) // e up to 2^(2^31): no exact alignment
		return x.Quo(big.NewFloat(1), e), nil
	case SigmoidCE: // d(z) = −z
		return x.Neg(y), nil
	case SE: // d = 1 − 2x
		return x.Quo(x.Sub(big.NewFloat(1), y), big.NewFloat(2)), nil
	case Mahalanobis: // d = α(1 − 2x)
		al := big.NewFloat(l.dSup)
		x.Quo(y, al)
		x.Sub(big.NewFloat(1), x)
		return x.Quo(x, big.NewFloat(2)), nil
	}
	// Find lo = 2^−e with d(lo) ≥ y > d(hi), hi = 2^−(e−1) or ½: gallop on
	// e (1, 2, 4, …), then bisect on the integer exponent.
	d := new(big.Float).SetPrec(64)
	pow2 := func(z *big.Float, e int) *big.Float { return z.SetMantExp(z.SetInt64(1), -e) } // keeps z's precision
	reaches := func(e int) (bool, error) {
		if _, err := l.D(d, pow2(new(big.Float).SetPrec(prec), e)); err != nil {
			return false, err
		}
		return d.Cmp(y) >= 0, nil
	}
	eLo, eHi := 1, 2 // d(2^−eLo) < y; find eHi with d(2^−eHi) ≥ y
	for {
		ok, err := reaches(eHi)
		if err != nil {
			return nil, err
		}
		if ok {
			break
		}
		if eHi > 1<<29 {
			return nil, fmt.Errorf("loss: weight %v is out of reach of %v within big.Float's exponent range", y.Text('g', 6), l)
		}
		eLo, eHi = eHi, 2*eHi
	}
	for eHi-eLo > 1 {
		m := (eLo + eHi) / 2
		ok, err := reaches(m)
		if err != nil {
			return nil, err
		}
		if ok {
			eHi = m
		} else {
			eLo = m
		}
	}
	lo := pow2(new(big.Float).SetPrec(prec), eHi)
	hi := pow2(new(big.Float).SetPrec(prec), eLo)
	mid := new(big.Float).SetPrec(prec)
	for range prec / 2 {
		mid.Add(lo, hi)
		mid.SetMantExp(mid, -1)
		if _, err := l.D(d, mid); err != nil {
			return nil, err
		}
		if d.Cmp(y) >= 0 {
			lo.Set(mid)
		} else {
			hi.Set(mid)
		}
	}
	return x.Set(lo), nil
}
