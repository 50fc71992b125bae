// This file implements the Cross strategy: the block code with partial
// decoding (partial.go) and labels carried across queries (parity ties, a paired top digit), decoded
// against the server's exact computed terms where the model names its log.
// For K > 2 under such a model its blocks are kties.go's K-ary code.

package decode

import (
	"math/big"
	"slices"
)

// Cross is the block code ([Blocks]: the same digit weights, point order,
// error budget and decoding by emulated brackets) with partial decoding
// (when several labelings of a block explain its score, the labels they
// all agree on are learned and only the others queried again, with a
// safety factor on the emulated separation steered so that about one
// block in eight is partial; partial.go) and mixed Conway–Guy blocks,
// and three changes more; the first two carry labels across queries, the
// third exploits the determinism of the modelled score:
//
//   - Parity ties (K = 2, under emulation). When several labelings of a
//     block explain its score, partial decoding learns the labels they
//     agree on and forgets the rest, to decode each again later. Cross also keeps what
//     the explaining labelings say about the rest: two points whose
//     labels have the same parity σ_j ⊕ σ_e in every one of them are
//     tied, and only one point of each tied group (its leader) is decoded
//     later; the others (followers) wait, neutral, and are learned with
//     it. Two explaining labelings (adjacent block sums, which differ in
//     a run of trailing digits) then cost later queries one label, where
//     partial decoding alone spends one per digit they differ in. A tie holds for every
//     labeling that explains the score, so a follower learned through it
//     is as verified as its leader.
//   - A paired top (digit blocks). Each block gets one more point, the
//     partner, with the row of the block's top point (the largest weight,
//     W). The score reads the block's other digits and the count x_top +
//     x_partner ∈ {0, 1, 2}: a count of 0 or 2 decodes both labels, a
//     count of 1 ties them (x_partner = 1 − x_top), so that the pair costs
//     later queries one label. The top weight is the only one where a
//     second point costs no room: nothing lies above it. On average the
//     pair carries 1.5 labels where one point carries one, the entropy of
//     a count of two points (doc.go, "How far from the floor"). Mixed
//     blocks get no partner: their Conway–Guy top is not above the rest,
//     so a second top point would collide with sums of the others, and
//     the mixed top already gains a label.
//   - Exact arithmetic where the model names the log its server calls
//     (log=glibc: float64-sklearn, torch-bce): every term is then the
//     server's own value bit for bit (scorer.Emulator.ComputedTerm), the
//     summation is the server's, so the score is a deterministic function
//     of the labeling under the model, and a labeling explains a score
//     only if its emulated score equals it. The faithful-log bracket (1–7
//     spacings of the score wide, BENCHMARKS.md §17) shrinks to a point;
//     blocks are sized by the spread of the summation's label-dependent
//     rounding alone, and labelings that round to the same score are
//     decoded partially and tied. This is the model's own claim (its
//     server computes those logs), the same claim its simulated server
//     makes; a model that names no log (float32-keras) keeps the
//     faithful brackets.
//
// For K > 2 against a model that names its log (float64-sklearn,
// torch-bce) Cross is the K-ary code of kties.go instead of digit blocks:
// every unknown point keeps the set of labels the scores allow it, points
// whose labels differ by a constant mod K (or sum to one, for a paired
// top) in every labeling that explains a score are tied, and each block
// is a mixed-radix number over the points' remaining label sets whose
// unit fills the room below the spacing of the score, so that a score
// that several labelings explain passes what they agree on to later
// queries instead of being lost (BENCHMARKS.md, "K-ary ties").
//
// Without emulation (the leaderboard) Cross is exactly Blocks.
var Cross Strategy = newCross(nil)

// newCross returns Cross; p, if set (tests), replaces its K-ary code's
// tuning.
func newCross(p *radixParams) *designer {
	return &designer{name: "cross", next: (*multi).nextCross, init: func(a *multi) {
		if p != nil {
			a.radix = *p
		}
		a.setupCross()
	}}
}

func init() { register(Cross) }

// tieState is Cross's parity ties (K = 2) and ties mod K (kties.go); nil
// slices where the attack has none: leader[j] ≥ 0 means that every
// labeling explaining an earlier score has σ_j = σ_leader[j] ⊕ flip[j];
// follows[i] lists point i's followers. tied counts the followers, which
// nextIdx skips until their leader is learned.
type tieState struct {
	leader  []int
	flip    []uint8
	follows [][]int
	tied    int
}

// setupCross prepares Cross's state (the base of Carry's and KList's):
// the block code with partial decoding, and under emulation its ties,
// and the model's exact terms and K-ary code where it names its log.
func (a *multi) setupCross() {
	a.setupPartial()
	if a.emu == nil {
		return
	}
	exact := a.emu.ExactLog()
	if a.k == 2 || exact {
		a.leader, a.flip, a.follows = slices.Repeat([]int{-1}, a.n), make([]uint8, a.n), make([][]int, a.n)
	}
	switch {
	case a.k == 2:
		// Partial blocks cost less with ties (K = 2 only).
		a.fac = crossCtl()
	case exact:
		// The K-ary code (kties.go): label sets, ties mod K, mixed radix.
		a.mask, a.neg = slices.Repeat([]uint64{maskAll(a.k)}, a.n), make([]bool, a.n)
		a.fac = a.radix.fac
	}
	a.emuFactor = a.fac.start // setupBlocks' where neither applies
	if !exact {
		return
	}
	a.exactLog = true
	// Recompute the rows made before: their terms become the server's.
	a.emuRow(&a.neutral)
	for c := range a.known {
		a.emuRow(&a.known[c])
	}
	if a.dither != nil {
		a.setDither()
	}
	// Whether every row outside a block is the server's own term (one
	// emulation brackets a candidate, decodeEmu).
	base := slices.Concat([]rowInfo{a.neutral}, a.known, slices.Concat(a.dither...))
	a.baseExact = !slices.ContainsFunc(base, func(r rowInfo) bool { return !r.exact })
}

// nextCross designs Cross's next block: the K-ary code's, or a digit
// block with a paired top.
func (a *multi) nextCross(kmax int) (*blockPlan, error) {
	if a.mask != nil {
		return a.planRadix(kmax)
	}
	free := a.nUnk - a.tied
	kmax = min(kmax, free)
	if a.leader == nil || kmax < 3 {
		return a.planDigits(kmax, false, 0)
	}
	p, err := a.planDigits(kmax-1, false, 0)
	if err != nil || !p.emu || len(p.rows)+1 > free || p.each != nil {
		// Not on a mixed block: its Conway–Guy top is not above the
		// rest, and a second top point would collide with sums of the
		// others (one label more a block, where the pair gains half).
		return p, err
	}
	return a.withPartner(p), nil
}

// withPartner returns the digit block p with one more point whose row is
// p's top point's (point 0), its budget recomputed and its candidate
// lister extended to the partner's two labels.
func (a *multi) withPartner(p *blockPlan) *blockPlan {
	k := len(p.rows)
	q := *p
	q.rows = append(slices.Clone(p.rows), p.rows[0])
	q.v = append(slices.Clone(p.v), p.v[0])
	q.pair = k
	q.budget = a.budgetFor(a.nextIdx(k+1), q.rows, false)
	q.each = func(a *multi, pp *blockPlan, low, high *big.Float, f func(sigma []int) bool) bool {
		in := *pp
		in.rows, in.v = pp.rows[:k], pp.v[:k]
		sig := make([]int, k+1)
		lo := new(big.Float).SetPrec(sumPrec)
		hi := new(big.Float).SetPrec(sumPrec)
		more := true // f has not stopped the listing
		for xp := 0; more && xp < len(pp.v[k]); xp++ {
			// The block's labelings with the partner at xp: the others'
			// sum lies in [low, high] − v_partner(xp).
			lo.Sub(low, pp.v[k][xp])
			hi.Sub(high, pp.v[k][xp])
			if !eachDigits(a, &in, lo, hi, func(s []int) bool {
				copy(sig, s)
				sig[k] = xp
				more = f(sig)
				return more
			}) {
				return false
			}
		}
		return true
	}
	return &q
}

// tieCands records the parity ties a partially decoded block's explaining
// labelings cands (K = 2) imply between the points they disagree on:
// points j and e are tied when σ_j ⊕ σ_e is the same in every labeling
// that explains the score, so that only one point of each group of tied
// points is decoded later. It reports whether the block lost more than
// its paired top was made to lose (one group holding points 0 and
// p.pair): a separation too short.
func (a *multi) tieCands(idx []int, p *blockPlan, cands [][]int, found []int) bool {
	// σ_j ⊕ σ_e is the same in every labeling iff the columns σ_j ⊕ σ_j⁰
	// and σ_e ⊕ σ_e⁰ (σ⁰ the first labeling) are equal: the disagreeing
	// positions grouped by that column, the groups in order of first
	// position.
	var keys []string
	groups := map[string][]int{}
	col := make([]byte, len(cands))
	for j, c := range found {
		if c >= 0 {
			continue
		}
		for s, sig := range cands {
			col[s] = byte(sig[j] ^ cands[0][j])
		}
		if groups[string(col)] == nil {
			keys = append(keys, string(col))
		}
		groups[string(col)] = append(groups[string(col)], j)
	}
	for _, key := range keys {
		gr := groups[key]
		for _, j := range gr[1:] {
			a.tie(idx[gr[0]], idx[j], uint8(cands[0][j]^cands[0][gr[0]]))
		}
	}
	return !(p.pair > 0 && len(keys) == 1 && slices.Equal(groups[keys[0]], []int{0, p.pair}))
}

// tie records σ_f = σ_l + flip mod K (σ_l ⊕ flip for K = 2): f waits,
// skipped by nextIdx, until l is learned. Both must be unknown and not
// followers; tie reports whether it recorded the tie.
func (a *multi) tie(l, f int, flip uint8) bool {
	if a.leader[l] >= 0 || a.leader[f] >= 0 || a.labels[l] >= 0 || a.labels[f] >= 0 {
		return false
	}
	a.leader[f], a.flip[f] = l, flip
	a.follows[l] = append(a.follows[l], f)
	a.tied++
	a.markSkip(f)
	return true
}

// learnFollowers learns the followers of the points just learned: label
// c + flip mod K (c ⊕ flip for K = 2) for a leader of label c, or flip − c
// mod K for a follower tied by a sum (neg, the K-ary code's paired top).
func (a *multi) learnFollowers(idx, sigma []int) {
	var fi, fs []int
	for j, i := range idx {
		if sigma[j] < 0 || len(a.follows[i]) == 0 {
			continue
		}
		for _, f := range a.follows[i] {
			a.leader[f] = -1
			a.tied--
			if a.labels[f] < 0 {
				c := (sigma[j] + int(a.flip[f])) % a.k
				if a.neg != nil && a.neg[f] {
					c = (int(a.flip[f]) - sigma[j] + a.k) % a.k
				}
				fi, fs = append(fi, f), append(fs, c)
			}
		}
		a.follows[i] = nil
	}
	if len(fi) > 0 {
		fac := a.emuFactor
		a.learn(fi, fs)
		a.emuFactor = fac // one block's decay, not two
	}
}

// crossCtl returns partialCtl's control with a smaller rise after a partial block:
// with parity ties a partial block of two explaining labelings costs
// later queries one label, not every label they disagree on, so the
// factor may settle where partial blocks are more frequent. 1.03 against
// partialCtl's 1.15 was the best of 1.03, 1.05, 1.08 and 1.15 on seeds 1–6
// (torch-bce 1,389–1,392 queries at N = 25,000 against 1,394–1,401 with
// 1.05; float64-sklearn and float32-keras within ±3 queries); a choice,
// not a calibrated optimum.
func crossCtl() factorCtl {
	f := partialCtl()
	f.amb = 1.03
	return f
}
