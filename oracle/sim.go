package oracle

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"sync"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/loss"
)

// Sim is a simulated scoring server: it holds private labels and answers
// each prediction as its [Model] says. Binary64 and binary32 models run on
// hardware floats with Go's math.Log (faithful, like a real libm); other
// formats run in fpa; exact models in arbitrary precision. It is safe for
// concurrent use.
type Sim struct {
	model  *Model
	labels []int
	k      int

	mu      sync.Mutex
	queries int
	t64     []float64
	t32     []float32
	ft      []fpa.Float
}

// NewSim returns a server with model m holding a copy of labels, each in
// [0, k).
func NewSim(m *Model, labels []int, k int) (*Sim, error) {
	if m == nil {
		return nil, errors.New("oracle: nil model")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return nil, errors.New("oracle: no labels")
	}
	if k < 2 {
		return nil, fmt.Errorf("oracle: K = %d, need at least 2 classes", k)
	}
	if err := loss.CheckLabels(labels, len(labels), k); err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	return &Sim{model: m, labels: append([]int(nil), labels...), k: k}, nil
}

// N returns the number of labels.
func (s *Sim) N() int { return len(s.labels) }

// K returns the number of classes.
func (s *Sim) K() int { return s.k }

// Model returns the server's model.
func (s *Sim) Model() *Model { return s.model }

// Queries returns the number of queries answered (malformed ones included).
func (s *Sim) Queries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

// Score returns the score of p as the model computes and reports it.
func (s *Sim) Score(p *Pred) (*big.Rat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries++
	if err := p.check(len(s.labels), s.k); err != nil {
		return nil, err
	}
	return s.model.score(s.labels, p, &s.t64, &s.t32, &s.ft)
}

// Eval returns the score that m reports for p against labels (each in
// [0, p.K)), without a server: what a simulated server answers.
func (m *Model) Eval(labels []int, p *Pred) (*big.Rat, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := p.check(len(labels), p.K); err != nil {
		return nil, err
	}
	if err := loss.CheckLabels(labels, len(labels), max(p.K, 2)); err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	var t64 []float64
	var t32 []float32
	var ft []fpa.Float
	return m.score(labels, p, &t64, &t32, &ft)
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
		if f64 {
			s, t, err := evalNative(m, labels, p, *t64, math.Log)
			*t64 = t
			if err != nil {
				return nil, err
			}
			v = fpa.New(fpa.Binary64).SetFloat64(s)
		} else {
			s, t, err := evalNative(m, labels, p, *t32, log32)
			*t32 = t
			if err != nil {
				return nil, err
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
			return nil, fmt.Errorf("oracle: row %d: %w", i, err)
		}
		r.Num[i], r.Den[i] = num, den
	}
	z, err := loss.CrossEntropy(new(big.Float).SetPrec(prec), labels, r)
	if err == nil && z.IsInf() {
		return nil, errors.New("oracle: a labelled class has probability 0: the loss is infinite")
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
