package apa

// This file implements the log-sum-exp of a vector in arbitrary precision.

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// LogSumExp sets z to ln Σ_k e^(x_k) and returns z, with an absolute error
// below 2^(−p)·max(1, |result|), p = z's precision (53 if 0). It works at
// p + 32 + ⌈log₂ K⌉ bits from the largest x: terms more than
// (p + 40 + log₂ K)·ln 2 below it add less than 2^(−p−40) and are dropped,
// so doubly exponential logits cost nothing; the others go through
// [Exp] and [Log1p]. It returns an error if x is empty or holds an
// infinity or a nil value.
func LogSumExp(z *big.Float, x []*big.Float) (*big.Float, error) {
	if len(x) == 0 {
		return z, errors.New("apa: logsumexp of nothing")
	}
	p := z.Prec()
	if p == 0 {
		p = 53
	}
	wp := p + 32 + uint(bits.Len(uint(len(x))))
	top := 0
	for k, v := range x {
		if v == nil || v.IsInf() {
			return z, fmt.Errorf("apa: logsumexp of a non-finite value")
		}
		if v.Cmp(x[top]) > 0 {
			top = k
		}
	}
	cut := float64(wp+8+uint(bits.Len(uint(len(x))))) * math.Ln2
	s := new(big.Float).SetPrec(wp)
	d := new(big.Float).SetPrec(wp)
	e := new(big.Float).SetPrec(wp)
	for k, v := range x {
		if k == top {
			continue
		}
		d.Sub(v, x[top]) // ≤ 0
		if f, _ := d.Float64(); f < -cut {
			continue
		}
		if _, err := Exp(e, d); err != nil {
			return z, err
		}
		s.Add(s, e)
	}
	r := new(big.Float).SetPrec(wp)
	if s.Sign() != 0 {
		if _, err := Log1p(r, s); err != nil {
			return z, err
		}
	}
	r.Add(r, x[top])
	return z.SetPrec(p).Set(r), nil
}
