// Package single implements the attacks that recover every label from
// one score (or one score a block, [AttackFamilyMulti]): the exact
// single-query attack in arbitrary precision, the noise-robust attacks
// on cross-entropy and on the binary loss family, the prime-logarithm
// attack, and MUTNET to submit a prediction as a model. They build the
// prediction, plan the precision it needs, decode the returned score
// into labels and verify the labels against it; none of them uses the
// multi-query engine of package decode, whose [decode.Result] and
// [decode.ErrInconsistent] they share.
//
// # One grammar for every attack
//
// Each attack is used in the same four steps, and the one-call form
// Attack… does all four:
//
//  1. A plan, Plan…(ctx, options), from an options struct that holds N
//     and K and whose zero fields have documented defaults: [Plan]
//     ([PlanOptions]; [NewQuery] without a context), [PlanRobust]
//     ([RobustOptions]), [PlanFamily] ([FamilyOptions]), [PlanPrimeLog]
//     ([PrimeLogOptions]).
//  2. The prediction to submit: [Query.Prediction], [RobustPlan.Pred],
//     [FamilyPlan.Theta].
//  3. Decoding of the score: [Query.Decode], [RobustPlan.Decode],
//     [FamilyPlan.Decode], [PrimeLogPlan.Decode], each returning a
//     verified [decode.Result].
//  4. Attack…(ctx, server, options) → ([*decode.Result], error): [Attack],
//     [AttackRobust], [AttackFamily], [AttackFamilyMulti],
//     [AttackPrimeLog]. The server is what the attack sees of a scorer
//     (package scorer's Oracle: BigServer, RatServer, FamilyServer).
//     Each but AttackFamilyMulti is its plan's Attack method, which a
//     caller that planned already (to learn the precision to ask a
//     server for) calls instead: [Query.Attack], [RobustPlan.Attack]
//     ([RobustPlan.AttackWith] submits the plan's values as made
//     elsewhere: a [MutNet]'s outputs), [FamilyPlan.Attack],
//     [PrimeLogPlan.Attack]. Before querying, they refuse a server of
//     another N or K, or one that tells fewer bits than the plan needs.
//
// Every long operation takes a context.Context and returns ctx's error
// within a second of its cancellation. A big-number step that cannot
// poll the context (one exponential of millions of bits) is abandoned to
// finish in the background. Errors start with "single: ", except
// [decode.ErrInconsistent] (a score no labeling explains), which every
// attack shares.
//
// # The attacks
//
// The exact single-query attack ([Query], [Attack]) recovers all N
// labels in [0, K) from one cross-entropy score computed in arbitrary
// precision [AKXFT21, Theorems 1, 3 and 8]: row i predicts class k with
// probability p_i^k / Σ_{j<K} p_i^j for distinct primes p_i, so that
//
//	X = Π_i D_i · exp(−N·ℓ) = Π_i p_i^σ_i,   D_i = Σ_{j<K} p_i^j,
//
// is an integer whose factorisation over the p_i is the labeling.
//
// The noise-robust attacks recover every label from ONE score whose
// noise is below τ: [PlanRobust] for cross-entropy on logits,
// log-probabilities or probabilities (K classes, [AKXFT21, Algorithm 2],
// [EA, Theorems 3 and 14]), [PlanFamily] for the binary loss family of
// [EA, Appendix F] ([AttackFamilyMulti]: one such query a block of M
// points, [EA, Theorem 5]), [PlanPrimeLog] for an exact score of that
// family [EA, Corollary 3], [MutNet] to submit any of them as a model
// [EA, Theorem 9] (package mutnet writes it as ONNX); the tests measure
// the separation Λ of each plan [EA, Proposition 1] (separation_test.go).
// The negative results:
// [NotSeparableError] where a loss's weights are bounded [EA, Theorem
// 13], and [AdditiveMonotoneBound] / [MonotoneError] for a loss monotone in the
// positive labels at a fixed prediction, whose smallest increment bounds
// the noise any decoder survives [EA, Theorem 12].
//
// # How to extend
//
// A loss of the binary family: a Bregman loss needs no code
// (loss.NewBregman with h and h′); another is one more loss.Kind in
// loss/family.go, its formula written once against loss.Arith (so it
// runs in big.Float and in fpa) with its sup |d|. [PlanFamily] takes it
// as is.
//
// The files: single.go (the exact attack), robust.go, family.go,
// familymulti.go, primelog.go, mutnet.go, monotone.go (Theorem 12),
// result.go (building a
// [decode.Result]).
//
// # References
//
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML 2021,
//     arXiv:2105.08266.
//   - [EA] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)".
package single
