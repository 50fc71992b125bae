package fpa

// This file implements bit requirements: the smallest format in which a
// server's evaluation keeps an attack's labels recoverable.

import (
	"fmt"
	"math"
	"math/big"
)

// Need is what an attack needs from a server's evaluation of a mean loss.
type Need struct {
	N       int        // terms in the mean (points scored)
	MaxTerm *big.Float // largest term −ln q over all labelings
	// MinProb is the smallest probability the prediction holds; the format
	// must represent it as a normal number (so that it is not flushed and
	// its relative rounding error stays u). Nil means no constraint.
	MinProb *big.Float
	// Slack is the largest evaluation error the decoder tolerates: for a
	// loss whose scores are Λ apart under additive noise below τ, Λ/2 − τ
	// [EA Prop 1].
	Slack *big.Float
	// Rounded adds one more rounding of the reported score (noise added
	// and the sum rounded to the format).
	Rounded bool
}

// MinFormat returns the narrowest format (fewest fraction bits, then
// fewest exponent bits) in which an evaluation as l describes (l.Format is
// ignored) is guaranteed by [Loss.Bound] to stay within need.Slack of the
// exact loss, with every intermediate in the normal range: the sum up to
// N·MaxTerm below 2^Emax and MinProb at or above 2^Emin.
func MinFormat(l Loss, need Need) (Format, error) {
	if need.N < 1 || need.MaxTerm == nil || need.MaxTerm.Sign() < 0 || need.Slack == nil || need.Slack.Sign() <= 0 {
		return Format{}, fmt.Errorf("fpa: MinFormat needs N ≥ 1, MaxTerm ≥ 0 and Slack > 0")
	}
	// Exponent: 2^Emax > N·MaxTerm and 2^Emin ≤ MinProb.
	hiExp := int64(1)
	if s := new(big.Float).Mul(need.MaxTerm, new(big.Float).SetInt64(int64(need.N))); s.Sign() > 0 {
		hiExp = int64(s.MantExp(nil)) + 1
	}
	loExp := int64(0)
	if need.MinProb != nil && need.MinProb.Sign() > 0 {
		loExp = int64(need.MinProb.MantExp(nil)) - 1 // 2^loExp ≤ MinProb
	}
	e := uint(MinExpBits)
	for ; e <= MaxExpBits; e++ {
		f := Format{ExpBits: e, FracBits: 1}
		if f.Emax() >= hiExp && f.Emin() <= loExp {
			break
		}
	}
	if e > MaxExpBits {
		return Format{}, fmt.Errorf("fpa: no format with at most %d exponent bits spans [2^%d, 2^%d]", MaxExpBits, loExp, hiExp)
	}
	ok := func(m uint) bool {
		l.Format = Format{ExpBits: e, FracBits: m}
		b, err := l.Bound(need.N, need.MaxTerm)
		if err != nil {
			return false
		}
		if need.Rounded {
			b.Add(b, up().Mul(need.MaxTerm, l.pow2(l.unitRoundoff())))
		}
		return b.Cmp(need.Slack) <= 0
	}
	if !ok(MaxFracBits) {
		return Format{}, fmt.Errorf("fpa: even %d fraction bits do not bring the error below the slack %v", MaxFracBits, need.Slack)
	}
	lo, hi := uint(1), uint(MaxFracBits) // ok(hi) holds
	for lo < hi {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return Format{ExpBits: e, FracBits: hi}, nil
}

// MinPhi returns the smallest φ such that the papers' FPA(φ) (see [FPA])
// meets need, and the format that is.
func MinPhi(l Loss, need Need) (uint, Format, error) {
	f, err := MinFormat(l, need)
	if err != nil {
		return 0, Format{}, err
	}
	// FPA(φ) gives ⌊(φ−1)/2⌋ exponent bits and the rest to the fraction;
	// both must reach f's (the bound only improves with more bits).
	phi := 1 + 2*max(f.ExpBits, f.FracBits)
	for phi > 5 {
		g, err := FPA(phi - 1)
		if err != nil || g.ExpBits < f.ExpBits || g.FracBits < f.FracBits {
			break
		}
		phi--
	}
	g, err := FPA(phi)
	return phi, g, err
}

// Prop3Phi returns the bits EA Proposition 3 claims suffice to keep a
// τ-separation visible in FPA(φ): ⌈max(2·log2 τ + 5, −2·log2 τ − 1)⌉
// [KAX22, Prop 3]. It only accounts for representing Λ itself, not for
// the magnitude of the score or the rounding of the N-term sum; compare
// [MinPhi]. τ must be positive and finite.
func Prop3Phi(tau float64) (uint, error) {
	if !(tau > 0) || math.IsInf(tau, 0) {
		return 0, fmt.Errorf("fpa: τ = %v is not positive and finite", tau)
	}
	l := math.Log2(tau)
	return uint(math.Ceil(max(2*l+5, -2*l-1))), nil
}
