// This file designs the list's last query and decodes a Leaderboard score:
// the list entries with the fresh labelings within the budget's window (a
// meet in the middle), kept when they explain the score, and the labels they
// agree on learned.

package decode

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
)

// final designs the last query if it can separate every candidate: the
// nFresh fresh points as a Conway–Guy set at a unit g above twice the
// budget, the list's sums more than the set's span (plus g) apart.
func (st *lbState) final(nFresh int) ([]int, []rowInfo, bool) {
	a := st.a
	if nFresh > maxCG || len(st.cand) > lbOptList {
		return nil, nil, false
	}
	idx := append(slices.Clone(st.cD), st.fresh(nFresh)...)
	g := st.cell * (1 + 0x1p-8)
	for range 4 {
		var frs []rowInfo
		span, gf := 0.0, math.Inf(1)
		if nFresh > 0 {
			if a.kConwayGuy(g, nFresh) < nFresh {
				return nil, nil, false
			}
			p, err := a.mixedDesign(nFresh, 0, g) // a Conway–Guy block
			if p == nil || err != nil {
				return nil, nil, false
			}
			for _, x := range p.v {
				f, _ := x[1].Float64()
				span += f
			}
			frs = p.rows
			gf, _ = p.gap.Float64()
		}
		// The carried points' weights (none, and a list of one, if no
		// point is carried).
		sep := (span + g) * (1 + 0x1p-10)
		cw := st.carryWeights(0, map[int]bool{}, sep)
		sl := st.carriedSums(cw)
		slices.Sort(sl)
		for x := 1; x < len(sl); x++ {
			if sl[x]-sl[x-1] < sep {
				return nil, nil, false
			}
		}
		rs := append(st.palRows(len(frs), cw), frs...)
		if b := a.budgetFor(idx, rs, false); gf > 2*b*(1+0x1p-12) && g > 2*b*(1+0x1p-12) {
			return idx, rs, true
		}
		g *= 1 + 0x1p-6
	}
	return nil, nil, false
}

// decode keeps the candidates that explain the score, learns the points
// they agree on and carries the others; it returns the labels learned. A
// candidate explains the score when its exact sum lies within the
// rigorous budget of N·score (Leaderboard) or, under emulation, when the
// emulated bracket of its reported score holds the score (Carry).
func (st *lbState) decode(score *big.Rat, idx []int, rs []rowInfo) (int, error) {
	a := st.a
	nd := len(st.cD)
	budget := a.budgetFor(idx, rs, false)
	t := a.residual(score, &blockPlan{rows: rs})
	v := increments(rs)
	var explains func(l int, m uint32, above bool) bool
	if a.emu != nil {
		explains = st.bracketTest(score, idx, rs)
		defer a.neutralize(idx)
	} else {
		bud := new(big.Float).SetFloat64(budget)
		x := new(big.Float).SetPrec(sumPrec)
		explains = func(l int, m uint32, _ bool) bool {
			x.SetInt64(0) // the candidate's exact sum, then its distance from t
			for j := range v {
				if st.bit(l, m, j) == 1 {
					x.Add(x, v[j][1])
				}
			}
			return x.Sub(t, x).Abs(x).Cmp(bud) <= 0
		}
	}
	keep := st.window(t, budget, v, len(idx)-nd, explains)
	if len(keep) == 0 {
		return 0, fmt.Errorf("%w: no labeling of the %d carried and %d fresh points explains the score under %s", ErrInconsistent, nd, len(idx)-nd, a.m.Name)
	}
	return st.update(idx, keep, len(idx)-nd), nil
}

// bit returns the label candidate (list entry l, fresh labels m) gives
// the query's point j: the entry's for a carried point, m's bit for a
// fresh one.
func (st *lbState) bit(l int, m uint32, j int) uint8 {
	if nd := len(st.cD); j >= nd {
		return uint8(m >> (j - nd) & 1)
	}
	return st.cand[l][j]
}

// lbSurv is a candidate of a query: list entry l with fresh labels m
// (bit j for fresh point j) and, below a list top, the reading n of its
// digits (Hybrid's, KBin's) or its tail labeling, each tail position's
// value (KList's; nil if the tail's lister stopped short: every tail
// label is kept open).
type lbSurv struct {
	l    int
	m    uint32
	n    uint64
	tail []int
}

// window returns the candidates (list entry, fresh labels) of a query of
// the carried points and k fresh points, increments v, whose float64 sum
// lies within budget of t (widened by a margin far above float64's
// rounding, so a superset of those whose exact sums do) and that
// explains accepts. The fresh labels are found by a meet in the middle
// [HS74]: halves A (the first k/2) and B, B's sums sorted.
func (st *lbState) window(t *big.Float, budget float64, v [][]*big.Float, k int, explains func(l int, m uint32, above bool) bool) []lbSurv {
	tf, _ := t.Float64()
	var keep []lbSurv
	vf := make([]float64, len(v))
	abs := math.Abs(tf) + 1
	for j := range v {
		vf[j], _ = v[j][1].Float64()
		abs += math.Abs(vf[j])
	}
	// The float64 filter keeps a superset: its sums are off by far less
	// than 2^−40 of the magnitudes involved; explains decides.
	margin := abs * 0x1p-40
	st.windowRange(tf-budget-margin, tf+budget+margin, tf, vf, k, func(l int, m uint32, above bool) {
		if explains(l, m, above) {
			keep = append(keep, lbSurv{l: l, m: m})
		}
	})
	return keep
}

// windowRange calls f on every candidate (list entry l, fresh labels m)
// of a query of the carried points and k fresh points, float64
// increments vf, whose float64 sum lies in [lo, hi] (above: the sum is
// at least tf): the meet in the middle of window.
func (st *lbState) windowRange(lo, hi, tf float64, vf []float64, k int, f func(l int, m uint32, above bool)) {
	nd := len(st.cD)
	kA := k / 2
	type sm struct {
		s float64
		m uint32
	}
	// sorted returns the 2^len(w) subset sums of w (float64, each
	// summed in w's order) in ascending order, equal sums by mask: S and
	// S + w_j merged weight by weight, O(2^k) rather than a sort's
	// O(k·2^k).
	sorted := func(w []float64) []sm {
		out := make([]sm, 1, 1<<len(w))
		buf := make([]sm, 0, 1<<len(w))
		for j, x := range w {
			n, b := len(out), uint32(1)<<j
			buf = buf[:0]
			i, k := 0, 0
			for i < n || k < n {
				if k == n || i < n && out[i].s <= out[k].s+x {
					buf = append(buf, out[i])
					i++
				} else {
					buf = append(buf, sm{out[k].s + x, out[k].m | b})
					k++
				}
			}
			out, buf = buf, out[:0]
		}
		return out
	}
	sortedA, sortedB := sorted(vf[nd:nd+kA]), sorted(vf[nd+kA:nd+k])
	for l, c := range st.cand {
		var sc float64
		for j, b := range c {
			if b == 1 {
				sc += vf[j]
			}
		}
		// A's sums ascend, so the first B sum ≥ lo − base descends: one
		// sweep of a pointer down B per list entry.
		x := len(sortedB)
		for _, a := range sortedA {
			base := sc + a.s
			for x > 0 && sortedB[x-1].s >= lo-base {
				x--
			}
			for y := x; y < len(sortedB) && sortedB[y].s <= hi-base; y++ {
				f(l, a.m|sortedB[y].m<<kA, base+sortedB[y].s >= tf)
			}
		}
	}
}

// setCarried makes the points idx[j], j in open, the carried ones.
func (st *lbState) setCarried(idx, open []int) {
	for _, i := range st.cD {
		st.inD[i] = false
	}
	st.cD = st.cD[:0]
	for _, j := range open {
		st.cD = append(st.cD, idx[j])
		st.inD[idx[j]] = true
	}
}

// update learns the points of the query idx (the carried points, k top
// fresh points, then digits) on which every candidate of keep (at least
// one) agrees, carries the others with the list of keep's distinct labels
// on them, and returns the number of labels learned.
func (st *lbState) update(idx []int, keep []lbSurv, k int) int {
	a, nd, n := st.a, len(st.cD), len(idx)
	vm := make([]uint8, 0, len(keep)*n) // each survivor's labels
	for _, c := range keep {
		vm = append(vm, st.cand[c.l]...)
		for j := range k {
			vm = append(vm, uint8(c.m>>j&1))
		}
		for j := range n - nd - k {
			vm = append(vm, uint8(c.n>>j&1))
		}
	}
	_, open, cand := listUpdate(n, len(keep), vm)
	sigma := make([]int, n)
	for j := range idx {
		sigma[j] = int(vm[j])
	}
	for _, j := range open {
		sigma[j] = -1
	}
	st.setCarried(idx, open)
	st.cand = cand
	return a.learn(idx, sigma)
}

// listUpdate returns, over the survivors s < ns of a query (vm[s·n + j]
// their values on its positions j < n, read once by the caller), the
// union of each position's values, the positions on which they disagree,
// in order, and their distinct rows of values on those, in order of first
// appearance: the next list.
func listUpdate[T uint8 | uint64](n, ns int, vm []T) (union []T, open []int, rows [][]T) {
	union = make([]T, n)
	for j := range n {
		v0, agree := vm[j], true
		union[j] = v0
		for s := 1; s < ns; s++ {
			v := vm[s*n+j]
			union[j] |= v
			agree = agree && v == v0
		}
		if !agree {
			open = append(open, j)
		}
	}
	seen := make(map[string]bool, ns)
	var key []byte
	for s := range ns {
		e := make([]T, len(open))
		key = key[:0]
		for x, j := range open {
			e[x] = vm[s*n+j]
			key = binary.LittleEndian.AppendUint64(key, uint64(e[x]))
		}
		if !seen[string(key)] {
			seen[string(key)] = true
			rows = append(rows, e)
		}
	}
	return union, open, rows
}
