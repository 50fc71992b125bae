package defence

import (
	"errors"
	"fmt"
	"github.com/labelinf/labelinf/libm"
	"math"
	"math/big"
	"sort"
)

// Metric is a loss on binary labels (0 or 1) and predictions in [0, 1],
// lower is better. PerRow writes the per-row losses, or returns
// ErrNoPerRow; Score returns the exact score on the given rows.
type Metric interface {
	String() string
	// Check returns an error if a prediction is out of the metric's
	// domain. It looks at the predictions only, never at the labels, so a
	// refusal tells nothing about them.
	Check(pred []float64) error
	PerRow(dst, pred []float64, y []int) error
	Score(pred []float64, y []int, rows []int) (*big.Rat, error)
}

// ZeroOne is the 0/1 loss: a row costs 1 if the predicted class, 1 when
// the prediction is ≥ 1/2 and 0 otherwise, differs from its label. The
// Ladder paper's attack and experiments use it [BH15].
type ZeroOne struct{}

func (ZeroOne) String() string { return "zero-one" }

// Check implements [Metric].
func (ZeroOne) Check(pred []float64) error { return checkProbs(pred, false) }

// PerRow implements [Metric]. It panics if the lengths differ.
func (ZeroOne) PerRow(dst, pred []float64, y []int) error {
	mustLen(len(dst), len(pred), len(y))
	for i, p := range pred {
		c := 0
		if p >= 0.5 {
			c = 1
		}
		dst[i] = 0
		if c != y[i] {
			dst[i] = 1
		}
	}
	return nil
}

// Score implements [Metric]: errors/len(rows), exactly.
func (m ZeroOne) Score(pred []float64, y []int, rows []int) (*big.Rat, error) {
	if len(rows) == 0 {
		return nil, errors.New("defence: score of no rows")
	}
	e := 0
	for _, i := range rows {
		if (pred[i] >= 0.5) != (y[i] == 1) {
			e++
		}
	}
	return big.NewRat(int64(e), int64(len(rows))), nil
}

// LogLoss is the binary cross-entropy −y ln p − (1−y) ln(1−p) per row,
// with p clipped to [Eps, 1 − Eps] first (scikit-learn's eps; 0 means no
// clipping, and then a prediction of exactly 0 or 1 is refused before
// scoring, independently of the labels, since its loss is infinite for one
// label only). Per-row terms are float64 (math.Log), and the score is
// their exact mean: this is the simulator's arithmetic model, not a
// library's; a server with an exact or library-faithful loss passes
// Submission.Mean.
//
// Clipping is precision hygiene: it bounds every term by ln(1/Eps), so
// one label moves the mean by at most [MaxLabelShift]; at Eps = 10⁻³ and
// 2 decimals, a single label of 25,000 cannot move the rounded score by
// more than one step.
type LogLoss struct {
	Eps float64
}

func (m LogLoss) String() string { return fmt.Sprintf("log-loss(eps=%g)", m.Eps) }

// Check implements [Metric].
func (m LogLoss) Check(pred []float64) error {
	if !(m.Eps >= 0 && m.Eps < 0.5) {
		return fmt.Errorf("defence: log-loss clipping %v out of [0, 0.5)", m.Eps)
	}
	return checkProbs(pred, m.Eps == 0)
}

// PerRow implements [Metric]. It panics if the lengths differ.
func (m LogLoss) PerRow(dst, pred []float64, y []int) error {
	mustLen(len(dst), len(pred), len(y))
	for i, p := range pred {
		if m.Eps > 0 {
			p = math.Min(math.Max(p, m.Eps), 1-m.Eps)
		}
		if y[i] == 1 {
			dst[i] = -libm.GoLog(p)
		} else {
			dst[i] = -math.Log1p(-p)
		}
	}
	return nil
}

// Score implements [Metric].
func (m LogLoss) Score(pred []float64, y []int, rows []int) (*big.Rat, error) {
	l := make([]float64, len(pred))
	if err := m.PerRow(l, pred, y); err != nil {
		return nil, err
	}
	sel := make([]float64, len(rows))
	for j, i := range rows {
		sel[j] = l[i]
	}
	return ExactMean(sel)
}

// AUCLoss is 1 − ROC AUC, the AUC of the rows scored computed exactly
// (Mann–Whitney: the fraction of (positive, negative) pairs ranked right,
// ties counting one half). AUC has no per-row decomposition, so PerRow
// returns ErrNoPerRow: the fixed-step Ladder, noise, rounding and
// Thresholdout (with TrainScore) apply to it, the parameter-free Ladder's
// paired test does not and refuses.
type AUCLoss struct{}

func (AUCLoss) String() string { return "1-auc" }

// Check implements [Metric]: predictions are scores; any finite value.
func (AUCLoss) Check(pred []float64) error {
	for i, p := range pred {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return fmt.Errorf("defence: prediction %d is %v", i, p)
		}
	}
	return nil
}

// PerRow implements [Metric]: it returns ErrNoPerRow.
func (AUCLoss) PerRow(dst, pred []float64, y []int) error { return ErrNoPerRow }

// Score implements [Metric]. It returns an error if the rows hold only
// one class.
func (AUCLoss) Score(pred []float64, y []int, rows []int) (*big.Rat, error) {
	idx := append([]int(nil), rows...)
	sort.Slice(idx, func(a, b int) bool { return pred[idx[a]] < pred[idx[b]] })
	// Sum of positive ranks with midranks for ties, doubled to stay integral.
	var pos, neg, rank2 int64
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && pred[idx[j]] == pred[idx[i]] {
			j++
		}
		mid2 := int64(i+1) + int64(j) // 2 × mean rank of i+1..j
		for k := i; k < j; k++ {
			if y[idx[k]] == 1 {
				pos++
				rank2 += mid2
			} else {
				neg++
			}
		}
		i = j
	}
	if pos == 0 || neg == 0 {
		return nil, errors.New("defence: AUC of rows with one class")
	}
	// AUC = (R₊ − pos(pos+1)/2)/(pos·neg); 1 − AUC.
	num := new(big.Int).SetInt64(rank2 - pos*(pos+1))
	den := new(big.Int).SetInt64(2 * pos * neg)
	auc := new(big.Rat).SetFrac(num, den)
	return auc.Sub(big.NewRat(1, 1), auc), nil
}

func checkProbs(pred []float64, open bool) error {
	for i, p := range pred {
		if math.IsNaN(p) || p < 0 || p > 1 {
			return fmt.Errorf("defence: prediction %d is %v; want a probability in [0, 1]", i, p)
		}
		if open && (p == 0 || p == 1) {
			return fmt.Errorf("defence: prediction %d is %v; without clipping want (0, 1)", i, p)
		}
	}
	return nil
}

func mustLen(a, b, c int) {
	if a != b || b != c {
		panic(fmt.Sprintf("defence: lengths %d, %d, %d differ", a, b, c))
	}
}
