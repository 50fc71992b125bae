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
// The benchmark labelings are here too, once ([BenchLabelingNames],
// [BenchLabeling]: seeds 1–20 as labelinf attack -seed draws them, all
// 0, all K−1, i mod K), with the sweep of an attack over them per scorer
// ([Sweep], sweep.go: labelinf sweep, one independent cell per (scorer,
// labeling), so that package queue can run the cells on other machines).
//
// # One score oracle
//
// Every attack reads one interface, scorer.Oracle[P, S]: N, K and the
// score of a prediction of type P as the server reports it, of type S,
// exactly (never through float64). Its instantiations are the kinds of
// prediction the attacks submit: scorer.Server (float64 predictions, the
// score as a *big.Rat: the decimal a leaderboard shows or the float a
// library returns; every multi-query, adaptive and metric attack, and
// [Oracle]), scorer.BigServer (arbitrary-precision logits, log-
// probabilities or probabilities, a *big.Float of Prec bits),
// scorer.RatServer (rational predictions, the exact prime attack) and
// scorer.FamilyServer (the θ of a binary loss of the family). A
// single-query entry is given a [Precise] oracle, one labeling seen
// through each of those views.
//
// They stay distinct instantiations, not one interface with a prediction
// type that carries its representation, because no server answers every
// kind: a library's float64 scorer cannot take a prediction of 20,000
// bits, and an arbitrary-precision server is not the float64 library an
// attack plans against. One vector type would turn that compile-time
// check into an error every server returns for the kinds it lacks. The
// score types differ for the same reason: a float scorer's release is a
// rational exactly; an arbitrary-precision score is a *big.Float whose
// precision the decoder reads (single.RobustPlan.Decode), millions of
// bits that a *big.Rat would only copy.
//
// Two interfaces keep their own shape on purpose. adaptive.Leaderboard
// (Submit(ctx, []float64) *big.Rat) is the same exact score without N
// and K, which the adaptive attacks are given; this package adapts an
// [Oracle] to it (adaptive.go: board). audit.Target (Rows, Submit(ctx,
// team, pred), Close) is a whole competition as the host audits it: the
// team is part of every submission (per-team ladders, noise keys and
// limits: a Sybil attacker submits from fresh accounts) and a loopback
// server must be closed; the audit adapts one account's view of it to an
// [Oracle] (audit/attacks.go: server).
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
