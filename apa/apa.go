package apa

import (
	"errors"
	"math/big"
	"math/bits"
)

var (
	// ErrDomain is returned for an argument outside a function's domain,
	// such as the logarithm of a negative number.
	ErrDomain = errors.New("apa: argument out of domain")
	// ErrRange is returned when a result overflows or underflows the
	// exponent range of big.Float (about 2^±2^31).
	ErrRange = errors.New("apa: result out of big.Float range")
	// ErrPrec is returned when the result precision is 0 and cannot be
	// taken from an operand.
	ErrPrec = errors.New("apa: result precision is 0")

	errNoConvergence = errors.New("apa: internal error: Ziv loop did not converge")
)

// guard returns the initial guard bits for a result of prec bits. Ziv's loop
// raises the working precision if they are not enough, so this only sets the
// expected cost: with g guard bits a retry is needed with probability about
// 2^(2-g).
func guard(prec uint) uint { return 24 + uint(bits.Len(prec)) }

// resultPrec applies big's rule: z's precision, or x's if z's is 0.
func resultPrec(z, x *big.Float) (uint, error) {
	if p := z.Prec(); p > 0 {
		return p, nil
	}
	if x != nil && x.Prec() > 0 {
		return x.Prec(), nil
	}
	return 0, ErrPrec
}

// Log sets z to the natural logarithm of x, correctly rounded to z's
// precision in z's rounding mode, and returns z. If z's precision is 0 it is
// set to x's. z's accuracy (z.Acc) reports the direction of the rounding.
//
// Special cases are:
//
//	Log(+Inf) = +Inf
//	Log(±0) = -Inf
//	Log(1) = +0 (exact)
//	Log(x < 0) returns ErrDomain and leaves z unchanged
func Log(z, x *big.Float) (*big.Float, error) {
	return new(Consts).Log(z, x)
}

// Log is [Log] with π and ln 2 taken from, and kept in, the cache c.
func (cc *Consts) Log(z, x *big.Float) (*big.Float, error) {
	prec, err := resultPrec(z, x)
	if err != nil {
		return z, err
	}
	switch {
	case x.Sign() < 0:
		return z, ErrDomain
	case x.Sign() == 0:
		return z.SetPrec(prec).SetInf(true), nil
	case x.IsInf():
		return z.SetPrec(prec).SetInf(false), nil
	}
	var xx xf
	xx.setBig(x)
	// ln x ≈ x−1 near 1: ask for −top(x−1) more bits to see it. Only x in
	// [½, 2) is near 1: elsewhere |x−1| ≥ ½ needs no extra bits, and the
	// exact difference would shift 1 by x's exponent (10⁹ bits for the
	// probability 2^(−10⁹)).
	extra := uint(0)
	if t := xx.top(); t == 0 || t == 1 {
		var one, d xf
		one.setInt64(1)
		d.sub(&xx, &one, 0)
		if d.sign() == 0 {
			return z.SetPrec(prec).SetInt64(0), nil
		}
		extra = uint(max(0, -d.top()))
	}
	c := consts{shared: cc}
	var y xf
	_, err = roundZivSet(z, prec, func(wp uint) (*xf, int64) {
		e := logAny(&y, &xx, wp+extra, &c)
		return &y, e
	})
	return z, err
}

// roundZivSet is roundZiv with z's mode and initial guard bits.
func roundZivSet(z *big.Float, prec uint, f approxFunc) (big.Accuracy, error) {
	return roundZiv(z, prec, z.Mode(), prec+guard(prec), f)
}

// LogRatio sets z to ln(num/den)/d, correctly rounded to z's precision in
// z's rounding mode, and returns z. It is how an exact scorer computes a mean
// log-loss: the log of one rational product instead of a sum of logs.
//
// It returns ErrDomain if num or den is not positive or d = 0, and ErrPrec
// if z's precision is 0. LogRatio(n, n, d) = +0 (exact).
func LogRatio(z *big.Float, num, den *big.Int, d uint64) (*big.Float, error) {
	return new(Consts).LogRatio(z, num, den, d)
}

// LogRatio is [LogRatio] with π and ln 2 taken from, and kept in, the cache c.
func (cc *Consts) LogRatio(z *big.Float, num, den *big.Int, d uint64) (*big.Float, error) {
	prec := z.Prec()
	if prec == 0 {
		return z, ErrPrec
	}
	if num.Sign() <= 0 || den.Sign() <= 0 || d == 0 {
		return z, ErrDomain
	}
	var diff big.Int
	diff.Sub(num, den)
	if diff.Sign() == 0 {
		return z.SetInt64(0), nil
	}
	// |ln(num/den)| ≥ |num−den|/max(num,den)/2: extra bits for cancellation.
	extra := uint(max(0, max(num.BitLen(), den.BitLen())-diff.BitLen()+1))
	var n, dd, q, y xf
	n.setInt(num)
	dd.setInt(den)
	c := consts{shared: cc}
	dl := int64(bits.Len64(d))
	_, err := roundZivSet(z, prec, func(wp uint) (*xf, int64) {
		w := wp + extra + 8
		q.quo(&n, &dd, w+8)
		e := logAny(&y, &q, w, &c)
		// ln q has relative error 2^(6-w) from q, so absolute error below
		// 2^(7-w) more (|ln(1+δ)| < 2|δ|).
		e = max(e, 7-int64(w)) + 1
		if d != 1 {
			// Division by d: add 2 ulps relative to the quotient.
			y.quoInt64(&y, int64(d), w)
			e = max(e-dl+1, y.top()-int64(w)+2) + 1
		}
		return &y, e
	})
	return z, err
}

// Exp sets z to e^x, correctly rounded to z's precision in z's rounding
// mode, and returns z. If z's precision is 0 it is set to x's.
//
// Special cases are:
//
//	Exp(±0) = 1 (exact)
//	Exp(+Inf) = +Inf
//	Exp(-Inf) = +0
//	a result beyond big.Float's exponent range returns ErrRange with z set
//	to +Inf (overflow) or +0 (underflow)
func Exp(z, x *big.Float) (*big.Float, error) {
	return new(Consts).Exp(z, x)
}

// Exp is [Exp] with π and ln 2 taken from, and kept in, the cache c.
func (cc *Consts) Exp(z, x *big.Float) (*big.Float, error) {
	prec, err := resultPrec(z, x)
	if err != nil {
		return z, err
	}
	switch {
	case x.Sign() == 0:
		return z.SetPrec(prec).SetInt64(1), nil
	case x.IsInf():
		if x.Sign() > 0 {
			return z.SetPrec(prec).SetInf(false), nil
		}
		return z.SetPrec(prec).SetInt64(0), nil
	}
	var xx xf
	xx.setBig(x)
	// e^x overflows big.Float when x/ln2 exceeds its exponent range.
	if xx.top() > 32 {
		if x.Sign() > 0 {
			return z.SetPrec(prec).SetInf(false), ErrRange
		}
		return z.SetPrec(prec).SetInt64(0), ErrRange
	}
	c := consts{shared: cc}
	var y xf
	_, err = roundZivSet(z, prec, func(wp uint) (*xf, int64) {
		e, _ := expAt(&y, &xx, wp, &c)
		return &y, y.top() + e + 1
	})
	if err == ErrRange {
		if x.Sign() > 0 {
			z.SetPrec(prec).SetInf(false)
		} else {
			z.SetPrec(prec).SetInt64(0)
		}
	}
	return z, err
}

// log1pTiny returns s > 0 such that ln(1+x) rounds to prec bits, in every
// mode, as x − s does, when x ≠ 0 is tiny enough for that. For 0 < |x| ≤ ½,
// ln(1+x) = x − δ with 0 < δ < x² (the alternating series for x > 0; all
// terms negative for x < 0). With |x| < 2^e and q = max(x's significant
// bits, prec+2), e ≤ −q gives δ < 2^(2e) ≤ 2^(e−q): no rounding boundary
// lies strictly between x − δ and x (the argument of [Add]), so s =
// 2^(e−q−1) stands in for δ. This is MPFR's small-input shortcut
// (MPFR_FAST_COMPUTE_IF_SMALL_INPUT in mpfr_log1p). Without it Ziv's loop
// must separate x − δ from x, which costs about 2|e| bits: 10⁹ bits for the
// sigmoid cross-entropy of a logit near 7·10⁸.
func log1pTiny(x *big.Float, prec uint) (s *big.Float, ok bool) {
	if x.Sign() == 0 || x.IsInf() {
		return nil, false
	}
	e := int64(x.MantExp(nil))
	q := int64(max(x.MinPrec(), prec+2))
	if e > -q || e-q-1 < big.MinExp {
		return nil, false
	}
	return new(big.Float).SetMantExp(big.NewFloat(0.5), int(e-q)), true
}

// log1p sets z to ln(1+x) for x > −1 at working precision wp and returns
// the absolute error exponent.
func log1p(z, x *xf, wp uint, c *consts) int64 {
	s := -x.top() // |x| < 2^-s
	if x.sign() == 0 {
		z.setInt64(0)
		return -1 << 40
	}
	if s >= 1 && int64(wp) <= 8*s {
		// Series ln(1+x) = Σ (−1)^(k+1) x^k/k, at most 10 terms: the
		// remainder after K terms is below |x|^(K+1) ≤ 2^-(K+1)s.
		w := wp + 8
		var term, pw xf
		z.set(x).trunc(w)
		pw.set(x).trunc(w)
		for k := int64(2); ; k++ {
			pw.mul(&pw, x, w)
			if pw.sign() == 0 || pw.top() < x.top()-int64(w)-4 {
				break
			}
			term.quoInt64(&pw, k, w)
			if k%2 == 0 {
				z.sub(z, &term, w)
			} else {
				z.add(z, &term, w)
			}
		}
		return x.top() - int64(w) + 6
	}
	// ln(1+x): 1+x to w bits where w covers the cancellation, then the log.
	w := wp + uint(max(0, s)) + 8
	var one, u xf
	one.setInt64(1)
	u.add(&one, x, w)
	e := logAny(z, &u, w, c)
	// Rounding 1+x costs a relative 2^(1-w), an absolute 2^(2-w) in the log.
	return max(e, 2-int64(w)) + 1
}

// Log1p sets z to ln(1+x), correctly rounded to z's precision in z's
// rounding mode, and returns z; it is accurate for x near 0, where
// Log(1+x) would lose the bits of x. If z's precision is 0 it is set to x's.
//
// Special cases are:
//
//	Log1p(±0) = ±0 (exact)
//	Log1p(-1) = -Inf
//	Log1p(+Inf) = +Inf
//	Log1p(x < -1) returns ErrDomain and leaves z unchanged
func Log1p(z, x *big.Float) (*big.Float, error) {
	return new(Consts).Log1p(z, x)
}

// Log1p is [Log1p] with π and ln 2 taken from, and kept in, the cache c.
func (cc *Consts) Log1p(z, x *big.Float) (*big.Float, error) {
	prec, err := resultPrec(z, x)
	if err != nil {
		return z, err
	}
	var xx, one xf
	if !x.IsInf() {
		xx.setBig(x)
	}
	one.setInt64(-1)
	switch {
	case x.IsInf() && x.Sign() > 0:
		return z.SetPrec(prec).SetInf(false), nil
	case x.IsInf() || xx.cmp(&one) < 0:
		return z, ErrDomain
	case xx.cmp(&one) == 0:
		return z.SetPrec(prec).SetInf(true), nil
	case x.Sign() == 0:
		return z.SetPrec(prec).Set(x), nil
	}
	if s, ok := log1pTiny(x, prec); ok {
		z.SetPrec(prec) // a no-op if z is x: z's precision is nonzero then
		return z.Sub(x, s), nil
	}
	c := consts{shared: cc}
	var y xf
	// log1p's error is already relative to |x| for small x (its series
	// truncates each term to wp bits; its AGM path adds −top(x) bits for
	// 1+x), and |ln(1+x)| ≥ |x|/2 for x ≥ −1/2, so wp bits suffice. (Adding
	// −top(x) again made Log1p(2^(−10⁹)) divide at 10⁹ bits.)
	_, err = roundZivSet(z, prec, func(wp uint) (*xf, int64) {
		e := log1p(&y, &xx, wp, &c)
		return &y, e
	})
	return z, err
}

// Softplus sets z to ln(1+e^x), correctly rounded to z's precision in z's
// rounding mode, and returns z. It is the log-loss of a logit: for a point
// with label 0 and logit x the loss is Softplus(x), for label 1
// Softplus(−x). It never forms e^x when that would overflow: for x > 0 it
// uses x + ln(1+e^−x). If z's precision is 0 it is set to x's.
//
// Special cases are:
//
//	Softplus(+Inf) = +Inf
//	Softplus(-Inf) = +0
//	a result below big.Float's range (x below about −1.49e9) returns
//	ErrRange with z set to +0
func Softplus(z, x *big.Float) (*big.Float, error) {
	return new(Consts).Softplus(z, x)
}

// Softplus is [Softplus] with π and ln 2 taken from, and kept in, the cache c.
func (cc *Consts) Softplus(z, x *big.Float) (*big.Float, error) {
	prec, err := resultPrec(z, x)
	if err != nil {
		return z, err
	}
	if x.IsInf() {
		if x.Sign() > 0 {
			return z.SetPrec(prec).SetInf(false), nil
		}
		return z.SetPrec(prec).SetInt64(0), nil
	}
	var xx, ax xf
	xx.setBig(x)
	ax.set(&xx)
	ax.m.Abs(&ax.m)
	pos := xx.sign() > 0
	if !pos && ax.top() > 32 {
		return z.SetPrec(prec).SetInt64(0), ErrRange
	}
	c := consts{shared: cc}
	var y, u, nx xf
	nx.neg(&ax)
	_, err = roundZivSet(z, prec, func(wp uint) (*xf, int64) {
		// For x > 0 the result is x + ln(1+e^-x) > x. If x > 0.7(wp+8),
		// then e^-x < 2^-(wp+8), below the working window of x (x ≥ 1):
		// return the midpoint of (x, x + 2^(top-wp-2)), half that as bound.
		if pos && (ax.top() > 62 || ax.float64() > float64(wp+8)*0.7) {
			var h xf
			h.m.SetInt64(1)
			h.e = xx.top() - int64(wp) - 3
			y.add(&xx, &h, 0)
			return &y, h.e
		}
		w := wp + 8
		if !pos {
			// ln(1+e^x) ≈ e^x: relative precision is what matters.
			w += 4
		}
		ee, _ := expNewton(&u, &nx, w, &c) // e^-|x|, relative error 2^ee
		// ln(1+u) with u off by a relative 2^ee: absolute error below
		// u·2^(ee+1).
		e := log1p(&y, &u, w, &c)
		e = max(e, u.top()+ee+1) + 1
		if pos {
			y.add(&y, &xx, 0) // exact: the bound is unchanged
		}
		return &y, e
	})
	return z, err
}
