package scorer

// This file implements what a simulated server computes: the score a
// model reports for a prediction against labels.

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/loss"
)

// Eval returns the score that m reports for p against labels (each in
// [0, p.K)), without a server: what a simulated server answers.
func (m *Model) Eval(labels []int, p *Pred) (*big.Rat, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := p.Check(len(labels), p.K); err != nil {
		return nil, err
	}
	if err := loss.CheckLabels(labels, len(labels), max(p.K, 2)); err != nil {
		return nil, fmt.Errorf("scorer: %w", err)
	}
	var s Scratch
	return m.score(labels, p, &s.t64, &s.t32, &s.ft)
}

// A Scratch holds the buffers of repeated evaluations, so that a server
// answering many queries does not allocate its terms each time. The zero
// value is ready to use; a Scratch is not safe for concurrent use.
type Scratch struct {
	t64 []float64
	t32 []float32
	ft  []fpa.Float
}

// EvalScratch is [Model.Eval] for a server that has checked m, its
// labels and p ([Pred.Check]) itself: it evaluates with the buffers of s
// and checks nothing more.
func (m *Model) EvalScratch(s *Scratch, labels []int, p *Pred) (*big.Rat, error) {
	return m.score(labels, p, &s.t64, &s.t32, &s.ft)
}

func (m *Model) score(labels []int, p *Pred, t64 *[]float64, t32 *[]float32, ft *[]fpa.Float) (*big.Rat, error) {
	var v *fpa.Float
	if m.Exact {
		r, err := exactScore(m.Prec, labels, p)
		if err != nil {
			return nil, err
		}
		return m.report(r)
	}
	if f64, ok := m.native(); ok {
		log64, log32, err := m.Loss.LogLib.funcs()
		if err != nil {
			return nil, err
		}
		if f64 {
			s, t, err := evalNative(m, labels, p, *t64, log64)
			*t64 = t
			if err != nil {
				return nil, err
			}
			if m.Decimals < 0 {
				// The float64 itself, exactly: no fpa value on the hot path.
				return new(big.Rat).SetFloat64(s), nil
			}
			v = fpa.New(fpa.Binary64).SetFloat64(s)
		} else {
			s, t, err := evalNative(m, labels, p, *t32, log32)
			*t32 = t
			if err != nil {
				return nil, err
			}
			if m.Decimals < 0 {
				return new(big.Rat).SetFloat64(float64(s)), nil
			}
			v = fpa.New(fpa.Binary32).SetFloat64(float64(s))
		}
	} else {
		var err error
		v, *ft, err = m.evalFPA(labels, p, *ft)
		if err != nil {
			return nil, err
		}
	}
	if m.Decimals >= 0 {
		return fpa.RoundDecimal(v, m.Decimals)
	}
	b, err := v.Big(nil)
	if err != nil {
		return nil, err
	}
	r, _ := b.Rat(nil)
	return r, nil
}

// report rounds an exact model's score to its decimals.
func (m *Model) report(b *big.Float) (*big.Rat, error) {
	if m.Decimals >= 0 {
		f := fpa.New(fpa.Format{ExpBits: 31, FracBits: m.Prec - 1})
		f.SetBig(b)
		return fpa.RoundDecimal(f, m.Decimals)
	}
	r, _ := b.Rat(nil)
	return r, nil
}

func (m *Model) evalFPA(labels []int, p *Pred, dst []fpa.Float) (*fpa.Float, []fpa.Float, error) {
	n := len(labels)
	if p.K <= 2 {
		xs := make([]fpa.Float, n)
		for i := range xs {
			xs[i].SetFloat64(p.P[i])
		}
		return m.Loss.Binary(dst, labels, xs)
	}
	rows := make([][]fpa.Float, n)
	for i := range rows {
		rows[i] = make([]fpa.Float, p.K)
		for c := range rows[i] {
			rows[i][c].SetFloat64(p.P[i*p.K+c])
		}
	}
	return m.Loss.Multi(dst, labels, rows)
}

// exactScore is the mean cross-entropy of p (float64 values taken exactly;
// binary rows [1−p, p] with 1−p exact) correctly rounded to prec bits.
func exactScore(prec uint, labels []int, p *Pred) (*big.Float, error) {
	n := len(labels)
	k := max(p.K, 2)
	r := &loss.Rat{K: k, Num: make([][]*big.Int, n), Den: make([]*big.Int, n)}
	vals := make([]float64, k)
	for i := range n {
		if p.K <= 2 {
			vals[0], vals[1] = math.NaN(), p.P[i]
		} else {
			copy(vals, p.P[i*k:(i+1)*k])
		}
		num, den, err := ratRow(vals, p.K <= 2)
		if err != nil {
			return nil, fmt.Errorf("scorer: row %d: %w", i, err)
		}
		r.Num[i], r.Den[i] = num, den
	}
	z, err := loss.CrossEntropy(new(big.Float).SetPrec(prec), labels, r)
	if err == nil && z.IsInf() {
		return nil, errors.New("scorer: a labelled class has probability 0: the loss is infinite")
	}
	return z, err
}

// ratRow writes row values over one power-of-two denominator, the
// smallest that makes every value an integer. For a binary row
// (vals[1] = p) the class-0 entry is 1−p exactly.
func ratRow(vals []float64, binary bool) ([]*big.Int, *big.Int, error) {
	shift := 0
	for c, v := range vals {
		if binary && c == 0 {
			continue
		}
		if !(v >= 0 && v <= 1) {
			return nil, nil, fmt.Errorf("probability %v outside [0, 1]", v)
		}
		if v != 0 {
			_, e := math.Frexp(v)
			s := min(53-e, 1074) // v·2^s is an integer below 2^53
			mant := uint64(math.Ldexp(v, s))
			s -= bits.TrailingZeros64(mant)
			shift = max(shift, s)
		}
	}
	den := new(big.Int).Lsh(big.NewInt(1), uint(shift))
	num := make([]*big.Int, len(vals))
	for c, v := range vals {
		if binary && c == 0 {
			continue
		}
		b := new(big.Float).SetFloat64(v)
		b.SetMantExp(b, shift)
		num[c], _ = b.Int(nil)
	}
	if binary {
		num[0] = new(big.Int).Sub(den, num[1])
	}
	return num, den, nil
}
