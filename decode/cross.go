// This file implements the Cross strategy: Lean's blocks with a second
// point on the top weight, whose collisions later queries resolve, decoded
// against the server's exact computed terms where the model names its log.

package decode

import (
	"math/big"
	"slices"
)

// Cross is [Lean] with two changes that carry labels across queries:
//
//   - A paired top (K = 2, under emulation). Each block gets one more
//     point, the partner, with the row of the block's top point (the
//     largest weight W). The score then reads the block's other digits
//     and the count x_top + x_partner ∈ {0, 1, 2}: a count of 0 or 2
//     decodes both labels; a count of 1 leaves the two labels
//     unresolved but tied, x_partner = 1 − x_top, so that the pair
//     costs later queries one label, not two (the partner waits, neutral,
//     until a later block decodes the top point). The top weight is the
//     only one where a second point costs no room: nothing lies above
//     it. On average the pair carries 1.5 labels where one point carries
//     one: half a label a query more than Lean, which is what the
//     entropy of a count of two points allows (doc.go, "How far from the
//     floor"). A tie is recorded only if every labeling that explains the
//     score gives the pair one label 1, so verification is unchanged.
//   - Exact arithmetic where the model names the log its server calls
//     (log=glibc: float64-sklearn, torch-bce): every term is then the
//     server's own value bit for bit (scorer.Emulator.ComputedTerm) and
//     the summation is the server's, so the score is a deterministic
//     function of the labeling under the model, and a labeling explains
//     a score only if its emulated score equals it. The faithful-log
//     bracket (1–7 spacings of the score wide, BENCHMARKS.md §17)
//     shrinks to a point; blocks are sized by the spread of the
//     summation's label-dependent rounding alone, and labelings that
//     round to the same score are decoded partially, as in Lean.
//
// Against a model that does not name its log (float32-keras) only the
// paired top applies; without emulation (the leaderboard) Cross is
// exactly Blocks.
var Cross Strategy = cross{}

type cross struct{}

func init() { register(Cross) }

func (cross) String() string     { return "cross" }
func (cross) knownNeutral() bool { return false }

func (cross) setup(a *multi) {
	lean{}.setup(a)
	if a.emu == nil {
		return
	}
	if a.k == 2 {
		a.follower, a.leader = make([]int, a.n), make([]int, a.n)
		for i := range a.follower {
			a.follower[i], a.leader[i] = -1, -1
		}
	}
	if !a.emu.ExactLog() {
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
	a.rows = newRowCache()
}

func (cross) next(a *multi, kmax int) (*blockPlan, error) {
	free := a.nUnk - a.tied
	kmax = min(kmax, free)
	if a.follower == nil || kmax < 3 {
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

// withPartner returns p with one more point whose row is p's top point's
// (point 0), its budget recomputed and its candidate lister extended.
func (a *multi) withPartner(p *blockPlan) *blockPlan {
	k := len(p.rows)
	q := *p
	q.rows = append(slices.Clone(p.rows), p.rows[0])
	q.v = append(slices.Clone(p.v), p.v[0])
	q.pair = k
	q.budget = a.budgetFor(a.nextIdx(k+1), q.rows, false)
	inner := p.each
	if inner == nil {
		inner = eachDigits
	}
	q.each = func(a *multi, pp *blockPlan, low, high *big.Float, f func(sigma []int) bool) bool {
		in := *pp
		in.rows, in.v = pp.rows[:k], pp.v[:k]
		sig := make([]int, k+1)
		lo := new(big.Float).SetPrec(sumPrec)
		hi := new(big.Float).SetPrec(sumPrec)
		for xp := range pp.v[k] {
			// The block's labelings with the partner at xp: the others'
			// sum lies in [low, high] − v_partner(xp).
			lo.Sub(low, pp.v[k][xp])
			hi.Sub(high, pp.v[k][xp])
			stop := false
			if !inner(a, &in, lo, hi, func(s []int) bool {
				copy(sig, s)
				sig[k] = xp
				if !f(sig) {
					stop = true
					return false
				}
				return true
			}) {
				return false
			}
			if stop {
				return true
			}
		}
		return true
	}
	return &q
}

// tie records that exactly one of points i and j has label 1 (K = 2):
// j waits, skipped by nextIdx, until i is learned.
func (a *multi) tie(i, j int) {
	if a.follower == nil || a.follower[i] >= 0 || a.leader[j] >= 0 {
		return
	}
	a.follower[i], a.leader[j] = j, i
	a.tied++
}

// isFollower reports whether point i waits for its leader.
func (a *multi) isFollower(i int) bool { return a.leader[i] >= 0 }

// learnFollowers learns the followers of the points just learned: label
// 1 − c for a leader of label c.
func (a *multi) learnFollowers(idx, sigma []int) {
	var fi, fs []int
	for j, i := range idx {
		if sigma[j] < 0 || a.follower[i] < 0 {
			continue
		}
		f := a.follower[i]
		a.follower[i], a.leader[f] = -1, -1
		a.tied--
		if a.labels[f] < 0 {
			fi, fs = append(fi, f), append(fs, 1-sigma[j])
		}
	}
	if len(fi) > 0 {
		fac := a.emuFactor
		a.learn(fi, fs)
		a.emuFactor = fac // one block's decay, not two
	}
}
