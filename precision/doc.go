// Package precision measures how many bits of score precision the
// single-query attacks need (package single): for one loss, N, K and
// noise τ, the bits the papers' bound asks for, the bits our planner asks
// for, and the lowest bits observed to decode every labeling when the
// server computes in an emulated format (Bits, behind labelinf bits); the
// largest N the robust attack recovers in a given float format
// (LargestRobustN, behind repro's robust-tau figure); and the
// power-of-two robust attack run in an fpa format (Pow2Attack, issue 3's
// bit-requirement experiment). Package bench runs them as benchmarks;
// repro and labelinf bits call them, and no library imports bench.
//
// # References
//
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML 2021.
//   - [EA] A. Aggarwal, S. P. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)".
package precision
