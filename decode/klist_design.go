// This file designs KList's queries (klist.go): the top's binary questions over
// the list's carried points and fresh points, the carried points' splits that
// tell the list's entries apart, and the tail of digits fitted to the room
// below the top.

package decode

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// designQuery returns the next query.
func (st *klState) designQuery() (*klQuery, error) {
	a, lb := st.a, st.lb
	L, nd := len(st.vals), len(lb.cD)
	// Each carried point's split: its list values in two groups (a
	// binary question's two halves stay the two), and the entries' bits
	// on it.
	s0 := st.splits()
	lb.cand = make([][]uint8, L)
	for l, e := range st.vals {
		lb.cand[l] = make([]uint8, nd)
		for j, v := range e {
			if v&s0[j] == 0 {
				lb.cand[l][j] = 1
			}
		}
	}
	pool := lb.fresh(st.kb.klist.maxFresh + radixBlockMax)
	// Points of an even number of labels first: they take the fresh
	// binary questions, whose answers are then fair coins (one bit each),
	// and points of an odd number go to the tail, whose mixed-radix digits
	// read log2 |M_i| bits whatever |M_i| (a question on three labels
	// carries H(1/3) = 0.918 bits). Seeds 1, 8, 13 and i mod 6 at
	// N = 25,000, K = 6: 1,385, 1,385, 1,384, 1,389 queries against
	// 1,393, 1,397, 1,393, 1,395 in order (list target 12 against 16:
	// the tail's rows vary more, for about 0.1 s more of attacker CPU).
	slices.SortStableFunc(pool, func(x, y int) int {
		return bits.OnesCount64(a.mask[x])&1 - bits.OnesCount64(a.mask[y])&1
	})
	fw, used, vf := lb.freshRows(min(len(pool), st.kb.klist.maxFresh))
	kmax := len(fw)
	if !st.bin && st.ending() {
		// The drain: only points of two labels take fresh questions
		// (their halves are single labels), the others go to the tail.
		slices.SortStableFunc(pool, func(x, y int) int {
			return cmp.Compare(min(1, bits.OnesCount64(a.mask[x])^2), min(1, bits.OnesCount64(a.mask[y])^2))
		})
		if n2 := slices.IndexFunc(pool, func(i int) bool { return bits.OnesCount64(a.mask[i]) != 2 }); n2 >= 0 {
			kmax = min(kmax, n2)
		}
	}
	ulpN, unit := a.radixSpacing(st.kb.klist.rho)
	// The cell below which two top candidates are not told apart without
	// a tail: a few spacings (the summation's rounding).
	cell0 := 2 * ulpN
	sep := 0.0
	if kmax == 0 {
		sep = 2 * cell0
	}
	cw := lb.carryWeights(math.Sqrt(vf[kmax]), used, sep)
	sl := lb.carriedSums(cw)
	if st.bin {
		return st.designBin(s0, pool, fw, vf, cw, sl)
	}
	// The cell u and the fresh count k: the most bits asked, k + log2 u,
	// with the expected list at most klistParams.target. A tail needs room for a
	// few digits at the unit.
	maxRoom := float64(a.k-1) * a.wmax * a.radix.room
	minRoom := float64(a.k) * unit
	tgt := st.kb.klist.target
	bestK, bestU, bestF := 0, 0.0, math.Inf(-1)
	// The bits the tail's points can carry after k fresh ones, at most
	// (their digits' log2 |M_i|): near the end of the attack the tail
	// runs out of points before it fills a room.
	capBits := make([]float64, len(pool)+1)
	for x := len(pool) - 1; x >= 0; x-- {
		capBits[x] = capBits[x+1] + math.Log2(float64(bits.OnesCount64(a.mask[pool[x]])))
	}
	// k + log2 u grows with k but where the cap on the room binds: the
	// ends and the middle are tried, every k near the end.
	every := len(pool) < st.kb.klist.maxFresh+radixBlockMax/4
	for k := range kmax + 1 {
		if !every && k != 0 && k != kmax/2 && k != kmax {
			continue
		}
		m := float64(L) * math.Exp2(float64(k))
		var u float64
		if k == 0 {
			// The exact expectation of a uniform offset: not linear in
			// the cell; bisect on a log scale.
			if !(lbExpected(sl, m, 0, cell0) > tgt && L > 1) {
				u = cell0 * math.Exp2(bisect(0, math.Log2(maxRoom/cell0), 24, func(x float64) bool {
					return lbExpected(sl, m, 0, cell0*math.Exp2(x)) <= tgt
				}))
			}
		} else {
			e1 := lbExpected(sl, m, math.Sqrt(vf[k]), 1) - 1
			u = maxRoom
			if e1 > 0 {
				u = min(maxRoom, (tgt-1)/e1)
			}
		}
		if u < minRoom {
			// No tail: the candidates must be told apart at the cell.
			if k > 0 && lbExpected(sl, m, math.Sqrt(vf[k]), cell0) > tgt {
				continue
			}
			u = cell0
		}
		f := float64(k)
		if u >= minRoom {
			f += min(math.Log2(u/unit), capBits[k]-capBits[min(k+radixBlockMax, len(pool))])
		}
		if f > bestF {
			bestK, bestU, bestF = k, u, f
		}
	}
	q := &klQuery{nd: nd, k: bestK, rows: make([]rowInfo, 0, nd+len(pool))} // one allocation: a row is 160 bytes
	if err := st.askTop(q, s0, pool[:bestK], fw, cw); err != nil {
		return nil, err
	}
	rest := pool[bestK:max(bestK, a.opt.blockCap(len(pool)))]
	if bestU >= minRoom && len(rest) > 0 {
		// The tail's digits span about u: its top digit's room, scaled
		// once by the realized span.
		// The tail's room on a coarse grid (its rows recur across
		// queries), scaled by the previous tail's span over its room.
		room := math.Exp2(math.Floor(math.Log2(bestU/st.spanRatio)*klRoomGrid) / klRoomGrid)
		rest = st.fitTail(rest, room)
		p, err := a.planRadixOn(rest, room, st.kb.klist.rho, false)
		groups := a.digitGroups
		a.digitGroups = nil
		if err != nil {
			return nil, err
		}
		q.tail, q.tIdx = p, rest[:len(p.rows)]
		for _, i := range q.tIdx {
			g := groups[i]
			if g != nil {
				st.tailGrouped++
			} else {
				g = labelSets(a.mask[i])
			}
			q.dv = append(q.dv, g)
		}
		q.room = room
		q.idx = append(q.idx, q.tIdx...)
		q.rows = append(q.rows, q.tail.rows...)
	}
	return q, nil
}

// askTop appends to q the top's questions: the carried points (splits
// s0, palette rows cw) and the fresh points fresh (their sets' halves,
// palette rows fw), each point asked its binary question (bit 0: the
// labels of its half) with the palette row's nominal increment.
func (st *klState) askTop(q *klQuery, s0 []uint64, fresh, fw, cw []int) error {
	a, lb := st.a, st.lb
	nd := len(lb.cD)
	for j, i := range slices.Concat(lb.cD, fresh) {
		var half uint64
		var w float64
		if j < nd {
			half, w = s0[j], lb.pal[cw[j]].vf
		} else {
			half, w = split(a.mask[i]), lb.pal[fw[j-nd]].vf
		}
		if j >= nd && !st.bin {
			// Neither which half takes bit 0 nor which labels of an odd
			// set share the larger half follows the labels' order: a
			// hash of the point and the query picks them, so that a
			// labeling's bits and its sum's place among the candidates'
			// are those of a random labeling whatever the labeling. With
			// the lower half at bit 0 and positive weights, a constant
			// labeling's fresh sum was the least or the largest of all
			// (few candidates near it: 1,306 queries at N = 25,000,
			// K = 6) and i mod 6's (bits 000111 repeated) near the
			// middle (1,365, the most of the 23 benchmark labelings).
			// (KBin shuffles its point order instead, kbin.go.)
			key := uint64(i) | uint64(a.queries)<<32
			if bits.OnesCount64(a.mask[i])&1 == 1 {
				// The larger half keeps the smaller term (w > 0): the
				// more likely answer adds less to the sum, whose
				// magnitude sets the score's spacing (torch-bce,
				// K = 3, N = 25,000, seeds 1–3: 2,041, 2,041, 2,039
				// queries with random signs here too against 2,031,
				// 2,034, 2,027 before the hash).
				half = splitAt(a.mask[i], key)
			} else if mix64(key^0x5bd1e995)&1 == 1 {
				w = -w
			}
		}
		r, err := st.question(i, half, w)
		if err != nil {
			return err
		}
		q.idx, q.rows, q.dv = append(q.idx, i), append(q.rows, r), append(q.dv, []uint64{half, a.mask[i] &^ half})
	}
	return nil
}

// ending reports whether the attack drains: the labelings left are fewer
// than klistParams.endQueries queries learn (at the last query's rate). A fresh
// question on a point of three or more labels leaves a set as its list
// value, asked again only once the list agrees on it: two queries at the
// end that learn little (seeds 1–4, i mod 6 at N = 25,000, K = 6: the
// last two queries learned about 25–40 and 6–22 bits against 50 for
// those before). Draining leaves the last queries tail digits and points
// of two labels, each settled by one query.
func (st *klState) ending() bool {
	a := st.a
	if a.nUnk > klEndScan {
		return false
	}
	// b is log2 of the number of labelings left: the list's (the sum
	// over its entries of the product of their values' sizes) times
	// those of the other unknown points (Π |M_i|).
	b, n := 0.0, 0.0
	for i, c := range a.labels {
		if c < 0 && !st.lb.inD[i] {
			b += math.Log2(float64(bits.OnesCount64(a.mask[i])))
		}
	}
	for _, e := range st.vals {
		p := 1.0
		for _, v := range e {
			p *= float64(bits.OnesCount64(v))
		}
		n += p
	}
	b += math.Log2(n)
	if st.left >= 0 {
		st.rate = st.left - b
	}
	st.left = b
	return st.rate > 0 && b <= st.kb.klist.endQueries*st.rate
}

// klSplitMaxList is the largest list whose carried points' splits are
// chosen to tell its entries apart (splits); above it they are random.
const klSplitMaxList = 256

// splits returns each carried point's split: the labels of bit 0, a
// union of some of its list values (the others are bit 1). A point with
// two values has one split. For a point with more, the values are
// grouped so as to tell apart the pairs of entries that the points before
// it (fewest values first) leave closest: the pair (x, y), told apart by
// h of them so far, weighs 4^−h, and the grouping of the most weight
// between its groups is taken. Two entries with the same bits on every
// carried point get the same carried sum and cannot be told apart by the
// query's top; random groups left about 9 such pairs a query and 30 told
// apart by one point (seed 1 at N = 25,000, K = 6, list of 29 on
// average). Any grouping keeps the decoding exact: it only sets the
// carried points' questions.
func (st *klState) splits() []uint64 {
	lb := st.lb
	L, nd := len(st.vals), len(lb.cD)
	s0 := make([]uint64, nd)
	vals := make([][]uint64, nd)
	for j := range nd {
		for _, e := range st.vals {
			if !slices.Contains(vals[j], e[j]) {
				vals[j] = append(vals[j], e[j])
			}
		}
	}
	ord := make([]int, nd) // the points in index order above klSplitMaxList
	for j := range ord {
		ord[j] = j
	}
	if L <= klSplitMaxList {
		slices.SortStableFunc(ord, func(x, y int) int { return cmp.Compare(len(vals[x]), len(vals[y])) })
	}
	// The points so far that tell entries x and y apart, h(x, y), are
	// the bits in which their group vectors differ (entry x's group on
	// the t-th point so far in bit t of grp[x·words:]), at most 255.
	words := (nd + 63) / 64
	grp := make([]uint64, L*words)
	h := func(x, y int) int {
		if words == 1 {
			return bits.OnesCount64(grp[x] ^ grp[y]) // at most 64
		}
		c := 0
		for w := range words {
			c += bits.OnesCount64(grp[x*words+w] ^ grp[y*words+w])
		}
		return min(c, 255)
	}
	vid := make([]int, L)
	var m []float64
	for t, j := range ord {
		vs := vals[j]
		nv := len(vs)
		for l, e := range st.vals {
			vid[l] = slices.Index(vs, e[j])
		}
		part := uint32(1) // the values in bit 0's group
		if nv > 12 || L > klSplitMaxList {
			// Random groups: bit 0's the first half of vs, shuffled.
			lb.rng.Shuffle(nv, func(x, y int) { vs[x], vs[y] = vs[y], vs[x] })
			part = 1<<((nv+1)/2) - 1
		} else if nv > 2 {
			m = slices.Grow(m[:0], nv*nv)[:nv*nv]
			clear(m)
			for x := range L {
				for y := range x {
					if vx, vy := vid[x], vid[y]; vx != vy {
						m[vx*nv+vy] += klPow4[h(x, y)]
					}
				}
			}
			best := -1.0
			for p := uint32(1); p < 1<<(nv-1); p += 2 {
				// p holds value 0: each grouping once.
				f := 0.0
				for a := range nv {
					for b := range nv {
						if p>>a&1 == 1 && p>>b&1 == 0 {
							f += m[a*nv+b] + m[b*nv+a]
						}
					}
				}
				if f > best {
					best, part = f, p
				}
			}
		}
		for x, v := range vs {
			if part>>x&1 == 1 {
				s0[j] |= v
			}
		}
		for x := range L {
			grp[x*words+t/64] |= uint64(part>>vid[x]&1) << (t % 64)
		}
	}
	return s0
}

// klPow4[h] is 4^−h (splits' weight of a pair told apart h times).
var klPow4 = func() (p [256]float64) {
	for h := range p {
		p[h] = math.Ldexp(1, -2*h)
	}
	return p
}()

// fitTail returns the points cand with those a mixed-radix tail of room
// takes first (planRadixOn takes a prefix), then the others, each group
// in cand's order: the points of the most labelings P whose unit
// room·r_0/((r_0 − 1)·P) (r_0 the least radix) stays at or above the
// target, found by trying every count of points of each radix (the
// first ones of that radix in cand). Taking cand's prefix instead stops
// at the first point that does not fit, leaving the unit up to a radix
// (six at K = 6) above the target, so that the tail holds fewer
// labelings than its room could: at K = 6 the pool holds points of six
// and of three labels, and products 2^a·3^b fill a room much closer than
// a prefix of sixes. Seeds 1, 2 at N = 25,000, K = 6: every point that
// fits, in cand's order, took 1,375 queries each against the prefix's
// 1,378 (list target 12, 12 fresh points); this search 1,359 and 1,360
// against that order's 1,365 each (target 16, 16 fresh points).
//
// Up to klistParams.group2 grouped digits of radix 2 follow, the least significant
// (never the top: r_0 is the least radix of the plain digits), so that
// the product fills the room at steps of one bit: points of an even
// number of labels read as which half (one bit; the point keeps the
// half), then points of three read as one label against two. The
// lister carries a grouped digit's value as its group (update), so that
// entries differing only on which label of a group a point has do not
// arise. fitTail sets a.digitGroups for planRadixOn; design clears it.
func (st *klState) fitTail(cand []int, room float64) []int {
	a := st.a
	_, target := a.radixSpacing(st.kb.klist.rho)
	byR := make([][]int, a.k+1) // the points of each radix, in cand's order
	for _, i := range cand {
		if r := bits.OnesCount64(a.mask[i]); r >= 2 && r <= a.k {
			byR[r] = append(byR[r], i)
		}
	}
	var rs []int // the radices present, largest first
	for r := a.k; r >= 2; r-- {
		if len(byR[r]) > 0 {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 || !(room > 0) || !(target > 0) {
		return cand
	}
	// lim(r0): log2 of the largest P for least radix r0.
	lim := func(r0 int) float64 { return math.Log2(room * float64(r0) / (float64(r0-1) * target)) }
	loose := lim(rs[len(rs)-1]) // no later radix relaxes it further
	cnt, best := make([]int, len(rs)), make([]int, len(rs))
	bestLP := math.Inf(-1)
	bestG2 := 0
	var rec func(x int, lp float64, r0 int)
	rec = func(x int, lp float64, r0 int) {
		if x == len(rs) {
			if r0 > a.k {
				return
			}
			// The points left that a grouped digit of radix 2 may take:
			// of an even number of labels above two, or of three.
			n2 := 0
			for y, r := range rs {
				if r%2 == 0 && r > 2 || r == 3 {
					n2 += len(byR[r]) - cnt[y]
				}
			}
			for g2 := 0; g2 <= min(st.kb.klist.group2, n2); g2++ {
				if l := lp + float64(g2); l <= lim(r0) && l > bestLP+1e-9 {
					bestLP = l
					copy(best, cnt)
					bestG2 = g2
				}
			}
			return
		}
		r := rs[x]
		lr := math.Log2(float64(r))
		for c := 0; c <= len(byR[r]); c++ {
			l := lp + float64(c)*lr
			if c > 0 && l > loose+1e-9 {
				break
			}
			nr := r0
			if c > 0 {
				nr = min(r0, r)
			}
			cnt[x] = c
			rec(x+1, l, nr)
		}
	}
	rec(0, 0, a.k+1)
	if math.IsInf(bestLP, -1) {
		return cand // not even one point fits: planRadixOn takes the first
	}
	take := make(map[int]bool)
	for x, r := range rs {
		for _, i := range byR[r][:best[x]] {
			take[i] = true
		}
	}
	out := slices.DeleteFunc(slices.Clone(cand), func(i int) bool { return !take[i] })
	// The grouped digits, last (the least significant): points of an
	// even number of labels above two first (halves: one bit), then of
	// three (one label against two: H(1/3) = 0.918 bits).
	a.digitGroups = make(map[int][]uint64)
	want := bestG2
	for _, three := range []bool{false, true} {
		for _, i := range cand {
			n := bits.OnesCount64(a.mask[i])
			if want == 0 || take[i] || three && n != 3 || !three && (n%2 == 1 || n == 2) {
				continue
			}
			take[i] = true
			want--
			var g [2]uint64
			for m, c := range maskClasses(a.mask[i]) {
				g[m*2/n] |= 1 << c
			}
			a.digitGroups[i] = g[:]
			out = append(out, i)
		}
	}
	return append(out, slices.DeleteFunc(slices.Clone(cand), func(i int) bool { return take[i] })...)
}
