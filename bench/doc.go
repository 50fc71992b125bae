// Package bench holds experiments that reproduce the papers' claims and
// measure ours; they run as Go benchmarks (go test -bench) and report
// their figures with b.ReportMetric, so benchstat can compare runs.
// BENCHMARKS.md at the repository root gives each command and its result.
// It has no library code: what the experiments measure lives in the
// packages that own it (precision for the bit requirements, decode,
// single), which repro and the command call directly.
package bench
