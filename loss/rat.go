package loss

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/primes"
)

// Rat is a prediction with rational probabilities: for N rows and K classes,
// the probability of class k in row i is Num[i][k]/Den[i]. A row must be a
// probability vector: Num[i][k] ≥ 0 and Σ_k Num[i][k] = Den[i] > 0.
type Rat struct {
	K   int
	Num [][]*big.Int
	Den []*big.Int
}

// N returns the number of rows.
func (p *Rat) N() int { return len(p.Den) }

// Validate reports whether p is well formed: at least one row, K ≥ 2, every
// row of length K, and every row a probability vector.
func (p *Rat) Validate() error {
	if p == nil || len(p.Den) == 0 {
		return errors.New("loss: prediction has no rows")
	}
	if p.K < 2 {
		return fmt.Errorf("loss: K = %d, need at least 2 classes", p.K)
	}
	if len(p.Num) != len(p.Den) {
		return fmt.Errorf("loss: %d numerator rows for %d denominators", len(p.Num), len(p.Den))
	}
	var s big.Int
	for i, row := range p.Num {
		if len(row) != p.K {
			return fmt.Errorf("loss: row %d has %d entries, want K = %d", i, len(row), p.K)
		}
		if p.Den[i] == nil || p.Den[i].Sign() <= 0 {
			return fmt.Errorf("loss: row %d: denominator not positive", i)
		}
		s.SetInt64(0)
		for k, v := range row {
			if v == nil || v.Sign() < 0 {
				return fmt.Errorf("loss: row %d class %d: negative or missing numerator", i, k)
			}
			s.Add(&s, v)
		}
		if s.Cmp(p.Den[i]) != 0 {
			return fmt.Errorf("loss: row %d: probabilities sum to %v/%v, not 1", i, &s, p.Den[i])
		}
	}
	return nil
}

// ErrLabels reports labels that do not fit a prediction.
var ErrLabels = errors.New("loss: labels do not fit the prediction")

// CheckLabels reports whether labels has one class index in [0, k) per row
// of an n-row prediction.
func CheckLabels(labels []int, n, k int) error {
	if len(labels) != n {
		return fmt.Errorf("%w: %d labels for %d rows", ErrLabels, len(labels), n)
	}
	for i, y := range labels {
		if y < 0 || y >= k {
			return fmt.Errorf("%w: label %d of row %d outside [0, %d)", ErrLabels, y, i, k)
		}
	}
	return nil
}

// CrossEntropyProducts returns the integers a = Π Den[i] and b = Π
// Num[i][labels[i]], so that the mean cross-entropy is ln(a/b)/N. p and
// labels must be valid.
func CrossEntropyProducts(labels []int, p *Rat) (a, b *big.Int) {
	chosen := make([]*big.Int, len(labels))
	for i, y := range labels {
		chosen[i] = p.Num[i][y]
	}
	return primes.Product(p.Den), primes.Product(chosen)
}

// CrossEntropy sets z to the mean cross-entropy −(1/N)·Σ ln(Num[i][σi]/Den[i])
// of prediction p against labels σ, correctly rounded to z's precision in
// z's rounding mode, and returns z. It returns +Inf if a labelled class has
// probability 0. It returns an error if p or labels are malformed or z's
// precision is 0.
func CrossEntropy(z *big.Float, labels []int, p *Rat) (*big.Float, error) {
	if err := p.Validate(); err != nil {
		return z, err
	}
	if err := CheckLabels(labels, p.N(), p.K); err != nil {
		return z, err
	}
	if z.Prec() == 0 {
		return z, apa.ErrPrec
	}
	a, b := CrossEntropyProducts(labels, p)
	if b.Sign() == 0 {
		return z.SetInf(false), nil
	}
	return apa.LogRatio(z, a, b, uint64(len(labels)))
}

// BinaryFromFloats returns the two-class prediction whose class-1
// probability in row i is theta[i], exactly: a big.Float is a dyadic
// rational m·2^e. It returns an error unless every theta[i] is in [0, 1].
func BinaryFromFloats(theta []*big.Float) (*Rat, error) {
	if len(theta) == 0 {
		return nil, errors.New("loss: prediction has no rows")
	}
	p := &Rat{K: 2, Num: make([][]*big.Int, len(theta)), Den: make([]*big.Int, len(theta))}
	one := big.NewFloat(1)
	for i, t := range theta {
		if t == nil || t.Sign() < 0 || t.Cmp(one) > 0 {
			return nil, fmt.Errorf("loss: row %d: probability %v outside [0, 1]", i, t)
		}
		r, _ := t.Rat(nil) // exact for finite values
		d := new(big.Int).Set(r.Denom())
		n1 := new(big.Int).Set(r.Num())
		p.Num[i] = []*big.Int{new(big.Int).Sub(d, n1), n1}
		p.Den[i] = d
	}
	return p, nil
}
