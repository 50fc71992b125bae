// Package oracle holds private labels and answers loss queries as a scoring
// server does: a prediction in, one number out, with a count of queries.
// How a server computes its score (the model an attacker plans with) is
// package scorer's; this package only runs it.
//
//   - [Exact] is the arbitrary-precision server of [AKXFT21, §3]: it
//     computes the mean cross-entropy of a rational prediction exactly and
//     returns it correctly rounded (to nearest, ties to even) to P bits.
//   - [BigExact] answers arbitrary-precision logits, log-probabilities or
//     probabilities ([scorer.BigPred]), with optional noise.
//   - [Sim] runs a [scorer.Model] on float64 predictions ([scorer.Pred]).
//   - [Cmd] is an external program answering one JSON line per query.
//   - [Noisy] adds seeded noise ([scorer.Noise]) to any of them.
//
// # References
//
//   - [AKXFT21] A. Aggarwal et al., "Label Inference Attacks from Log-loss
//     Scores", ICML 2021, arXiv:2105.08266.
package oracle
