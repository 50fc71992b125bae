package discrete

// This file implements the threshold-crossing attack for scores rounded
// more coarsely than one label moves them [Whitehill16, §"rounding"]:
// walk the count of right rows to a rounding edge, then read each row as
// whether toggling it crosses the edge back.

import (
	"context"
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/internal/bigint"
)

// rightRelease is the released score (rounded as the server rounds it)
// of a one-hot prediction that puts right rows on their label: accuracy
// right/N; the Brier score of predictions 0 and 1 (binary) or one-hot
// rows (K > 2), whose terms are exactly 0 or 1 (2 for K > 2).
func (r *run) rightRelease(right int) *big.Rat {
	var x *big.Rat
	switch {
	case r.o.Metric == Accuracy:
		x = big.NewRat(int64(right), int64(r.n))
	case r.o.K > 2:
		x = r.rightScore(right)
	default:
		x = new(big.Rat).SetFloat64(float64(r.n-right) / float64(r.n))
	}
	if r.pow != nil {
		return bigint.RoundHalfEven(x, r.pow)
	}
	f, _ := x.Float64() // an unrounded score travels as its float64
	return new(big.Rat).SetFloat64(f)
}

// rightsPred is the prediction putting row i on class cls[i].
func (r *run) rightsPred(cls []int) []float64 {
	k := r.o.K
	if k == 2 {
		p := make([]float64, r.n)
		for i, c := range cls {
			p[i] = float64(c)
		}
		return p
	}
	p := make([]float64, r.n*k)
	for i, c := range cls {
		p[i*k+c] = 1
	}
	return p
}

// edge is the threshold-crossing attack. The score of a one-hot
// prediction depends only on R, its count of right rows, through a
// monotone f and the rounding: f(R) and f(R ± 1) release the same value
// except at a rounding edge.
//
//  1. The walk: from the all-class-0 prediction, move rows to class 1 one
//     at a time until the released score changes. The row that moved it
//     is read from the direction (up: its label is 1; down: 0), and R is
//     then known exactly: the first count of the new released value
//     (going up) or the last (going down).
//  2. At the edge every other row is toggled alone (class 1 ↔ 0 for the
//     rows the walk moved and the rest): the release crosses back exactly
//     when the toggle moves R across the edge, i.e. when the row's
//     current class is its label (toggles away from the label) for an
//     upward edge, or its new class is (toward the label) for a downward
//     one.
//
// K > 2: a row that did not cross is one of the other classes; it is
// toggled again to class 2, 3, …, each read the same way. About N plus
// the walk's length queries, each answer checked against f exactly.
func (r *run) edge(ctx context.Context) error {
	n, k := r.n, r.o.K
	cls := make([]int, n)
	rel := func(c []int) (*big.Rat, error) { return r.score(ctx, r.rightsPred(c)) }
	v0, err := rel(cls)
	if err != nil {
		return err
	}
	prev := v0
	cross, up := -1, false
	for i := range n {
		cls[i] = 1
		v, err := rel(cls)
		if err != nil {
			return err
		}
		if c := v.Cmp(prev); c != 0 {
			cross, up = i, c > 0
			if r.o.Metric == Brier {
				up = !up // the Brier score falls as R rises
			}
			prev = v
			break
		}
	}
	if cross < 0 {
		return fmt.Errorf("discrete: the walk of %d rows never moved the rounded score: %w", n, &AmbiguousError{Query: r.res.Queries, Candidates: 2})
	}
	// R at the edge: the first (up) or last (down) count releasing prev,
	// with the count before the crossing releasing the other value.
	star := -1
	for c := range n + 1 {
		if r.rightRelease(c).Cmp(prev) != 0 {
			continue
		}
		other := c - 1
		if !up {
			other = c + 1
		}
		if other < 0 || other > n || r.rightRelease(other).Cmp(prev) == 0 {
			continue
		}
		if star >= 0 {
			return fmt.Errorf("discrete: two edges release %s: %w", prev.FloatString(8), errInconsistent)
		}
		star = c
	}
	if star < 0 {
		return fmt.Errorf("discrete: no count of right rows releases %s at an edge: %w", prev.FloatString(8), errInconsistent)
	}
	if up {
		r.setLabel(cross, 1)
	} else {
		r.setLabel(cross, 0)
	}
	// back is the release one right row fewer (up) or more (down): a
	// query that moves R that way crosses back.
	back := star - 1
	if !up {
		back = star + 1
	}
	// fwd is one right row more (up) or fewer (down): where a bucket is
	// one count wide it releases a third value, which is "not back".
	fwd := star + 1
	if !up {
		fwd = star - 1
	}
	vBack, vStay := r.rightRelease(back), prev
	var vFwd *big.Rat
	if fwd >= 0 && fwd <= n {
		vFwd = r.rightRelease(fwd)
	}
	// probe sends the edge prediction with row i on class c (and, if
	// pad ≥ 0, row pad moved off its label: R − 1) and reports whether
	// the release crossed back.
	probe := func(i, c, pad int) (bool, error) {
		from := cls[i]
		cls[i] = c
		padFrom := 0
		if pad >= 0 {
			padFrom = cls[pad]
			cls[pad] = (padFrom + 1) % k
		}
		v, err := rel(cls)
		cls[i] = from
		if pad >= 0 {
			cls[pad] = padFrom
		}
		if err != nil {
			return false, err
		}
		switch {
		case v.Cmp(vBack) == 0:
			return true, nil
		case v.Cmp(vStay) == 0, vFwd != nil && v.Cmp(vFwd) == 0:
			return false, nil
		}
		return false, fmt.Errorf("discrete: query %d: score %s is neither %s nor %s at the edge: %w", r.res.Queries, v.FloatString(8), vStay.FloatString(8), vBack.FloatString(8), errInconsistent)
	}
	// The bottom of a released value: star (up), star + 1 (down), for
	// the check.
	r.bottom = star
	if !up {
		r.bottom = star + 1
	}
	// At an upward edge the crossing row is right (label 1 on class 1):
	// moving it off its label is the padding R − 1.
	pad := cross
	for i := range n {
		if i == cross {
			continue
		}
		a := cls[i]
		y, err := r.edgeRow(i, a, up, pad, probe)
		if err != nil {
			return err
		}
		r.setLabel(i, y)
	}
	return nil
}

// edgeRow reads row i, on class a at the edge, with probe. Moving row i
// to class c changes R by [y = c] − [y = a].
//
//   - Up (R at its value's bottom): moving to any c ≠ a crosses iff
//     y = a. Otherwise (K > 2) each candidate c is probed with the padding
//     row moved off its label too: R − 1 + [y = c] stays iff y = c; the
//     last candidate is what remains.
//   - Down (R at its value's top): moving to c crosses iff y = c; a row
//     that crosses for no c ≠ a is class a.
func (r *run) edgeRow(i, a int, up bool, pad int, probe func(i, c, pad int) (bool, error)) (int, error) {
	k := r.o.K
	var others []int
	for c := range k {
		if c != a {
			others = append(others, c)
		}
	}
	if up {
		crossed, err := probe(i, others[0], -1)
		if err != nil {
			return 0, err
		}
		if crossed {
			return a, nil
		}
		for j, c := range others {
			if j == len(others)-1 {
				return c, nil
			}
			crossed, err := probe(i, c, pad)
			if err != nil {
				return 0, err
			}
			if !crossed {
				return c, nil
			}
		}
	}
	for _, c := range others {
		crossed, err := probe(i, c, -1)
		if err != nil {
			return 0, err
		}
		if crossed {
			return c, nil
		}
	}
	return a, nil
}

// edgeCheck is the final check where a perfect score cannot tell one
// wrong label (rounding coarser than a label): windows of e rows, e the
// bottom count of a released value, are put on their recovered labels
// and every other row on another class; with every label right each
// query has exactly e right rows and releases f(e), while a wrong label
// inside the window makes e − 1, which releases another value. The
// windows cover every row: ⌈N/e⌉ queries, decisive.
func (r *run) edgeCheck(ctx context.Context) error {
	e, n, k := r.bottom, r.n, r.o.K
	if e < 1 || e > n {
		return fmt.Errorf("discrete: no edge to check at (%d): %w", e, errInconsistent)
	}
	want := r.rightRelease(e)
	for lo := 0; lo < n; lo += e {
		cls := make([]int, n)
		// The window [lo, lo+e) wraps around so that it always holds e
		// rows.
		in := make([]bool, n)
		for j := range e {
			in[(lo+j)%n] = true
		}
		for i, y := range r.res.Labels {
			if in[i] {
				cls[i] = y
			} else {
				cls[i] = (y + 1) % k
			}
		}
		v, err := r.score(ctx, r.rightsPred(cls))
		if err != nil {
			return err
		}
		r.res.Checked = true
		if v.Cmp(want) != 0 {
			return fmt.Errorf("discrete: check query %d scored %s, not the %s of rows %d to %d on their labels: %w", r.res.Queries, v.FloatString(8), want.FloatString(8), lo, lo+e-1, errInconsistent)
		}
	}
	r.res.CheckDecisive = true
	return nil
}
