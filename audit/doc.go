// Package audit is the host's audit of a competition's defences: for
// each defence setting of a grid (package defence's [defence.Settings]),
// every label-recovery attack that applies, told which defence is in
// place (the strongest attacker, not a naive one), and what the defence
// costs honest participants.
//
// A cell is (metric, K, defence, rounding, noise, accounts); the
// attacks it runs come from one adapter, catalog.go (the one file to
// switch when the project's attack registry lands). The attacks of a
// cell ([AttackResult]):
//
//   - decode.Auto's pick for the cell's model (the strategy labelinf
//     attack runs: Leaderboard for a rounded score, Hybrid for a
//     float64 score whose model names its log, …) first, then every
//     other multi-query strategy of package decode (decode.Strategies:
//     Cross, Blocks, Lean, Primes (ICML Alg 1), Alg3, Carry, Hybrid,
//     Leaderboard), each planning for the cell's rounding (the scorer
//     model's Decimals) and noise (scorer.Noise), with the final check
//     query, through a scorer.Server whose Score goes through the
//     cell's defence chain; once one has recovered every label, the
//     others run only up to its cost (they cannot be the best beyond it);
//   - the threshold-crossing attack (adaptive.Edge, verified) on every
//     cell: rounding is not a defence until it fails [Whitehill16];
//   - averaging (adaptive.AverageLabels with adaptive.RepeatsFor's
//     repeats) where the noise is fresh;
//   - boosting (adaptive.Boost, keeping what lowered the score) against
//     the Ladder [BH15].
//
// Accounts. The attacker holds k accounts (Config.AttackerAccounts,
// default 1, 10, 100, 1,000). Where the defence keeps a state per team
// (a per-team Ladder), the multi-query strategies and the threshold
// crossing also run with a fresh account per submission ("(fresh
// accounts)"): each submission is its account's first, released as is,
// rounded to the Ladder's grid (defence/ladder.go: "k accounts buy k
// unprotected scores"); such an attack gets one submission per account.
// An attack as one team gets per-day × days × k submissions where the
// cell limits each account, else the config's limit. Within a budget
// an attack holds what its measured progress had decoded after that many
// submissions (labels known after each query; projected linearly past
// the measured prefix). Each cell reports what every k recovers and
// AccountsNeeded: the fewest accounts (searched up to the largest k)
// with which some attack recovers StopFraction of the public labels
// within the limit, null if none does — a count that works for the
// measured attacks, so an upper bound on what an attacker needs. The
// verdict reads "stopped with 1 account, falls with 578". The global
// Ladder's state is shared: fresh accounts see it as one does.
//
// Floors ([Floor]): the labels' entropy over the bits a release can
// carry under the cell's rounding and noise, and the scorer model's
// proved floor (decode.FloorMulti) where it applies; no attack recovers
// every public label in fewer submissions.
//
// Metrics. The attacks here are binary log-loss attacks: a competition
// of another metric (accuracy, roc-auc) or of K > 2 classes is audited
// as "not measured" (never "stopped"), until the catalogue has attacks
// for it.
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
