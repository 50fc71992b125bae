// Command labelinf shows, measures and reproduces how much a loss score
// leaks about the private labels it is computed on.
//
// Usage:
//
//	labelinf demo [-json] [-seed S] [-n N] [-kn N] [-k K] [-memlimit MiB]
//	labelinf fpa -format NAME|E,M [-round MODE] -op OP [-acc] A [B [C]]
//	labelinf plan [-n N] [-k K] [-scorer NAME|cmd:PROGRAM|URL [-assume NAME]] [-noise KIND -tau T -delta D] [-check]
//	              [-dry-run-max M] [-json]
//	labelinf attack [-scorer NAME|cmd:PROGRAM|URL [-assume NAME|auto]] [-n N] [-k K] [-seed S]
//	                [-strategy auto|hybrid|carry|cross|blocks|lean|primes|alg3|leaderboard] [-noise KIND -tau T -delta D]
//	                [-labels FILE] [-out FILE] [-partial-out FILE] [-check] [-no-emulate]
//	                [-allow-partial] [-timeout D] [-api-key-file FILE] [-json]
//	labelinf attack -scorer apa|apa:BITS -strategy robust-single -noise bounded|gaussian|laplace -tau T
//	                [-delta D] [-n N] [-k K] [-seed S] [-encoding logit|logprob|prob]
//	                [-weights powers|conway-guy] [-margin D] [-labels FILE] [-out FILE] [-json]
//	labelinf blia [-data adult|wdbc|titanic|banknote|haberman|FILE] [-model logreg|mlp] [-epsilon LIST] [-seeds N]
//	              [-seed S] [-canaries F] [-train F] [-alpha A] [-beta B] [-hidden W,W]
//	              [-epochs E] [-batch B] [-lr R] [-decay D] [-lambda L] [-workers W]
//	              [-datadir DIR] [-all] [-json]
//	labelinf fingerprint [-scorer NAME|cmd:PROGRAM] [-n N] [-k K] [-seed S] [-labels FILE] [-timeout D] [-json]
//	labelinf bits -loss NAME -n N [-k K] [-tau T] [-observe-max M] [-json]
//	labelinf repro [-all] [-quick] [-out DIR] [NAME...]
//	labelinf audit -config FILE [-inprocess] [-json] [-out DIR] [-honest DIR] [-workers W] [-quiet]
//	labelinf serve -config FILE [-listen ADDR] [-addr-file FILE] [-lock-wait D]
//	labelinf serve keys add -config FILE -name TEAM | keys list -config FILE | keys revoke -config FILE ID
//	labelinf version
//
// Every command exits with status 0 on success, 1 on failure (a failed
// attack, unreadable data, an error writing the output), 2 on a usage
// error: an unknown flag, a value out of range, or a flag that does not
// apply to the other flags given (it is rejected, never ignored). SIGINT
// and SIGTERM stop a command at once with exit status 1, after killing an
// external scorer's whole process group. Flags may be written with one
// dash or two.
//
// # demo
//
// The demo draws seeded random private labels, puts them behind an exact
// arbitrary-precision scoring server (mean cross-entropy, correctly rounded
// to the precision the attack plans), and recovers every label from ONE
// score with the prime construction of Aggarwal et al., ICML 2021 (Theorems
// 1 and 3): a binary case of N = 25,000 labels and a K = 6 case of 5,000.
// It prints a table (N, K, queries, bits, accuracy, seconds) or, with
// -json, a JSON array of objects with the fields n, k, queries, bits,
// accuracy, verified, seconds, oracle_seconds and attack_seconds. It exits
// with status 1 if any label is wrong or unverified, 2 on a usage error.
//
// Flags:
//
//	-json      print JSON instead of a table
//	-seed S    seed of the private labels (default 1)
//	-n N       labels in the binary case (default 25000)
//	-kn N      labels in the K-ary case (default 5000; 0 skips it)
//	-k K       classes in the K-ary case (default 6)
//	-memlimit MiB
//	           soft limit of the Go runtime's memory (runtime/debug.SetMemoryLimit)
//	           while the demo runs: near it the garbage collector runs more often
//	           instead of letting the heap double (default 900, which keeps
//	           N = 10^6 under 1 GB; 0 leaves the runtime's, GOMEMLIMIT); when
//	           GOMEMLIMIT is set and -memlimit is not given, GOMEMLIMIT stands
//
// The cost of a case grows with N and K together: the score needs about
// (K−1)·N·log2(p_N) bits (p_N the N-th prime) and the prediction holds
// about K²/2·N·log2(p_N). Cases whose score would need more than 2^25 bits
// (about N = 1,400,000 binary labels, or N = 14,000 at K = 64: minutes on
// two cores) or whose prediction would exceed 1 GiB are refused up front
// with the figure.
//
// Progress goes to stderr when stderr is a terminal, nothing when piped.
//
// # fpa
//
// The fpa command evaluates one operation in an emulated floating-point
// format, correctly rounded, and prints the result as a hex float in Go's
// %x form (0x1.8p+01), or inf, -inf, nan. Operands are decimal or hex
// floats (inf and nan too), rounded into the format in the chosen mode
// first; a negative operand needs no "--", and flags may come after the
// operands. Flags:
//
//	-format F  binary16, bfloat16, binary32, binary64 (default), binary128,
//	           or E,M: E exponent bits (2..62), M fraction bits without the
//	           hidden bit (1..1000000); phi:Φ is the papers' FPA(Φ)
//	-round R   nearest (default), nearest-away, zero, away, up, down
//	-op OP     add, sub, mul, div, sqrt, fma, log, log1p, exp
//	-acc       also print Below, Exact or Above: the rounding's direction
//
// For example
//
//	labelinf fpa -format binary64 -op add 1 2           prints 0x1.8p+01
//	labelinf fpa -format 5,10 -round up -op div 1 3     prints 0x1.558p-02
//
// An invalid format, mode, op, operand count or operand, or an unknown
// flag, exits with status 2.
//
// # plan and attack
//
// The plan and attack commands are the multi-query attacks against
// finite-precision scorers. Scorers (-scorer): float64-sklearn (scikit-learn
// log_loss), float32-keras (Keras binary_crossentropy), torch-bce (PyTorch
// BCELoss; float64-sklearn and torch-bce are bit for bit Debian 12's
// scikit-learn 1.2.1 and PyTorch 1.13.1 on an x86-64 CPU with FMA and
// AVX2: glibc's log, PyTorch's cascade sum), leaderboard (float64, 1e-15
// clip, 5 decimals), apa[:BITS]
// (exact, BITS-bit scores), fpa:E,M (any emulated format; for attack,
// M ≤ 16384 and, simulated, N²·M ≤ 2^32: each query evaluates N
// logarithms at M bits), or cmd:PROGRAM, an
// external scorer started once through sh -c (in its own process group)
// that reads one JSON line {"predictions": [...]} per query (binary: the
// probability of class 1 per point; K classes: one row of K probabilities
// per point) and answers one line, the score as a decimal number. With
// cmd:PROGRAM, -assume NAME says which model to plan for (required; an
// empty PROGRAM is an error), -timeout D (> 0, default 1m) bounds each
// answer, and the final check query is on by default. -k K is 2..64.
// Composed scorers. Wherever a scorer model is named (-scorer, -assume),
// a model may also be written as its components, BASE[,COMPONENT...]:
// BASE is a preset above or a format (binary64 or float64, binary32 or
// float32, binary16, bfloat16, fpa:E,M, exact[:BITS]; a format alone: no
// clip, no renormalisation, no clamp, numpy's pairwise sum, mean,
// unrounded, faithful log) and each COMPONENT overrides one choice:
// clip=none|eps|NUMBER (eps: the format's machine epsilon, as
// scikit-learn ≥ 1.2; 1e-15 as scikit-learn ≤ 1.1; 1e-7 as Keras 3),
// clip=keras2[:NUMBER] (Keras 2: clip, then −log(q + eps)), renorm or
// norenorm (scikit-learn ≤ 1.4 renormalises rows, ≥ 1.5 does not),
// floor=none|NUMBER (PyTorch clamps each log at -100),
// sum=pairwise|naive|kahan|fsum|torch-cascade[:avx512] (numpy's pairwise:
// 8 accumulators, blocks of 128, buffers of 8,192; left to right;
// compensated; exact and rounded once as math.fsum; PyTorch's CPU sum: a
// cascade of 4 levels of 256-bit vector accumulators, as its AVX2 and
// default kernels run, or 512-bit ones as its AVX-512 kernels do),
// reduce=mean|sum, dec=none|D (score rounded to D decimals),
// log=faithful|exact|glibc|glibc-nofma (any log within an ulp, as Go's
// math.Log; correctly rounded; glibc 2.28-2.40's log and logf bit for bit
// as x86-64 runs them with FMA and AVX2, or without FMA),
// input=prob|logits. For example
// float64,clip=eps,renorm,dec=5 is scikit-learn 1.2's log_loss rounded to
// 5 decimals, and leaderboard,clip=eps the leaderboard preset with the
// dtype's eps. Each preset is the shorthand of its components and scores
// identically. A component given twice, an unknown one, a value out of
// range or a combination the code cannot evaluate and bound exactly
// (input=logits; an exact server with a clip; Keras 2's eps with
// renormalisation) is a usage error. Noise is not a component: it is
// -noise. A model with reduce=sum is attacked through its score divided by
// N.
//
// -assume auto (attack) identifies the scorer's model by probe queries
// before the attack, as the fingerprint command does, prints the
// identification and its evidence (on stderr with -json), plans for the
// identified model, and turns -check on; the probes count in the queries
// (JSON probes). The labels the probes determine are not queried again
// (JSON probe_labels). When a score stops fitting the model mid-attack
// (no labeling of a failed block explains it under the model, or the
// blocks keep failing, or the final check does not match), the scorer is
// re-identified instead of the attack failing: first among the models
// that fit the probes, by replaying every query and score so far under
// each (no query spent), else by new probes, whose models are replayed
// the same way (a server that changed its model has its earlier scores
// set aside); the attack resumes under the new model from the labels the
// scores determine under it, and each re-identification is printed (JSON
// reidentified). At most 2 re-identifications; a model whose attack
// failed is not adopted again. A score showing more decimals than the
// model rounds to (trailing zeros in the probes' scores made the coarsest
// fitting decimals the assumption) resumes the attack under the finer
// decimals, keeping the labels verified (JSON refined). Labels are
// reported verified only after the final check against the scorer
// itself. If no model fits, the attack stops and the command exits 1.
// With a simulated -scorer, -assume auto attacks it without being told
// its model.
//
// Noise (-noise bounded|gaussian|laplace|multiplicative with -tau T > 0,
// and -delta D in (0, 1) for Gaussian and Laplace, default 1e-6) is added
// to simulated scores and assumed by the attacker; -tau and -delta without
// a noise that uses them are rejected.
//
// plan prints, for every multi-query strategy (alg3 = ICML Alg 3, blocks,
// carry, cross, hybrid, leaderboard, lean, primes = ICML Alg 1; the one -strategy auto
// picks for the scorer is marked *, JSON auto), the queries and block
// sizes of its dry run (every block decoded whole; a real run adds its
// retries and partially decoded blocks), the information floor
// N·log2(K)/(bits in one score) and the floors of any block code (for a
// score rounded to decimals, the variance bound on distinct rounding
// steps, decode.RoundedBlockMax); -check counts the final check query.
// N (-n, required except for a served competition) is 1..67108864.
// Beside each count, "at least" is a lower bound on the queries that
// holds for every labeling (decode.BoundMulti, JSON lower_bound): it takes
// seconds at N = 10^6, and it is what a defender can rely on. leaderboard
// has no dry run (each query follows the scores before it): plan prints
// an estimate a–b from its construction (decode.QueryEstimate; JSON
// estimate_low, estimate_high), a when every candidate list holds at most
// 45 labelings, b when lists stay at their target with sums not spread
// apart; not a bound, and given only for a score rounded to decimals
// (a float scorer's budget grows with the query, and its lists outgrow
// the target). The dry runs of blocks, lean and cross design every block
// and take minutes at N = 10^6, so they run only for N ≤ -dry-run-max M
// (default 100000); beyond, plan prints their bounds alone and says so
// (JSON dry_run).
//
// attack runs the attack against a simulated scorer holding seeded random
// labels (or the labels in -labels FILE, one class index per line) or
// against cmd:PROGRAM, and prints queries, retries, accuracy (null in JSON
// when the labels are unknown or no query was sent), verified, seconds
// (attack and scorer apart), strategy, n, k. N is 1..131072: the time
// grows as N² (N/40 queries of N rows against float64), about a minute at
// N = 100,000.
// -strategy is auto, cross, blocks, lean, primes, alg3 or leaderboard;
// auto is leaderboard against a binary score rounded to decimals (list
// decoding across queries: 9–11 queries at N = 198, about 2,320 at
// N = 25,000, where every block code needs 13 and 2,778) and cross
// otherwise; -no-emulate decodes with the rigorous error budget alone. A
// progress bar goes to stderr on a terminal.
//
// Output files. -out FILE writes the recovered labels, exactly one class
// index per line, and only when the attack succeeded and every label is
// verified; otherwise FILE is not written (an existing FILE is left as it
// was) and the exit status is 1. -partial-out FILE writes, whatever the
// outcome, what the attack knows: a first line "# labelinf partial labels"
// with the verification status, then one line "ROW LABEL STATUS" per row,
// STATUS being verified, model (decoded and checked only against the
// assumed scorer model, before a failure) or unknown (LABEL −1). A reader
// expecting -out's format fails on its first line, so a partial answer
// cannot pass for a full one. -allow-partial makes a failed or unverified
// attack exit 0 (the output files follow the rules above). The exit status
// is 1 when accuracy is below 1 or verification fails (unless
// -allow-partial), 2 on a usage error.
//
// -strategy robust-single is the single-query noise-robust attack (ICML
// Alg 2, EA Thm 3) against an arbitrary-precision server: row n predicts
// class k ≥ 1 with logit W·2^(n(K−1)+k−1), W = 2Nτ(1+δ), so that every
// labeling's score is more than 2τ from every other's and ONE score with
// noise below τ gives all N labels; the plan asks for N·(K−1) + about 30
// bits (-scorer apa answers with them; apa:BITS with fewer fails with the
// bits needed). N is 1..4194304. -encoding submits the same prediction as
// logits (default), log-probabilities or probabilities (the last only up
// to N ≈ 25 at τ = 1: big.Float's exponent range); -weights conway-guy
// uses the Conway–Guy set (K = 2, N ≤ 50), decoded by meet-in-the-middle;
// -margin sets δ (> 0; default 1/16). Gaussian noise is bounded by
// σ·√(2 ln(2/δ)) and Laplace noise (-noise laplace, -tau b) by b·ln(1/δ),
// with -delta. JSON adds score_bits, encoding and weights. The flags of
// the multi-query attack that do not apply (-assume, -check, -no-emulate,
// -timeout, -allow-partial, -partial-out) are rejected, and -encoding,
// -weights and -margin are rejected with the other strategies. It exits 1
// unless every label is right and verified.
//
// # fingerprint
//
// The fingerprint command identifies the model of a scorer of -k K
// classes (2..64, default 2) whose internals are unknown (package
// fingerprint): -scorer cmd:PROGRAM with -n N (8..131072) points, or a
// simulated scorer (any model name, composed ones included) holding -n N
// seeded labels (-seed S, default 1) or those of -labels FILE. It sends at
// most 6 probe queries: extremes (1e-300 and 1−2^−53, below every
// candidate clip) in four rows and ½ elsewhere (K > 2: class 1 at the
// extreme, the other classes sharing the rest equally, and uniform rows
// elsewhere; later probes' rows sum to 1 + 2^−30, which tells a server
// that renormalises rows from one that does not), the
// same again (a different score means noise), then, while the fitting
// models predict disjoint scores for some design, rows of learned label at
// probabilities whose terms spread over several binades. Candidates are
// binary64 and binary32 servers with no clip, the dtype's eps, 1e-15, 1e-7
// or Keras 2's clip, rows renormalised or not, PyTorch's clamp, pairwise,
// naive or exact summation, mean or sum, any decimals; each prediction is
// an emulator bracket (the server's log is only assumed faithful). It
// prints each probe with its score and how many candidates still fit, each
// component with its value and the probe that ruled out every other
// value ("undetermined" when the probes cannot separate them: the
// summation order behind 5 decimals, the renormalisation of two-class
// rows), and the model: the only candidate left, or the one with the
// largest error budget (PyTorch's cascade sum only if every other order
// is ruled out). When no candidate fits every probe, it prints "no
// model fits" with the evidence and exits 1: it never names a model that
// did not reproduce every score. -timeout D bounds each answer of
// cmd:PROGRAM; -json prints the report (fields n, scorer, model, exact,
// no_fit, probes, components, seconds).
//
// # blia
//
// The blia command is the passive attack of the BLIA paper: for every
// privacy budget ε in -epsilon (default inf,4,2,1,0.8,0.5,0.3) and every
// seed, it splits the training data (-train 0.8 trained on, the rest held
// out), makes -canaries 0.02 of the training rows canaries whose labels
// are flipped with probability ½, applies randomized response with keep
// probability e^ε/(1+e^ε) to every training label, trains -model (logreg:
// L2 logistic regression, -lambda; mlp: ReLU layers -hidden, Adam with
// -epochs, -batch, -lr, -decay), and infers the canary labels from the
// model's outputs with the threshold attack (p₁ ≥ 0.5; mean and median
// too) and the delta-margin attack (α·margin − β·loss > 0, -alpha and
// -beta, as written and in a symmetric reading). The MLP's flags with
// -model logreg, and -lambda with -model mlp, are rejected. -seeds N runs
// seeds -seed S, S+1, …; -workers W trains W models at once (default: the
// number of CPUs). Data (-data): adult (adult_train.csv and adult_test.csv,
// the paper's CENSUS), wdbc, titanic, banknote, haberman, or any CSV file
// with the binary label in the last column. The built-in data sets are
// embedded in the binary (package datasets, whose data/SOURCES.md gives
// their sources and licences), so they work from any directory; -datadir
// DIR reads files of the same names from DIR instead.
//
// It prints the paper's table (train accuracy against the labels trained
// on, test accuracy, threshold and delta-margin success ratios, mean ± sd
// over seeds) and a table of tests pooled over seeds: the success ratio,
// its 95% Clopper–Pearson interval, the DP bound e^ε/(1+e^ε), the
// one-sided binomial p-value against ½, the success ratio expected without
// memorization and the exact p-value against it. "DETECTED" needs the
// latter below 0.01. -all adds every attack and the decoy control (the
// same attacks scored against labels the model never saw); -json prints
// the whole report, every run included. A progress bar goes to stderr on
// a terminal. It exits 1 if the data cannot be read or training fails
// (training that diverges, with too large a -lr, is reported as such), 2
// on a usage error.
//
// # bits
//
// labelinf bits checks a bit-requirement bound against emulation. It
// prints three rows: the bits the papers' bound asks for, the bits our
// planner asks for, and the lowest bits at which every labeling was
// observed to decode, with each row's gap to the observed value
// (negative: too few bits) and whether every labeling decodes at that
// value. Three settings:
//
//   - -loss cross-entropy -tau 0 (the default): the exact single-query
//     attack (ICML Thm 1/3) against an exact server that rounds the score
//     once to P bits: paper ⌈(K−1)·N·log2(N ln N)⌉ (primes bounded by
//     N ln N), ours decode.NewSingleQuery's P, observed the lowest P at
//     which all K^N labelings decode.
//   - -loss cross-entropy -tau T > 0 (K = 2): the robust single-query
//     attack with power-of-two weights against a server computing the mean
//     in FPA(φ) (pairwise sum) plus noise in (−T, T): paper EA Prop 3's φ,
//     ours fpa.MinPhi's, observed the lowest φ at which all 2^N labelings
//     decode under noise −T', 0 and +T' (T' = T(1 − 2^−20)).
//   - -loss sigmoid-ce|itakura-saito|squared-euclidean|norm-like[:α] with
//     -tau T > 0 (K = 2): the family's robust attack (decode.PlanFamily,
//     EA Thm 4) against an exact server that rounds the noisy mean once to
//     P bits: paper EA Prop 3's φ read as FPA(φ)'s significand, ours
//     PlanFamily's P, observed as above in P. A loss that no prediction
//     separates at this N and T exits 1 with the reason.
//
// The observation emulates every labeling at every candidate, so it runs
// only while there are at most -observe-max labelings (default 1024: N ≤ 10
// for K = 2, a few seconds); beyond that the observed row says "not
// measured" and why. -json prints the report (fields loss, n, k, tau,
// unit, setting, paper, ours, observed, labelings, gap_paper, gap_ours).
// N < 1, K < 2, a negative or non-finite τ, K > 2 with τ > 0, τ = 0 with a
// loss other than cross-entropy, or an unknown loss (mahalanobis and
// bregman need more than a name) exit 2.
//
// # audit
//
// labelinf audit is the host's check before opening a competition
// (package audit): for each defence of a grid (by default none; rounding
// to 5, 3 and 2 decimals; fresh Gaussian noise at three scales; the
// fixed-step and parameter-free Ladder, each global and per team; 5
// submissions per day; a public/private split; a random half of the rows per submission; and the
// competition as configured) it runs every attack that applies, told
// which defence is in place: the block code, ICML Alg 1 and Alg 3
// (decode.AttackMulti, planning for the cell's rounding and noise), the
// threshold-crossing attack (adaptive.Edge, verified), averaging where
// the noise is fresh, boosting against the Ladder. A cell is "stopped"
// only if no attack recovers 1 % of the public labels (≥ 99 % of its
// claims right) within the limit: per day × days × accounts when the cell caps
// submissions per day, else the config's limit (100,000). Attacks run for
// real up to the config's measure (4,000 submissions) and are projected
// from that prefix beyond it, marked "~" (extrapolated). Each cell also
// scores honest submissions (-honest DIR of prediction files, one
// probability per line; by default 20 noisy versions of the truth, 12 of
// them near-ties) and reports the mean and largest |reported − true| and
// Kendall's τ between the true and the reported leaderboards.
//
// -config names a JSON or YAML file with serve's competition fields (id,
// labels or dataset or rows, metric as -assume takes it, clip, decimals,
// public_fraction, daily_limit, total_limit) and the audit's own (seed,
// days, accounts, limit, measure, honest, grid: a list of {name, defence}
// with package defence's settings). It prints a table, or with -json the
// report (no wall times: the same config gives the same bytes); -out DIR
// writes report.json, table.txt, plot.png and plot.svg (attack cost
// against honest-user cost, one point per defence). Progress goes to
// stderr unless -quiet; -workers cells run at once.
//
// By default the attacks run over loopback HTTP against real labelinf
// serve processes (this executable, one per attack and one for the
// honest submissions, each with a fresh SQLite database in the temporary
// directory): each serves the cell's defence as its competition's
// "defence" settings, seeded with the cell's simulation seed, without
// submission limits (the audit counts limits in days), and each team
// submits with its own API key. -inprocess attacks an in-process
// simulation of each cell instead, faster and with the same report, byte
// for byte. A missing or bad config, labels or honest files exit 2.
// # serve
//
// The serve command is a scoring server for competition hosts: it holds
// the private labels of the competitions in its JSON config (see
// examples/competition.json), scores submissions (POST
// /v1/competitions/ID/submissions, JSON or CSV, Authorization: Bearer
// KEY) with the metric named as -assume names it (or accuracy, roc-auc),
// charges each key's budget in SQLite or PostgreSQL, and serves the
// leaderboard (GET /v1/competitions/ID/leaderboard, and a web page at
// /competitions/ID), /healthz and /metrics. serve keys add prints a new
// API key once (only its hash is stored); keys list and keys revoke manage
// them. A competition's "defence" field takes package defence's settings
// (the JSON of labelinf audit's grid: split, random subsets, the Ladder
// global or per team, noise, Thresholdout with train_labels, rounding,
// limits), which release its public score. SIGINT or SIGTERM drains the
// server. -listen overrides the config's address and -addr-file writes the one bound (127.0.0.1:0 picks
// a free port). One process serves a SQLite database: a second is refused,
// after waiting -lock-wait (default 5s) for a server it replaces to start
// draining; replicas share PostgreSQL, defence state included. go doc
// ./serve is its manual. It exits 1 on a failure, 2
// on a usage error.
//
// attack -scorer http://HOST:PORT/v1/competitions/ID -api-key-file FILE
// [-assume MODEL|auto] attacks a served competition: N, K and the score's
// decimals come from the server, and without -assume so does the model
// (GET /v1/competitions/ID publishes a log-loss competition's model in
// the composed syntax, clip and decimals included). plan -scorer
// http://HOST:PORT/v1/competitions/ID (no key needed) plans for that
// competition the same way: its N, K and published model, or -assume
// MODEL with the server's decimals; -n or -k other than the server's is
// a usage error. Every attack query is one charged submission,
// and a limit answer (429) stops the attack with the labels recovered so
// far (verified false: -partial-out writes what is known, -out is not
// written). It needs a competition whose public board scores every row.
//
// # repro
//
// labelinf repro regenerates the papers' tables and figures beside ours
// (package repro): for each item named (or every item with -all) a table
// of the paper's numbers and ours, each labelled MATCH (with the
// tolerance), DIFFERS (with the measured reason) or NOT REPRODUCIBLE
// (why), the data series as CSV, plots as PNG and SVG, and DIR/REPRO.md
// linking them, and ending with the claims where our reproduction
// contradicts a paper. Each item's section is also DIR/ITEM.md, naming
// the commit and run it came from; REPRO.md is assembled from every
// ITEM.md in DIR, so a run of some items keeps the others' sections.
// Flags come before the item names. The items: icml-table2 (ICML Table
// 2 cell by cell), icml-fig2 (ICML Fig 2), icml-fig1 (ICML Fig 1's eight
// panels), icml-fig4 (ICML App C Fig 4, K-ary in float64), ea-prop3 (EA
// Prop 3 against the observed bit requirement), robust-tau (the robust
// single query's largest N against τ), ea-appj-float64 (EA App J's
// claims under a float64 server), ea-thm5 (EA Thm 5 and App J on
// Titanic, exact server), ea-fig1, ea-fig2, ea-fig3 (EA Fig 1–3 in
// binary64 on Titanic, Iris and Satellite), blia-table4 (BLIA Table 4
// with exact intervals, the DP bound and the decoy control).
//
//	-all       run every item
//	-quick     run the expensive items (icml-fig1, icml-fig4, robust-tau,
//	           ea-thm5) on a smaller case; the cheap ones run whole, so
//	           their tables (ITEM-table.csv) equal a full run's, and a
//	           full run writes each expensive item's -quick table as
//	           ITEM-quick-table.csv: CI compares both with the committed
//	           ones
//	-out DIR   output directory (default docs/repro)
//
// It prints one line per item (status, seconds), and progress on stderr
// when stderr is a terminal. Naming no item and not -all, both, or an
// unknown item exits 2; an item that fails is reported in REPRO.md as
// NOT REPRODUCIBLE with its error and the command exits 1.
//
// # version
//
// labelinf version prints the module path and version the binary was
// built from (from its build information: a tagged version for
// go install …@version, "(devel)" plus the VCS revision for a local build).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := runContext(ctx, os.Args[1:], os.Stdout, os.Stderr, time.Now)
	stop()
	os.Exit(code)
}
