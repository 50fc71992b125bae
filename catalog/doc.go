// Package catalog is the one list of the project's label-inference
// attacks: every attack is registered here once, with its name and
// aliases, a one-line doc, what it applies to ([Attack.Applies]: the
// metric, K, the rounding, the noise, the defence, a scorer whose
// precision can carry it), its estimate and lower bound
// ([Attack.Estimate]) and how to run it ([Attack.Run]) against one
// score oracle ([Oracle], scorer.Server: the exact score of a
// prediction) with one result type (decode.Result: labels, which are
// verified, queries). labelinf attack -strategy, labelinf plan, the
// audit, every -h text and the manual's lists come from it ([All],
// [Applicable], [Help]), and "auto" is one rule in one place ([Auto]).
//
// The entries: package decode's multi-query strategies (multi.go), the
// papers' reference constructions among them (ICML 2021 Alg 1 and Alg 3,
// our block code), package adaptive's threshold crossing, averaging and
// boosting (adaptive.go), package discrete's attacks on accuracy, ROC AUC
// and the Brier score (discrete.go), and the single-query attacks of
// arbitrary precision (single.go), which run against a [Precise] oracle:
// an [Oracle] that also answers their arbitrary-precision, rational and
// loss-family predictions (oracle.Precise).
//
// # Adding an attack
//
// An attack lives in the package that owns its mathematics (decode for
// log-loss models, adaptive for defended leaderboards, or a package of
// its own for another metric) and is registered here, in this package's
// file for that family or a new one, by an init that calls [Register]:
//
//	func init() {
//		catalog.Register(&catalog.Attack{
//			Name: "flip", Kind: catalog.MultiQuery,
//			Doc:  "one row a query: N queries; accuracy, ROC AUC, Brier",
//			Applies: func(t catalog.Target) error {
//				if t.Metric != "accuracy" { return fmt.Errorf("flip attacks accuracy, not %s", t.Metric) }
//				return nil
//			},
//			Estimate: func(ctx context.Context, t catalog.Target, _ catalog.EstimateOptions) (*catalog.Estimate, error) {
//				return &catalog.Estimate{Queries: t.N, Lower: t.N}, nil
//			},
//			Run: func(ctx context.Context, o catalog.Oracle, t catalog.Target, opt catalog.Options) (*decode.Result, error) {
//				return discrete.Attack(ctx, o, discrete.Options{Metric: discrete.Accuracy, N: t.N, Strategy: discrete.Flip})
//			},
//		})
//	}
//
// Applies says why an attack cannot run (an error naming the reason),
// never panics and is cheap; Estimate is a dry run, a construction's
// estimate (Low, High) or nothing but a proven Lower bound, and Lower
// is never above Queries or Low; Run marks a label Known only if it is
// verified. A metric other than log-loss names itself in
// [Target.Metric] (its Model is nil and Decimals its rounding): attacks
// on accuracy, ROC AUC or the Brier score register the same way and
// [Auto] picks the applicable one with the fewest estimated queries.
// Then TestManualNamesEvery (cmd/labelinf) asks the manual to name it;
// nothing else changes: attack, plan, the audit and the help text list
// it from here.
package catalog
