// This file implements loss evaluation as a float scoring library does
// it: clip each probability, form the row and renormalise it, take an
// elementwise log, clamp it, sum the terms in the library's order and
// divide by N, all in one format. The arithmetic and the summation are
// fpa's; the knowledge of log-loss clipping is here.

package scorer

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"

	"github.com/labelinf/labelinf/fpa"
)

// A FloatLoss says how a server computes a mean cross-entropy score in a
// format: fpa.Loss (format, rounding mode, summation order,
// renormalisation, log accuracy, which fpa's error bound reads) plus the
// clipping and clamping constants and the log a library uses. The zero
// value is not usable: Format must be set. Fields left zero mean: no
// clipping, no clamp, a correctly rounded log.
type FloatLoss struct {
	fpa.Loss
	// Eps, if not "", clips each probability to [eps, 1−eps], with eps the
	// decimal Eps rounded to Format and 1−eps computed in Format, as
	// scikit-learn, Keras and Kaggle's metrics do.
	Eps string
	// LogFloor, if not "", clamps each log at ≥ LogFloor (PyTorch's BCELoss
	// uses −100).
	LogFloor string
	// LogFunc, if set, replaces the correctly rounded [fpa.Float.Log] as
	// the server's log (for example one that models a faithful libm). It
	// must stay within LogULPs ulps.
	LogFunc func(z, x *fpa.Float) *fpa.Float
	// LogLib, if not LogGo, names the library log the server calls, bit
	// for bit (binary64 and binary32 only): the simulated server then
	// calls it, natively or from the emulated path.
	LogLib LogLib
	// AddEps adds eps inside the log, after clipping: −log(q + eps), as
	// Keras 2's binary_crossentropy does (binary models only, with Eps set
	// and no renormalisation).
	AddEps bool
	// ExactSum sums the terms exactly and rounds the sum once, to nearest
	// in the format, as Python's math.fsum does; Sum is then unused.
	ExactSum bool
	// Total reports the sum of the terms, not their mean.
	Total bool
}

// ErrOverflow reports an evaluation whose intermediate overflowed.
var ErrOverflow = errors.New("scorer: loss evaluation overflowed")

// lossConsts are a Loss's clipping constants as values of its format, nil
// where unused: eps, 1−eps (rounded in the loss's mode) and the log floor.
type lossConsts struct {
	eps, oneMinus, floor *fpa.Float
}

// parse checks l and parses its constants, once per evaluation.
func (l *FloatLoss) parse() (lossConsts, error) {
	var c lossConsts
	// The format, sum and log accuracy, as fpa checks them for its bound.
	if _, err := l.Loss.Bound(1, new(big.Float)); err != nil {
		return c, err
	}
	if l.Eps != "" {
		eps, err := fpa.Parse(l.Eps, l.Format, fpa.ToNearestEven)
		if err != nil {
			return c, fmt.Errorf("scorer: Eps: %w", err)
		}
		if eps.Sign() <= 0 || !eps.IsFinite() || eps.Cmp(fpa.New(l.Format).SetMode(l.Mode).SetRat(big.NewRat(1, 2))) >= 0 {
			return c, fmt.Errorf("scorer: Eps %s is not in (0, 1/2) in %v", l.Eps, l.Format)
		}
		one := fpa.New(l.Format).SetInt64(1)
		oneMinus := fpa.New(l.Format).SetMode(l.Mode).Sub(one, eps)
		if oneMinus.Cmp(one) == 0 {
			return c, fmt.Errorf("scorer: Eps %s is below %v's resolution at 1: 1−eps rounds to 1 and clipping cannot keep 1−p away from 0", l.Eps, l.Format)
		}
		c.eps, c.oneMinus = eps, oneMinus
	}
	if l.LogFloor != "" {
		fl, err := fpa.Parse(l.LogFloor, l.Format, fpa.ToNearestEven)
		if err != nil {
			return c, fmt.Errorf("scorer: LogFloor: %w", err)
		}
		if fl.Sign() >= 0 || !fl.IsFinite() {
			return c, fmt.Errorf("scorer: LogFloor %s is not a negative number", l.LogFloor)
		}
		c.floor = fl
	}
	if err := l.LogLib.check(l.Format, l.LogULPs); err != nil {
		return c, err
	}
	if l.LogLib != LogGo && l.LogFunc != nil {
		return c, errors.New("scorer: a model takes a library log (LogLib) or its own (LogFunc), not both")
	}
	if l.AddEps && (l.Eps == "" || l.Renormalize) {
		return c, errors.New("scorer: adding eps inside the log (Keras 2) needs a clipping constant and no renormalisation")
	}
	if l.ExactSum && l.Sum.Order != fpa.Recursive {
		return c, errors.New("scorer: an exact sum (math.fsum) takes no summation order")
	}
	return c, nil
}

// validate reports whether l is usable.
func (l *FloatLoss) validate() error {
	_, err := l.parse()
	return err
}

// zero returns a +0 in l's format and rounding mode.
func (l *FloatLoss) zero() *fpa.Float { return fpa.New(l.Format).SetMode(l.Mode) }

// Binary returns the mean binary cross-entropy of predictions p (the
// probability of class 1 for each point, values of any format, rounded to
// the loss's format first) against labels in {0, 1}, computed as the loss
// says: clip, row [1−p, p], renormalise, −log of the label's entry, clamp,
// sum, divide by n. It also returns the n terms (dst, reused if long
// enough) for [Loss.TermBound]. Errors: invalid options, mismatched
// lengths, labels outside {0, 1}, NaN predictions, and [ErrOverflow].
func (l *FloatLoss) Binary(dst []fpa.Float, labels []int, p []fpa.Float) (*fpa.Float, []fpa.Float, error) {
	c, err := l.parse()
	if err != nil {
		return nil, dst, err
	}
	if len(labels) != len(p) || len(p) == 0 {
		return nil, dst, fmt.Errorf("scorer: %d labels for %d predictions", len(labels), len(p))
	}
	rows := make([][]fpa.Float, len(p))
	k := make([]int, len(p))
	one := fpa.New(l.Format).SetInt64(1)
	for i := range p {
		if labels[i] != 0 && labels[i] != 1 {
			return nil, dst, fmt.Errorf("scorer: label %d of point %d is not 0 or 1", labels[i], i)
		}
		row := []fpa.Float{*l.zero(), *l.zero()}
		row[1].Set(&p[i])
		rows[i], k[i] = row, labels[i]
	}
	return l.eval(dst, k, rows, one, true, c)
}

// Multi returns the mean K-class cross-entropy of rows p[i] (K
// probabilities each) against labels in [0, K), computed as the loss
// says: clip each entry, renormalise the row, −log of the label's entry,
// clamp, sum, divide by n. See [Loss.Binary] for dst and the errors.
func (l *FloatLoss) Multi(dst []fpa.Float, labels []int, p [][]fpa.Float) (*fpa.Float, []fpa.Float, error) {
	c, err := l.parse()
	if err != nil {
		return nil, dst, err
	}
	if len(labels) != len(p) || len(p) == 0 {
		return nil, dst, fmt.Errorf("scorer: %d labels for %d prediction rows", len(labels), len(p))
	}
	rows := make([][]fpa.Float, len(p))
	for i, r := range p {
		if labels[i] < 0 || labels[i] >= len(r) {
			return nil, dst, fmt.Errorf("scorer: label %d of point %d outside [0, %d)", labels[i], i, len(r))
		}
		row := make([]fpa.Float, len(r))
		for j := range r {
			row[j] = *l.zero()
			row[j].Set(&r[j])
		}
		rows[i] = row
	}
	if l.AddEps {
		return nil, dst, errors.New("scorer: adding eps inside the log (Keras 2 binary_crossentropy) is defined for binary predictions only")
	}
	return l.eval(dst, labels, rows, nil, false, c)
}

func (l *FloatLoss) eval(dst []fpa.Float, labels []int, rows [][]fpa.Float, one *fpa.Float, binary bool, c lossConsts) (*fpa.Float, []fpa.Float, error) {
	n := len(rows)
	if cap(dst) < n {
		dst = make([]fpa.Float, n)
	}
	dst = dst[:n]
	eps, oneMinus, floor := c.eps, c.oneMinus, c.floor
	logf := l.LogFunc
	switch {
	case logf != nil:
	case l.LogLib != LogGo:
		logf = l.LogLib.fpaLog()
	default:
		logf = (*fpa.Float).Log
	}
	s, q := l.zero(), l.zero()
	for i, row := range rows {
		if binary {
			if row[1].IsNaN() {
				return nil, dst, fmt.Errorf("scorer: prediction %d is NaN", i)
			}
			if eps != nil {
				clip(&row[1], eps, oneMinus)
			}
			row[0].Sub(one, &row[1])
		} else if eps != nil {
			for j := range row {
				if row[j].IsNaN() {
					return nil, dst, fmt.Errorf("scorer: prediction %d is NaN", i)
				}
				clip(&row[j], eps, oneMinus)
			}
		}
		q.Set(&row[labels[i]])
		if l.AddEps {
			q.Add(q, eps)
		}
		if l.Renormalize {
			s.SetZero(false)
			for j := range row {
				s.Add(s, &row[j])
			}
			q.Quo(q, s)
		}
		dst[i] = *l.zero()
		t := &dst[i]
		logf(t, q)
		if floor != nil && t.Cmp(floor) < 0 {
			t.Set(floor)
		}
		t.Neg(t)
		if t.IsNaN() || t.IsInf() {
			return nil, dst, fmt.Errorf("scorer: term %d is %v (a probability of 0 or below, or out of range, with no clipping)", i, t.Text('g', 6))
		}
	}
	z := l.zero()
	if l.ExactSum {
		z.SetBig(exactSum(dst))
	} else if _, err := fpa.Sum(z, dst, l.Sum); err != nil {
		return nil, dst, err
	}
	if !l.Total {
		z.Quo(z, l.zero().SetInt64(int64(n)))
	}
	if z.IsInf() {
		return nil, dst, ErrOverflow
	}
	return z, dst, nil
}

// exactSum returns the exact sum of finite values x (Shewchuk's
// math.fsum computes it too, then rounds once): a big.Float wide enough
// to hold every bit of every value and of the sum.
func exactSum(x []fpa.Float) *big.Float {
	vals := make([]*big.Float, 0, len(x))
	lo, hi := 0, 0
	for i := range x {
		v, err := x[i].Big(nil)
		if err != nil || v.Sign() == 0 {
			continue // zeros add nothing; non-finite terms the caller rejected
		}
		e := v.MantExp(nil)
		if len(vals) == 0 || e > hi {
			hi = e
		}
		if m := e - int(v.MinPrec()); len(vals) == 0 || m < lo {
			lo = m
		}
		vals = append(vals, v)
	}
	s := new(big.Float)
	if len(vals) == 0 {
		return s
	}
	// Every partial sum is a multiple of 2^lo below 2^(hi+bits.Len(n)).
	s.SetPrec(uint(hi-lo) + uint(bits.Len(uint(len(vals)))) + 2)
	for _, v := range vals {
		s.Add(s, v)
	}
	return s
}

// clip sets x to min(max(x, lo), hi).
func clip(x, lo, hi *fpa.Float) {
	if x.Cmp(lo) < 0 {
		x.Set(lo)
	} else if x.Cmp(hi) > 0 {
		x.Set(hi)
	}
}
