// Package loss evaluates the loss functions that a scoring server applies to
// a submitted prediction, exactly or correctly rounded at a given precision.
//
// Predictions are rational: row i of a [Rat] gives the probability of
// class k as Num[i][k]/Den[i]. Labels are class indices in [0, K).
// The mean cross-entropy of N rows is (1/N)·ln(Π Den[i] / Π Num[i][σi]), so
// it is computed as the logarithm of one rational product (product trees,
// then one correctly rounded log) instead of N separate logarithms.
//
// The binary loss family of [EA, Appendix F] ([Binary]) writes each loss
// once against [Arith], so the same formula is evaluated exactly in
// big.Float ([BigArith]) and as a finite-precision server would
// ([FPAArith]); [Binary.Invert] is the construction x*(y) of [EA,
// Theorem 4].
//
// # References
//
//   - [AKXFT21] A. Aggarwal et al., "Label Inference Attacks from Log-loss
//     Scores", ICML 2021, arXiv:2105.08266, §2 (the log-loss).
//   - [EA] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)".
package loss
