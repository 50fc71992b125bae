package scorer

// This file is the attacker's side of a model: the exact terms a server's
// prediction rows produce, and a rigorous bound on how far the reported
// score can be from their mean.

import (
	"fmt"
	"math"
	"math/big"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/ln128"
)

// Terms returns, for one prediction row, the exact term t_c = −ln q̂_c of
// each class c (clamped as the server clamps), where q̂_c is the
// probability the server feeds its log: the row rounded to the format,
// clipped and renormalised with the server's own (correctly rounded, hence
// predictable) basic operations. Only the log and the sum are left to
// [Model.Bound]. For a binary model row is [p], the probability of class
// 1. Terms are accurate to 2^−128 relative (internal/ln128). A class with
// q̂_c = 0 and no clamp gets +Inf.
func (m *Model) Terms(row []float64) ([]*big.Float, error) {
	return m.TermsCached(row, nil)
}

// TermCache holds the exact terms of probabilities already seen, for one
// model (Model.TermsCached); the zero value is empty, ready to use.
type TermCache struct {
	m     *Model
	terms map[termKey]*big.Float
}

// termKey is a probability: its float64 bits and its precision.
type termKey struct {
	bits uint64
	prec uint
}

// termCacheMax bounds a TermCache (a term is about a hundred bytes).
const termCacheMax = 1 << 16

// TermsCached is Terms with the log of each probability the server takes
// it of (a value of the loss's format that float64 holds exactly) looked
// up in tc first and kept there; a nil tc computes every one. The terms
// are those Terms returns, new values the caller may keep.
func (m *Model) TermsCached(row []float64, tc *TermCache) ([]*big.Float, error) {
	if tc != nil && tc.m != m {
		tc.m, tc.terms = m, nil
	}
	q, err := m.qhat(row)
	if err != nil {
		return nil, err
	}
	var floor *big.Float
	if !m.Exact {
		c, err := m.Clip()
		if err != nil {
			return nil, err
		}
		if c.Floor != nil {
			if floor, err = c.Floor.Big(nil); err != nil {
				return nil, err
			}
			floor.Neg(floor)
		}
	}
	out := make([]*big.Float, len(q))
next:
	for c0, v := range q {
		// Equal probabilities have equal terms: the log once.
		for d := range c0 {
			if q[d].Cmp(v) == 0 {
				out[c0] = new(big.Float).Set(out[d])
				continue next
			}
		}
		var key termKey
		cached := false
		if tc != nil {
			if f, acc := v.Float64(); acc == big.Exact {
				key, cached = termKey{math.Float64bits(f), v.Prec()}, true
				if t, ok := tc.terms[key]; ok {
					out[c0] = new(big.Float).Set(t)
					continue
				}
			}
		}
		t := new(big.Float).SetPrec(ln128.Prec)
		if v.Sign() <= 0 {
			t.SetInf(false)
		} else {
			ln128.Log(t, v)
			t.Neg(t)
		}
		if floor != nil && t.Cmp(floor) > 0 {
			t.Set(floor)
		}
		out[c0] = t
		if cached {
			if tc.terms == nil || len(tc.terms) >= termCacheMax {
				tc.terms = make(map[termKey]*big.Float)
			}
			tc.terms[key] = new(big.Float).Set(t)
		}
	}
	return out, nil
}

// qhat returns the exact probabilities the server takes the log of.
func (m *Model) qhat(row []float64) ([]*big.Float, error) {
	for _, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("scorer: prediction %v", v)
		}
	}
	if m.Exact {
		if len(row) == 1 {
			p := new(big.Float).SetFloat64(row[0])
			r0 := new(big.Float).SetPrec(1200).Sub(big.NewFloat(1), p)
			return []*big.Float{r0, p}, nil
		}
		q := make([]*big.Float, len(row))
		for c, v := range row {
			q[c] = new(big.Float).SetFloat64(v)
		}
		return q, nil
	}
	f, mode := m.Loss.Format, m.Loss.Mode
	nf := func() *fpa.Float { return fpa.New(f).SetMode(mode) }
	c, err := m.Clip()
	if err != nil {
		return nil, err
	}
	eps, oneMinus := c.Eps, c.OneMinus
	clip := func(x *fpa.Float) {
		if eps == nil {
			return
		}
		if x.Cmp(eps) < 0 {
			x.Set(eps)
		} else if x.Cmp(oneMinus) > 0 {
			x.Set(oneMinus)
		}
	}
	var vals []*fpa.Float
	if len(row) == 1 {
		p := nf().SetFloat64(row[0])
		clip(p)
		vals = []*fpa.Float{nf().Sub(nf().SetInt64(1), p), p}
		if m.Loss.AddEps {
			for c := range vals {
				vals[c] = nf().Add(vals[c], eps)
			}
		}
	} else {
		if m.Loss.AddEps {
			return nil, fmt.Errorf("scorer: %s adds eps inside the log, defined for binary predictions only", m.Name)
		}
		for _, v := range row {
			x := nf().SetFloat64(v)
			clip(x)
			vals = append(vals, x)
		}
	}
	if m.Loss.Renormalize {
		s := nf()
		for _, v := range vals {
			s.Add(s, v)
		}
		for c := range vals {
			vals[c] = nf().Quo(vals[c], s)
		}
	}
	q := make([]*big.Float, len(vals))
	for c, v := range vals {
		b, err := v.Big(nil)
		if err != nil {
			return nil, err
		}
		q[c] = b
	}
	return q, nil
}

// Budget describes the terms of one query for [Model.Bound]: N terms, each
// exact term at most Max, SumT ≥ Σ tᵢ and SumDT ≥ Σ dᵢ·tᵢ with dᵢ the
// number of additions term i passes through in the server's sum
// ([Model.Depths]), MaxD ≥ max dᵢ. Callers round these up.
type Budget struct {
	N           int
	Max         float64
	SumT, SumDT float64
	MaxD        int
}

// Depths returns the number of rounded additions each of n terms passes
// through in m's sum (all 0 for an exact server).
func (m *Model) Depths(n int) []int {
	if m.Exact {
		return make([]int, n)
	}
	if m.Loss.ExactSum {
		d := make([]int, n)
		for i := range d {
			d[i] = 1 // one rounding of the exact sum
		}
		return d
	}
	return fpa.Depths(nil, n, m.Loss.Sum)
}

// Bound returns a rigorous upper bound on |N·r − Σ tᵢ|, where r is the
// score the server reports for a query described by b and tᵢ are the exact
// terms of [Model.Terms], before any noise. For a float server, with u the
// unit roundoff, L = max(LogULPs, ½) and ρ = 2uL [Higham02, Ch. 3–4]:
//
//	|t̂ᵢ − tᵢ| ≤ L·ulp(tᵢ) ≤ ρ·tᵢ            (faithful log; q̂ᵢ is exact)
//	|Ŝ − Σ t̂ᵢ| ≤ Σ γ(dᵢ)|t̂ᵢ| ≤ u(1+ρ)·SumDT/(1 − u·MaxD)
//	|N·fl(Ŝ/N) − Ŝ| ≤ γ(2)·|Ŝ|               (N itself may round)
//
// plus a subnormal slack of 2^(Emin−Prec+4) per term, (2u + 8N·u²)(1+ρ)·SumT
// for the sum instead if it is Kahan's (that O(N·u²) constant is not
// proved; see fpa.Loss.Bound), and N·½·10^−D for a score rounded to D
// decimals (½·10^−D for a summing server, Loss.Total, which also does not
// divide). An exact server's error is 2^−Prec·|S|. The result is
// computed in float64 and inflated by 2^−30 relative to stay an upper
// bound.
func (m *Model) Bound(b Budget) float64 {
	n := float64(b.N)
	var e float64
	if m.Exact {
		e = math.Ldexp(b.SumT, -int(m.Prec))
	} else {
		ue := int(m.Loss.Format.Unit())
		if m.Loss.Mode != fpa.ToNearestEven && m.Loss.Mode != fpa.ToNearestAway {
			ue++
		}
		u := math.Ldexp(1, ue)
		rho := 2 * u * max(m.Loss.LogULPs, 0.5)
		tiny := math.Ldexp(1, int(m.Loss.Format.Emin())-int(m.Loss.Format.Prec())+4)
		eterm := rho*b.SumT + n*tiny
		var esum float64
		if m.Loss.ExactSum {
			// One rounding of the exact sum of the computed terms.
			esum = u * (b.SumT*(1+rho) + n*tiny)
		} else if m.Loss.Sum.Order == fpa.Kahan {
			esum = (2*u + 8*n*u*u) * (1 + rho) * b.SumT
		} else {
			den := 1 - u*float64(b.MaxD)
			if den <= 0 {
				return math.Inf(1)
			}
			esum = u * (1 + rho) * b.SumDT / den
		}
		shat := b.SumT*(1+rho) + esum + n*tiny
		g2 := 2 * u / (1 - 2*u)
		if m.Loss.Total {
			g2 = 0 // a summing server does not divide by N
		}
		e = eterm + esum + g2*shat + tiny
	}
	if m.Decimals >= 0 {
		// A mean rounded to D decimals moves N·score by N·½·10^−D; a
		// summing server's rounded sum by ½·10^−D.
		k := n
		if !m.Exact && m.Loss.Total {
			k = 1
		}
		e += k * 0.5 * math.Pow(10, -float64(m.Decimals)) * (1 + 1e-15)
	}
	// 128-bit terms (ln128) and the attacker's 256-bit conversion of the score.
	e += math.Ldexp(n*(b.Max+1), -100)
	return e * (1 + 0x1p-30)
}

// ScoreBits returns an estimate of how many bits one score can carry when
// it is at most smax: log2 of the number of distinct values the server can
// report in [0, smax]. It is the denominator of the information floor
// N·log2 K / ScoreBits.
func (m *Model) ScoreBits(smax float64) float64 {
	if m.Decimals >= 0 {
		return math.Log2(smax*math.Pow(10, float64(m.Decimals)) + 1)
	}
	if m.Exact {
		return float64(m.Prec) + 6 // scores spread over about 64 binades
	}
	f := m.Loss.Format
	_, e := math.Frexp(smax)
	binades := float64(int64(e) - f.Emin() + 1)
	return float64(f.Prec()-1) + math.Log2(max(binades, 1))
}
