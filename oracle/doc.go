// Package oracle holds private labels and answers loss queries as a scoring
// server does: a prediction in, one number out, with a count of queries.
//
// [Exact] is the arbitrary-precision server of [AKXFT21, §3]: it computes
// the mean cross-entropy of a rational prediction exactly and returns it
// correctly rounded (to nearest, ties to even) to a configured precision of
// P bits.
//
// # References
//
//   - [AKXFT21] A. Aggarwal et al., "Label Inference Attacks from Log-loss
//     Scores", ICML 2021, arXiv:2105.08266.
package oracle
