// Package audit is the host's audit of a competition's defences: for
// each defence setting of a grid (package defence's [defence.Settings]),
// every label-recovery attack that applies, told which defence is in
// place (the strongest attacker, not a naive one), and what the defence
// costs honest participants.
//
// The attacks of a cell ([AttackResult]):
//
//   - the multi-query block code, ICML Alg 1 and ICML Alg 3
//     (decode.AttackMulti with decode.Blocks, Primes, Alg3), planning for
//     the cell's rounding (the scorer model's Decimals) and noise
//     (scorer.Noise), through a scorer.Server whose Score goes through
//     the cell's defence chain;
//   - the threshold-crossing attack (adaptive.Edge, verified) on every
//     cell: rounding is not a defence until it fails [Whitehill16];
//   - averaging (adaptive.AverageLabels with adaptive.RepeatsFor's
//     repeats) where the noise is fresh;
//   - boosting (adaptive.Boost, keeping what lowered the score) against
//     the Ladder [BH15].
//
// The robust single-query attacks of package decode recover N labels
// from one score, which must then carry at least N bits; a served score
// is a float64 at most (64 bits), so beyond 64 labels no cell of a served
// competition admits them, and the audit does not run them. Thresholdout
// needs training rows with public labels and is refused in a grid.
//
// A label counts as recovered when an attack claims it and it is right
// (the audit holds the labels); an attack more than 1 % of whose claims
// are wrong is guessing and recovers nothing. A cell is stopped only if
// no attack recovers [StopFraction] of the public labels within the
// limit (the cell's daily limit × the competition's days × the
// attacker's accounts, else the config's limit). An attack runs for real
// up to Config.Measure submissions; one that would need more is
// projected from that prefix at its measured rate and marked
// extrapolated (the block code decodes at a steady rate after its first
// blocks; Edge's cost is its bisection plus a fixed cost per row;
// averaging's is repeats × rows).
//
// Honest-user cost ([HonestCost]): a set of honest submissions (files,
// or [HonestSet]: noisy versions of the truth at several qualities, with
// a cluster of near-ties) is submitted once each, as one team each, to a
// fresh copy of the cell; the mean and largest |reported − true| score
// and Kendall's τ-b between the true and the reported leaderboards
// measure what the defence costs them. The true score is the metric on
// every holdout row, unrounded and undefended.
//
// # Targets and reproducibility
//
// A [Target] is one cell of the competition as a submitter sees it.
// [Loopback] (labelinf audit's default) starts a real labelinf serve on
// 127.0.0.1 for each target, serving the cell's defence settings as its
// competition's "defence" with the cell's seed as serve's
// simulation_seed and no submission limits, and submits over HTTP with
// one API key per team. [InProcess] builds the same chain with the
// cell's [defence.Settings.SimulationChain] and scores with the metric's
// scorer.Model, as labelinf serve does, without HTTP. Every random stream
// (noise, split, subsets, the honest set, the boosting vectors) derives
// from Config.Seed and the cell's name, and the report holds no wall
// time: one config gives byte-identical JSON, whatever the number of
// workers and whichever of the two targets.
//
// # Hosts that evaluate models
//
// The audit prices defences against attacks that submit predictions. A
// host that evaluates submitted models faces the same attacks carried by
// a model (package mutnet: MUTNET as ONNX, one unrounded log-loss gives
// 45 labels in float64), so the same defences, audited here, bound its
// leak; in addition it should run labelinf inspect on every model,
// evaluate in a shuffled order and in batches other than the test set's
// size, and never report a loss of a model it has not inspected (see
// package serve, "Hosts that evaluate submitted models").
//
// # References
//
//   - [AKXFT21] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Label Inference Attacks from Log-loss Scores", ICML
//     2021, arXiv:2105.08266 (Algorithms 1 and 3).
//   - [BH15] A. Blum, M. Hardt, "The Ladder: A Reliable Leaderboard for
//     Machine Learning Competitions", ICML 2015, arXiv:1502.04585.
//   - [Whitehill16] J. Whitehill, "Exploiting an oracle that reports AUC
//     scores in machine learning contests", AAAI 2016; arXiv:1707.01825.
//   - Kendall's τ-b: M. G. Kendall, "The treatment of ties in ranking
//     problems", Biometrika 33(3), 1945.
package audit
