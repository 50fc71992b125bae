package scorer

// This file is the one definition of the cross-entropy of an
// arbitrary-precision prediction row, shared by the server that computes
// it (oracle.BigExact) and the attacker that predicts it (decode's robust
// attack). The rational form is loss.CrossEntropy; the floating-point form
// a real library computes is [Model.Eval].

import (
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/apa"
)

// RowLoss sets z to the cross-entropy of one prediction row (K values
// encoded as e says) whose label is y, and returns z:
//
//	Logits:   logsumexp_k(row_k) − row_y
//	LogProbs: −row_y
//	Probs:    −ln row_y
//
// computed at z's precision (53 bits if 0). For Logits, lse, if not nil,
// is taken as logsumexp(row) already computed (an attacker evaluates every
// label of a row against one logsumexp); otherwise it is computed with
// [apa.LogSumExp] at z's precision. The values of row must be finite
// (callers check); RowLoss returns an error for a probability outside
// (0, 1], a positive log-probability or an unknown encoding.
func (e Encoding) RowLoss(z *big.Float, row []*big.Float, y int, lse *big.Float) (*big.Float, error) {
	switch e {
	case Probs:
		v := row[y]
		if v.Sign() <= 0 || v.Cmp(big.NewFloat(1)) > 0 {
			return z, fmt.Errorf("scorer: probability %s outside (0, 1]", v.Text('g', 10))
		}
		if _, err := apa.Log(z, v); err != nil {
			return z, err
		}
		return z.Neg(z), nil
	case LogProbs:
		if row[y].Sign() > 0 {
			return z, fmt.Errorf("scorer: log-probability %s > 0", row[y].Text('g', 10))
		}
		return z.Neg(row[y]), nil
	case Logits:
		if lse != nil {
			return z.Sub(lse, row[y]), nil
		}
		if _, err := apa.LogSumExp(z, row); err != nil {
			return z, err
		}
		return z.Sub(z, row[y]), nil
	}
	return z, fmt.Errorf("scorer: unknown encoding %v", e)
}
