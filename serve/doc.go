// Package serve is a scoring server that competition hosts can run: it
// holds private labels, scores submitted predictions with the metric of a
// real library, counts every submission against a per-key budget in a
// database, and shows a leaderboard.
//
// # Running it
//
//	labelinf serve keys add -config examples/competition.json -name alice   # prints lik_…
//	labelinf serve -config examples/competition.json
//	curl -H "Authorization: Bearer $KEY" -H "Content-Type: application/json" \
//	     --data '{"predictions": [0.5, …]}' http://127.0.0.1:8080/v1/competitions/demo/submissions
//
// The configuration ([Config], [CompetitionConfig]; a complete example is
// examples/competition.json) names the database, the limits and the
// competitions: labels file, classes, metric, clipping, decimals,
// public/private split, close time and budgets. A log-loss metric is named
// by the scorer model string that labelinf attack -assume takes
// (float64-sklearn, float32-keras, torch-bce, leaderboard, fpa:E,M), so
// a served competition and the model an attacker assumes are one thing;
// accuracy and roc-auc are exact rationals, brier is scikit-learn's
// brier_score_loss bit for bit (package metric computes them all). Accuracy counts a row right
// when its predicted class is its label, the class scikit-learn's
// model.predict gives: numpy's argmax, the first class of largest
// probability, so a binary p = 0.5 is class 0 and p > 0.5 class 1 (equal
// to scikit-learn's accuracy_score(y, model.predict(X)), tested against
// it). The database records the rule each competition's scores follow
// (the metric's, and whether its Ladder and Thresholdout keep their state
// globally or per team), and a server whose configuration would score by
// another rule refuses to start while scores exist ([CheckRules]), so
// that no board mixes two rules and no switch of per_team starts spent
// budgets afresh. Releases before this rule counted a
// binary p = 0.5 as class 1, and a binary accuracy competition scored by
// them finishes as "metric": "accuracy-v1" (that old rule) or starts anew. float64-sklearn and torch-bce
// score bit for bit as Debian 12's scikit-learn 1.2.1 log_loss and
// PyTorch 1.13.1 binary_cross_entropy do on an x86-64 CPU with FMA and
// AVX2, whatever CPU the server runs on (their models take glibc's log and
// PyTorch's cascade sum; see package scorer).
//
// # API
//
//	POST /v1/competitions/{id}/submissions   submit (Authorization: Bearer KEY)
//	GET  /v1/competitions                    competitions: rows, classes, metric, decimals, limits
//	GET  /v1/competitions/{id}               one competition: rows, public_rows (the
//	                                         holdout rows a public score covers),
//	                                         "model" (a log-loss metric's arithmetic,
//	                                         clip and decimals in the syntax of
//	                                         labelinf -assume, from the config alone,
//	                                         defended or not) and, only with
//	                                         publish_defence, "defence" (see Defences)
//	GET  /v1/competitions/{id}/leaderboard   public board; private too once closed
//	GET  /healthz                            200 when the database answers
//	GET  /metrics                            Prometheus
//	GET  /competitions/{id}                  leaderboard page with a submission form
//
// A submission's body is application/json, exactly {"predictions": [p0,
// p1, …]} (binary: the probability of class 1 per row) or {"predictions":
// [[p00, …, p0K-1], …]} (K classes), or text/csv with a header line and
// "id,prediction" (or "id,p0,…,pK-1") per row, ids 0 to N−1 in any order
// (a leading UTF-8 byte-order mark, as spreadsheet programs write, is
// skipped). Bodies are UTF-8: a Content-Type with another charset
// (utf-16, latin1) is refused.
// Clients should send an Idempotency-Key header (any text ≤ 128 bytes,
// new for each new prediction, e.g. a random UUID): a retry with the same
// key and the same prediction returns the first answer, status (201) and
// body, with the header Idempotent-Replayed: true, and charges nothing; the
// same key with another prediction is refused (422
// idempotency_key_reused). Without a key, a client whose answer was lost
// cannot tell whether it was charged. [Client] sends one with every
// submission. The answer (201) is
//
//	{"id": "sub_…", "competition": "demo", "board": "public", "rows": 300,
//	 "score": 0.69315, "decimals": 5, "submitted_at": "…", "used": 1}
//
// with "score": null and "infinite": true for an infinite loss. Every
// rejection is a 4xx with {"error": {"reason": "…", "message": "…"}}:
// 400 malformed, 401 bad_key or revoked_key, 403 closed,
// holdout_exhausted, csrf or cross_origin (a form posted from another
// site), 404 unknown_competition or not_found (also for a path with ".",
// ".." or empty segments, answered as it is, never redirected), 405
// method (with Allow), 413 too_large, 415 media_type, charset (not
// UTF-8) or encoding (compressed bodies are refused), 422
// invalid_prediction (outside [0, 1], rows not summing to 1 for a metric
// that does not renormalise) or idempotency_key_reused, 429
// budget_daily, budget_total, budget_interval (with Retry-After) or
// rate_limited, 431 header_too_large (request line and headers over 64
// KiB). The leaderboard page and its form answer HTML; only what
// net/http refuses before the server sees a request (malformed HTTP,
// headers over 1 MiB) is its plain text. A 503 "unavailable" means the
// database failed and nothing was charged. A
// 503 "outcome_unknown" means the database failed while committing and
// the server could not learn, within 10 s, whether the submission was
// stored (after a failed COMMIT it looks the submission's id up on a new
// connection first, and answers 201 if it was stored): it may have been
// charged, so retry with the same Idempotency-Key, which answers the
// stored submission or submits it. No answer contradicts the database.
// The web form carries an Idempotency-Key of its own, drawn anew for
// each page and kept on the page that reports "outcome_unknown", so a
// form sent twice (a double click, a resend) is stored and charged once.
//
// # Submissions from a platform's scoring step
//
// A competition with host_token_file also answers POST
// /v1/competitions/{id}/host/submissions (host.go): a Codabench, EvalAI
// or Hugging Face scoring step (docs/PLATFORMS.md) posts each
// submission's body as above with Authorization: Bearer HOST_TOKEN, the
// header Labelinf-Team: the platform's stable team id, and Idempotency-Key:
// the platform's stable submission id (required). The submission is
// charged to the team's key, created on the team's first submission, so
// the limits, the Ladder and Thresholdout hold per team as for serve's
// own keys, and a platform that retries a submission gets the first
// answer again, charged once. Rejections: 401 bad_host_token, 400
// bad_team or missing_idempotency_key, 403 revoked_key (a team whose key
// the host revoked), 404 not_found without host_token_file, and every
// rejection of the route above.
//
// # What a rejection may say
//
// Nothing a request is told for free may depend on the private labels:
// key, body, grammar, row and class counts, ranges and row sums are all
// checked on the prediction alone, and the budget is checked before
// anything is scored. The scoring runs inside the budget transaction,
// after the charge, so a label-dependent outcome (with clipping off, a
// prediction of exactly 0 on a row whose label is 1 gives an infinite
// loss) is an accepted, charged submission with "infinite": true, never a
// free 4xx. Rejected requests spend no budget, but each takes a token from
// a bucket (reject_rate, reject_burst), and a request arriving at an empty
// bucket is refused (429 rate_limited): a request with a valid key is
// limited by that key's bucket alone and its rejections (over budget,
// malformed, invalid) are charged to that key alone, so users behind one
// address (a NAT, a proxy without client_ip_header) never lock each other
// out; requests without a valid key (none, unknown, revoked, a form that
// cannot be read or fails its CSRF check) are limited and charged per
// client address, so failed key guesses and floods are throttled.
//
// # Storage and durability
//
// Every accepted submission (key, time, public and private score, SHA-256
// of the predictions' float64 bits) and every key's budget use is stored.
// The budget check, the scoring and the insert are one transaction, so
// concurrent requests cannot overspend. SQLite (the default; pure Go,
// modernc.org/sqlite) runs in WAL mode with synchronous=FULL, and commits
// the submissions waiting at one moment together (group commit, one fsync);
// PostgreSQL (driver "postgres") runs every session with
// synchronous_commit=on and locks a key's budget row for its transaction,
// so several serve replicas behind one load balancer share one budget,
// and one defence state (below): any number of replicas answer as one
// would. One process serves a SQLite file: a second is refused at start
// (a lock on FILE.serve-lock); labelinf serve keys works beside a live
// server, and a restarted server waits up to -lock-wait (5 s) for the old
// one, which lets go of the file when it starts draining.
// An acknowledged submission is on disk. Schema migrations are numbered
// and applied once each, under an advisory lock on PostgreSQL.
//
// API keys read lik_ID_SECRET; only SHA-256(SECRET) is stored, and it is
// compared in constant time. labelinf serve keys add|list|revoke manages
// them.
//
// # Behind a TLS reverse proxy
//
// serve speaks plain HTTP and should listen on 127.0.0.1 behind a proxy
// that terminates TLS, for example nginx:
//
//	server {
//	    listen 443 ssl;
//	    server_name scores.example.org;
//	    ssl_certificate     /etc/ssl/scores.pem;
//	    ssl_certificate_key /etc/ssl/scores.key;
//	    client_max_body_size 16m;            # ≥ max_body_bytes
//	    location / {
//	        proxy_pass http://127.0.0.1:8080;
//	        proxy_set_header Host $host;
//	        proxy_set_header X-Real-IP $remote_addr;
//	        proxy_set_header X-Forwarded-Proto https;
//	    }
//	}
//
// with "client_ip_header": "X-Real-IP" in the config so that rejections
// are limited per client, not per proxy. The CSRF cookie is marked Secure
// when X-Forwarded-Proto is https. Timeouts (read_header_timeout,
// read_timeout, write_timeout, idle_timeout) bound slow clients; SIGTERM
// stops accepting connections and drains those in flight for up to
// shutdown_timeout.
//
// # Defences
//
// A competition's "defence" field takes package defence's Settings (the
// JSON of labelinf audit's grid): a split, random subsets, the Ladder
// (fixed or parameter-free, global or per team), noise (fresh, or keyed
// on the prediction or the losses with the host's defence_secret_file),
// rounding, clipping and limits. The public score is then released by the
// defence.Chain, given the key's name as the team, the prediction's
// canonical bytes, the per-row losses (the float64 log-losses; accuracy's
// 0/1 loss and the Brier score's squared error, scikit-learn's per-sample
// terms: RowLosses) and the metric's exact score on the rows the chain
// picks, and whether a higher score is better (accuracy, ROC AUC: the
// Ladder then moves up). ROC AUC has no per-row loss: the fixed-step
// Ladder, which reads the score alone, runs on it; the parameter-free one
// and noise keyed on the losses are refused. The private score, revealed at the
// close, is the metric's, rounded. Each of rounding, split, clipping and
// limits is set in one place (the competition's field or the defence's).
// Thresholdout [DFHPRR15] needs train_labels, training rows whose labels
// are public: a submission then carries their predictions first, the
// training score (the metric's, exact) is answered unless the holdout's
// differs by more than the noisy threshold, and once its budget B is
// spent a submission is refused (403 holdout_exhausted) and not charged,
// or, with "exhausted": "train", answered the training score alone
// (charged; it says nothing about the holdout). The budget is global by
// default, as the theorem assumes (one analyst), and that costs
// availability: one key that overfits the holdout spends it, and from
// then on every team's submission is refused (or, with "train", answered
// from the training rows only). "per_team": true gives each team (key
// name) its own B and threshold: no team can spend another's, but k
// accounts buy k·B holdout answers, so the guarantee holds per account
// (labelinf audit measures attacks with several accounts).
// What the chain remembers (the Ladder's bests, and the parameter-free
// Ladder's leader losses as 8 bytes a row; Thresholdout's budget and
// noisy threshold, one per team with per_team) is kept in the database
// and read and updated in each
// submission's transaction, under a row lock on PostgreSQL, so that
// replicas release exactly what one server would and a restart forgets
// nothing. A defence_state_file written by an older server is imported
// once and renamed; one that disagrees with the database stops the
// server. Each process keeps its own noise: fresh noise takes a new
// per-process nonce (never replayed after a restart, never shared by two
// replicas), Thresholdout and subsets their own crypto/rand streams;
// keyed noise needs defence_secret_file, so that the same prediction gets
// the same noise after a restart and on every replica. simulation_seed
// (labelinf audit's loopback mode, never a real competition) makes every
// random stream follow from a seed; the streams' positions are then kept
// in the database too, so that replicas continue one stream.
// Without a defence, the score passes through a [Releaser] chain ending
// in the rounding to the configured decimals ([Round]).
//
// What is published: GET /v1/competitions/{id} always gives the metric's
// model; the defence's parameters only when the host sets
// publish_defence, and then only those of an allow-list
// ([PublishedDefence]: the split's public fraction and close, the subset
// size, Thresholdout's T, σ, budget and options, the Ladder's kind, η,
// grid and scope, the noise's kind, scale and key mode, decimals, clip,
// limits). Seeds (split_seed, the split's seed, simulation_seed), the
// noise secret, the state file, which rows are public and any team's
// state are never published. Without publish_defence the answer says
// nothing of the defence, and a client planning for the model alone will
// find the scores disagree. labelinf attack and plan (through
// [NewClient]) refuse a competition that publishes a defence its model
// does not describe (a split or subset, Thresholdout, the Ladder, noise),
// naming it, before any submission.
//
// # Hosts that evaluate submitted models
//
// labelinf serve scores prediction files. A host that instead runs
// submitted models (ONNX, code competitions, evaluation services) leaks
// the same way, through a model: package mutnet writes MUTNET [EA,
// Theorem 9] as ONNX models that onnxruntime runs, recovering every one
// of 45 labels (float64; 17 in float32) from one unrounded log-loss, in
// forms that recognise the test rows by content, by a keyed hash, or by
// their position in the batch. Such a host should: run labelinf inspect
// on every submission (the signatures: stored rows or lookup tables,
// nearest-row searches, dead-ReLU branches, superincreasing logits,
// batch-shape switches; exit 3 when flagged); run the model on the test
// rows in a shuffled order and in batches other than the test set's size
// (this defeats the position form only: the content forms still work);
// compare its outputs on the test rows with those on slightly moved
// copies (a model whose output jumps is a lookup); and report losses
// rounded and with the defences below, which are what bounds the leak
// for every form (labelinf audit measures them).
//
// # References
//
//   - [Fawcett06] T. Fawcett, "An introduction to ROC analysis", Pattern
//     Recognition Letters 27 (2006) 861–874.
//   - [AKXFT21] A. Aggarwal et al., "Label Inference Attacks from Log-loss
//     Scores", ICML 2021, arXiv:2105.08266.
//   - [DFHPRR15] C. Dwork, V. Feldman, M. Hardt, T. Pitassi, O. Reingold,
//     A. Roth, "The reusable holdout: Preserving validity in adaptive data
//     analysis", Science 349(6248), 2015.
//   - [Clinger90] W. D. Clinger, "How to read floating point numbers
//     accurately", PLDI 1990.
//   - [Lemire21] D. Lemire, "Number parsing at a gigabyte per second",
//     Software: Practice and Experience 51(8), 2021.
//   - [Tao20] N. Tao, "The Eisel-Lemire ParseNumberF64 Algorithm", 2020,
//     https://nigeltao.github.io/blog/2020/eisel-lemire.html.
package serve
