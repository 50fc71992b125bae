// This file implements the family's multi-query attack [EA, Theorem 5]:
// ⌈N/M⌉ queries, each the single-query attack of [EA, Theorem 4] on a
// block of M points with every other point predicted neutral (d = 0).

package single

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/labelinf/labelinf/decode"
)

// FamilyMultiOptions configures [AttackFamilyMulti].
type FamilyMultiOptions struct {
	FamilyOptions
	// M is the number of points decoded per query, 1 ≤ M ≤ N; 0 means
	// min(N, 16). The attack sends ⌈N/M⌉ queries and searches 2^M
	// labelings at most per query ([EA, Section 3]: M = O(log N) makes it
	// polynomial).
	M int
	// MaxCandidates, if positive, bounds the decoding work: the subset
	// sums the block decoders examine over all ⌈N/M⌉ blocks
	// ([FamilyPlan.Candidates]: M per block of M points with powers of two,
	// 2^⌈M/2⌉ + 2^⌊M/2⌋ with Conway–Guy weights). The count follows from
	// the plans alone, so the bound is checked before the first query and
	// gives the same answer on any machine under any load, as a time limit
	// cannot; an attack over it returns a *[CostError].
	MaxCandidates int64
}

// CostError reports an attack whose counted work exceeds the caller's
// bound ([FamilyMultiOptions.MaxCandidates]); no query was sent.
type CostError struct {
	What        string // the unit counted: "candidates"
	Need, Limit int64
}

func (e *CostError) Error() string {
	return fmt.Sprintf("single: over the cost bound (%d %s > %d)", e.Need, e.What, e.Limit)
}

// AttackFamilyMulti recovers the N labels of s in ⌈N/M⌉ queries [EA,
// Theorem 5]: query b predicts θ_i = x*(W·2^j) (j = 0, …, M−1) on its
// block of M points, W = 2Nτ(1+δ), and the neutral prediction on every
// other point, whose loss c₀ is then the same for both labels. The block's
// share M·ℓ_M = N·ℓ̂ − (N−M)·c₀ has noise below Nτ = M·(Nτ/M), so the
// block is the single-query attack ([PlanFamily]) on M points at noise
// Nτ/M: the weights need only reach W·2^(M−1), not W·2^(N−1), which is
// what lets a bounded loss (squared Euclidean, norm-like) or a
// finite-precision score recover N far beyond the single query's limit.
// One plan serves every full block.
//
// It plans the full block and the last, shorter one before the first
// query, so a plan's error or the cost bound is reported before any query
// is spent. It returns the labels verified so far with an error: a
// *NotSeparableError (or PlanFamily's error) if M points cannot be
// separated at this noise, a *[CostError] if the decoding would examine
// more than opt.MaxCandidates subset sums, [decode.ErrInconsistent] wrapped if a
// block does not decode, the server's error, or ctx's error within a
// second of ctx being done.
func AttackFamilyMulti(ctx context.Context, s FamilyServer, opt FamilyMultiOptions) (*decode.Result, error) {
	n := opt.N
	if s.N() != n {
		return nil, errors.New("single: options do not match the scorer's N")
	}
	m := opt.M
	if m == 0 {
		m = min(n, 16)
	}
	if m < 1 || m > n {
		return nil, fmt.Errorf("single: M = %d points per query outside [1, N = %d]", m, n)
	}
	res := &decode.Result{Labels: slices.Repeat([]int{-1}, n), Known: make([]bool, n)}
	// One plan per block size: M, and N mod M for the last block.
	plans := map[int]*FamilyPlan{}
	var need int64
	for lo := 0; lo < n; lo += m {
		k := min(m, n-lo)
		if plans[k] == nil {
			p, err := PlanFamily(ctx, FamilyOptions{Loss: opt.Loss, N: k, Tau: opt.Tau * float64(n) / float64(k)})
			if err != nil {
				return res, err
			}
			plans[k] = p
		}
		need += plans[k].Candidates()
	}
	if opt.MaxCandidates > 0 && need > opt.MaxCandidates {
		return res, &CostError{What: "candidates", Need: need, Limit: opt.MaxCandidates}
	}
	// The neutral prediction, whose weight d is 0, so that a point
	// predicted there adds the same loss whatever its label: ½ for
	// probabilities, 0 for logits (see loss.Binary.Invert).
	theta0 := big.NewFloat(0.5)
	if opt.Loss.LogitDomain() {
		theta0 = new(big.Float)
	}
	for lo := 0; lo < n; lo += m {
		hi := min(lo+m, n)
		k := hi - lo
		p := plans[k]
		wp := p.prec + 64
		c0, err := opt.Loss.Term(new(big.Float).SetPrec(wp), 0, theta0)
		if err != nil {
			return res, err
		}
		theta := slices.Repeat([]*big.Float{theta0}, n)
		copy(theta[lo:hi], p.Theta)
		score, err := s.Score(ctx, theta)
		res.Queries++
		if err != nil {
			return res, err
		}
		// M·ℓ_M = N·ℓ̂ − (N−M)·c₀, returned as ℓ_M for Decode.
		t := new(big.Float).SetPrec(wp).Mul(score, new(big.Float).SetInt64(int64(n)))
		t.Sub(t, new(big.Float).SetPrec(wp).Mul(c0, new(big.Float).SetInt64(int64(n-k))))
		t.Quo(t, new(big.Float).SetInt64(int64(k)))
		r, err := p.Decode(t, opt.ServerErr)
		if err != nil {
			return res, fmt.Errorf("single: block of points [%d, %d): %w", lo, hi, err)
		}
		copy(res.Labels[lo:hi], r.Labels)
		copy(res.Known[lo:hi], r.Known) // all true: the block verified
		res.Blocks = append(res.Blocks, k)
		res.Residual = max(res.Residual, r.Residual)
		res.Budget = r.Budget
	}
	res.Verified = true
	return res, nil
}
