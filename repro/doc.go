// Package repro regenerates the papers' tables and figures beside ours:
// for each item a table of the paper's numbers and ours with a status
// (MATCH with its tolerance, DIFFERS with the measured reason, NOT
// REPRODUCIBLE with why), the data series as CSV, plots as PNG and SVG
// (gonum.org/v1/plot), and a REPRO.md linking them. `labelinf repro` is
// its command.
//
// Every item is deterministic apart from its timings: the numbers come
// from seeded runs on the embedded data sets (package datasets), so a
// rerun at the same commit writes the same tables. An item is cheap when
// it runs whole under -quick; its table (ITEM-table.csv, timings left
// out) is what CI compares with the committed one, so REPRO.md cannot go
// stale unnoticed. Expensive items run a smaller case under -quick and
// say so; a full run also writes that case's table as
// ITEM-quick-table.csv, which CI compares with its -quick run.
//
// Each item's section of REPRO.md is kept in ITEM.md (with the commit it
// was generated at) and REPRO.md is assembled from them, so one item can
// be regenerated alone and items added in parallel touch their own files.
//
// Adding an item is one value in the items list (items.go) with a run
// function that fills a [Result]; the plots go through [Figure]. Each
// item's section of REPRO.md is written to ITEM.md first, and REPRO.md
// is assembled from the ITEM.md files found in the output directory, so
// running some items keeps the others' sections.
//
// # References
//
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML
//     2021, arXiv:2105.08266.
//   - [EA] A. Aggarwal, S. P. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)".
//   - [BLIA] "Passive label inference" (see package passive).
//   - [War65] S. L. Warner, "Randomized response: a survey technique for
//     eliminating evasive answer bias", JASA 60(309), 1965.
//   - [CP34] C. J. Clopper, E. S. Pearson, "The use of confidence or
//     fiducial limits illustrated in the case of the binomial",
//     Biometrika 26(4), 1934.
package repro
