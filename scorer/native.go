package scorer

// This file evaluates the float models with hardware float64 and float32
// arithmetic (IEEE round to nearest-even, which Go guarantees for both), in
// exactly the operation order of fpa.Loss: a fast path for simulated servers
// that fpa's tests pin bit for bit.

import (
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/labelinf/labelinf/fpa"
)

type float interface{ ~float32 | ~float64 }

// evalNative returns the mean cross-entropy of p against labels as m
// computes it in T, and the terms (in terms, reused).
func evalNative[T float](m *Model, labels []int, p *Pred, terms []T, logf func(T) T) (T, []T, error) {
	n := len(labels)
	if cap(terms) < n {
		terms = make([]T, n)
	}
	terms = terms[:n]
	eps64, one64, floor64, clip, clamp, err := m.consts64()
	if err != nil {
		return 0, terms, err
	}
	eps, oneMinus, floor := T(eps64), T(one64), T(floor64)
	var row [16]T
	var (
		lastQ, lastL [2]T
		haveQ        [2]bool
	)
	for i, y := range labels {
		var q T
		if p.K <= 2 {
			x := T(p.P[i])
			if clip {
				x = clipT(x, eps, oneMinus)
			}
			r0 := 1 - x
			if y == 1 {
				q = x
			} else {
				q = r0
			}
			if m.Loss.AddEps {
				q += eps
			}
			if m.Loss.Renormalize {
				s := T(0) + r0
				s += x
				q /= s
			}
		} else {
			if m.Loss.AddEps {
				return 0, terms, errors.New("scorer: adding eps inside the log (Keras 2 binary_crossentropy) is defined for binary predictions only")
			}
			r := row[:0]
			if p.K > len(row) {
				r = make([]T, 0, p.K)
			}
			for c := range p.K {
				x := T(p.P[i*p.K+c])
				if clip {
					x = clipT(x, eps, oneMinus)
				}
				r = append(r, x)
			}
			q = r[y]
			if m.Loss.Renormalize {
				var s T
				for _, v := range r {
					s += v
				}
				q /= s
			}
		}
		// logf is a function of q alone: a q seen in one of the last two
		// rows reuses its log (a binary prediction constant over many
		// rows gives two values of q, one per label).
		var l T
		switch {
		case haveQ[0] && q == lastQ[0]:
			l = lastL[0]
		case haveQ[1] && q == lastQ[1]:
			l = lastL[1]
		default:
			l = logf(q)
			lastQ[1], lastL[1], haveQ[1] = lastQ[0], lastL[0], haveQ[0]
			lastQ[0], lastL[0], haveQ[0] = q, l, true
		}
		if clamp && l < floor {
			l = floor
		}
		t := -l
		if math.IsNaN(float64(t)) || math.IsInf(float64(t), 0) {
			return 0, terms, fmt.Errorf("scorer: term %d is %v (a probability of 0 or below with no clipping)", i, t)
		}
		terms[i] = t
	}
	mean := sumLoss(terms, &m.Loss)
	if !m.Loss.Total {
		mean /= T(n)
	}
	if math.IsInf(float64(mean), 0) {
		return 0, terms, ErrOverflow
	}
	return mean, terms, nil
}

func clipT[T float](x, lo, hi T) T {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// sumLoss sums x as l says: exactly and rounded once (math.fsum), or
// in l.Sum's order.
func sumLoss[T float](x []T, l *FloatLoss) T {
	if !l.ExactSum {
		return sumNative(x, l.Sum)
	}
	if x64, ok := any(x).([]float64); ok {
		return T(fsum(x64))
	}
	s := new(big.Float).SetPrec(400) // float32 values span < 2^300: exact below 2^100 terms
	var b big.Float
	for _, v := range x {
		s.Add(s, b.SetFloat64(float64(v)))
	}
	f, _ := s.Float32()
	return T(f)
}

// fsum is Python's math.fsum: Shewchuk's exact sum of finite float64s
// as non-overlapping partials [Shewchuk97], rounded once to nearest even
// (CPython's math_fsum, including its half-way correction).
func fsum(x []float64) float64 {
	partials := make([]float64, 0, 8)
	for _, v := range x {
		i := 0
		for _, y := range partials {
			if math.Abs(v) < math.Abs(y) {
				v, y = y, v
			}
			hi := v + y
			lo := y - (hi - v)
			if lo != 0 {
				partials[i] = lo
				i++
			}
			v = hi
		}
		partials = append(partials[:i], v)
	}
	n := len(partials)
	if n == 0 {
		return 0
	}
	hi := partials[n-1]
	n--
	var lo float64
	for n > 0 {
		x, y := hi, partials[n-1]
		n--
		hi = x + y
		lo = y - (hi - x)
		if lo != 0 {
			break
		}
	}
	if n > 0 && ((lo < 0 && partials[n-1] < 0) || (lo > 0 && partials[n-1] > 0)) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}

// sumNative is fpa.Sum in T.
func sumNative[T float](x []T, opt fpa.SumOptions) T {
	if opt.Chunk <= 0 || opt.Chunk >= len(x) {
		return sumOrder(x, opt)
	}
	var acc T
	for i := 0; i < len(x); i += opt.Chunk {
		acc += sumOrder(x[i:min(i+opt.Chunk, len(x))], opt)
	}
	return acc
}

func sumOrder[T float](x []T, opt fpa.SumOptions) T {
	switch opt.Order {
	case fpa.Pairwise:
		b := opt.Block
		if b == 0 {
			b = 128
		}
		return pairwise(x, b)
	case fpa.Cascade:
		return cascade(x, opt.Lanes)
	case fpa.Kahan:
		var s, c T
		for _, v := range x {
			y := v - c
			t := s + y
			c = (t - s) - y
			s = t
		}
		return s
	}
	var s T
	for _, v := range x {
		s += v
	}
	return s
}

// cascade is PyTorch's cascade_sum of x with vectors of lanes elements
// (0: fpa.CascadeLanes), in T's hardware arithmetic.
func cascade[T float](x []T, lanes int) T {
	if lanes == 0 {
		lanes = fpa.CascadeLanes
	}
	return fpa.CascadeSum(len(x), lanes, func(i int) T { return x[i] }, func(a, b T) T { return a + b }, 0)
}

// pairwise is numpy's pairwise_sum (see fpa.Pairwise).
func pairwise[T float](x []T, block int) T {
	n := len(x)
	switch {
	case n < 8:
		var s T
		for _, v := range x {
			s += v
		}
		return s
	case n <= block:
		var r [8]T
		copy(r[:], x[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			r[0] += x[i]
			r[1] += x[i+1]
			r[2] += x[i+2]
			r[3] += x[i+3]
			r[4] += x[i+4]
			r[5] += x[i+5]
			r[6] += x[i+6]
			r[7] += x[i+7]
		}
		s := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += x[i]
		}
		return s
	}
	n2 := n / 2
	n2 -= n2 % 8
	return pairwise(x[:n2], block) + pairwise(x[n2:], block)
}
