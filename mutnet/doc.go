// Package mutnet builds the label-inference attack as ONNX models that a
// host's runtime evaluates — MUTNET [EA, Appendix G, Theorem 9] — plans
// and decodes them, and inspects models for the signatures the
// augmentation leaves (the defender's side).
//
// # The attack
//
// A host that evaluates submitted models runs the model on its test rows
// and reports a loss of the outputs against its private labels. [NewPlan]
// chooses, for each query, the probability θ_i every row's output must
// carry: rows of the query's block get θ_i = σ(−W·2^i), whose weights
// d_i = ln((1−θ_i)/θ_i) are superincreasing with gaps above 2B, every
// other row gets ½ (its loss does not depend on its label). B bounds
// |N·score − Σ_i t_i| over everything between the plan and the reported
// number: the runtime (exact table lookups, or σ within an absolute
// error for [Theorem9]), the host's log-loss as scikit-learn computes it
// (clip to [ε, 1−ε], 1−p, renormalisation, log within 1 ulp, a sum in
// any order, division by N, all in the model's float type) and the
// host's noise τ. [Plan.Decode] reads the labels greedily from the
// largest weight and verifies each score within B of the exact loss of
// its labels; since the weights are 2B apart no other labeling is, so
// every label returned is verified.
//
// [Build] writes query q of a plan as an ONNX model ([onnx.Model]) in one
// of five [Form]s: [Theorem9] (the paper's network: one input, the whole
// prediction vector out), [Rows] and its hidden variants [Split] and
// [Hash] (batched, one output per row, recognising the row from its
// input; other inputs answered by a base model), and [Position]
// (batched, reading the row's position, for hidden test features). A
// [Plan] is JSON: the plan file of labelinf mutnet.
//
// What one score holds (τ = 0, [MaxOneQuery]): 45 labels in float64 and
// 17 in float32 for the table forms; 43 and 16 for Theorem9, whose σ
// runs in the runtime (onnxruntime's is accurate to 2^−p in absolute,
// not relative, terms). More labels take one model per query
// (Options.Block). TestRealHost… in this package runs every form through
// onnx.checker, onnxruntime (onnxruntime-node) and scikit-learn's
// log_loss (testdata/host/host.py) when they are installed, and CI
// installs them.
//
// # The negative results
//
// At a fixed prediction the log-loss is additive and, with every θ_i < ½,
// monotone in the set of positive labels: [EA, Theorem 12] then bounds
// the noise any decoder survives by half the smallest increment
// (package single's AdditiveMonotoneBound, MonotoneError). NewPlan returns that
// error where its Corollary 4 rules out every prediction (τ above
// ln((1−ε)/ε)/(2N): the clip bounds every weight), and a plan file whose
// τ exceeds its own smallest weight's bound is refused with it.
//
// # The defender's side
//
// [Inspect] reads a model's graph, without running it, and reports the
// rules a MUTNET leaves (Rule… constants): a stored table indexed by the
// input or by the batch position, a nearest-row search over stored
// candidates, test rows stored verbatim, a ReLU made dead by all-negative
// weights, constant logits beyond a trained model's range or forming a
// superincreasing code, a branch switched on the batch's shape.
// TestInspectFlagsAttacks flags every model [Build] writes (every form,
// both types, one query or blocks, with a trained base);
// TestInspectBenign flags none of the classifiers built by onnx.helper
// from scikit-learn's trained weights (testdata/benign.py). The rules
// are this construction's signatures: an adaptive attacker can hide a
// lookup in arithmetic, so a host should also measure behaviour (outputs
// on the test rows against slightly moved copies, shuffled and
// one-row batches) and round what it reports.
//
// Errors start with "mutnet: ". Bad input (N < 1, τ < 0 or NaN, a score
// that is not a finite number, a malformed plan, equal test rows for the
// content forms, a base model with the wrong input) returns an error.
//
// # References
//
//   - [EA] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)", Appendix G (Theorem 9) and Appendix I
//     (Theorems 11–13).
//   - [ONNX] onnx.proto, ONNX 1.12+ (package onnx).
package mutnet
