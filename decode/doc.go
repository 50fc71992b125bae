// Package decode implements the label-inference attacks: it builds the
// predictions to submit, plans how many bits or queries they need, decodes
// the returned scores into labels and verifies the labels against the
// scores. An attack never returns labels that it has not verified: the
// recovered labeling must reproduce every observed score at the scorer's
// precision.
//
// The exact single-query attack ([SingleQuery], [AttackSingle]) recovers all
// N labels in [0, K) from one cross-entropy score computed in arbitrary
// precision [AKXFT21, Theorems 1, 3 and 8]: row i predicts class k with
// probability p_i^k / Σ_{j<K} p_i^j for distinct primes p_i, so that
//
//	X = Π_i D_i · exp(−N·ℓ) = Π_i p_i^σ_i,   D_i = Σ_{j<K} p_i^j,
//
// is an integer whose factorisation over the p_i is the labeling.
//
// The noise-robust attacks recover every label from ONE score whose noise
// is below τ: [PlanRobust] for cross-entropy on logits, log-probabilities
// or probabilities (K classes, [AKXFT21, Algorithm 2], [EA, Theorems 3
// and 14]), [PlanFamily] for the binary loss family of [EA, Appendix F],
// [MutNet] to submit either as a model [EA, Theorem 9], and [Separation]
// to measure Λ for any loss [EA, Proposition 1].
//
// # References
//
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML 2021,
//     arXiv:2105.08266.
//   - [EA] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores"
//     (extended abstract), ../shared/papers.
//   - [Fre98] P. E. Frenkel, "Integer sets with distinct subset sums",
//     Proc. AMS 126(11), 1998.
//   - [Ziv91] A. Ziv, "Fast evaluation of elementary mathematical functions
//     with correctly rounded last bit", ACM TOMS 17(3), 1991.
package decode
