package fpa

// This file implements the rigorous bound on how far a mean of N log
// terms computed in a format, term by term and then summed in a library's
// order, is from the exact mean; and the decimal rounding of a reported
// score.

import (
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/internal/bigint"
)

// A Loss says how a server's mean of N terms −ln q̂ is computed in a
// format, as far as its rounding error goes: the format and rounding
// mode, the order of the sum, whether each q̂ comes out of a renormalised
// row, and the accuracy of the elementwise log. [Loss.Bound] and
// [Loss.TermBound] bound the distance of such an evaluation to the exact
// mean. The evaluation itself, with the clipping a scoring library
// applies, is package scorer's (scorer.FloatLoss). The zero value is not
// usable: Format must be set. Fields left zero mean: round to
// nearest-even, recursive summation, no renormalisation, a correctly
// rounded log.
type Loss struct {
	Format Format
	Mode   RoundingMode
	Sum    SumOptions
	// Renormalize says that each q̂ is a row's entry divided by the row's
	// sum computed in Format (scikit-learn's log_loss): 4 roundings form
	// q̂ instead of 1.
	Renormalize bool
	// LogULPs is the largest error of the server's elementwise log in ulps;
	// 0 means correctly rounded (½ ulp). Faithful libms (glibc, numpy, Go)
	// are within 1.
	LogULPs float64
}

// validate reports whether l is usable.
func (l *Loss) validate() error {
	if err := l.Format.Validate(); err != nil {
		return err
	}
	if err := l.Sum.validate(); err != nil {
		return err
	}
	if l.LogULPs < 0 || l.LogULPs != l.LogULPs {
		return fmt.Errorf("fpa: LogULPs %v is negative or NaN", l.LogULPs)
	}
	return nil
}

// unitRoundoff returns u = 2^−Prec for round to nearest and 2^(1−Prec) for
// the directed modes [Higham02, Thm 2.2].
func (l *Loss) unitRoundoff() int64 {
	if l.Mode == ToNearestEven || l.Mode == ToNearestAway {
		return l.Format.Unit()
	}
	return l.Format.Unit() + 1
}

// Bound returns a rigorous upper bound on |computed − exact| for a mean
// of n terms computed as l says, each term of magnitude at most maxTerm,
// where "exact" is the mean of the exact −ln q (clamped) of the clipped
// predictions in the loss's format (the clipping is the server's, see
// scorer.FloatLoss), q = p or 1−p (or the row's entry over
// its exact sum) taken exactly [Higham02, Ch. 3–4]. With the error model
// fl(a∘b) = (a∘b)(1+δ), |δ| ≤ u (no overflow; a subnormal absolute slack
// of 2^(Emin−Prec+1) per operation is added):
//
//	q̂ = q(1+θ),   |θ| ≤ γ(k), k = 1 (1−p) or 4 (renormalised),
//	  so |ln q̂ − ln q| ≤ a = γ(k)/(1−γ(k));
//	t̂ = fl(−ln q̂) within ρ = 2u·max(LogULPs, ½) relative:
//	  |t̂ − t| ≤ e = ρ(T + a) + a;
//	|Ŝ − Σt̂| ≤ Σ γ(dᵢ)|t̂ᵢ| ≤ (T + e)·u·Σdᵢ/(1 − u·max dᵢ),
//	  dᵢ the additions term i passes through ([Depths]);
//	m̂ = fl(Ŝ/n) = (Ŝ/n)(1+θ₂) (n rounded to the format too):
//	  |m̂ − m| ≤ E/n·(1+γ(2)) + γ(2)·T,  E = n·e + the sum's bound.
//
// For Kahan summation the sum's bound is (2u + 8n·u²)·Σ|t̂ᵢ|, the first
// order bound of [Higham02, (4.8)] with its O(n·u²) term taken as 8n·u²:
// that constant is not proved here; the tests check the bound on random
// data. Decimal rounding of the reported score (±½·10^−D) is not included.
func (l *Loss) Bound(n int, maxTerm *big.Float) (*big.Float, error) {
	if err := l.validate(); err != nil {
		return nil, err
	}
	if n < 1 || maxTerm == nil || maxTerm.Sign() < 0 || maxTerm.IsInf() {
		return nil, fmt.Errorf("fpa: Bound needs n ≥ 1 and a finite maxTerm ≥ 0")
	}
	T := maxTerm
	depths := Depths(nil, n, l.Sum)
	var sumD, maxD int64
	for _, d := range depths {
		sumD += int64(d)
		maxD = max(maxD, int64(d))
	}
	return l.bound(n, T, func(e *big.Float) *big.Float {
		// Σ over terms of (T+e)·γ-ish weights.
		te := up().Add(T, e)
		if l.Sum.Order == Kahan {
			return up().Mul(up().SetInt64(int64(n)), up().Mul(te, l.kahanCoef(n)))
		}
		return up().Mul(te, l.depthCoef(sumD, maxD))
	})
}

// TermBound is [Loss.Bound] with the terms the evaluation produced (its
// second result) in place of n·maxTerm: an a-posteriori bound, tighter
// when the terms vary in size.
func (l *Loss) TermBound(terms []Float) (*big.Float, error) {
	if err := l.validate(); err != nil {
		return nil, err
	}
	n := len(terms)
	if n == 0 {
		return nil, fmt.Errorf("fpa: TermBound of no terms")
	}
	abs := make([]*big.Float, n)
	T := up()
	for i := range terms {
		b, err := terms[i].Big(nil)
		if err != nil {
			return nil, err
		}
		abs[i] = b.Abs(b)
		if abs[i].Cmp(T) > 0 {
			T = abs[i]
		}
	}
	depths := Depths(nil, n, l.Sum)
	var maxD int64
	for _, d := range depths {
		maxD = max(maxD, int64(d))
	}
	return l.bound(n, T, func(e *big.Float) *big.Float {
		// |t̂ᵢ| are the computed terms themselves here.
		s := up()
		if l.Sum.Order == Kahan {
			for _, a := range abs {
				s.Add(s, a)
			}
			return s.Mul(s, l.kahanCoef(n))
		}
		for i, a := range abs {
			s.Add(s, up().Mul(a, up().SetInt64(int64(depths[i]))))
		}
		return s.Mul(s, l.depthCoef(1, maxD))
	})
}

// up returns a 64-bit big.Float rounding toward +Inf: every bound is
// computed in it so that rounding only loosens it.
func up() *big.Float { return new(big.Float).SetPrec(64).SetMode(big.ToPositiveInf) }

func (l *Loss) pow2(e int64) *big.Float { return up().SetMantExp(big.NewFloat(1), int(e)) }

// depthCoef returns scale·u/(1 − u·maxD) rounded up.
func (l *Loss) depthCoef(scale, maxD int64) *big.Float {
	u := l.pow2(l.unitRoundoff())
	den := new(big.Float).SetPrec(64).SetMode(big.ToNegativeInf).Sub(big.NewFloat(1), up().Mul(u, up().SetInt64(maxD)))
	if den.Sign() <= 0 {
		return up().SetInf(false)
	}
	return up().Quo(up().Mul(u, up().SetInt64(scale)), den)
}

// kahanCoef returns 2u + 8n·u².
func (l *Loss) kahanCoef(n int) *big.Float {
	u := l.pow2(l.unitRoundoff())
	u2 := up().Mul(u, u)
	return up().Add(up().Mul(u, big.NewFloat(2)), up().Mul(u2, up().SetInt64(8*int64(n))))
}

// bound assembles the pieces of Bound; sumErr(e) bounds the summation's
// rounding error given the per-term error e.
func (l *Loss) bound(n int, T *big.Float, sumErr func(e *big.Float) *big.Float) (*big.Float, error) {
	ue := l.unitRoundoff()
	k := 1
	if l.Renormalize {
		k = 4
	}
	g := gamma(k, ue)
	a := up().Quo(g, new(big.Float).SetPrec(64).SetMode(big.ToNegativeInf).Sub(big.NewFloat(1), g))
	rho := up().Mul(l.pow2(ue+1), big.NewFloat(max(l.LogULPs, 0.5)))
	e := up().Add(up().Mul(rho, up().Add(T, a)), a)
	// Subnormal slack: each of the ~6 operations per term may lose up to
	// the smallest subnormal absolutely.
	tiny := l.pow2(l.Format.Emin() - int64(l.Format.Prec()) + 1 + 3)
	e.Add(e, tiny)
	E := up().Add(up().Mul(up().SetInt64(int64(n)), e), sumErr(e))
	g2 := gamma(2, ue)
	if n >= 1<<min(62, l.Format.Prec()) {
		g2 = gamma(3, ue) // n itself rounded
	}
	b := up().Quo(E, up().SetInt64(int64(n)))
	b.Mul(b, up().Add(big.NewFloat(1), g2))
	b.Add(b, up().Mul(g2, T))
	b.Add(b, tiny)
	return b, nil
}

// RoundDecimal returns x rounded to d decimal places, ties to even, as
// Python's round(x, d) and numpy's around do on the exact binary value. It
// returns an error for NaN, Inf or d < 0.
func RoundDecimal(x *Float, d int) (*big.Rat, error) {
	if !x.IsFinite() || d < 0 {
		return nil, fmt.Errorf("fpa: RoundDecimal(%v, %d): need a finite value and d ≥ 0", x, d)
	}
	if x.IsZero() {
		return new(big.Rat), nil
	}
	neg, m, e, _ := x.MantExp()
	r := new(big.Rat).SetInt(m)
	if e >= 0 {
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e))))
	} else {
		r.Quo(r, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(-e))))
	}
	out := bigint.RoundHalfEven(r, bigint.Pow10(d))
	if neg {
		out.Neg(out)
	}
	return out, nil
}
