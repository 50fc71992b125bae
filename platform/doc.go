// Package platform reads the competition bundles of the platforms hosts
// already use — a Codabench competition.yaml (version 2), an EvalAI
// challenge_config.yaml, a Hugging Face competitions conf.json with its
// solution.csv — and a Kaggle preset, into a [Bundle]: the settings that
// decide how much a score leaks (the decimals shown, the submission
// limits, the public/private split, the metric and the labels), each with
// the bundle field it was read from ([Setting.Source]), so that the audit
// (labelinf audit -bundle) says where every number of its grid came from.
// It also holds the defended scorer the platforms' scoring steps run
// ([Score], labelinf score): the stateless defences of package defence
// (rounding, noise keyed on the prediction with the host's secret, random
// row subsets) applied as labelinf serve applies them, so that a bundle's
// scorer releases what serve releases for the same defence and
// prediction.
//
// # What a bundle says and what it does not
//
// A bundle names its reference data but not how its scoring program
// computes the metric, nor (for a CSV) which column holds the labels.
// What it does not say comes from [Options] (labelinf's -metric, -column,
// -labels, -phase flags); a setting that is needed and comes from
// nowhere is an error naming the field ([FieldError]). Defaults are the
// platforms' documented ones and are reported as such: Codabench
// max_submissions_per_day 5, max_submissions 100, a leaderboard column's
// precision 2 (shown; the stored score has 10 decimals, which the reader
// takes unless Options.Decimals says the scorer rounds); EvalAI leaderboard_decimal_precision 2 and limits of
// 100,000; Kaggle's 5 decimals. Where a platform leaves a setting to code
// the reader cannot see (the rows of an EvalAI dataset split are the
// evaluation script's), the reader takes the value that favours the
// attacker (every row public) and says so.
//
// Labels: one class index per line; CSV with a header (the labels'
// column named by Options.Column, or the one column besides the id and
// split columns); or one-hot rows (Codabench's .solution files). The
// reference data may be a file, a directory holding one such file, or a
// zip of either; the bundle itself may be a directory or a zip.
//
// Nothing here imports serve, the audit or a database: the slim scorer
// (cmd/labelinf-score) links this package and package defence alone.
//
// # References
//
//   - Codabench, "Competition YAML structure" (docs.codabench.org,
//     Organizers/Benchmark_Creation/Yaml-Structure) and the iris example
//     bundle (codalab/competition-examples, codabench/iris).
//   - EvalAI, "Host challenge: challenge configuration"
//     (evalai.readthedocs.io, configuration.html) and EvalAI-Starters'
//     challenge_config.yaml and evaluation_script/main.py.
//   - Hugging Face competitions, "Competition repo" and "Custom metric"
//     (huggingface.co/docs/competitions).
package platform
