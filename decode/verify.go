// This file decodes and verifies one block's score against the attack's
// state (state.go), learns the labels, and sends the final check query.

package decode

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/labelinf/labelinf/scorer"
)

// decode reads the block's labels from a score and verifies them: the
// decoded labeling's exact sum must be within the budget of N·score, and
// the block's sums are more than twice the budget apart, so it is the only
// labeling that is.
func (a *multi) decode(score *big.Rat, idx []int, p *blockPlan) ([]int, bool) {
	t := a.residual(score, p)
	if p.emu {
		return a.decodeEmu(score, t, idx, p)
	}
	sigma := p.read(a, t, p) // nil: t does not decode
	for j, cl := range sigma {
		t.Sub(t, p.v[j][cl]) // the remainder
	}
	if sigma == nil || t.Abs(t).Cmp(new(big.Float).SetFloat64(p.budget)) > 0 {
		return nil, false
	}
	return sigma, true
}

// residual returns N·score − constC(p): the label-dependent part of the
// sum, with the block's points counted from class 0.
func (a *multi) residual(score *big.Rat, p *blockPlan) *big.Float {
	return new(big.Float).SetPrec(sumPrec).Sub(nTimes(score, a.n), a.constC(p))
}

// constC returns the exact sum of every term that does not depend on the
// block's labels (the block's points counted at class 0).
func (a *multi) constC(p *blockPlan) *big.Float {
	nNeutral := int64(a.nUnk - len(p.rows))
	if a.neutralKnown {
		nNeutral = int64(a.n - len(p.rows)) // the known points too
	}
	c := new(big.Float).SetPrec(sumPrec).Set(a.knownSum())
	c.Add(c, timesN(a.neutral.t[0], nNeutral))
	for _, r := range p.rows {
		c.Add(c, r.t[0])
	}
	return c
}

// knownSum returns the exact sum of the known points' terms at their
// rows (0 if the strategy predicts them neutral), kept until the next
// label is learned.
func (a *multi) knownSum() *big.Float {
	if a.kSum != nil {
		return a.kSum
	}
	c := new(big.Float).SetPrec(sumPrec)
	for cl := range a.k {
		switch {
		case a.neutralKnown:
		case a.dither != nil:
			// A product whose count did not change since the last sum
			// is kept (a query learns a few dozen labels).
			for j, n := range a.dcount[cl] {
				if p := &a.kProd[cl][j]; n > 0 {
					if p.n != n {
						p.x, p.n = timesN(a.dither[cl][j].t[cl], n), n
					}
					c.Add(c, p.x)
				}
			}
		case a.nKnown[cl] > 0:
			c.Add(c, timesN(a.known[cl].t[cl], a.nKnown[cl]))
		}
	}
	a.kSum = c
	return c
}

// countProd is a product x = n·t knownSum keeps while the count n stays.
type countProd struct {
	x *big.Float
	n int
}

// timesN returns n·x exactly (sumPrec).
func timesN[I int | int64](x *big.Float, n I) *big.Float {
	return new(big.Float).SetPrec(sumPrec).Mul(x, new(big.Float).SetInt64(int64(n)))
}

// learn records the block's labels (−1: still unknown) and returns how
// many it learned.
func (a *multi) learn(idx, sigma []int) (got int) {
	a.kSum = nil
	for j, i := range idx {
		if sigma[j] < 0 {
			continue // partially decoded block: still unknown
		}
		a.labels[i] = sigma[j]
		a.markSkip(i)
		a.nUnk--
		a.dUnk -= float64(a.depth[i])
		a.nKnown[sigma[j]]++
		a.dKnown[sigma[j]] += float64(a.depth[i])
		if a.dither != nil {
			a.dcount[sigma[j]][ditherIdx(i)]++
		}
		a.putRow(i)
		if a.emu != nil {
			a.stale = append(a.stale, i)
		}
		got++
	}
	if a.leader != nil {
		a.learnFollowers(idx, sigma)
	}
	if a.emu != nil {
		a.emuFactor = max(a.fac.min, a.emuFactor*a.fac.decay)
	}
	return got
}

// checkKnown returns an error unless known holds n labels, each a class
// of [0, k) or −1 (unknown).
func checkKnown(known []int, n, k int) error {
	if len(known) != n {
		return fmt.Errorf("decode: %d known labels for N = %d", len(known), n)
	}
	for i, c := range known {
		if c < -1 || c >= k {
			return fmt.Errorf("decode: known label %d of point %d outside [-1, %d)", c, i, k)
		}
	}
	return nil
}

// check submits every point at its recovered label's row and compares the
// score with the exact sum of those rows' terms. It is decisive when one
// wrong label would move the sum by more than twice the budget.
func (a *multi) check(ctx context.Context, s scorer.Server) (ok, decisive bool, err error) {
	w := predWidth(a.k)
	pr := &scorer.Pred{K: a.k, P: make([]float64, a.n*w)}
	c := new(big.Float).SetPrec(sumPrec)
	for i, cl := range a.labels {
		copy(pr.P[i*w:(i+1)*w], a.known[cl].row)
	}
	for cl := range a.k {
		c.Add(c, timesN(a.known[cl].t[cl], a.nKnown[cl]))
	}
	budget := a.budgetFor(nil, nil, false)
	// The smallest move of one wrong label.
	minMove := math.Inf(1)
	for cl := range a.k {
		for o := range a.k {
			if o != cl {
				f, _ := new(big.Float).Sub(a.known[cl].t[o], a.known[cl].t[cl]).Float64()
				minMove = min(minMove, f)
			}
		}
	}
	// The budget of the check is that of the worst case, all labels right;
	// a wrong label only raises the sum.
	if a.queries >= a.maxQ {
		return false, false, fmt.Errorf("decode: query limit %d reached before the check", a.maxQ)
	}
	score, err := s.Score(ctx, pr)
	a.queries++
	if err != nil {
		return false, false, err
	}
	ns := nTimes(score, a.n)
	ns.Sub(ns, c)
	return ns.Abs(ns).Cmp(new(big.Float).SetFloat64(budget)) <= 0, minMove > 2*budget, nil
}
