// Package audit is the host's audit of a competition's defences: for
// each defence setting of a grid (package defence's [defence.Settings]),
// every label-recovery attack that applies, told which defence is in
// place (the strongest attacker, not a naive one), and what the defence
// costs honest participants.
//
// A cell is (metric, K, defence, rounding, noise, accounts); the
// attacks it runs come from the project's catalogue of attacks (package
// catalog), through one adapter, catalog.go: for each way the attacker
// sees the cell (a catalog.Target: the metric's model rounded as the
// cell rounds, the noise, the defence), catalog.Auto's pick (the attack
// labelinf attack runs against the same model: leaderboard for a
// rounded score, hybrid for float64-sklearn, …) first, then every other
// applicable attack of catalog.Applicable that runs against a served
// score: the multi-query codes and the papers' reference constructions
// (with their final check query), the threshold crossing, averaging
// against fresh noise, boosting against a Ladder; the single-query
// attacks need scores of thousands of bits, which no served cell
// releases. Once a code has recovered every label, the other codes of
// its view run only up to its cost (they cannot be the best beyond it).
// A metric or K the catalogue has attacks for is audited the same way;
// one it has none for here is "not measured", never "stopped", and so is
// a cell of accuracy, ROC AUC or the Brier score that no attack breaks
// even with the most accounts (their attacks do not read every
// defence); a defence labelinf serve refuses on the metric (the
// parameter-free Ladder or noise keyed on the losses of ROC AUC, which
// has no per-row loss) is "not applicable (serve refuses)".
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
// submissions (labels known after each query; linear where the attack
// reports no progress, and past the measured prefix). Each cell reports what every k recovers and
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
// A label counts as recovered when an attack claims it and it is right
// (the audit holds the labels; averaging's and boosting's labels are
// claims, never verified); an attack more than 1 % of whose claims are
// wrong is guessing and recovers nothing. A cell is stopped only if no
// attack recovers [StopFraction] of the public labels within the limit
// with the config's accounts (the cell's daily limit × the
// competition's days × the accounts, else the config's limit). An
// attack runs for real up to Config.Measure submissions; one that
// would need more is projected from that prefix at its measured rate
// (over the last half of its measured progress where it reports one)
// or at its catalogue estimate, whichever is fewer, and marked
// extrapolated; one the budget stops before it decodes a label (a
// coin-weighing block repeated against fresh noise can outlast it) is
// projected to its own exact plan (catalog.Estimate.Exact: its queries
// and check, repeated as the noise needs) where the cell's defence is
// rounding, noise and limits only, so that the cell reports the
// cheapest attack, not the one that happened to finish a label; within
// a smaller budget such an attack holds what its plan aimed at part of
// the rows decodes (catalog.Estimate.Rows, discrete.PlanRows), none
// before its end where that is not modelled, never a prorated share.
//
// Honest-user cost ([HonestCost]): honest teams that iterate submit in
// turn (every team's first submission, then every team's second, …),
// each from its own account, to a fresh copy of the cell: teams given
// as directories of files (-honest DIR: one directory per team, its
// files in name order; a flat directory is one submission per team),
// else, where the competition's labels are an embedded data set with
// features (adult_test, adult_train), teams trained for real on the
// other half ([TrainedTeams]: logistic regression down a
// regularisation path and on growing data, MLP checkpoints by epoch,
// near-tie resubmissions), else synthetic improving teams
// ([HonestTeams]). Per team, |shown best − true best| at the end (mean
// and max over the teams), Kendall's τ-b between the teams' true and
// shown bests, and the improvements the releases hid measure what the
// defence costs them. The true score is the metric on every holdout
// row, unrounded and undefended: the binary log-loss model, else
// labelinf serve's metric (accuracy, ROC AUC, Brier, K classes; a score
// higher is better compared as such), the synthetic teams' rows made
// K-class by putting their probability of the true label on it and
// spreading the rest.
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
// workers and whichever of the two targets. A [Plan] is the audit split
// into its cells (NewPlan, RunCell, Report): it marshals with its inputs
// by value, so that package queue runs the cells on other machines and
// assembles the same report.
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
