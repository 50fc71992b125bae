// This file decodes a KList score (klist.go): every list entry with every
// fresh labeling whose residual fits the tail, read through the tail's digits
// within the rigorous budget and emulated whole.

package decode

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"
)

// decode finds every candidate that explains the score, learns what they
// agree on and carries the rest; it returns the labels learned.
func (st *klState) decodeList(score *big.Rat, q *klQuery) (int, error) {
	a, lb := st.a, st.lb
	a.fillBase()
	defer a.neutralize(q.idx)
	nd, nTop := q.nd, q.nd+q.k
	budget := a.budgetFor(q.idx, q.rows, false)
	t0, inc := q.offsets()
	// The residual the tail must explain: t − T0 − top bits' sum (t the
	// score's residual), within [base − b, base + span + b].
	r0 := new(big.Float).SetPrec(sumPrec).Sub(a.residual(score, &blockPlan{rows: q.rows}), t0)
	tl := st.newTail(q) // no positions, base and span 0, without a tail
	if sf, _ := tl.span.Float64(); sf > 0 {
		st.spanRatio = sf / q.room // the next tail's room is scaled by it
	}
	half := new(big.Float).SetPrec(sumPrec).Quo(tl.span, big.NewFloat(2))
	center := new(big.Float).SetPrec(sumPrec).Sub(r0, tl.base)
	center.Sub(center, half)
	hf, _ := half.Float64()
	// The score's float64 bounds, rounded outward (the noise widens them).
	sLo, sHi := a.scoreRange(score)
	fLo, fHi := ratDown(sLo), ratUp(sHi)
	exact := pointTerms(a, q.rows)
	match := func() bool {
		if r, ok, err := a.emu.ReportFloat(a.lo); ok && exact {
			return err != nil || (r >= fLo && r <= fHi)
		}
		return a.bracketMeets(sLo, sHi)
	}
	// bracket reports whether a tail labeling with its positions before
	// s as set may explain the score: the summation is monotone in
	// every term (rounded additions), so every labeling of the positions
	// from s on reports between the reports with each of them at its
	// least and at its largest computed term.
	bracket := func(s int) bool {
		for h, hi := range []bool{false, true} {
			for x := s; x < len(tl.pos); x++ {
				a.lo.Set(tl.pos[x].i, tl.pos[x].t[h])
			}
			// The report at the least terms above the score, or at the
			// largest below it, rules the subtree out.
			if r, ok, err := a.emu.ReportFloat(a.lo); ok {
				if err == nil && (hi && r < fLo || !hi && r > fHi) {
					return false
				}
			} else if r, err := a.emu.Report(a.lo); err == nil && (hi && r.Cmp(sLo) < 0 || !hi && r.Cmp(sHi) > 0) {
				return false
			}
		}
		return true
	}
	set := func(j, c int) {
		i, r := q.idx[j], &q.rows[j]
		a.lo.Set(i, r.lo[c])
		a.hi.Set(i, r.hi[c])
	}
	var surv []lbSurv
	sig := make([]int, len(q.tIdx))
	// The residual r0 − Σ (top bits' increments) in double-double
	// arithmetic (ddSum): the carried bits' part once per list entry,
	// the fresh bits' per candidate, with err bounding its distance from
	// the exact residual (far below the margin the windows keep).
	// cs[j] is top position j's labels of bits 0 and 1, v[j] its
	// increments for the window (bit 0's and bit 1's).
	dh, dl, cs := make([]float64, nTop), make([]float64, nTop), make([][2]int, nTop)
	v := make([][]*big.Float, nTop)
	mag := 0.0
	r0h, r0l := ddSplit(r0)
	zero := new(big.Float)
	for j := range nTop {
		v[j] = []*big.Float{zero, inc[j][0]}
		dh[j], dl[j] = ddSplit(inc[j][0])
		cs[j] = [2]int{bits.TrailingZeros64(q.dv[j][0]), bits.TrailingZeros64(q.dv[j][1])}
		mag += math.Abs(dh[j])
	}
	mag += math.Abs(r0h)
	ddErr := float64((nTop+2)*(nTop+2)) * 0x1p-100 * mag
	// topCur[j] is the label top position j's terms are set to (−1:
	// none yet): a candidate sets only the positions it changes.
	topCur := slices.Repeat([]int{-1}, nTop)
	// Each list entry's, summed when the window first reads it (most
	// entries it never reads).
	carried, summed := make([]ddSum, len(lb.cand)), make([]bool, len(lb.cand))
	explains := func(l int, m uint32, _ bool) bool {
		if !summed[l] {
			carried[l], summed[l] = ddSum{h: r0h, l: r0l}, true
			for j, b := range lb.cand[l] {
				if b == 1 {
					carried[l].sub(dh[j], dl[j])
				}
			}
		}
		res := carried[l]
		for j := range nTop {
			b := 0
			if j < nd && lb.cand[l][j] == 1 {
				b = 1
			} else if j >= nd && m>>(j-nd)&1 == 1 {
				res.sub(dh[j], dl[j])
				b = 1
			}
			if c := cs[j][b]; topCur[j] != c {
				set(j, c)
				topCur[j] = c
			}
		}
		rf := res.h + res.l
		// |rf − the exact residual| ≤ extra.
		extra := ddErr + math.Abs(rf)*0x1p-52
		if q.tail == nil {
			if math.Abs(rf)-extra > budget || !match() {
				return false
			}
			surv = append(surv, lbSurv{l: l, m: m, tail: []int{}})
			return true
		}
		bf := budget + extra
		n0 := len(surv)
		complete := tl.list(rf-bf-tl.margin, rf+bf+tl.margin, func(j, x, c int) {
			sig[j] = x
			set(nTop+j, c)
		}, func() {
			if match() {
				surv = append(surv, lbSurv{l: l, m: m, tail: slices.Clone(sig)})
			}
		}, bracket)
		if !complete {
			surv = append(surv, lbSurv{l: l, m: m})
		}
		return !complete || len(surv) > n0
	}
	lb.window(center, hf+budget, v, q.k, explains)
	if len(surv) == 0 {
		return 0, fmt.Errorf("%w: no labeling of the %d carried, %d fresh and %d tail points explains the score under %s", ErrInconsistent, nd, q.k, len(q.tIdx), a.m.Name)
	}
	return st.update(q, surv), nil
}

// offsets returns the sum T0 of the top's and the digits' value-0 terms
// (over the terms of label 0, which constC counts) and each position's
// increments over its value 0, inc[j][v − 1] for value v: its values
// are dv[j] (a top position's bits 0 and 1, a digit's groups), each read
// at its least label.
func (q *klQuery) offsets() (*big.Float, [][]*big.Float) {
	nTop := q.nd + q.k
	t0 := new(big.Float).SetPrec(sumPrec)
	inc := make([][]*big.Float, nTop+len(q.rad))
	for j := range inc {
		r := &q.rows[j]
		cs := leastLabels(q.dv[j])
		t0.Add(t0, new(big.Float).SetPrec(incPrec).Sub(r.t[cs[0]], r.t[0]))
		for _, c := range cs[1:] {
			inc[j] = append(inc[j], new(big.Float).SetPrec(incPrec).Sub(r.t[c], r.t[cs[0]]))
		}
	}
	return t0, inc
}
