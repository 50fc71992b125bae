// This file holds the result every attack shares.

package decode

import "errors"

// MaxN is the largest number of labels an attack accepts (package
// single's and this package's).
const MaxN = 1 << 26

// ErrInconsistent reports a score that no labeling explains: for example
// a decoded integer that does not factor over the planned primes, or a
// labeling that does not reproduce the score.
var ErrInconsistent = errors.New("decode: no labeling explains the observed score")

// Result is the outcome of every attack of this package and of package
// single.
//
// Labels and Known are always N long after an attack that planned: an
// attack that fails returns the labels it verified before failing, with
// Known saying which, so that a caller can keep the verified ones and
// never mistake the others for an answer. Verified is true only when
// every label is known.
type Result struct {
	// Labels[i] is the recovered class of point i, −1 where unknown.
	Labels []int
	// Known[i] reports that Labels[i] was decoded from a score that no
	// other labeling explains within the scorer's error budget, and that
	// nothing since has cast doubt on it. After an error that shows the
	// scorer does not behave as its model says (a failed verification or
	// a scorer error), no label is known.
	Known []bool
	// Verified: every label is known (and the final check, if asked for,
	// passed).
	Verified bool
	// Queries is the number of queries spent, retries and the check
	// included.
	Queries int

	// Multi-query attacks ([AttackMulti]).
	Retries int   // blocks re-queried smaller after failing verification
	Blocks  []int // labels decoded by each successful query, in order
	// Partial counts the queries that decoded only part of their block
	// (strategies with partial decoding, [Cross]): several labelings
	// explained the score and only the labels they all agree on were
	// learned; the others were queried again.
	Partial int
	// Checked reports that the final check query was sent, and
	// CheckDecisive that it could tell a single wrong label from the
	// error budget (so it verified every label).
	Checked, CheckDecisive bool

	// Exact single query (package single's Attack): ExactCheck reports that
	// verification needed the full-precision recomputation of the score
	// (the fast bound was inconclusive).
	ExactCheck bool

	// Robust single query and family (package single's AttackRobust,
	// AttackFamily):
	// Residual is |N·ℓ̂ − N·ℓ(σ)| for the decoded labeling, and Budget the
	// largest residual the noise and rounding bounds allow.
	Residual, Budget float64
}
