package scorer

// This file implements arbitrary-precision predictions: values given as
// logits, log-probabilities or probabilities.

import (
	"fmt"
	"math/big"
)

// An Encoding says what the values of a [BigPred] are.
type Encoding int

const (
	// Logits are z_{n,k}; the loss is softmax cross-entropy,
	// logsumexp_k(z_{n,k}) − z_{n,σ_n}. For K = 2, logits (0, z) give the
	// sigmoid cross-entropy of the single logit z.
	Logits Encoding = iota // logit
	// LogProbs are ln p_{n,k} ≤ 0; the loss is −ln p_{n,σ_n}. Doubly
	// exponential probabilities stay representable as their logarithms.
	LogProbs // logprob
	// Probs are class probabilities p_{n,k}; the loss of row n is
	// −ln p_{n,σ_n}. The server takes them as given (it does not
	// renormalize rows).
	Probs // prob
)

// ParseEncoding returns the encoding called s: logit, logprob or prob.
func ParseEncoding(s string) (Encoding, error) {
	for e := Logits; e <= Probs; e++ {
		if s == e.String() {
			return e, nil
		}
	}
	return 0, fmt.Errorf("scorer: unknown prediction encoding %q (want logit, logprob or prob)", s)
}

// A BigPred is a prediction in arbitrary precision: N rows of K values,
// row-major (binary predictions have K = 2 values per row too).
type BigPred struct {
	Enc Encoding
	K   int
	V   []*big.Float
}

// N returns the number of rows of p.
func (p *BigPred) N() int { return len(p.V) / p.K }
