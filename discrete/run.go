package discrete

// This file holds one attack's state (run): its queries, the labels it
// learns and the verification of the result.

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/scorer"
)

// run is one attack's state.
type run struct {
	s    scorer.Server
	o    Options
	n    int
	pow  *big.Int // 10^Decimals; nil: unrounded
	half *big.Rat // half a unit of the last decimal plus τ; nil: exact match
	res  *decode.Result
	// total is Σ y (binary), once known (−1 before).
	total int
	// bottom is the edge attack's bottom count of a released value (the
	// first count that releases it), for its check.
	bottom int
}

func newRun(s scorer.Server, o Options) *run {
	r := &run{s: s, o: o, n: o.N, total: -1}
	r.res = &decode.Result{Labels: make([]int, o.N), Known: make([]bool, o.N)}
	for i := range r.res.Labels {
		r.res.Labels[i] = -1
	}
	if o.Decimals >= 0 {
		r.pow = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(o.Decimals)), nil)
	}
	if o.Tau > 0 {
		r.half = new(big.Rat).SetFloat64(o.Tau)
		if r.pow != nil {
			r.half.Add(r.half, new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Mul(r.pow, big.NewInt(2))))
		}
	}
	return r
}

func (r *run) allKnown() bool {
	for _, k := range r.res.Known {
		if !k {
			return false
		}
	}
	return true
}

func (r *run) known() int {
	c := 0
	for _, k := range r.res.Known {
		if k {
			c++
		}
	}
	return c
}

func (r *run) setLabel(i, y int) {
	r.res.Labels[i], r.res.Known[i] = y, true
}

// score submits p and returns the released score.
func (r *run) score(ctx context.Context, p []float64) (*big.Rat, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	reps := max(r.o.Repeats, 1)
	sum := new(big.Rat)
	for range reps {
		if r.o.MaxQueries > 0 && r.res.Queries >= r.o.MaxQueries {
			return nil, ErrBudget
		}
		v, err := r.s.Score(ctx, &scorer.Pred{K: r.o.K, P: p})
		r.res.Queries++
		if err == nil && v == nil {
			err = errors.New("discrete: the scorer returned no score")
		}
		if r.o.Progress != nil {
			r.o.Progress(r.known(), r.res.Queries)
		}
		if err != nil {
			return nil, err
		}
		sum.Add(sum, v)
	}
	if reps == 1 {
		return sum, nil
	}
	return sum.Quo(sum, big.NewRat(int64(reps), 1)), nil
}

// matches reports whether the exact score x is consistent with the
// released score v.
func (r *run) matches(x, v *big.Rat) bool {
	if r.half != nil {
		d := new(big.Rat).Sub(x, v)
		return d.Abs(d).Cmp(r.half) <= 0
	}
	if r.o.Repeats > 1 {
		// A mean of released scores: within half a unit of the rounding
		// (plus Tau, the mean's noise, in r.half above) of the exact one.
		d := new(big.Rat).Sub(x, v)
		w := new(big.Rat)
		if r.pow != nil {
			w.SetFrac(big.NewInt(1), new(big.Int).Mul(r.pow, big.NewInt(2)))
		}
		return d.Abs(d).Cmp(w) <= 0
	}
	if r.pow == nil {
		// Unrounded: a served score travels as the float64 nearest to
		// it (serve writes the shortest decimal of that float64), a
		// simulated one as the exact rational; both are that float64.
		a, _ := x.Float64()
		b, _ := v.Float64()
		return a == b
	}
	return bigint.RoundHalfEven(x, r.pow).Cmp(v) == 0
}

// count returns the only c in [lo, hi] whose exact score f(c) matches v;
// f must be nondecreasing in c.
func (r *run) count(lo, hi int, f func(c int) *big.Rat, v *big.Rat) (int, error) {
	// The first c whose score is not below v's window.
	a, b := lo, hi+1
	for a < b {
		m := (a + b) / 2
		x := f(m)
		if r.matches(x, v) || x.Cmp(v) > 0 {
			b = m
		} else {
			a = m + 1
		}
	}
	var found []int
	for c := a; c <= hi && r.matches(f(c), v); c++ {
		if found = append(found, c); len(found) > 1 {
			break
		}
	}
	switch len(found) {
	case 0:
		return 0, fmt.Errorf("query %d: score %s: %w", r.res.Queries, v.FloatString(8), decode.ErrInconsistent)
	case 1:
		return found[0], nil
	}
	n := 0
	for c := a; c <= hi && r.matches(f(c), v); c++ {
		n++
	}
	return 0, &AmbiguousError{Query: r.res.Queries, Candidates: n}
}

// check submits the recovered labels: the score must be perfect.
func (r *run) check(ctx context.Context) error {
	k := r.o.K
	var p []float64
	if k == 2 {
		p = make([]float64, r.n)
		for i, y := range r.res.Labels {
			p[i] = float64(y)
			if y < 0 {
				p[i] = 0.5 // a row swap left unknown (behind a split)
			}
		}
	} else {
		p = make([]float64, r.n*k)
		for i, y := range r.res.Labels {
			p[i*k+y] = 1
		}
	}
	v, err := r.score(ctx, p)
	if err != nil {
		return err
	}
	r.res.Checked = true
	want := big.NewRat(1, 1)
	if r.o.Metric == Brier {
		want = new(big.Rat)
	}
	if !r.matches(want, v) {
		return fmt.Errorf("discrete: the check query scored %s, not the perfect %s: %w", v.FloatString(8), want.FloatString(0), decode.ErrInconsistent)
	}
	// Decisive when one wrong label would have moved the score out of
	// the window: one wrong row changes accuracy by 1/N, the Brier score
	// by 1/N (2/N for K > 2); in the AUC of the labels as scores, a wrong
	// row ties with every row of the other class, which costs 1/(2n) for
	// a true class of n rows, n ≤ the larger decoded class + 1.
	one := big.NewRat(1, int64(r.n))
	if r.o.Metric == AUC {
		one = big.NewRat(1, 2*int64(max(r.total, r.n-r.total)+1))
	}
	wrong := new(big.Rat).Sub(want, one)
	if r.o.Metric == Brier {
		wrong = one
	}
	r.res.CheckDecisive = !r.matches(wrong, v)
	return nil
}
