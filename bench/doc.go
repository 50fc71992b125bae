// Package bench holds experiments that reproduce the papers' claims and
// measure ours; they run as Go benchmarks (go test -bench) and report
// their figures with b.ReportMetric, so benchstat can compare runs.
// BENCHMARKS.md at the repository root gives each command and its result.
//
// # References
//
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML 2021.
//   - [EA] A. Aggarwal, S. P. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)".
package bench
