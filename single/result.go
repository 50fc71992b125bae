// This file builds the results of the single-query attacks and runs
// their one query.

package single

import (
	"context"
	"fmt"
	"math/big"
	"slices"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/ctxwait"
)

// allKnown returns a verified result holding labels.
func allKnown(labels []int) *decode.Result {
	return &decode.Result{Labels: labels, Known: slices.Repeat([]bool{true}, len(labels)), Verified: true}
}

// fits returns an error if s does not hold n labels of k classes, or a
// *PrecisionError if s tells its precision (a Prec method, as
// scorer.BigServer and package oracle's views have) and it is below
// need; a server that does not tell is taken at its word. The plans'
// Attack methods call it before their one query.
func fits(s interface {
	N() int
	K() int
}, n, k int, need uint) error {
	if s.N() != n || s.K() != k {
		return fmt.Errorf("single: the plan is for N = %d, K = %d; the scorer holds N = %d, K = %d", n, k, s.N(), s.K())
	}
	if p, ok := s.(interface{ Prec() uint }); ok && p.Prec() < need {
		return &PrecisionError{Have: p.Prec(), Need: need}
	}
	return nil
}

// precOf returns the precision of a plan built up to its precision, or
// the error that stopped it: the options' Prec methods.
func precOf(p interface{ Prec() uint }, err error) (uint, error) {
	if err != nil {
		return 0, err
	}
	return p.Prec(), nil
}

// oneQuery is a single-query attack's query: it gets the score of its one
// prediction and decodes it with read, returning ctx's error within a
// second of ctx being done (a decoding still running is left to finish in
// the background).
func oneQuery(ctx context.Context, score func() (*big.Float, error), read func(*big.Float) (*decode.Result, error)) (*decode.Result, error) {
	x, err := score()
	if err != nil {
		return nil, err
	}
	var r *decode.Result
	err = ctxwait.Do(ctx, func() (err error) {
		r, err = read(x)
		return err
	})
	if err != nil {
		return nil, err
	}
	r.Queries = 1
	return r, nil
}

// verifyWeights returns the labeling as a verified result if its weights
// (d[i] for each point labelled 1) explain s, N·score less the constant,
// within bound; decode.ErrInconsistent wrapped otherwise.
func verifyWeights(labels []int, d []*big.Float, s *big.Float, wp uint, bound float64) (*decode.Result, error) {
	got := new(big.Float).SetPrec(wp)
	for i, y := range labels {
		if y == 1 {
			got.Add(got, d[i])
		}
	}
	f, _ := got.Sub(got, s).Abs(got).Float64()
	if f > bound {
		return nil, fmt.Errorf("%w: the decoded labeling is %g from the score, beyond %g", decode.ErrInconsistent, f, bound)
	}
	res := allKnown(labels)
	res.Residual, res.Budget = f, bound
	return res, nil
}
