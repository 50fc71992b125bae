package discrete

// This file implements the pair-swap attack on ROC AUC [Whitehill16]: two
// rankings that differ by one swap of adjacent rows have AUCs that differ
// by the relation of the two labels, at most one pair, so at a rounding
// edge the release tells it even when the AUC is rounded far more
// coarsely than one label moves it.

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/labelinf/labelinf/internal/bigint"
)

// swapTries bounds the random rankings the swap attack tries before it
// gives up on finding one whose release is not that of AUC ½.
const swapTries = 64

// swapStates is the number of half-steps of the path from a ranking of n
// rows to its reverse: n(n − 1)/2 swaps of two half-steps each.
func swapStates(n int) int64 { return int64(n) * int64(n-1) }

// swapSearch is the most queries the binary search over the path sends:
// ⌈log₂ 2S⌉ for its 2S half-steps, and one to read the far end if the
// search never moved there.
func swapSearch(n int) int {
	q := 0
	for s := swapStates(n); s > 1; s = (s + 1) / 2 {
		q++
	}
	return q + 1
}

// swapPlan is the most queries the swap attack sends, its check aside:
// swapTries rankings, the search, and one probe for each row but the two
// the search reads.
func swapPlan(n int) int { return swapTries + swapSearch(n) + n - 2 }

// A swapPath is the path of adjacent transpositions from the ranking pi
// (top row first) to its reverse, by stages: stage k moves the row then
// on top, pi[k], down past pi[k+1], …, pi[n−1], one swap at a time, each
// swap in two half-steps (tied, then below). State h is after h
// half-steps; state 2S is the reverse.
type swapPath struct{ pi []int }

// stage returns the stage k and the swaps j already done in it for the
// swap s (0 ≤ s < S).
func (p swapPath) stage(s int64) (k, j int) {
	n := int64(len(p.pi))
	var start int64
	for k = 0; ; k++ {
		l := n - 1 - int64(k) // swaps of stage k
		if s < start+l {
			return k, int(s - start)
		}
		start += l
	}
}

// order returns the rows of swap s's states top first (pi[k] at j, the
// row it passes next at j + 1).
func (p swapPath) order(s int64) (order []int, k, j int) {
	n := len(p.pi)
	k, j = p.stage(s)
	order = make([]int, 0, n)
	order = append(order, p.pi[k+1:k+1+j]...)
	order = append(order, p.pi[k])
	order = append(order, p.pi[k+1+j:]...)
	for i := k - 1; i >= 0; i-- {
		order = append(order, p.pi[i])
	}
	return order, k, j
}

// levels returns state h as a level per row (0 the top; tied rows share
// a level).
func (p swapPath) levels(h int64) []int {
	n := len(p.pi)
	lv := make([]int, n)
	if h >= swapStates(n) {
		for i, row := range p.pi {
			lv[row] = n - 1 - i
		}
		return lv
	}
	order, _, j := p.order(h / 2)
	for i, row := range order {
		lv[row] = i
	}
	if h%2 == 1 {
		lv[order[j+1]] = j // tied with the row passing it
	}
	return lv
}

// levelPred is the prediction of a ranking: the higher the level (the
// smaller its number, in [0, n)), the higher the score.
func (r *run) levelPred(lv []int) []float64 {
	n := float64(r.n)
	p := make([]float64, r.n)
	for i, l := range lv {
		p[i] = (n - float64(l)) / n
	}
	return p
}

// auc2U returns twice the Mann–Whitney count of labels y under the
// ranking lv, and the class sizes.
func auc2U(y, lv []int) (u2, pos, neg int64) {
	// Count per level, then sweep from the bottom.
	maxL := 0
	for _, l := range lv {
		maxL = max(maxL, l)
	}
	p := make([]int64, maxL+1)
	q := make([]int64, maxL+1)
	for i, l := range lv {
		if y[i] == 1 {
			p[l]++
		} else {
			q[l]++
		}
	}
	for l := maxL; l >= 0; l-- {
		u2 += p[l] * (2*neg + q[l])
		pos += p[l]
		neg += q[l]
	}
	return u2, pos, neg
}

// swap is the pair-swap attack (package doc, "Swap").
//
//  1. Random rankings are submitted until one, π, releases a value other
//     than AUC ½'s. Its reverse has AUC 1 − AUC(π), on the other side of
//     ½, so it releases another value (the rounding is monotone).
//  2. Along the path from π to its reverse by half-steps (a row tied with
//     the row below it, then below it), twice the Mann–Whitney count 2U
//     moves by y_b − y_a ∈ {−1, 0, 1} a step when row a passes row b. A
//     binary search finds a step whose two states release different
//     values: there 2U moved by exactly one, so y_a ≠ y_b and the
//     direction tells which is the positive; the higher state E⁺ holds
//     the least 2U of its released value v⁺ (a bottom edge), the lower
//     one E⁻ the greatest of v⁻ (a top edge).
//  3. Every other row is read by one submission that ties it with a
//     neighbour of known label in E⁺ or E⁻: tying w above x moves 2U by
//     y_x − y_w, and joining the tied pair a, b (one of each class) moves
//     it by ±1 with the row's label. Each is sent at the edge where the
//     answer crosses it or not: a release of v⁻ from E⁺ (or v⁺ from E⁻)
//     means 2U moved by one across the edge. The rows are read outward
//     from a, b along E's order, each from its known neighbour.
//
// The recovered labels must then give E⁺ and E⁻ the releases they had.
// About N + log₂ N² + a few queries, whatever the rounding, with no class
// count assumed.
func (r *run) swap(ctx context.Context) (err error) {
	n := r.n
	defer func() {
		var ae *AmbiguousError
		if err != nil && !errors.As(err, &ae) && !errors.Is(err, ErrBudget) {
			for i := range r.res.Known {
				r.res.Known[i] = false
			}
		}
	}()
	release := func(x *big.Rat) *big.Rat {
		if r.pow != nil {
			return bigint.RoundHalfEven(x, r.pow)
		}
		return x
	}
	same := func(a, b *big.Rat) bool {
		if r.pow != nil {
			return a.Cmp(b) == 0
		}
		fa, _ := a.Float64()
		fb, _ := b.Float64()
		return fa == fb
	}
	half := release(big.NewRat(1, 2))
	query := func(lv []int) (*big.Rat, error) { return r.score(ctx, r.levelPred(lv)) }

	// 1. A ranking whose release is not AUC ½'s.
	var path swapPath
	var v0 *big.Rat
	for t := range swapTries {
		pi := rand.New(rand.NewPCG(0x5a4b, uint64(t))).Perm(n)
		path = swapPath{pi}
		v, err := query(path.levels(0))
		if err != nil {
			return err
		}
		if !same(v, half) {
			v0 = v
			break
		}
	}
	if v0 == nil {
		return fmt.Errorf("discrete: %d random rankings all released AUC ½'s %s (rounding too coarse for %d rows, or one class only): %w",
			swapTries, half.FloatString(8), n, &AmbiguousError{Query: r.res.Queries, Candidates: 2})
	}

	// 2. Binary search for a crossing step.
	lo, hi := int64(0), swapStates(n)
	vlo := v0
	var vhi *big.Rat
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		v, err := query(path.levels(mid))
		if err != nil {
			return err
		}
		if same(v, v0) {
			lo, vlo = mid, v
		} else {
			hi, vhi = mid, v
		}
	}
	if vhi == nil {
		if vhi, err = query(path.levels(hi)); err != nil {
			return err
		}
	}
	if same(vhi, vlo) {
		return fmt.Errorf("discrete: the reverse ranking released %s as the ranking did: %w", vhi.FloatString(8), errInconsistent)
	}
	order, k, j := path.order(lo / 2)
	a, b := path.pi[k], order[j+1]
	up := vhi.Cmp(vlo) > 0 // 2U rose by y_b − y_a = 1
	if up {
		r.setLabel(a, 0)
		r.setLabel(b, 1)
	} else {
		r.setLabel(a, 1)
		r.setLabel(b, 0)
	}
	eHi, eLo := path.levels(hi), path.levels(lo)
	vPlus, vMinus := vhi, vlo
	if !up {
		eHi, eLo = eLo, eHi
		vPlus, vMinus = vlo, vhi
	}
	tiedIsHi := (lo%2 == 1) != up // the odd state is the tied one
	tied := eLo
	if tiedIsHi {
		tied = eHi
	}
	group := tied[a] // the level a and b share in the tied state

	// probe sends base with row i moved to level l and reports whether
	// the release crossed the edge base sits at.
	probe := func(atHi bool, i, l int) (bool, error) {
		base := eLo
		if atHi {
			base = eHi
		}
		from := base[i]
		base[i] = l
		v, err := query(base)
		base[i] = from
		if err != nil {
			return false, err
		}
		switch {
		case atHi && same(v, vMinus), !atHi && same(v, vPlus):
			return true, nil
		case atHi && (same(v, vPlus) || v.Cmp(vPlus) > 0), !atHi && (same(v, vMinus) || v.Cmp(vMinus) < 0):
			return false, nil
		}
		return false, fmt.Errorf("discrete: query %d: AUC %s is on neither side of the edge %s | %s: %w",
			r.res.Queries, v.FloatString(8), vMinus.FloatString(8), vPlus.FloatString(8), errInconsistent)
	}

	// 3. The neighbours of the tied pair, then outward.
	g := j
	if g >= 1 {
		w := order[g-1]
		crossed, err := probe(tiedIsHi, w, group)
		if err != nil {
			return err
		}
		// Δ2U = 1 − 2y_w: down across E⁺ iff y_w = 1, up across E⁻ iff 0.
		r.setLabel(w, b2i(crossed == tiedIsHi))
	}
	if g+2 < n {
		x := order[g+2]
		crossed, err := probe(tiedIsHi, x, group)
		if err != nil {
			return err
		}
		// Δ2U = 2y_x − 1: down across E⁺ iff y_x = 0, up across E⁻ iff 1.
		r.setLabel(x, b2i(crossed != tiedIsHi))
	}
	// tie reads row v by tying it with its known neighbour k (v above k
	// when above): Δ2U = ±(y_k − y_v), so the probe goes to the edge a
	// label unlike y_k would cross, and crossing it means y_v ≠ y_k.
	tie := func(v, k int, above bool) error {
		one := r.res.Labels[k] == 1
		atHi := one != above
		l := eLo[k]
		if atHi {
			l = eHi[k]
		}
		crossed, err := probe(atHi, v, l)
		if err != nil {
			return err
		}
		r.setLabel(v, b2i(crossed != one))
		return nil
	}
	for i := g - 2; i >= 0; i-- {
		if err := tie(order[i], order[i+1], true); err != nil {
			return err
		}
	}
	for i := g + 3; i < n; i++ {
		if err := tie(order[i], order[i-1], false); err != nil {
			return err
		}
	}

	// The labels must explain the edge itself.
	for _, e := range []struct {
		lv []int
		v  *big.Rat
	}{{eHi, vPlus}, {eLo, vMinus}} {
		u2, pos, neg := auc2U(r.res.Labels, e.lv)
		if err := r.explainsEdge(u2, pos, neg, e.v, "the recovered labels"); err != nil {
			return err
		}
	}
	r.total = r.knownOnes()
	return nil
}

// explainsEdge returns nil if the labels whose counts are u2 (twice the
// Mann–Whitney U), pos and neg give an edge ranking the released AUC v,
// else an error wrapping errInconsistent that names them (what).
func (r *run) explainsEdge(u2, pos, neg int64, v *big.Rat, what string) error {
	if pos == 0 || neg == 0 {
		return fmt.Errorf("discrete: %s hold one class only: %w", what, errInconsistent)
	}
	x := new(big.Rat).SetFrac(big.NewInt(u2), new(big.Int).Mul(big.NewInt(2*pos), big.NewInt(neg)))
	if !r.matches(x, v) {
		return fmt.Errorf("discrete: %s give the edge ranking AUC %s, released %s: %w", what, x.FloatString(8), v.FloatString(8), errInconsistent)
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fill writes state h of the path into lv (a level per row of the whole
// competition) for the path's rows, levels base, base + 1, … from the
// top.
func (p swapPath) fill(lv []int, h int64, base int) {
	m := len(p.pi)
	if h >= swapStates(m) {
		for i, row := range p.pi {
			lv[row] = base + m - 1 - i
		}
		return
	}
	order, _, j := p.order(h / 2)
	for i, row := range order {
		lv[row] = base + i
	}
	if h%2 == 1 {
		lv[order[j+1]] = base + j
	}
}
