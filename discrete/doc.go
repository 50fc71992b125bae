// Package discrete holds the label-inference attacks on the scores whose
// value counts labels: accuracy (binary and K-ary), ROC AUC and the
// Brier score, the metrics of labelinf serve that are not log-loss models
// (package decode holds those). Each attack submits float64 predictions
// to a scorer.Server (a simulated server, [Sim], or a served
// competition, serve.Client), decodes every released score under the
// metric's exact arithmetic and its rounding, and returns decode's
// [decode.Result]: a label is known only if it is the one every score
// leaves, and with [Options.Check] the recovered labels are submitted
// and must score perfectly.
//
// # One query, three metrics
//
// For a set S of rows the binary attacks read Σ_{i∈S} yᵢ, the weighing of
// the coin-weighing problem [ER63, Lin65]: accuracy of the prediction 1
// on S, 0 elsewhere; ROC AUC of the same prediction, whose Mann–Whitney
// count 2U = N·o + T(N − T − |S|) is linear in o = Σ_S y once the class
// count T is known [Whitehill16]; the Brier score of the
// prediction 0 on S, ½ elsewhere, whose float64 terms (0, ¼, 1) and sums
// are exact. The first query reads T (AUC: row 0 ranked first reads y₀
// and T to within the rounding; every candidate T is then tried and the
// labels must add up to it).
//
//   - [Flip] weighs one row per query: N queries.
//
//   - [Group] weighs the subsets of a coin-weighing design, the 0/1 form
//     of the Cantor–Mills doubling [CM66] (weigh.go): with 2^(t+1) − 1
//     weighings it determines t·2^t + 1 = 1, 3, 9, 25, 65, 161, 385, 897, 2,049
//     … rows, about 2N/log₂N queries (314 for N = 1,000), decoded exactly
//     level by level; the information bound is N/log₂(N + 1) [ER63].
//
//   - [Family] reads the binary Brier score as the squared Euclidean loss
//     of the loss family [EA, (10)] through single.AttackFamilyMulti [EA,
//     Theorem 5]: M rows per query weighted 2^j, M as large as the
//     rounding allows (6 at 5 decimals for N = 1,000: 126 queries; 20
//     unrounded: 51).
//
//   - K classes, [Group]: each weighing S is sent K − 1 times, S on class
//     c and the rest on class 0, whose count of right rows n₀ − a₀ + a_c
//     gives every class count a_c of S; each class indicator is then
//     decoded on the same design: (K − 1)·q + 1 queries (626 for K = 3 at
//     N = 1,000).
//
//   - K classes, [Flip]: the all-class-0 prediction reads n₀,
//     then each row moved to class 1 changes the count of right rows by
//     −1, +1 or 0 (label 0, 1, or ≥ 2), and rows of labels ≥ 2 are moved
//     to the other classes in turn: N + 1 queries for K = 3. A one-hot
//     prediction's multiclass Brier score is 2(1 − accuracy), so the same
//     attack reads it.
//
//   - [Rank] reads an unrounded ROC AUC whole: for a ranking,
//     2U = Σ yᵢ·2ρᵢ − T(T + 1) over the midranks ρ, a weighted sum of all
//     labels, not only a subset's count. With T read exactly by the first
//     query, a block of m unknown rows is ranked among the known rows,
//     gaps of 2^(j−1) − 1 known rows apart, above the other unknown rows
//     tied: the block's 2^m weighted sums differ (checked when it is
//     laid out) and one query reads them all; m grows as log₂ of the
//     known rows (rankDesign): 120 queries for N = 1,000 with the check,
//     against group's 313 and the floor's 53; 1,898 for 25,000 (5,119,
//     886). Rounded, the gaps grow to a rounding unit of 2U (sep ≈
//     N²/2·10^−d) and the first query's few class counts are decoded
//     side by side until the labels must add up to one: 155 queries at 5
//     decimals on 1,000 rows, 274 at 4; it applies while sep ≤ N/8.
//
// [Floor] is the information bound a host compares these counts with.
//
// Rounding coarser than one label (10^−d ≥ 1/N for accuracy) or noise
// leaves two counts possible: the attack then stops with an
// *[AmbiguousError] and the labels known so far, never a guess. Two
// threshold-crossing attacks read a label a query there instead:
//
//   - [Edge] (walk; accuracy and Brier) walks the count of right rows to
//     a rounding edge, then toggles each row alone.
//   - [Swap] (ROC AUC) is the pair swap [Whitehill16, Whitehill19]: for
//     a ranking, 2U = 2·Σ y_i·rank_i − T(T + 1) (midranks for ties), so two
//     rankings that differ by a row tied with its neighbour differ in 2U
//     by y_b − y_a ∈ {−1, 0, 1}, at most one pair. A binary search along
//     the path of such half-swaps from a random ranking (whose release is
//     not AUC ½'s) to its reverse finds a step that changes the release:
//     a rounding edge, 2U exactly at the bottom of one released value and
//     one below it, and two rows of opposite labels. Each other row is
//     then tied with a neighbour of known label (or with that pair) at the
//     edge, and whether the release crosses back reads it: N − 2 probes,
//     after about 2·log₂N queries of search, at any rounding (1,020 on
//     1,000 rows at 2 decimals, EvalAI's default), with no class count
//     assumed. The search needs one random ranking whose AUC leaves ½'s
//     rounding: its spread is about 1/√(3N), so 2 decimals on 25,000
//     balanced rows take about 6 tries, while 1 decimal on 1,000 rows or
//     2 on 100,000 (under 1 % a try) usually stop it after 64 tries with
//     nothing claimed. Noise moves edges: swap refuses it. Behind a
//     public/private split ([Options.Hidden]) a private row never moves
//     the score, so a neighbour's relation cannot be read through it:
//     swap then ranks a random half strictly above the rest, tied, finds
//     an edge on that half's reversal, and moves each tied row just
//     above the tie at both edges (2U moves by n₀ or −n₁ of the tie's
//     other public rows, by 0 if it is private): public 0, public 1 or
//     unknown; the public rows read then raise a second, monotone edge
//     for the first half. About 1.9N queries (1,888 on 1,000 rows with
//     30 % public at 2 decimals); private rows stay unknown.
//
// # References
//
//   - [ER63] P. Erdős, A. Rényi, "On two problems of information theory",
//     Publ. Math. Inst. Hung. Acad. Sci. 8 (1963) 229–243.
//   - [Lin65] B. Lindström, "On a combinatorial problem in number theory",
//     Canad. Math. Bull. 8 (1965) 477–490.
//   - [CM66] D. G. Cantor, W. H. Mills, "Determination of a subset from
//     certain combinatorial properties", Canad. J. Math. 18 (1966) 42–48.
//   - [Whitehill16] J. Whitehill, "Exploiting an Oracle that Reports AUC
//     Scores in Machine Learning Contests", AAAI 2016, arXiv:1506.01339.
//   - [Whitehill19] J. Whitehill, "How Does Knowledge of the AUC
//     Constrain the Set of Possible Ground-Truth Labelings?", AAAI 2019,
//     arXiv:1709.02418 (labels recovered with certainty through pairs of
//     queries that swap ranks).
//   - [EA] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)".
package discrete
