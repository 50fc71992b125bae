// Package scorer is the attacker's knowledge of a scoring server: how a
// real library computes and reports a loss score, what its prediction
// types are, and how far the reported score can be from the exact loss.
// It holds no labels; the servers that do (and count queries) live in
// package oracle, and the attacks that use this knowledge in package
// decode.
//
// A [Model] describes a scorer: a preset ([ParseModel]: "float64-sklearn",
// "float32-keras", "torch-bce", "leaderboard", "apa[:BITS]", "fpa:E,M"), a
// float format with its clipping, renormalisation, log clamp and summation
// order (a [FloatLoss]), or an exact server rounding to Prec bits. From a
// model an attacker gets
//
//   - [Model.Terms]: the exact term −ln q̂ of each class of a prediction
//     row, q̂ being what the server takes the log of;
//   - [Model.Bound] with a [Budget]: a rigorous bound on |N·score − Σ tᵢ|
//     [Higham02, Ch. 3–4];
//   - [Emulator]: brackets of the reported score that do not assume the
//     server's log bit for bit (monotonicity of rounding to nearest), and,
//     for a model that names its log ([Emulator.ExactLog]), the server's
//     own terms bit for bit ([Emulator.ComputedTerm]), whose emulated sum
//     is the reported score exactly;
//   - [Model.Eval]: the score the model reports, which is what a simulated
//     server (oracle.Sim) answers and what a real server in Go would run;
//     for formats other than binary64 and binary32 it is
//     [FloatLoss.Binary] / [FloatLoss.Multi], the one place that knows a
//     library's clipping, renormalisation and log clamp (fpa supplies the
//     arithmetic, the summation and the error bound).
//
// A model may also be written as its components ([ParseSpec], [Spec]):
// a format (binary64, binary32, binary16, bfloat16, fpa:E,M, exact) and
// the clipping (none, a constant, the dtype's eps, Keras 2's eps inside
// the log), renormalisation, log clamp, input, summation (numpy's
// pairwise, naive, Kahan, math.fsum's exact sum [Shewchuk97], PyTorch's
// cascade of vector accumulators), mean or sum ([PerPoint] lets the
// attacks read a summing server), decimals and log real libraries use:
// its accuracy, or the library's log itself bit for bit ([LogLib]:
// glibc's log and logf, package libm), e.g. "float64,clip=eps,renorm,dec=5".
// The float64-sklearn and torch-bce presets name glibc's log and (for
// torch-bce) PyTorch's cascade sum, and so score bit for bit as Debian 12's
// scikit-learn 1.2.1 and PyTorch 1.13.1 do on an x86-64 CPU with FMA and
// AVX2.
// The presets are shorthands of such specs and score identically; a spec
// the package cannot evaluate and bound exactly (logits) is refused.
//
// [Noise] models the noise a server adds [AKXFT21, App. B.4–B.5], with the
// half-width an attacker bounds it by ([Noise.HalfWidth]).
//
// Predictions are [Pred] (float64 probabilities, the form real scoring
// code reads) and [BigPred] (arbitrary-precision logits, log-probabilities
// or probabilities, [Encoding]); the loss of one BigPred row is defined
// once, in [Encoding.RowLoss]. The interfaces [Server], [BigServer] and
// [RatServer] are what an attack sees of a server.
//
// # Adding a scorer model
//
// A preset is one case in [ParseModel] (model.go) plus its name in
// [ModelNames] and its components in presetSpec (compose.go): its FloatLoss fields say how it computes, and every
// attack, bound and emulator follows. A model whose computation an
// FloatLoss cannot describe needs, in this package, its evaluation in
// eval.go (what the server returns) and its exact terms in budget.go
// (what the attacker predicts); TestBoundHolds and TestNativeMatchesFPA
// then check it against the rest.
//
// # References
//
//   - [AKXFT21] A. Aggarwal et al., "Label Inference Attacks from Log-loss
//     Scores", ICML 2021, arXiv:2105.08266.
//   - [Higham02] N. J. Higham, "Accuracy and Stability of Numerical
//     Algorithms", 2nd ed., SIAM, 2002.
//   - [Shewchuk97] J. R. Shewchuk, "Adaptive Precision Floating-Point
//     Arithmetic and Fast Robust Geometric Predicates", Discrete Comput.
//     Geom. 18, 1997 (the algorithm of Python's math.fsum).
package scorer
