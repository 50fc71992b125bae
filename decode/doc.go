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
// [Result.Timings] is the caller's to fill: nothing here reads the clock.
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
// [FloorMulti] computes four lower bounds on the queries that recover N
// labels of K classes from a noise-free scorer; BENCHMARKS.md ("Query
// floors and attacker CPU", issue 18) has the table for the presets at
// N = 25,000 and how far ours is from each. Let
// tmin and tmax be the smallest and largest term one point can give (the
// clip decides them: float64-sklearn clips at 2^−52, so tmin =
// −ln(1 − 2^−52) ≈ 2.2·10^−16 and tmax = 52·ln 2 ≈ 36.04), W = tmax − tmin
// what one label can move the sum, and t½ = ln K the neutral row's term.
//
//  1. Any code. Every score lies in [tmin, tmax] and is a value of the
//     format (or a multiple of 10^−D): at most V of them, so a decision
//     tree of q queries has at most V^q leaves and q ≥ N·log2 K / log2 V.
//     For binary64 V counts 2^52 values per binade over the binades from
//     tmin to tmax: 59 binades for float64-sklearn, 52 + log2 59 = 57.9
//     bits per score. (`labelinf plan` printed 62.0 before: it counted
//     down to the least subnormal, which a clipped scorer never reports;
//     53 bits is the count of one binade, right only for codes whose
//     scores keep their exponent, such as block codes below.)
//
//  2. Any block code: a query decodes a block of k unknown labels and
//     nothing else, so every other unknown point must give the same term
//     whatever its label — the uniform row, t½ — and the known points at
//     least tmin. The K^k block labelings need K^k distinct scores among
//     those between S0/N and (S0 + k·W)/N, S0 = (nUnk − k)·t½ + (N −
//     nUnk + k)·tmin. Blocks as large as that allows give BlockCount;
//     for scores rounded to D decimals the K^k distinct steps must also
//     pass the variance bound of "Scores rounded to D decimals" below.
//
//  3. Block codes with separated sums: if two labelings' exact sums must
//     be δ apart (one reported spacing, N·ulp(S0/N), or N·10^−D), the
//     Erdős–Moser variance argument bounds the block: the K^k sums of k
//     points, each moving its own by at most W, have variance ≤ k·W²/4
//     under uniform labels, and K^k points δ apart have variance ≥
//     δ²·(K^(2k) − 1)/12, so K^(2k) ≤ 1 + 3k·(W/δ)²; for K = 2 also
//     max weight ≥ δ·C(k−1, ⌊(k−1)/2⌋) [Fre98]. This gives
//     BlockSeparated; with δ raised to the width a faithful log leaves
//     (the emulated bracket between all-lowest and all-highest terms,
//     measured on our own point order) it gives BlockBracketed, an
//     estimate for our arrangement rather than a bound over all.
//
//  4. Codes that query while every label is known or uniform given the
//     scores so far (block codes, Cross), on a random labeling:
//     Floor.Spread. A row's expected term over a uniform label is at
//     least ln K (Gibbs), so a query's sum has mean μ ≥ nUnk·ln K whatever
//     the rows; m points moving it by at most W each keep it within
//     λ·W·√m of its mean but for probability 2·e^(−2λ²) (Hoeffding). Its
//     entropy is then at most log2 of the reportable scores in [μ − a,
//     μ + a]/N, a = λ·W·√m, plus the tail's share, maximised over m: the
//     values there are spaced ulp(μ/N), so a query carries about p +
//     log2(2λ·W·√m/μ) bits (p the significand's bits), 50.2 for
//     float64-sklearn at N = 25,000 where bound 1 allows 57.9 and a block
//     code (bound 3's first block) 47. The background nUnk·ln K of the
//     unknown points' terms is what bound 1 leaves out: it keeps the score
//     in one or two binades and its spacing at ulp(nUnk·ln K/N).
//
//  5. Any code, worst labeling, with the background counted:
//     Floor.AnyBackground. Bound 4's background holds for every code in
//     counting form. For rows r_i that are probability vectors, e^(−S(y))
//     = Π_i r_{i,y_i} sums to 1 over all labelings, so at most e^s of them
//     have a sum S(y) ≤ s, whatever the rows and however the earlier
//     scores were used. With c labelings still explaining every score,
//     all but a fraction e^(−t) of them have S > ln c − t, and their
//     scores lie in [(ln c − t − B)/N, tmax] (B the rigorous error
//     budget): an adversary answering the score most of them share
//     leaves at least c·(1 − e^(−t))/V of them, V the reportable scores
//     there. For float64-sklearn at N = 25,000 the first query can carry
//     54.5 bits where bound 1 allows 57.9, and the floor rises from 432
//     to 457 queries (K = 6: 1,118 to 1,186; float32-keras 898 to 979;
//     torch-bce 832 to 959). What it cannot see is how a score spreads
//     within a binade: bound 4 bounds that by independence, which only
//     known-or-uniform codes have.
//
// Labels one query can carry (the question, deliverable 1): a
// block code whose sums must be δ apart carries k labels with K^(2k) ≤
// 1 + 3k·(W/δ)² (bound 3), digits k = 1 + log_K(W/δ); every block code
// at most log2(values in [S0, S0 + k·W]) / log2 K (bound 2); any code at
// most ScoreBits/log2 K (bound 1), and a known-or-uniform code at most
// bound 4's bits over log2 K. What lies between bounds 3 and 4 for K = 2
// is range beyond 2W by multiplicity: m points on the top weight add the
// count of their labels, log2(m + 1) bits of range for its entropy
// H(Bin(m, ½)) ≈ ½·log2(πe·m/2) bits, which a later query turns into
// labels only if it can use the count; Cross's paired top is the m = 2
// case (1.5 bits in the room of one), the one whose count a tie uses
// whole.
//
// Bound 2 is below bound 3 because a code that models the summation
// exactly need not separate sums: two sums closer than a spacing may still
// round to different scores. Our block code separates (it verifies by
// brackets), so bound 3 is its class's floor, and what remains between it
// and ours is the shape of the weights: superincreasing digits spend a
// factor 2^(k−1)·δ on the largest weight where an optimal set with
// distinct subset sums spends about 2^k·δ/√(πk/2), one or two labels a
// query; the emulated need's safety factor and probe spread (δ about 2–3
// spacings where the bound takes the bracket alone); and a few retries.
// Beating bound 2 needs codes that are not block codes: labels carried by
// several queries and decoded jointly (bounds 1 and 4 allow it).
//
// Partial decoding (partial.go; the retired Lean strategy, Cross's
// base) takes back part of that distance. Its mixed blocks put a
// Conway–Guy set on top of the binary digits, whose largest weight is
// about 0.51·2^(k−1) units for a top of 20 [GM88]: one label a query
// more, of the two to three Frenkel's bound leaves room for (the best
// construction known, Bohman's, reaches about 0.44·2^(k−1) [Boh98]: a
// fifth of a label more).
// Partial decoding makes an ambiguous block cost the few labels its
// candidates disagree on instead of a query, so the safety factor can
// settle where about one block in eight is ambiguous (0.6–0.9 instead of
// 1.125 and up). What is left is the bracket itself: the emulated width
// between all-lowest and all-highest computed terms is 1 to 5 spacings,
// and 10 to 17 while the unknown points fill the deepest part of the
// summation tree (a third of the attack; the identical neutral terms
// round coherently in every leaf), where the floor's bracketed δ assumes
// the smaller widths of a fresh arrangement.
//
// [Cross] goes past the block code where it can: a label ambiguous in one
// block is carried, tied to another, into later queries (parity ties), the
// top weight takes a second point whose count a tie resolves (the paired
// top), and against a model that names its log (float64-sklearn,
// torch-bce) the bracket of a faithful log, 1–7 spacings, is replaced by
// the model's exact score, so that what separates two labelings is
// whether they round to different scores, not a bracket's width
// (BENCHMARKS.md §22 has the counts and what is left).
//
// [Carry] stops separating. A bracket that leaves several labelings is
// no loss in itself: any code pays log2 of the sums one score cannot
// tell apart, and what a block code loses is the shape of its weights
// (digits spread their sums over 2W) and the margin on top of the
// bracket. Carry keeps the list of explaining labelings, gives the
// carried points and 12–28 fresh ones generic weights (their sums spread
// over about √(2πe)·σ, σ² = Σ w²/4 over about 50 points, where a digit
// block's spread over 2W) and lets later queries tell the list apart:
// float32-keras at N = 25,000 in about 1,460 queries where Cross takes
// about 1,736 (17.2 labels a query against 14.4), torch-bce in about
// 1,220 against 1,391. A float64 score carries about 45 labels a block,
// more than its meet in the middle over the fresh points lists (Carry
// took 893 queries on float64-sklearn where Cross took 548; BENCHMARKS.md,
// "List decoding for float scorers").
//
// [Hybrid] gives Carry's list a digit tail. The bits one query gives are
// about log2(W/δ) + g, δ the resolution of the sum (sum units: the
// spacing of the float64 sum S ≈ nUnk·ln 2, coarser than N times the
// spacing of the score) and g what the code's shape adds: Cross's digits
// with a paired top and ties reach g ≈ 0.6 (a calculator integrating
// log2(W/δ) + g over the attack, δ shrinking with nUnk, gives 551
// queries at N = 25,000 for g = 0.6, 530 for 2.5, 519 for 3.5, 513 for
// 4). A query whose open points move the sum with variance σ² has score
// entropy at most log2(√(2πe)·σ/δ), so with m open points at full weight
// g ≤ 1.05 + ½·log2(m): the room is in spreading the sum over many
// points with generic weights, which only list decoding can afford. A
// Hybrid query is a top (the carried points and up to 16 fresh points,
// Carry's generic weights) over l binary digits of unit g_d ≈ 2δ: the
// digits fill the room below the top exactly (log2(u/g_d) labels, u =
// 2^l·g_d), and the top is a list decoder whose cell is u·δ/g_d = 2^l·δ
// (a wrong top survives when one of its digit readings rounds to the
// score), so the design takes as many digits as keep the expected list
// at its target of 16. Every top candidate whose residual lies in the
// digits' range (meet in the middle within the rigorous budget) has its
// digits read from the exact residual, each reading within the budget
// emulated; what the readings leave ambiguous (adjacent integers differ
// in a run of trailing digits) is carried with the top's points, so a
// query holds 50–130 carried points, a list of about 15, and the top's
// spread gives g ≈ 4.4 (measured: Σ log2(W/δ) over the queries against
// N): 512 queries on float64-sklearn at N = 25,000 (49 labels a query;
// the calculator, with the query's own terms of about 700 in S, gives
// 512 for g = 4.4) and about 1,200 on torch-bce where Carry takes
// about 1,220 (BENCHMARKS.md, "List top over digits"). What is left to
// the any-code floors (432, and 457 counting the background): the top's
// spread (16 fresh points at generic weights in [W/2, W]: a larger top
// costs the meet in the middle 2^(k/2) a list entry; 24 gained 1 query
// for twice the CPU), and the list target (32: 2 queries for twice the
// CPU).
//
// For K > 2 every block code spends the room of a query on
// superincreasing digits whose sums span only K/(K − 1)·W (1.2·W for
// K = 6: the top point's K − 1 steps fill W, the digits below add a
// fifth), and [RangeFloor] bounds every code whose queries' sums span at
// most c·W, carried label sets and ties included: a score then takes at
// most log2 of the reportable values in [S0, S0 + c·W]/N, S0 the neutral
// terms of the unknown points, and following the largest branch of the
// decision tree gives the bound for the worst labeling. Cross's K-ary
// code (kties.go) has c = (2K − 1)/(K − 1) (a paired top; 2.2 for K = 6)
// and fills it: at N = 25,000, K = 6, RangeFloor gives 1,472 queries for
// c = 1.2 and 1,443 for c = 2.2, and the K-ary code needs about 1,470.
// 1,350 needs c ≈ 20: the sum of a query must range over about 20·W,
// twenty points with rows of full spread whose labels are still open,
// their collisions resolved by later queries (list decoding, as
// [Leaderboard] does where W is 138 steps of the score; here it is
// 2^42).
//
// [KList] is that code, for K > 2 against a model that names its log
// (what catalog.Auto picked there before [KBin], below; it is Cross below
// N = 400 and against an assumed noise). A query is a list-decoded top above Cross's digits: the
// points of the list (every labeling of the carried points that explains
// every score so far) and up to 16 fresh points asked binary questions
// (a point's label set split in halves, terms a and a + w, w generic up
// to W − ln K; points of an even number of labels first, so that the
// answers are fair coins), and below them a mixed-radix tail whose unit
// is one spacing and whose room u is the cell within which the top's
// candidates are not told apart. A binary question spreads the sum with
// variance w²/4 for one bit where a digit of six labels spreads it with
// 0.117·W² for 2.585, and a score whose sum spreads with deviation σ
// carries at most log2(√(2πe)·σ/δ) bits, so the range comes from the top
// and the digits fill its cell at the resolution. Every list entry with
// every fresh labeling whose residual fits the tail (a meet in the
// middle) is read through the tail's digits within the rigorous budget
// and emulated whole; the survivors' values on the points they disagree
// on (a half for a top point, a label for a tail point) are the next
// list, so that a tail's ambiguity is carried jointly with the top's
// rather than projected onto label sets. The tail has no paired top
// (Cross's has): the pair's ties left about three list entries a top
// candidate, differing on one or two points only, which no later top can
// push apart by more than W, and cost about 0.9 bits a query. A fresh
// point's halves and weight sign come from a hash of the point and the
// query, so that every labeling's answers look random (with the lower
// half at bit 0, a constant labeling's fresh sums were the least or the
// largest of all candidates and took 55 queries fewer than a random one,
// and i mod 6's took 5 more), and the end drains: in its last four
// queries' worth of bits only points of two labels get fresh questions,
// so that no list value of several labels outlives the list. At
// N = 25,000, K = 6 it takes at most 1,359 queries over the 23 benchmark
// labelings where the K-ary code takes 1,473 (BENCHMARKS.md, "K-ary list
// top", "Session 9 push", "tail digits of radix 2", "kends", "KList
// speed"): a query's sum spreads over about 70 open points (the list's 55
// and 16 fresh), g ≈ 4.0 bits above log2(W/δ) where Hybrid's binary code
// gets 4.4 with 84 carried points; 1,350 needs g ≈ 4.5. What remains: not
// the tail's radices (grouped digits of radix 2 let it fill its room at
// steps of one bit; the design's cell, set by the list's expected size,
// then shrinks by as much), but a larger list or a finer unit gain a few
// queries each for CPU (the descent that spreads the list's sums and the
// meet in the middle cost CPU as L² and L·2^(k/2)). The decoder's
// speed-ups (the descent's pairs from bit sets and without the pairs
// whose kernel stays 0, the residual in double-double, cached log terms,
// merged subset sums, deeper brackets under grouped digits: the same
// queries for about 0.77 of the CPU) paid for the grouped digits and the
// list target 20.
//
// [KBin] puts KList's top over Hybrid's tail: digits of unit 2δ read
// from the exact residual, binary on a point's halves, of radix 3 on a
// point of three labels (binary questions alone lose 3.1% at K = 6:
// every binary tree over six equally likely labels asks 2.667 questions
// for 2.585 bits, and with them KBin took 1,397 queries on seed 1 where
// KList took 1,359), the room 2^a·3^b units filled up to what the list
// target allows. Its carried questions are at full weight ±W', the
// descent choosing their signs, which spreads the list's sums further
// (seed 1: 66 carried points, carried sums' deviation 320 nats, 259
// before; KList's 55 and 223, Hybrid's 84 and 297). It is what catalog.Auto
// picks for K > 2: at N = 25,000, K = 6 it takes at most 1,350 queries
// over the 23 benchmark labelings where KList took 1,360 in the same run
// (1,365 before its hashed halves, 1,359 at list target 20;
// BENCHMARKS.md, "kbin", "KList speed"), the target met. In the
// accounting above (W = tTop − tBot − ln K,
// δ as the design computes it, log2(W/δ) about 43.1 on average at K = 6
// against 44.4 at K = 2 with ln 2), that is g ≈ 4.8 bits a query.
//
// Scores rounded to D decimals. The reported N·score moves in steps of
// Δ = N·10^−D, so every block code, whatever its weights and the offset
// of its known points, puts its 2^k block labelings in 2^k distinct
// steps; the variance argument with the rounding's offset added gives
// √((4^k − 1)/12) ≤ √k·W/(2Δ) + 1/2 ([RoundedBlockMax]): for the 1e−15
// leaderboard (W = 34.54, 21.72 bits per score) 16 labels a query at
// N = 198, so 13 queries for every block code, and 9 at N = 25,000
// (2,778); the count of reportable scores gives 10 and 1,152 for any
// code. [Leaderboard] is not a block code: sums may share a step, and
// the ambiguity is carried into later queries, so it needs 9–11 queries
// at N = 198 and about 2,320 at N = 25,000. What stays between it and
// the any-code floor: a query's score spreads over about √(2πe)·σ/Δ
// steps, σ² = Σ w²/4 over the points whose labels are still open; on
// the first query (independent uniform labels) that bounds its entropy
// by log2(√(2πe)·(σ/Δ + 1)), 18.95 bits at N = 198 with all 198 points
// in it (so about 11 queries for a typical labeling) and 15.5 at
// N = 25,000; reaching it would need every open point in every query,
// whose list cannot be enumerated. Ours puts the list's points and up
// to 24 fresh ones in a query: 18 labels a query at N = 198 and 10.8 at
// N = 25,000.
//
// # How to extend
//
//   - A multi-query strategy: one new file in this package with a type
//     implementing [Strategy] (its next method designs a block: rows,
//     their increments, the gap, a reader of the score), an exported value
//     of it and an init that calls register with its names; its tuning
//     values, if any, in an unexported parameter struct that the type
//     holds by pointer (nil: the defaults; its setup copies a test's into
//     the attack's state, as kbin{p: &kbinParams{…}} does), never in
//     package variables, so that tests pass their own and run in
//     parallel. blocks.go, primes.go and alg3.go are the three examples;
//     then one entry in the catalogue of attacks (what it applies to,
//     its doc line), and the result hashes (hash_test.go) guard the
//     others' results.
//   - A scorer model: package scorer (see its doc); the attacks follow.
//
// The files: attack.go (the shared [Result]), multi.go (the
// multi-query API), strategy.go (the strategy interface), state.go (one
// multi-query attack's state: rows, budget, prediction), verify.go (a
// block's decoding, learning and the final check), emu.go (decoding by
// emulated brackets); the strategies: blocks.go, cross.go (with
// partial.go, its partial decoding, mixed blocks and row cache, and
// kties.go and kties_rows.go, its K-ary code), primes.go, alg3.go,
// leaderboard.go (the list engine the list decoders share:
// leaderboard_descent.go spreads the list's sums, leaderboard_decode.go
// reads a score; leaderboard_plan.go its estimate), carry.go, hybrid.go,
// klist.go (klist_design.go, klist_decode.go, klist_tail.go,
// klist_update.go; ddsum.go, the double-double residual), kbin.go; the
// bounds: floor.go (the lower bounds of "How far from the floor"),
// floorrange.go ([RangeFloor]), floormass.go (Floor.AnyBackground),
// floor_rounded.go ([RoundedBlockMax]), bound.go ([BoundMulti]);
// replay.go (transcripts).
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
