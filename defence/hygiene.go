package defence

import (
	"fmt"
	"math"
)

// Hygiene is the precision hygiene of a scorer, the settings the papers'
// bounds say reduce leakage at no cost to honest users:
//   - Decimals: the score is released rounded to exactly this many
//     decimals from its exact value ([Round]), with no extra bits in the
//     text, the JSON or a log a participant can see. Every bit beyond
//     the display is a bit an attacker decodes for free.
//   - Clip: predictions are clipped to [Clip, 1 − Clip] before the log
//     ([LogLoss.Eps]), which bounds one label's effect on the mean by
//     [MaxLabelShift]; 10⁻³ gives ln(999)/N ≈ 6.9/N. Without clipping one
//     row predicted near 0 or 1 moves the score as far as the attacker
//     likes, and a prediction of exactly 0 or 1 must be refused before
//     scoring (its loss is infinite for one label only).
//
// Hygiene alone is not a defence: when one label's effect is below the
// step 10^−Decimals a single answer cannot show it, but [Round]'s edges
// can (adaptive.Edge).
type Hygiene struct {
	Decimals int
	Clip     float64
}

// Validate returns an error if Decimals is out of [0, MaxDecimals] or
// Clip out of [0, 1/2).
func (h Hygiene) Validate() error {
	if h.Decimals < 0 || h.Decimals > MaxDecimals {
		return fmt.Errorf("defence: %d decimals out of range [0, %d]", h.Decimals, MaxDecimals)
	}
	if !(h.Clip >= 0 && h.Clip < 0.5) {
		return fmt.Errorf("defence: clipping %v out of [0, 0.5)", h.Clip)
	}
	return nil
}

// Round returns the rounding stage of h, to put last in a chain.
func (h Hygiene) Round() (*Round, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	return NewRound(h.Decimals)
}

// Metric returns the log-loss clipped as h says.
func (h Hygiene) Metric() LogLoss { return LogLoss{Eps: h.Clip} }

// LabelBelowStep reports whether, for a log-loss of n rows, one label's
// largest effect on the score ([MaxLabelShift]) is below the rounding
// step 10^−Decimals, i.e. whether a single answer far from a rounding
// edge can hide every label.
func (h Hygiene) LabelBelowStep(n int) bool {
	return MaxLabelShift(h.Clip, n) < math.Pow(10, -float64(h.Decimals))
}

// MaxLabelShift returns the most that changing one label can move a mean
// log-loss of n rows clipped at eps: the two terms of a row are ln(1/q)
// and ln(1/(1−q)) with q in [eps, 1−eps], which differ by at most
// ln((1−eps)/eps); divided by n. It is +Inf for eps = 0 (an unclipped
// prediction near 0 or 1 makes one label's term as large as it likes),
// which is why clipping far from 0 and 1 is hygiene: with eps = 10⁻³ the
// shift is at most 6.907/n.
func MaxLabelShift(eps float64, n int) float64 {
	if eps <= 0 || n < 1 {
		return math.Inf(1)
	}
	return math.Log((1-eps)/eps) / float64(n)
}

// Clip writes p clipped to [eps, 1 − eps] into dst and returns it.
// It panics if len(dst) != len(p).
func Clip(dst, p []float64, eps float64) []float64 {
	if len(dst) != len(p) {
		panic("defence: Clip lengths differ")
	}
	for i, v := range p {
		dst[i] = math.Min(math.Max(v, eps), 1-eps)
	}
	return dst
}
