// Package defence holds the mechanisms a competition host puts between
// its private labels and the scores it releases, each as its paper or its
// authors' code defines it, composable in a [Chain]:
//
//   - [Split]: the Kaggle-style public/private split (fraction and seed);
//     the public leaderboard scores only the public rows and the private
//     score is withheld until the competition closes.
//   - [Subset]: each submission scored on a fresh random subset of a
//     stated size of the rows in scope.
//   - [Ladder]: the Ladder of [BH15], fixed step η or parameter-free
//     (the authors' one-sided paired test), with one global best (the
//     paper) or one per team (the authors' code).
//   - [Thresholdout]: the reusable holdout of [DFHPRR15], with the
//     training rows (public labels) as its training set, one global
//     budget (the paper's one analyst) or one per team, refusing or
//     answering the training score once a budget is spent.
//   - [Noise]: Gaussian or Laplace noise from a CSPRNG keyed by a host
//     secret, fresh per submission or keyed on the prediction.
//   - [Round]: display rounding to D decimals, half to even, exactly.
//
// [Settings] is the same as a host's JSON configuration: it builds the
// chain in the sensible order and names it for a table ([Presets] holds
// the platforms' defaults). Beside the chain: [Limits] and [Budget], the submission limits as a
// pure policy with an injected clock; [LogLoss.Eps] and [MaxLabelShift],
// clipping as precision hygiene; the metrics the Ladder is defined on
// ([ZeroOne], [LogLoss]) and [AUCLoss]; and [Board], an in-process
// leaderboard that package adaptive attacks.
//
// # Conventions
//
// Scores are losses, lower is better (ROC AUC enters as 1 − AUC). A
// [Submission] carries the per-row losses of every holdout row and,
// optionally, an exact score function; a score is an exact *big.Rat from
// the first stage that needs it to the release, so the Ladder compares
// and Round rounds the exact value (a server with an exact log-loss
// passes Submission.Mean; the default is the exact mean of the float64
// per-row losses). A released score that is not rounded carries every bit
// of the exact score: put a Round last ("compute in exactly the precision
// reported") unless the consumer is a simulation.
//
// Row stages (Split, then Subset) come first; score stages follow in the
// order given, each acting on the score the previous one released. The
// sensible order is Ladder or Thresholdout, then Noise, then Round: the
// Ladder must compare exact scores, and rounding last makes the release a
// decimal of D digits.
//
// Secrets and randomness: noise, subsets and Thresholdout draw from
// ChaCha8 streams (math/rand/v2) seeded from crypto/rand or from
// HMAC-SHA256 of a host secret; nothing uses a global or time-seeded
// source. Fresh noise mixes a per-process random nonce into its seed, so
// a restart never replays it; keyed noise is the same for the same
// prediction as long as the secret is the same. Split and Subset take
// explicit seeds, and [Settings.SimulationChain] derives every stream
// from one seed, for reproducible simulations (never for a server).
//
// State a host persists (persist.go): what a chain remembers between
// submissions is the Ladder's entries ([Ladder.Snapshot], [Ladder.Restore])
// and Thresholdout's budget and noisy threshold ([Thresholdout.State],
// [Thresholdout.SetState]); several processes that keep these in one
// database and restore them before each release behave as one. The
// positions of the random streams ([Chain.StreamState]) are shared only by
// simulations: a server's processes each keep their own, so no two share
// a noise stream.
//
// Errors: user input (per-row losses that are NaN, infinite or negative,
// the wrong number of them, bad options) returns an error; nothing here
// panics on it. Internal helpers that panic say so.
//
// # Metrics and the Ladder
//
// The Ladder is defined on a per-row loss [BH15]: 0/1 loss and log-loss
// both decompose. ROC AUC does not: the fixed-step Ladder needs only the
// score and applies to 1 − AUC, but the parameter-free Ladder's paired
// t-test needs per-row differences and returns [ErrNoPerRow].
//
// # References
//
//   - [BH15] A. Blum, M. Hardt, "The Ladder: A Reliable Leaderboard for
//     Machine Learning Competitions", ICML 2015, arXiv:1502.04585;
//     authors' code mrtzh/Ladder.jl (src/Ladder.jl, examples/attacks.jl,
//     examples/photo.jl); the code's deviations from the paper are
//     noted at each mechanism below.
//   - [DFHPRR15] C. Dwork, V. Feldman, M. Hardt, T. Pitassi, O. Reingold,
//     A. Roth, "The reusable holdout: Preserving validity in adaptive
//     data analysis", Science 349(6248), 2015; Theorem 9 as in "Guilt-Free
//     Data Reuse", CACM 60(4), 2017; supplementary code
//     andyljones/thresholdout. DEFENCES.md §2.4.
//   - [Hardt17] M. Hardt, "Climbing a shaky ladder: Better adaptive risk
//     estimation", arXiv:1706.02733 (the O(n^(−1/3)) rate of the Ladder).
//   - [Whitehill16] J. Whitehill, "Exploiting an oracle that reports AUC
//     scores in machine learning contests", AAAI 2016; and
//     arXiv:1707.01825 for log-loss (rounded scores still leak a bit per
//     query next to a rounding edge).
//   - Platform defaults (Kaggle 5 decimals, EvalAI 2, Codabench 5 per day
//     and 100 in total): DEFENCES.md §2.5.
package defence
