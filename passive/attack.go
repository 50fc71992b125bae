// This file implements the passive attacks of [BLIA, §5]: the threshold
// attack (Algorithm 1) and the delta-margin attack (Algorithm 2), plus the
// symmetric reading of the latter and the loss-inversion control.

package passive

import (
	"fmt"
	"github.com/labelinf/labelinf/libm"
	"math"
	"slices"
)

// An AttackKind names a passive label-inference attack.
type AttackKind int

const (
	// ThresholdFixed guesses 1 iff p₁ ≥ 0.5 [BLIA, Algorithm 1, "fixed"].
	ThresholdFixed AttackKind = iota
	// ThresholdMean guesses 1 iff p₁ ≥ the mean of the attacked rows' p₁
	// [BLIA, Algorithm 1, "mean"].
	ThresholdMean
	// ThresholdMedian guesses 1 iff p₁ ≥ the median of the attacked rows'
	// p₁ (the mean of the two middle values for an even count, as numpy
	// computes it) [BLIA, Algorithm 1, "median"].
	ThresholdMedian
	// DeltaMargin is Algorithm 2 of [BLIA] as written: the margin is
	// m = p₁ − SecondHighest(p₀, p₁), the score s = α·m − β·ℓ with ℓ the
	// row's log-loss against the label the model was trained on, and the
	// guess is 1 iff s > 0.
	//
	// For two classes "second highest" is min(p₀, p₁), so m = 2p₁ − 1 when
	// p₁ ≥ ½ and m = 0 otherwise: every row with p₁ < ½ is guessed 0
	// (s = −β·ℓ ≤ 0) whatever its loss. We implement it as written and
	// offer [DeltaMarginSymmetric] beside it.
	DeltaMargin
	// DeltaMarginSymmetric applies the rule to both classes alike: the
	// margin is the top probability minus the other, m = |p₁ − p₀|, and the
	// guess is the top class if s = α·m − β·ℓ > 0, the other class
	// otherwise (a confident prediction that nonetheless has a high loss
	// points to the other label). For p₁ ≥ ½ it agrees with [DeltaMargin];
	// for p₁ < ½ the paper's rule always answers 0. (Reading "second
	// highest" as the signed p₁ − p₀ instead changes nothing: for α > 0,
	// β ≥ 0 and p₁ < ½ the score is negative either way.)
	DeltaMarginSymmetric
	// LossInversion is a control, not an attack of the paper: it returns
	// the class c whose −log p_c is closest to the row's log-loss, which is
	// the training label itself whenever p₁ ≠ ½ [AKXFT21, §1]. It shows
	// that any attack fed the per-sample loss against the training label
	// can "succeed" without the model having memorized anything.
	LossInversion
)

var attackNames = [...]string{"threshold", "threshold-mean", "threshold-median", "delta-margin", "delta-margin-sym", "loss-inversion"}

func (k AttackKind) String() string {
	if k < 0 || int(k) >= len(attackNames) {
		return fmt.Sprintf("AttackKind(%d)", int(k))
	}
	return attackNames[k]
}

// An Attack is one passive attack with its parameters.
type Attack struct {
	Kind AttackKind
	// Alpha and Beta weigh the margin and the loss of the delta-margin
	// attacks: s = α·m − β·ℓ. The paper requires α > 0 and β > 0 and gives
	// no values; Beta = 0 drops the loss and makes the attack label-free.
	// Ignored by the other kinds.
	Alpha, Beta float64
}

// String returns the attack's name, with α and β for delta-margin.
func (a Attack) String() string {
	if a.Kind == DeltaMargin || a.Kind == DeltaMarginSymmetric {
		return fmt.Sprintf("%v(α=%g,β=%g)", a.Kind, a.Alpha, a.Beta)
	}
	return a.Kind.String()
}

// ReadsLabels reports whether the attack's guess for a row depends on that
// row's training label (through its per-sample loss). For such attacks a
// success ratio above ½ is not evidence of memorization on its own; see
// [Evaluate].
func (a Attack) ReadsLabels() bool {
	switch a.Kind {
	case DeltaMargin, DeltaMarginSymmetric:
		return a.Beta != 0
	case LossInversion:
		return true
	}
	return false
}

func (a Attack) validate() error {
	if a.Kind < 0 || int(a.Kind) >= len(attackNames) {
		return fmt.Errorf("passive: unknown attack %v", a.Kind)
	}
	if a.Kind == DeltaMargin || a.Kind == DeltaMarginSymmetric {
		if !(a.Alpha > 0) || math.IsInf(a.Alpha, 0) {
			return fmt.Errorf("passive: delta-margin α = %v; want a finite α > 0", a.Alpha)
		}
		if !(a.Beta >= 0) || math.IsInf(a.Beta, 0) {
			return fmt.Errorf("passive: delta-margin β = %v; want a finite β ≥ 0", a.Beta)
		}
	}
	return nil
}

// Infer writes to dst the labels the attack infers for rows whose class-1
// probabilities are p1 and whose training labels are trained (used only
// by attacks that read the per-sample loss; it may be nil otherwise). It
// returns dst, reallocated if too short, and an error if a probability is
// outside [0, 1] or NaN, if a training label is not 0 or 1, or if the
// attack's parameters are invalid.
//
// The guess for row i depends on all of p1 but, of the labels, only on
// trained[i]; [Evaluate] relies on this.
func (a Attack) Infer(dst []int, p1 []float64, trained []int) ([]int, error) {
	if err := a.validate(); err != nil {
		return nil, err
	}
	if len(p1) == 0 {
		return nil, fmt.Errorf("passive: no rows to attack")
	}
	for i, p := range p1 {
		if !(p >= 0 && p <= 1) {
			return nil, fmt.Errorf("passive: row %d: probability %v outside [0, 1]", i, p)
		}
	}
	if a.ReadsLabels() {
		if len(trained) != len(p1) {
			return nil, fmt.Errorf("passive: %v needs %d training labels, got %d", a, len(p1), len(trained))
		}
		for i, t := range trained {
			if t != 0 && t != 1 {
				return nil, fmt.Errorf("passive: row %d: training label %d is not 0 or 1", i, t)
			}
		}
	}
	dst = slices.Grow(dst[:0], len(p1))[:len(p1)]
	switch a.Kind {
	case ThresholdFixed, ThresholdMean, ThresholdMedian:
		t := 0.5
		switch a.Kind {
		case ThresholdMean:
			t = mean(p1)
		case ThresholdMedian:
			t = median(p1)
		}
		for i, p := range p1 {
			dst[i] = b2i(p >= t)
		}
	case DeltaMargin, DeltaMarginSymmetric:
		for i, p := range p1 {
			var m float64
			top := b2i(p >= 0.5)
			if a.Kind == DeltaMargin {
				m = p - min(p, 1-p) // p₁ − SecondHighest(p₀, p₁)
			} else {
				m = math.Abs(2*p - 1) // p_top − p_other
			}
			s := a.Alpha * m
			if a.Beta != 0 {
				s -= a.Beta * rowLoss(p, trained[i])
			}
			switch {
			case a.Kind == DeltaMargin:
				dst[i] = b2i(s > 0)
			case s > 0:
				dst[i] = top
			default:
				dst[i] = 1 - top
			}
		}
	case LossInversion:
		for i, p := range p1 {
			l := rowLoss(p, trained[i])
			d1 := math.Abs(l + libm.GoLog(p))
			d0 := math.Abs(l + math.Log1p(-p))
			dst[i] = b2i(d1 <= d0)
		}
	}
	return dst, nil
}

// rowLoss is the log-loss −log p_t of a row with class-1 probability p and
// training label t; +Inf when p_t = 0.
func rowLoss(p float64, t int) float64 {
	if t == 1 {
		return -libm.GoLog(p)
	}
	return -math.Log1p(-p)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
