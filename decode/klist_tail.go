// This file lists the labelings of a KList query's tail whose sums lie in a
// window (klist_decode.go).

package decode

import (
	"cmp"
	"math"
	"math/big"
	"slices"
)

// klTail lists the labelings of a query's tail whose float64 sums lie
// in a window: a superset of those whose exact sums do, the window
// widened by margin, far above float64's rounding of the sums.
type klTail struct {
	pos        []klPos   // the tail's positions, largest span first
	minR, maxR []float64 // the least and largest sum of pos[s:]
	margin     float64
	depth      int // the bracketed subtrees' depth (klistParams.bracket, or one more)
	// base is the least exact sum of the tail's increments over its
	// points' label sets, span the range above it.
	base, span *big.Float
}

// klPos is a position of a query's tail.
type klPos struct {
	j, i int        // its place in the tail and its point
	cls  []int      // its labels (a grouped digit's: its groups' least)
	d    []float64  // d[x]: the increment of label cls[x]
	t    [2]float64 // its least and largest computed term over cls (brackets)
}

// newTail prepares the lister of q's tail.
func (st *klState) newTail(q *klQuery) *klTail {
	nt := len(q.tIdx)
	tl := &klTail{pos: make([]klPos, nt), minR: make([]float64, nt+1), maxR: make([]float64, nt+1),
		base: new(big.Float).SetPrec(sumPrec), span: new(big.Float).SetPrec(sumPrec)}
	abs := 0.0
	for j := range tl.pos {
		p, r, v := &tl.pos[j], &q.rows[q.nd+q.k+j], q.tail.v[j]
		p.j, p.i, p.cls = j, q.tIdx[j], leastLabels(q.dv[q.nd+q.k+j])
		for _, c := range p.cls {
			f, _ := v[c].Float64()
			p.d = append(p.d, f)
		}
		// The labels of a group share its term: its least label stands
		// for it.
		lo := slices.MinFunc(p.cls, func(x, y int) int { return v[x].Cmp(v[y]) })
		hi := slices.MaxFunc(p.cls, func(x, y int) int { return v[x].Cmp(v[y]) })
		tl.base.Add(tl.base, v[lo])
		tl.span.Add(tl.span, new(big.Float).SetPrec(sumPrec).Sub(v[hi], v[lo]))
		abs += max(math.Abs(slices.Min(p.d)), math.Abs(slices.Max(p.d)))
		p.t[0] = r.lo[slices.MinFunc(p.cls, func(x, y int) int { return cmp.Compare(r.lo[x], r.lo[y]) })]
		p.t[1] = r.hi[slices.MaxFunc(p.cls, func(x, y int) int { return cmp.Compare(r.hi[x], r.hi[y]) })]
	}
	span := func(p klPos) float64 { return slices.Max(p.d) - slices.Min(p.d) }
	slices.SortStableFunc(tl.pos, func(x, y klPos) int { return cmp.Compare(span(y), span(x)) })
	for s := nt - 1; s >= 0; s-- {
		tl.minR[s] = tl.minR[s+1] + slices.Min(tl.pos[s].d)
		tl.maxR[s] = tl.maxR[s+1] + slices.Max(tl.pos[s].d)
	}
	tl.margin = (abs + 1) * 0x1p-40
	tl.depth = st.kb.klist.bracket
	if nt > tl.depth+1 && len(tl.pos[nt-1].d) <= 2 {
		tl.depth++
	}
	return tl
}

// list calls set(tail position, value, its label) for each position of a
// labeling whose sum lies in [lo, hi] (widened by the caller), then leaf,
// depth first with the digits of largest span first, skipping the
// subtrees of the last tl.depth positions that bracket rules out; it
// reports false if it stopped after maxCand labelings.
func (tl *klTail) list(lo, hi float64, set func(j, x, c int), leaf func(), bracket func(s int) bool) bool {
	n := 0
	var rec func(s int, p float64) bool
	rec = func(s int, p float64) bool {
		// A bracket costs two emulations: a last digit with at most two
		// labels in the window is emulated directly (the bracket only
		// skips labelings that cannot explain the score).
		if s == len(tl.pos)-tl.depth && s > 0 && (tl.depth > 1 || tl.within(s, p, lo, hi) > 2) && !bracket(s) {
			return true
		}
		if s == len(tl.pos) {
			if n++; n > maxCand {
				return false
			}
			leaf()
			return true
		}
		ps := &tl.pos[s]
		for x, dv := range ps.d {
			q := p + dv
			if q+tl.minR[s+1] > hi || q+tl.maxR[s+1] < lo {
				continue
			}
			set(ps.j, x, ps.cls[x])
			if !rec(s+1, q) {
				return false
			}
		}
		return true
	}
	return rec(0, 0)
}

// within counts the labels of the last position s whose sum, after the
// sum p of the positions before it, lies in [lo, hi].
func (tl *klTail) within(s int, p, lo, hi float64) int {
	n := 0
	for _, dv := range tl.pos[s].d {
		if q := p + dv; q >= lo && q <= hi {
			n++
		}
	}
	return n
}
