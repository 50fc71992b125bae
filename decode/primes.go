// This file implements ICML Alg 1, the Primes strategy [AKXFT21, Alg 1,
// Thm 2].

package decode

import (
	"math"
	"math/big"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/primes"
)

// Primes is ICML Alg 1: the block's points get prime predictions (row c
// ∝ p^c), every other point the neutral 1/K; the score gives
// X = Π p_j^σ_j, read by rounding exp and factoring. k is fixed, the
// largest whose X_max the scorer's precision separates.
var Primes Strategy = &designer{name: "primes", init: setNeutralKnown, next: func(a *multi, kmax int) (*blockPlan, error) {
	return a.fixedPlan(kmax, func(kmax int, _ *blockPlan) (*blockPlan, error) { return a.planPrimes(kmax) })
}}

func init() { register(Primes, "alg1") }

// planPrimes designs ICML Alg 1's block: the first k primes, row c ∝ p^c,
// k the largest whose products the budget separates.
func (a *multi) planPrimes(kmax int) (*blockPlan, error) {
	kmax = min(kmax, a.nUnk)
	if a.primeList == nil {
		var err error
		// A block of k points needs X_max = Π p_j^(K−1) resolved by one
		// score: ln(1 + 1/X_max) above twice the budget. With at most a
		// few hundred bits in a finite-precision score, k stays far below
		// the 4,096 primes listed here.
		if a.primeList, err = primes.FirstN(min(a.n, 4096)); err != nil {
			return nil, err
		}
	}
	var best *blockPlan
	for k := 1; k <= min(kmax, len(a.primeList)); k++ {
		p, err := a.primeBlock(k)
		if err != nil {
			return nil, err
		}
		if p == nil {
			break
		}
		best = p
	}
	if best == nil {
		b0 := a.budgetFor(nil, nil, true)
		return nil, &BudgetError{Model: a.m.Name, Budget: 2 * b0, Room: math.Log(2)}
	}
	return best, nil
}

// primeBlock returns Alg 1's design for k points, or nil if the budget
// does not separate it.
func (a *multi) primeBlock(k int) (*blockPlan, error) {
	p := &blockPlan{read: (*multi).decodePrimes, xmax: big.NewInt(1)}
	p.rows = make([]rowInfo, k)
	dev := 0.0 // max over points and classes of |v_j(c) − c·ln p_j|; ×k below bounds the sum
	for j := range k {
		pr := float64(a.primeList[j])
		row := make([]float64, a.k)
		var z float64
		for c := range a.k {
			z += math.Pow(pr, float64(c))
		}
		for c := range row {
			// Class c gets p^(K−1−c)/Σ: its term grows with c by ln p.
			row[c] = math.Pow(pr, float64(a.k-1-c)) / z
		}
		if math.IsInf(z, 0) || row[a.k-1] == 0 {
			return nil, nil
		}
		var err error
		if p.rows[j], err = a.rowInfo(row); err != nil {
			return nil, err
		}
		lnp := new(big.Float).SetPrec(incPrec)
		if _, err := apa.Log(lnp, new(big.Float).SetUint64(a.primeList[j])); err != nil {
			return nil, err
		}
		for c := 1; c < a.k; c++ {
			d := new(big.Float).SetPrec(incPrec).Sub(p.rows[j].t[c], p.rows[j].t[0])
			d.Sub(d, new(big.Float).Mul(lnp, big.NewFloat(float64(c))))
			f, _ := d.Float64()
			dev = max(dev, math.Abs(f)) // per point
		}
		for range a.k - 1 {
			p.xmax.Mul(p.xmax, new(big.Int).SetUint64(a.primeList[j]))
		}
	}
	dev *= float64(k) * (1 + 1e-9) // ×k points; 1e−9 rounds the float64 product up
	p.v = increments(p.rows)
	idx := a.nextIdx(k)
	p.budget = a.budgetFor(idx, p.rows, true)
	// Distinct products X ≠ X' ≤ X_max: |ln X − ln X'| ≥ ln(1 + 1/X_max).
	xm := new(big.Float).SetInt(p.xmax)
	inv := new(big.Float).SetPrec(incPrec).Quo(big.NewFloat(1), xm)
	l1p := new(big.Float).SetPrec(incPrec)
	if _, err := apa.Log1p(l1p, inv); err != nil {
		return nil, err
	}
	l1p.Sub(l1p, new(big.Float).SetFloat64(2*dev))
	if l1p.Sign() <= 0 || !gapOK(l1p, p.budget) {
		return nil, nil
	}
	p.gap = l1p
	return p, nil
}

// decodePrimes reads X = Π p_j^σ_j: row c ∝ p^(K−1−c) makes the increments
// v_j(c) ≈ c·ln p_j, so t ≈ ln X; X is exp(t) rounded to an integer, and
// its factorisation over the block's primes is the labeling.
func (a *multi) decodePrimes(t *big.Float, p *blockPlan) []int {
	if t.Sign() < 0 {
		t = new(big.Float) // X ≥ 1; verification rejects a bad score
	}
	bits := uint(p.xmax.BitLen()) + 64
	x := new(big.Float).SetPrec(bits)
	if _, err := apa.Exp(x, new(big.Float).SetPrec(bits).Set(t)); err != nil {
		return nil
	}
	x.Add(x, big.NewFloat(0.5))
	xi, _ := x.Int(nil)
	if xi.Sign() <= 0 || xi.Cmp(p.xmax) > 0 {
		return nil
	}
	sigma := make([]int, len(p.rows))
	q, r := new(big.Int), new(big.Int)
	for j := range sigma {
		pj := new(big.Int).SetUint64(a.primeList[j])
		for {
			q.QuoRem(xi, pj, r)
			if r.Sign() != 0 {
				break
			}
			xi.Set(q)
			sigma[j]++
		}
		if sigma[j] >= a.k {
			return nil
		}
	}
	if xi.Cmp(big.NewInt(1)) != 0 {
		return nil
	}
	return sigma
}
