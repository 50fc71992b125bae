// Package decode implements the multi-query label-inference attacks: it
// designs the predictions of each query, plans how many queries they
// need, decodes the returned scores into labels and verifies the labels
// against the scores. An attack never returns a label as known that it
// has not verified: the recovered labeling must reproduce every observed
// score within the scorer's error budget. The attacks that read every
// label from one score are package single's; both return this package's
// [Result].
//
// # One grammar for every attack
//
// The attack is used in the steps of package single's grammar:
//
//  1. A plan: [PlanMulti] ([MultiOptions]) is the dry run of the
//     attack's planning, whose blocks adapt to the scores (for
//     [Leaderboard], whose every query follows the scores, an estimate
//     from its construction, [QueryEstimate]) and [BoundMulti] a fast
//     lower bound on its queries; catalog.Auto picks the strategy for a
//     scorer model, [Strategies] lists them.
//  2. The predictions: the attack builds one per query.
//  3. Decoding of the scores: every query's, verified.
//  4. [AttackMulti](ctx, server, options) → ([*Result], error); the
//     server is package scorer's Server.
//
// Every attack returns the same [Result]: the labels (−1 where unknown),
// which of them are known (verified), the queries spent and whether the
// whole labeling is verified, plus a few fields particular to one attack.
// Nothing here reads the clock: a caller times the calls around them.
//
// Every long operation takes a context.Context and returns ctx's error
// within a second of its cancellation, with the labels verified so far.
//
// # The attacks
//
// The multi-query attack ([AttackMulti]) recovers N labels from a
// finite-precision scorer (a float64 or float32 library, a rounded
// leaderboard) a block at a time, with a [Strategy]: [Cross] (the block code
// with partial decoding of ambiguous blocks, a safety factor steered by
// the outcomes, mixed Conway–Guy blocks, and labels carried across
// queries by parity ties and a paired top digit, decoded on the model's
// exact terms where it names its log), [Blocks] (our adaptive block
// code, a reference), [Primes] (ICML Alg 1), [Alg3] (ICML Alg 3) or, for binary
// scores rounded to decimals, [Leaderboard] (list decoding across
// queries: the labelings that explain every score so far are kept and
// carried into the next query), for binary float32 scorers [Carry]
// (the same list decoding, a labeling explaining a score when the
// emulated bracket of its report holds it), for binary scorers whose
// model names its log [Hybrid] (Carry's list as the top of a query,
// binary digits below it) and for K > 2 there [KList] (a list-decoded top
// of binary questions above Cross's mixed-radix digits) and [KBin]
// (KList's top above Hybrid's digits read from the residual). catalog.Auto
// picks the one with the fewest queries for a model (what labelinf attack's
// -strategy auto does); Cross is the strategy when MultiOptions names
// none. Labels known beforehand
// (MultiOptions.Known) cost no query. A [Recorder] keeps every query and
// score of an attack in a [Transcript], and [ReplayTranscript] reads a
// transcript under another model: the labels its scores determine there,
// or the first score no labeling explains (how package fingerprint
// re-identifies a scorer mid-attack).
//
// # How far from the floor
//
// [FloorMulti] computes lower bounds on the queries that recover N labels
// of K classes from a noise-free scorer (the information floor and the
// floors of any block code), [BoundMulti] a lower bound for every
// labeling under a strategy; labelinf plan prints them beside
// each strategy's count. How each bound is derived, and where each
// strategy's queries go, is in the design note docs/design/decode.md in
// the repository; BENCHMARKS.md has the current counts against the floors.
//
// # Example
//
// The package's Example recovers 300 private labels from a simulated
// scikit-learn log_loss with Hybrid (the strategy catalog.Auto picks for
// it), verifies them with one more query, and prints the strategy and the
// queries spent.
//
// # How to extend
//
//   - A multi-query strategy: one new file in this package with an
//     exported value implementing [Strategy] (a block designer is a
//     designer, whose next function designs a block: rows, their
//     increments, the gap, a reader of the score; its attack and plan are
//     the engine's block loop and dry run, designer.attack and plan; a
//     list decoder is a type whose attack runs the list engine, lbState,
//     with its own query design and decoding, an lbQuery, as hybrid.go's
//     hybQuery) and an init that
//     calls register with its names; its state beyond the engine's
//     (multi) in a struct of its own (a block designer's embedded in multi
//     and declared beside its code, as tieState in cross.go; a list
//     decoder's in its lbQuery); its tuning values, if any, in an
//     unexported parameter struct that the value holds by pointer (nil:
//     the defaults; its setup passes a test's to its state, as
//     kbin{p: &kbinParams{…}} and newCross(p) do), never in
//     package variables, so that tests pass their own and run in
//     parallel. blocks.go, primes.go and alg3.go are the three examples
//     of block designers, hybrid.go of a list decoder; then one entry in
//     the catalogue of attacks (what it applies to, its doc line: a
//     strategy is run only where it applies), and the result hashes
//     (hash_test.go) guard the others' results.
//   - A scorer model: package scorer (see its doc); the attacks follow.
//
// # References
//
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML 2021,
//     arXiv:2105.08266.
//   - [EA] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)".
//   - [Dek71] T. J. Dekker, "A floating-point technique for extending the
//     available precision", Numerische Mathematik 18(3), 1971.
//   - [Knu97] D. E. Knuth, The Art of Computer Programming, vol. 2:
//     Seminumerical Algorithms, 3rd ed., 1997, §4.2.2.
//   - [Fre98] P. E. Frenkel, "Integer sets with distinct subset sums",
//     Proc. AMS 126(11), 1998.
//   - [GM88] R. K. Guy, "Sets of integers whose subsets have distinct
//     sums", Annals of Discrete Mathematics 12 (1982) 141–154; J. H.
//     Conway and R. K. Guy's sequence, OEIS A005318.
//   - [Boh98] T. Bohman, "A construction for sets of integers with
//     distinct subset sums", Electronic J. Combinatorics 5 (1998) R3.
//   - [HS74] E. Horowitz, S. Sahni, "Computing partitions with applications
//     to the knapsack problem", JACM 21(2), 1974.
//   - [Ziv91] A. Ziv, "Fast evaluation of elementary mathematical functions
//     with correctly rounded last bit", ACM TOMS 17(3), 1991.
package decode
