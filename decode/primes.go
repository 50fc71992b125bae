// This file implements ICML Alg 1, the Primes strategy [AKXFT21, Alg 1,
// Thm 2].

package decode

import (
	"math"
	"math/big"
	"slices"

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

// planPrimes designs ICML Alg 1's block: the first k primes, row c ∝
// p^(K−1−c), k the largest whose products the budget separates (the rows
// made once, the block grown a prime at a time).
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
	var rows []rowInfo
	xmax := big.NewInt(1)
	dev := 0.0 // max over points and classes of |v_j(c) − c·ln p_j|
	for j := range min(kmax, len(a.primeList)) {
		pj := a.primeList[j]
		pr := float64(pj)
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
			break
		}
		ri, err := a.rowInfo(row)
		if err != nil {
			return nil, err
		}
		rows = append(rows, ri)
		lnp := new(big.Float).SetPrec(incPrec)
		if _, err := apa.Log(lnp, new(big.Float).SetUint64(pj)); err != nil {
			return nil, err
		}
		for c := 1; c < a.k; c++ {
			d := new(big.Float).SetPrec(incPrec).Sub(ri.t[c], ri.t[0])
			d.Sub(d, new(big.Float).Mul(lnp, big.NewFloat(float64(c))))
			f, _ := d.Float64()
			dev = max(dev, math.Abs(f))
		}
		b := new(big.Int).SetUint64(pj)
		xmax.Mul(xmax, b.Exp(b, big.NewInt(int64(a.k-1)), nil))
		// The block of the first j + 1 primes. Distinct products X ≠ X' ≤
		// X_max: |ln X − ln X'| ≥ ln(1 + 1/X_max), less twice the sum's
		// deviation, at most k·dev (1e−9 rounds the float64 product up).
		p := &blockPlan{read: (*multi).decodePrimes, rows: slices.Clip(rows), v: increments(rows), xmax: new(big.Int).Set(xmax)}
		p.budget = a.budgetFor(a.nextIdx(j+1), p.rows, true)
		inv := new(big.Float).SetPrec(incPrec).Quo(big.NewFloat(1), new(big.Float).SetInt(xmax))
		p.gap = new(big.Float).SetPrec(incPrec)
		if _, err := apa.Log1p(p.gap, inv); err != nil {
			return nil, err
		}
		p.gap.Sub(p.gap, new(big.Float).SetFloat64(2*(dev*(float64(j+1)*(1+1e-9)))))
		if p.gap.Sign() <= 0 || !gapOK(p.gap, p.budget) {
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
		for q.QuoRem(xi, pj, r); r.Sign() == 0; q.QuoRem(xi, pj, r) {
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
