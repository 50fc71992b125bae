// Package scorecli is labelinf score, shared by cmd/labelinf and the slim
// cmd/labelinf-score that platform bundles ship: it reads a reference
// and a prediction in a platform's layout, releases the score through
// package platform's stateless defences and writes the platform's result
// (Codabench scores.json, EvalAI's result JSON, Hugging Face's
// public_score/private_score JSON).
package scorecli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/platform"
)

// Usage is the flags' summary line.
const Usage = `labelinf score -platform codabench|evalai|huggingface -metric NAME -key KEY -secret-file FILE
                      [-defence FILE] [-ref PATH] [-res PATH] [-out DIR] [-split CODENAME] [-column NAME]`

// Flags are labelinf score's flags.
type Flags struct {
	plat, metric, key, secretFile, defFile, ref, res, out, split, column *string
}

// AddFlags defines labelinf score's flags on fs.
func AddFlags(fs *flag.FlagSet) *Flags {
	return &Flags{
		plat:       fs.String("platform", "", "the platform whose layout and result to use: `codabench`, evalai or huggingface"),
		metric:     fs.String("metric", "", "the metric: a log-loss scorer model `NAME` as labelinf serve's metric (float64-sklearn, float32-keras, torch-bce, leaderboard, …)"),
		key:        fs.String("key", "", "the score's `KEY` in the result (Codabench's leaderboard column key, EvalAI's leaderboard label, Hugging Face's metric name)"),
		secretFile: fs.String("secret-file", "", "the host's secret `FILE` (≥ 32 bytes) keying the noise, as serve's defence_secret_file; never in a public bundle"),
		defFile:    fs.String("defence", "", "defence settings JSON `FILE` (package defence's, as in serve's config): decimals, noise, subset"),
		ref:        fs.String("ref", "", "the reference: a `PATH` to the labels file or the directory holding it (codabench default /app/input/ref)"),
		res:        fs.String("res", "", "the submission: a `PATH` to the prediction file or the directory holding it (codabench default /app/input/res)"),
		out:        fs.String("out", "", "codabench: the output `DIR` for scores.json (default /app/output)"),
		split:      fs.String("split", "", "evalai: the dataset split `CODENAME` the score is for"),
		column:     fs.String("column", "", "the labels' column `NAME` of a CSV reference with several"),
	}
}

// Main parses args with its own flag set (cmd/labelinf-score) and runs
// labelinf score; it returns the exit status (2: a usage error or -h, 1:
// a failure).
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("labelinf-score", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s\n", strings.Replace(Usage, "labelinf score", "labelinf-score", 1))
		fs.PrintDefaults()
	}
	f := AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2 // -h too, as every labelinf command
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "labelinf score: unexpected arguments %q\n", fs.Args())
		return 2
	}
	return Run(f, stdout, stderr)
}

// Run runs labelinf score with the parsed flags f.
func Run(f *Flags, stdout, stderr io.Writer) int {
	plat, metric, key, secretFile, defFile := f.plat, f.metric, f.key, f.secretFile, f.defFile
	ref, res, out, split, column := f.ref, f.res, f.out, f.split, f.column
	usage := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "labelinf score: "+format+"\n", a...)
		return 2
	}
	switch *plat {
	case platform.Codabench:
		if *ref == "" {
			*ref = "/app/input/ref"
		}
		if *res == "" {
			*res = "/app/input/res"
		}
		if *out == "" {
			*out = "/app/output"
		}
	case platform.EvalAI:
		if *split == "" {
			return usage("-split is required for evalai (the dataset split codename of the result)")
		}
	case platform.HuggingFace:
	case "":
		return usage("-platform is required (codabench, evalai or huggingface)")
	default:
		return usage("-platform %q: want codabench, evalai or huggingface", *plat)
	}
	switch {
	case *metric == "":
		return usage("-metric is required: the bundle does not say how its scorer computes the score")
	case *key == "":
		return usage("-key is required: the score's key in the platform's result")
	case *ref == "" || *res == "":
		return usage("-ref and -res are required")
	case *plat != platform.Codabench && *out != "":
		return usage("-out applies to codabench; evalai and huggingface results go to stdout")
	}
	var s defence.Settings
	if *defFile != "" {
		b, err := os.ReadFile(*defFile)
		if err != nil {
			return usage("-defence: %v", err)
		}
		if s, err = defence.ParseSettings(b); err != nil {
			return usage("-defence %s: %v", *defFile, err)
		}
	}
	if err := platform.Stateless(s); err != nil {
		return usage("-defence: %v", err)
	}
	var secret []byte
	if *secretFile == "" {
		if s.Noise != nil {
			return usage("-secret-file is required: the defence adds noise keyed with the host's secret")
		}
	} else {
		b, err := os.ReadFile(*secretFile)
		if err != nil {
			return usage("-secret-file: %v", err)
		}
		secret = []byte(strings.TrimSpace(string(b)))
		if len(secret) < platform.MinSecretBytes {
			return usage("-secret-file %s: %d bytes; want at least %d (e.g. head -c 48 /dev/urandom | base64 > FILE)", *secretFile, len(secret), platform.MinSecretBytes)
		}
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "labelinf score: %v\n", err)
		return 1
	}
	refData, refName, err := readOne(*ref)
	if err != nil {
		return fail(fmt.Errorf("-ref: %w", err))
	}
	labels, k, public, ids, err := platform.ParseReference(refData, refName, *column)
	if err != nil {
		return fail(fmt.Errorf("-ref: %w", err))
	}
	predData, predName, err := readOne(*res)
	if err != nil {
		return fail(fmt.Errorf("-res: %w", err))
	}
	pred, err := platform.ReadPredictions(strings.NewReader(string(predData)), predName, len(labels), k, ids)
	if err != nil {
		return fail(err)
	}
	r, err := platform.Score(labels, k, pred, public, platform.ScoreOptions{Metric: *metric, Defence: s, Secret: secret})
	if err != nil {
		return fail(err)
	}
	num := func(v string) json.RawMessage {
		if v == "inf" {
			return json.RawMessage("Infinity") // Python's json reads it
		}
		return json.RawMessage(v)
	}
	switch *plat {
	case platform.Codabench:
		j, _ := json.Marshal(map[string]json.RawMessage{*key: num(r.Public)})
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return fail(err)
		}
		if err := os.WriteFile(filepath.Join(*out, "scores.json"), append(j, '\n'), 0o644); err != nil {
			return fail(err)
		}
	case platform.EvalAI:
		one := map[string]map[string]json.RawMessage{*split: {*key: num(r.Public)}}
		j, _ := json.Marshal(map[string]any{"result": []any{one}, "submission_result": one})
		fmt.Fprintf(stdout, "%s\n", j)
	case platform.HuggingFace:
		priv := r.Private
		if !r.HasPrivate {
			priv = r.Public
		}
		j, _ := json.Marshal(map[string]any{"public_score": map[string]json.RawMessage{*key: num(r.Public)},
			"private_score": map[string]json.RawMessage{*key: num(priv)}})
		fmt.Fprintf(stdout, "%s\n", j)
	}
	return 0
}

// readOne reads p, or the one data file of the directory p (files whose
// names start with "." or end in .secret, and metadata files, aside).
func readOne(p string) ([]byte, string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, "", err
	}
	if !st.IsDir() {
		b, err := os.ReadFile(p)
		return b, p, err
	}
	var files []string
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n := d.Name()
		if d.IsDir() {
			if q != p && strings.HasPrefix(n, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(n, ".") || strings.HasSuffix(n, ".secret") || n == "metadata" || n == "metadata.yaml" {
			return nil
		}
		files = append(files, q)
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	if len(files) != 1 {
		return nil, "", fmt.Errorf("%s holds %d data files (%s); want one", p, len(files), strings.Join(files, ", "))
	}
	b, err := os.ReadFile(files[0])
	return b, files[0], err
}
