// This file implements the prime-logarithm attack of [EA, Corollary 3]:
// one exact (0⁺-noise) query whose weights are ln p_i / N, decoded by
// exponentiating to the integer Π_{σ_i=1} p_i and factoring it.

package single

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/primes"
	"github.com/labelinf/labelinf/subsetsum"
)

// PrimeLogOptions configures [PlanPrimeLog] and [AttackPrimeLog].
type PrimeLogOptions struct {
	Loss *loss.Binary
	N    int
	// ServerErr bounds |N·ℓ̂ − N·ℓ|, the server's error in N·ℓ units
	// (its rounding; 0 for an exact score). It must stay below half the
	// separation, ln(1 + 1/Π p_i)/2 (the attack is 0⁺-separable only).
	ServerErr float64
}

// PrimeLogPlan is a planned prime-logarithm attack.
type PrimeLogPlan struct {
	Loss *loss.Binary
	N    int
	// Theta is the prediction to submit: d(θ_i) = ln(p_i)/N.
	Theta []*big.Float

	p    []uint64
	d    []*big.Float // realized d(θ_i)
	c    *big.Float   // Σ_i Term(0, θ_i)
	bits int          // bit length of Π p_i
	prec uint
	// serverErr is PrimeLogOptions.ServerErr, for [PrimeLogPlan.Attack].
	serverErr float64
}

// MaxPrimeLogN bounds N for [PlanPrimeLog]: the score needs about
// N·log₂(N ln N) bits and the root finder twice that per point.
const MaxPrimeLogN = 2048

// PlanPrimeLog plans the attack of [EA, Corollary 3] on N binary labels:
// θ_i = x*(ln(p_i)/N), p_i the i-th prime ([subsetsum.PrimeLogs]), so that
// N·(N·ℓ(σ) − Σ_i ℓ(0, θ_i)) = Σ_{σ_i=1} ln p_i = ln Π_{σ_i=1} p_i. Two
// labelings' products are distinct integers at most Π p_i, so their losses
// differ by at least Λ = ln(1 + 1/Π p_i)/N² > 0: the loss is 0⁺-codomain
// separable, and the score must be known to about log₂ Π p_i bits. The
// paper states it for squared Euclidean (θ_i = (1 − ln(p_i)/N)/2) and
// norm-like losses; it works for any loss of the family whose sup |d|
// exceeds ln(p_N)/N. It returns an error if N is outside [1,
// MaxPrimeLogN], if ServerErr is not below half the separation, if a
// weight exceeds sup |d|, or ctx's error.
func PlanPrimeLog(ctx context.Context, opt PrimeLogOptions) (*PrimeLogPlan, error) {
	p, err := opt.shape()
	if err != nil {
		return nil, err
	}
	logs, err := subsetsum.PrimeLogs(p.N, p.prec+64)
	if err != nil {
		return nil, err
	}
	wp := p.prec + 64
	nf := new(big.Float).SetInt64(int64(p.N))
	p.Theta, p.d, p.c, err = invertAll(ctx, p.Loss, p.N, wp, wp, func(i int) *big.Float { return logs[i].Quo(logs[i], nf) })
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Prec returns the score precision, in bits, that [PlanPrimeLog] plans
// for opt, or the error it returns before finding its roots: what the
// plan needs, cheaply (the product of N primes), without the plan.
func (opt PrimeLogOptions) Prec() (uint, error) { return precOf(opt.shape()) }

// shape is [PlanPrimeLog] up to its roots: the checks, the primes and the
// precision.
func (opt PrimeLogOptions) shape() (*PrimeLogPlan, error) {
	l, n := opt.Loss, opt.N
	if l == nil {
		return nil, errors.New("single: no loss to plan for")
	}
	if n < 1 || n > MaxPrimeLogN {
		return nil, fmt.Errorf("single: N = %d outside [1, %d]", n, MaxPrimeLogN)
	}
	ps, err := primes.FirstN(n)
	if err != nil {
		return nil, err
	}
	p := &PrimeLogPlan{Loss: l, N: n, p: ps, bits: primes.NewPowerTree(ps, 1).Root().BitLen(), serverErr: opt.ServerErr}
	// Λ·N (N·ℓ units) ≥ ln(1 + 1/Π p)/N ≥ 2^−bits/(2N), as ln(1+x) ≥ x/2
	// for x ≤ 1; half of it bounds the error (0 is always accepted).
	if sepN := math.Ldexp(1, -p.bits) / float64(n) / 4; opt.ServerErr < 0 || opt.ServerErr > 0 && !(opt.ServerErr < sepN) {
		return nil, fmt.Errorf("single: server error %g in N·ℓ is not below half the prime-log separation (%g): the attack needs an exact score ([EA, Corollary 3] is 0⁺-separable only)", opt.ServerErr, sepN)
	}
	// T = N·(N·ℓ − c) ≤ bits·ln 2 must be known to 2^−(bits+2)
	// absolutely, so ℓ ≈ N·ℓ(0, ½) to 2^−(bits+2)/N², relatively to
	// bits + 2 + 3·log₂ N bits; 24 more cover the roundings.
	p.prec = uint(p.bits + 3*bits.Len(uint(n)) + 24)
	if sup := l.DSup(); math.Log(float64(ps[n-1]))/float64(n) >= sup {
		return nil, fmt.Errorf("single: %v: the weight ln(%d)/%d exceeds sup |d| = %g", l, ps[n-1], n, sup)
	}
	return p, nil
}

// invertAll returns the predictions θ_i = x*(y(i)), i < n, refined to tp
// bits by invertExact, their weights d(θ_i) at wp ≥ tp bits (invertExact's
// own where wp = tp) and c = Σ_i Term(0, θ_i) at wp bits; or the first
// error, ctx's when ctx is done.
func invertAll(ctx context.Context, l *loss.Binary, n int, tp, wp uint, y func(i int) *big.Float) (theta, d []*big.Float, c *big.Float, err error) {
	theta, d = make([]*big.Float, n), make([]*big.Float, n)
	c = new(big.Float).SetPrec(wp)
	for i := range n {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
		x, di, err := invertExact(l, y(i), tp)
		if err == nil && wp != tp {
			di, err = l.D(new(big.Float).SetPrec(wp), x)
		}
		if err != nil {
			return nil, nil, nil, err
		}
		t0, err := l.Term(new(big.Float).SetPrec(wp), 0, x)
		if err != nil {
			return nil, nil, nil, err
		}
		theta[i], d[i] = x, di
		apa.Add(c, c, t0) // terms down to e^(−2^31): no exact alignment
	}
	return theta, d, c, nil
}

// invertExact returns x with d(x) = y to a relative 2^−(prec−8) where
// d's evaluation allows it, and d(x) at prec bits: [loss.Binary.Invert] at
// 128 bits (it compares d at 64 bits, so it is good to about that), then
// secant steps at prec bits, whose order 1.6 convergence takes 64 bits to
// thousands in a dozen. If the steps stall (d evaluated through exp and
// log can be less accurate than prec), it returns the best x reached;
// callers use the returned d(x), not y, and verify what they decode.
func invertExact(l *loss.Binary, y *big.Float, prec uint) (x, d *big.Float, err error) {
	x0, err := l.Invert(y, 128)
	if err != nil {
		return nil, nil, err
	}
	x0 = new(big.Float).SetPrec(prec).Set(x0)
	x1 := new(big.Float).SetPrec(prec).SetMantExp(x0, -40)
	x1.Add(x0, x1) // x0·(1 + 2^−40)
	f := func(x *big.Float) (*big.Float, error) {
		d, err := l.D(new(big.Float).SetPrec(prec), x)
		if err != nil {
			return nil, err
		}
		return d.Sub(d, y), nil
	}
	f0, err := f(x0)
	if err != nil {
		return nil, nil, err
	}
	bestX, bestF := x0, f0
	tol := new(big.Float).SetMantExp(y, -int(prec)+8)
	tol.Abs(tol)
	for range 64 {
		if new(big.Float).Abs(bestF).Cmp(tol) <= 0 {
			break
		}
		f1, err := f(x1)
		if err != nil {
			break // a step left the domain: keep the best so far
		}
		if new(big.Float).Abs(f1).Cmp(new(big.Float).Abs(bestF)) < 0 {
			bestX, bestF = x1, f1
		}
		den := new(big.Float).SetPrec(prec).Sub(f1, f0)
		if den.Sign() == 0 {
			break
		}
		step := new(big.Float).SetPrec(prec).Sub(x1, x0)
		step.Mul(step, f1).Quo(step, den)
		x0, f0 = x1, f1
		x1 = new(big.Float).SetPrec(prec).Sub(x1, step)
	}
	d = new(big.Float).SetPrec(prec).Add(bestF, y)
	return bestX, d, nil
}

// Prec returns the score precision, in bits, the plan needs.
func (p *PrimeLogPlan) Prec() uint { return p.prec }

// Decode recovers the labels from the score ℓ̂ with |N·ℓ̂ − N·ℓ| ≤
// serverErr: X = round(exp(N·(N·ℓ̂ − c))) must be a product of distinct
// p_i, whose factors are the points labelled 1; the labeling's realized
// weights must then explain the score within serverErr (plus the
// rounding of the score to Prec bits). It returns ErrInconsistent wrapped
// otherwise.
func (p *PrimeLogPlan) Decode(score *big.Float, serverErr float64) (*decode.Result, error) {
	wp := p.prec + 64
	nf := new(big.Float).SetInt64(int64(p.N))
	s := new(big.Float).SetPrec(wp).Mul(score, nf)
	s.Sub(s, p.c) // Σ σ_i d_i + error
	t := new(big.Float).SetPrec(wp).Mul(s, nf)
	tf, _ := t.Float64()
	if !(tf > -0.5 && tf < float64(p.bits)*math.Ln2+0.5) {
		return nil, fmt.Errorf("%w: N·(N·ℓ − c) = %g is outside [0, ln Π p]", decode.ErrInconsistent, tf)
	}
	x, err := apa.Exp(new(big.Float).SetPrec(wp), t)
	if err != nil {
		return nil, err
	}
	labels, err := primes.Multiplicities(bigint.Round(x), p.p, 1)
	if err != nil {
		return nil, fmt.Errorf("%w: exp(N·(N·ℓ − c)) rounds to an integer that is not a product of distinct primes p_1 … p_N", decode.ErrInconsistent)
	}
	sf, _ := score.Float64()
	return verifyWeights(labels, p.d, s, wp, serverErr+math.Abs(sf)*float64(p.N)*math.Ldexp(1, -int(p.prec)+1))
}

// AttackPrimeLog plans the attack with [PlanPrimeLog] and runs it with
// [PrimeLogPlan.Attack].
func AttackPrimeLog(ctx context.Context, s FamilyServer, opt PrimeLogOptions) (*decode.Result, error) {
	p, err := PlanPrimeLog(ctx, opt)
	if err != nil {
		return nil, err
	}
	return p.Attack(ctx, s)
}

// Attack submits θ to s (whose score must be exact to Prec bits, but for
// the options' ServerErr) and decodes its one score. Before querying, it
// returns an error if s does not hold the plan's N binary labels, or a
// *PrecisionError if s tells its precision and it is below
// [PrimeLogPlan.Prec]; then the scorer's error, [PrimeLogPlan.Decode]'s,
// or ctx's within a second of ctx being done.
func (p *PrimeLogPlan) Attack(ctx context.Context, s FamilyServer) (*decode.Result, error) {
	if err := fits(s, p.N, 2, p.prec); err != nil {
		return nil, err
	}
	return oneQuery(ctx, func() (*big.Float, error) { return s.Score(ctx, p.Theta) },
		func(x *big.Float) (*decode.Result, error) { return p.Decode(x, p.serverErr) })
}
