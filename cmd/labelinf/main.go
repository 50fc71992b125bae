// Command labelinf shows, measures and reproduces how much a loss score
// leaks about the private labels it is computed on.
//
// Usage:
//
//	labelinf demo [-json] [-seed S] [-n N] [-kn N] [-k K]
//	labelinf fpa -format NAME|E,M [-round MODE] -op OP [-acc] A [B [C]]
//	labelinf plan -n N [-k K] [-scorer NAME] [-noise KIND -tau T -delta D] [-check] [-json]
//	labelinf attack [-scorer NAME|cmd:PROGRAM [-assume NAME]] [-n N] [-k K] [-seed S]
//	                [-strategy auto|blocks|primes|alg3] [-noise KIND -tau T -delta D]
//	                [-labels FILE] [-out FILE] [-check] [-no-emulate] [-allow-partial]
//	                [-timeout D] [-json]
//	labelinf attack -scorer apa|apa:BITS -strategy robust-single -noise bounded|gaussian|laplace -tau T
//	                [-n N] [-k K] [-seed S] [-encoding logit|logprob|prob]
//	                [-weights powers|conway-guy] [-margin D] [-labels FILE] [-out FILE] [-json]
//	labelinf blia [-data adult|wdbc|FILE] [-model logreg|mlp] [-epsilon LIST] [-seeds N]
//	              [-seed S] [-canaries F] [-train F] [-alpha A] [-beta B] [-hidden W,W]
//	              [-epochs E] [-batch B] [-lr R] [-decay D] [-lambda L] [-workers W]
//	              [-datadir DIR] [-all] [-json]
//	labelinf serve -config FILE [-listen ADDR] [-addr-file FILE]
//	labelinf serve keys add -config FILE -name TEAM | keys list -config FILE | keys revoke -config FILE ID
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
//
// Progress goes to stderr when stderr is a terminal, nothing when piped.
//
// The fpa command evaluates one operation in an emulated floating-point
// format, correctly rounded, and prints the result as a hex float in Go's
// %x form (0x1.8p+01), or inf, -inf, nan. Operands are decimal or hex
// floats (inf and nan too), rounded into the format in the chosen mode
// first; a negative operand needs no "--". Flags:
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
// An invalid format, mode, op, operand count or operand exits with status 2.
//
// The plan and attack commands are the multi-query attacks against
// finite-precision scorers. Scorers (-scorer): float64-sklearn (scikit-learn
// log_loss), float32-keras (Keras binary_crossentropy), torch-bce (PyTorch
// BCELoss), leaderboard (float64, 1e-15 clip, 5 decimals), apa[:BITS]
// (exact, BITS-bit scores), fpa:E,M (any emulated format), or
// cmd:PROGRAM, an external scorer started once through sh -c that reads one
// JSON line {"predictions": [...]} per query (binary: the probability of
// class 1 per point; K classes: one row of K probabilities per point) and
// answers one line, the score as a decimal number; -assume NAME says which
// model to plan for, -timeout bounds each answer, and the final check query
// is on by default. Noise (-noise bounded|gaussian|multiplicative with -tau,
// and -delta for Gaussian) is added to simulated scores and assumed by the
// attacker.
//
// plan prints, for each strategy (primes = ICML Alg 1, alg3 = ICML Alg 3,
// blocks = ours), the queries and block sizes it would use, and the
// information floor N·log2(K)/(bits in one score). attack runs the attack
// against a simulated scorer holding seeded random labels (or the labels
// in -labels FILE, one class index per line) or against cmd:PROGRAM, and
// prints queries, retries, accuracy (null in JSON when the labels are
// unknown), verified, seconds (attack and scorer apart), strategy, n, k.
// -out FILE writes the recovered labels one per line. It exits 1 when
// accuracy is below 1 or verification fails (unless -allow-partial), 2 on
// a usage error. A progress bar goes to stderr on a terminal.
//
// -strategy robust-single is the single-query noise-robust attack (ICML
// Alg 2, EA Thm 3) against an arbitrary-precision server: row n predicts
// class k ≥ 1 with logit W·2^(n(K−1)+k−1), W = 2Nτ(1+δ), so that every
// labeling's score is more than 2τ from every other's and ONE score with
// noise below τ gives all N labels; the plan asks for N·(K−1) + about 30
// bits (-scorer apa answers with them; apa:BITS with fewer fails with the
// bits needed). -encoding submits the same prediction as logits (default),
// log-probabilities or probabilities (the last only up to N ≈ 25 at τ = 1:
// big.Float's exponent range); -weights conway-guy uses the Conway–Guy set
// (K = 2, N ≤ 50), decoded by meet-in-the-middle; -margin sets δ (default
// 1/16). Gaussian noise is bounded by σ·√(2 ln(2/δ)) and Laplace noise
// (-noise laplace, -tau b) by b·ln(1/δ), with -delta. JSON adds
// score_bits, encoding and weights. It exits 1 unless every label is right
// and verified.
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
// too) and the delta-margin attack (α·margin − β·loss > 0, as written and
// in a symmetric reading). Data (-data): adult (adult_train.csv and
// adult_test.csv, the paper's CENSUS), wdbc, or any CSV file with the
// binary label in the last column; the built-in files are read from
// -datadir, else $LABELINF_DATA, else ../shared/datasets.
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
// a terminal. It exits 1 if the data cannot be read or training fails, 2
// on a usage error.
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
// them. SIGINT or SIGTERM drains the server. -listen overrides the
// config's address and -addr-file writes the one bound (127.0.0.1:0 picks
// a free port). go doc ./serve is its manual. It exits 1 on a failure, 2
// on a usage error.
//
// attack -scorer http://HOST:PORT/v1/competitions/ID -api-key-file FILE
// -assume MODEL attacks a served competition: N, K and the score's
// decimals come from the server, every query is one charged submission,
// and a limit answer (429) stops the attack with the labels recovered so
// far (-out writes them, −1 where unknown; verified false). It needs a
// competition whose public board scores every row.
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
