// This file spreads the list's sums apart: the coordinate descent that gives
// the carried points their weights (carryWeights), shared by the list
// decoders (Leaderboard, Carry, Hybrid, KList, KBin).

package decode

import (
	"math"
	"math/bits"
	"slices"
)

// carryWeights picks palette rows (not in used, which it extends) for the
// carried points by coordinate descent over pairs of candidates: with
// sep == 0 it minimizes Σ_pairs (1 − d²/(16·sf²))₊², a compact stand-in
// for exp(−d²/(4·sf²)), the pair's share of ∫f² (sums far apart rarely
// share a cell); with sep > 0 it minimizes Σ_pairs max(0, sep − |d|)²,
// zero once every pair is sep apart. With sep == 0 and more than
// lbPairs pairs it descends on a random sample of lbPairs of them.
func (st *lbState) carryWeights(sf float64, used map[int]bool, sep float64) []int {
	nd, L := len(st.cD), len(st.cand)
	cw := make([]int, nd)
	// free draws a palette row not in used; past 64 draws (a query with
	// nearly as many points as the palette has rows) it allows a repeat,
	// which costs separation, never correctness.
	free := func() int {
		for range 64 {
			if r := st.rng.IntN(len(st.pal)); !used[r] {
				return r
			}
		}
		return st.rng.IntN(len(st.pal))
	}
	for j := range cw {
		cw[j] = free()
		used[cw[j]] = true
	}
	if L < 2 || L > lbOptList || (sf == 0 && sep == 0) {
		return cw
	}
	sl := st.carriedSums(cw)
	s16 := 16 * sf * sf
	kern := func(d float64) float64 {
		if sep > 0 {
			e := max(0, sep-math.Abs(d))
			return e * e
		}
		// A test, not max(1 − u, 0)²: most pairs are apart (u ≥ 1), and
		// the test is the cheaper there (1.7 % of this function's
		// instructions in KList at N = 5,000).
		u := d * d / s16
		if u >= 1 {
			return 0
		}
		return (1 - u) * (1 - u)
	}
	buf := &st.cwBuf
	pairs := buf.pairs[:0]
	if all := L * (L - 1) / 2; sep > 0 || all <= lbPairs {
		for x := range L {
			for y := x + 1; y < L; y++ {
				pairs = append(pairs, [2]int32{int32(x), int32(y)})
			}
		}
	} else {
		for len(pairs) < lbPairs {
			x, y := st.rng.IntN(L), st.rng.IntN(L)
			if x != y {
				pairs = append(pairs, [2]int32{int32(x), int32(y)})
			}
		}
	}
	buf.pairs = pairs
	pv := slices.Grow(buf.pv[:0], len(pairs))[:len(pairs)]
	buf.pv = pv
	cur := 0.0
	for q, p := range pairs {
		pv[q] = kern(sl[p[0]] - sl[p[1]])
		cur += pv[q]
	}
	// The pairs each point tells apart (its bits differ on them), in the
	// pairs' order, sign in the low bit (the first entry's bit): built
	// once from the entries' bits as bit sets (nw words of 64 points),
	// not by scanning every pair for every point.
	nw := (nd + 63) / 64
	rb := slices.Grow(buf.rb[:0], L*nw)[:L*nw]
	clear(rb)
	buf.rb = rb
	for l, c := range st.cand {
		for j, b := range c {
			if b == 1 {
				rb[l*nw+j/64] |= 1 << (j % 64)
			}
		}
	}
	aff := slices.Grow(buf.aff[:0], nd)[:nd]
	buf.aff = aff
	for j := range aff {
		aff[j] = aff[j][:0]
	}
	for q, p := range pairs {
		x, y := int(p[0])*nw, int(p[1])*nw
		for w := range nw {
			for diff := rb[x+w] ^ rb[y+w]; diff != 0; diff &= diff - 1 {
				j := w*64 + bits.TrailingZeros64(diff)
				aff[j] = append(aff[j], int32(q)<<1|int32(rb[x+w]>>(j%64)&1))
			}
		}
	}
	// A pair whose kernel is 0 before the move and stays 0 after it
	// (|d| at least zeroAt, with a 2^−30 margin over the roundings) adds
	// exactly 0 to a gain: the gains skip them.
	zeroAt := 4 * sf
	if sep > 0 {
		zeroAt = sep
	}
	zeroAt *= 1 + 0x1p-30
	// The live pairs of a move (those a gain reads, sign in the low
	// bit), their differences before it, the sign (±1) its increment
	// takes in them and their kernels, contiguous for the gains' loop.
	live, dd0, sg, pl := buf.live[:0], buf.dd0[:0], buf.sg[:0], buf.pl[:0]
	defer func() { buf.live, buf.dd0, buf.sg, buf.pl = live, dd0, sg, pl }()
	rs := make([]int, st.opts) // the rows tried
	ds := make([]float64, st.opts)
	for range st.passes {
		for j := range cw {
			if cur == 0 {
				break
			}
			dmax := 0.0
			for o := range rs {
				rs[o] = free()
				ds[o] = st.row(rs[o]).vf - st.row(cw[j]).vf
				dmax = max(dmax, math.Abs(ds[o]))
			}
			live, dd0, sg, pl = live[:0], dd0[:0], sg[:0], pl[:0]
			for _, e := range aff[j] {
				p := pairs[e>>1]
				dd := sl[p[0]] - sl[p[1]]
				if pv[e>>1] == 0 && math.Abs(dd)-dmax >= zeroAt {
					continue
				}
				live = append(live, e)
				dd0 = append(dd0, dd)
				sg = append(sg, float64(2*(e&1)-1))
				pl = append(pl, pv[e>>1])
			}
			best, bestGain := cw[j], 0.0
			for o, r := range rs {
				d := ds[o]
				gain := 0.0
				if sep > 0 {
					for x := range dd0 {
						gain += pl[x] - kern(dd0[x]+sg[x]*d)
					}
				} else {
					// kern inlined (the descent's inner loop).
					for x := range dd0 {
						dd := dd0[x] + sg[x]*d
						t := max(1-dd*dd/s16, 0)
						gain += pl[x] - t*t
					}
				}
				if gain > bestGain {
					best, bestGain = r, gain
				}
			}
			if best == cw[j] {
				continue
			}
			d := st.row(best).vf - st.row(cw[j]).vf
			for l, c := range st.cand {
				if c[j] == 1 {
					sl[l] += d
				}
			}
			// The pairs not live keep their kernel at 0 (the move is at
			// most dmax): only the live ones change.
			for _, e := range live {
				q := e >> 1
				p := pairs[q]
				v := kern(sl[p[0]] - sl[p[1]])
				cur += v - pv[q]
				pv[q] = v
			}
			cur = max(cur, 0)
			delete(used, cw[j])
			used[best] = true
			cw[j] = best
		}
	}
	return cw
}
