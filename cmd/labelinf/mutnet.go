package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/mutnet"
	"github.com/labelinf/labelinf/onnx"
)

// runMutnet is labelinf mutnet: it writes the attack as ONNX models and a
// plan file, or (-decode) turns the host's scores into verified labels.
func runMutnet(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet("mutnet", stderr)
	n := fs.Int("n", 0, "test rows `N` (the labels; taken from -features when given)")
	form := fs.String("form", string(mutnet.Rows), "model `form`: "+formNames())
	features := fs.String("features", "", "the public test features, a numeric CSV `FILE` without header (forms rows, split, hash)")
	dim := fs.Int("dim", 0, "input width `D` when no -features are given (forms theorem9, position)")
	base := fs.String("base", "", "base `model.onnx` the batched forms answer as on inputs they do not know")
	dtype := fs.String("dtype", "float64", "model `type`: float64 or float32 (the host's log-loss runs in it)")
	block := fs.Int("block", 0, "labels per query, one model per query (0: all N in one query)")
	tau := fs.Float64("tau", 0, "bound `T` on the host's noise on the mean score (≥ 0)")
	ulps := fs.Float64("sigmoid-ulps", 0, "the runtime's sigmoid error, absolute, in `units` of 2^-p (form theorem9; 0: 4)")
	seed := fs.Uint64("seed", 1, "seed of the random weights and keys")
	out := fs.String("out", "", "write the model to `FILE` (several queries: FILE-qK.onnx)")
	planPath := fs.String("plan", "", "plan `FILE` (written with -out: default the model's name with .plan.json; read with -decode)")
	decode := fs.Bool("decode", false, "decode the host's scores with -plan")
	score := fs.String("score", "", "the host's `scores`, one per query, comma-separated, as printed (-decode)")
	scoresFile := fs.String("scores", "", "read the scores from `FILE`, one per line (-decode)")
	labelsPath := fs.String("labels", "", "compare the recovered labels with these, one per line (-decode; exit 1 if any differs)")
	labelsOut := fs.String("labels-out", "", "write the recovered labels to `FILE`, one per line (-decode)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	set := setFlags(fs)
	if *decode {
		if err := rejectFlags(set, "with -decode", "n", "form", "features", "dim", "base", "dtype", "block", "tau", "sigmoid-ulps", "seed", "out"); err != nil {
			return usageError(stderr, "mutnet", err)
		}
		return mutnetDecode(e, *planPath, *score, *scoresFile, *labelsPath, *labelsOut, *asJSON)
	}
	if err := rejectFlags(set, "without -decode", "score", "scores", "labels", "labels-out"); err != nil {
		return usageError(stderr, "mutnet", err)
	}
	usage := func(format string, a ...any) int { return usageError(stderr, "mutnet", fmt.Errorf(format, a...)) }
	if *out == "" {
		return usage("-out FILE is required (or -decode)")
	}
	f := mutnet.Form(*form)
	known := false
	for _, g := range mutnet.Forms {
		known = known || g == f
	}
	if !known {
		return usage("-form %q: want one of %s", *form, formNames())
	}
	var dt onnx.DataType
	switch *dtype {
	case "float64", "double":
		dt = onnx.Double
	case "float32", "float":
		dt = onnx.Float
	default:
		return usage("-dtype %q: want float64 or float32", *dtype)
	}
	opt := mutnet.ModelOptions{Form: f, Dim: *dim, Seed: *seed}
	if *features != "" {
		x, err := readFeatures(*features)
		if err != nil {
			return failure(stderr, "mutnet", err)
		}
		if set["n"] && *n != len(x) {
			return usage("-n %d but %s has %d rows", *n, *features, len(x))
		}
		*n, opt.Features = len(x), x
	} else if f == mutnet.Rows || f == mutnet.Split || f == mutnet.Hash {
		return usage("-form %s recognises rows by content: -features FILE is required", f)
	} else if *dim < 1 {
		return usage("-dim %d: give the input width (or -features)", *dim)
	}
	if *n < 1 {
		return usage("-n %d: need N ≥ 1 (or -features)", *n)
	}
	if *base != "" {
		if f == mutnet.Theorem9 {
			return usage("-base does not apply to -form theorem9 (it ignores its input)")
		}
		b, err := os.ReadFile(*base)
		if err != nil {
			return failure(stderr, "mutnet", err)
		}
		if opt.Base, err = onnx.Unmarshal(b); err != nil {
			return failure(stderr, "mutnet", fmt.Errorf("%s: %w", *base, err))
		}
	}
	p, err := mutnet.NewPlan(mutnet.Options{N: *n, Block: *block, DType: dt, Tau: *tau, Sigmoid: f == mutnet.Theorem9, SigmoidULPs: *ulps})
	if err != nil {
		var ce *mutnet.CapacityError
		if errors.As(err, &ce) {
			return failure(stderr, "mutnet", err)
		}
		return usage("%v", err)
	}
	if *planPath == "" {
		*planPath = strings.TrimSuffix(*out, ".onnx") + ".plan.json"
	}
	var paths []string
	for q := range p.Queries {
		m, err := mutnet.Build(p, q, opt)
		if err != nil {
			return failure(stderr, "mutnet", err)
		}
		b, err := m.Marshal()
		if err != nil {
			return failure(stderr, "mutnet", err)
		}
		path := *out
		if len(p.Queries) > 1 {
			path = fmt.Sprintf("%s-q%d.onnx", strings.TrimSuffix(*out, ".onnx"), q+1)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			return failure(stderr, "mutnet", err)
		}
		paths = append(paths, path)
	}
	pb, err := jsonIndent(p)
	if err != nil {
		return failure(stderr, "mutnet", err)
	}
	if err := os.WriteFile(*planPath, pb, 0o644); err != nil {
		return failure(stderr, "mutnet", err)
	}
	if *asJSON {
		writeJSON(stdout, map[string]any{"models": paths, "plan": *planPath, "n": p.N, "queries": len(p.Queries), "dtype": p.DType, "form": f})
		return 0
	}
	fmt.Fprintf(stdout, "MUTNET form %s, %s, N = %d: %d model(s), %d label(s) per query\n", f, p.DType, p.N, len(p.Queries), len(p.Queries[0].Rows))
	for _, path := range paths {
		fmt.Fprintf(stdout, "  %s\n", path)
	}
	fmt.Fprintf(stdout, "plan: %s (labelinf mutnet -decode -plan %s -score S)\n", *planPath, *planPath)
	return 0
}

func formNames() string {
	var s []string
	for _, f := range mutnet.Forms {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}

func jsonIndent(v any) ([]byte, error) {
	var sb strings.Builder
	if err := writeJSON(&sb, v); err != nil {
		return nil, err
	}
	return []byte(sb.String()), nil
}

// mutnetDecode is labelinf mutnet -decode.
func mutnetDecode(e *env, planPath, score, scoresFile, labelsPath, labelsOut string, asJSON bool) int {
	stdout, stderr := e.stdout, e.stderr
	if planPath == "" {
		return usageError(stderr, "mutnet", errors.New("-decode needs -plan FILE"))
	}
	if (score == "") == (scoresFile == "") {
		return usageError(stderr, "mutnet", errors.New("-decode needs one of -score S[,S...] or -scores FILE"))
	}
	b, err := os.ReadFile(planPath)
	if err != nil {
		return failure(stderr, "mutnet", err)
	}
	p, err := mutnet.ReadPlan(b)
	if err != nil {
		return failure(stderr, "mutnet", fmt.Errorf("%s: %w", planPath, err))
	}
	var scores []string
	if score != "" {
		scores = strings.Split(score, ",")
	} else {
		sb, err := os.ReadFile(scoresFile)
		if err != nil {
			return failure(stderr, "mutnet", err)
		}
		scores = strings.Fields(string(sb))
	}
	res, err := p.Decode(e.ctx, scores)
	if err != nil {
		return failure(stderr, "mutnet", err)
	}
	if labelsOut != "" {
		var sb strings.Builder
		for _, y := range res.Labels {
			fmt.Fprintln(&sb, y)
		}
		if err := os.WriteFile(labelsOut, []byte(sb.String()), 0o644); err != nil {
			return failure(stderr, "mutnet", err)
		}
	}
	wrong := -1
	if labelsPath != "" {
		want, err := readLabelFile(labelsPath)
		if err != nil {
			return failure(stderr, "mutnet", err)
		}
		if len(want) != len(res.Labels) {
			return failure(stderr, "mutnet", fmt.Errorf("%s has %d labels, the plan %d", labelsPath, len(want), len(res.Labels)))
		}
		wrong = 0
		for i := range want {
			if want[i] != res.Labels[i] {
				wrong++
			}
		}
	}
	worst := 0.0
	for _, s := range res.Slack {
		worst = max(worst, s)
	}
	if asJSON {
		j := map[string]any{"n": p.N, "queries": res.Queries, "verified": res.Verified, "labels": res.Labels, "max_slack": worst}
		if wrong >= 0 {
			j["wrong"] = wrong
		}
		writeJSON(stdout, j)
	} else {
		fmt.Fprintf(stdout, "recovered %d labels from %d score(s), verified: every score within %.3g of its bound of the labeling's exact loss, the weights separated by twice the bound\n", p.N, res.Queries, worst)
		if wrong >= 0 {
			fmt.Fprintf(stdout, "against %s: %d of %d labels differ\n", filepath.Base(labelsPath), wrong, p.N)
		}
		if labelsOut == "" {
			var sb strings.Builder
			for _, y := range res.Labels {
				sb.WriteString(strconv.Itoa(y))
			}
			fmt.Fprintf(stdout, "labels: %s\n", sb.String())
		}
	}
	if wrong > 0 {
		return 1
	}
	return 0
}

// readFeatures reads a numeric CSV without header.
func readFeatures(path string) ([][]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows [][]float64
	for ln, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var r []float64
		for _, f := range strings.Split(line, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, ln+1, err)
			}
			r = append(r, v)
		}
		if len(rows) > 0 && len(r) != len(rows[0]) {
			return nil, fmt.Errorf("%s:%d: %d values, line 1 has %d", path, ln+1, len(r), len(rows[0]))
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no rows", path)
	}
	return rows, nil
}

// readLabelFile reads labels, one integer per line.
func readLabelFile(path string) ([]int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var y []int
	for i, f := range strings.Fields(string(b)) {
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%s: label %d: %v", path, i+1, err)
		}
		y = append(y, v)
	}
	return y, nil
}

// runInspect is labelinf inspect: the signatures a MUTNET augmentation
// leaves, in each model given. Exit status 3 when a model is flagged.
func runInspect(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet("inspect", stderr)
	features := fs.String("features", "", "the test features, a numeric CSV `FILE`: report test rows stored in the model")
	asJSON := fs.Bool("json", false, "print the reports as JSON")
	if !parseArgs(fs, args, stderr) {
		return 2
	}
	if fs.NArg() == 0 {
		return usageError(stderr, "inspect", errors.New("give one or more model.onnx files"))
	}
	var feats [][]float64
	if *features != "" {
		var err error
		if feats, err = readFeatures(*features); err != nil {
			return failure(stderr, "inspect", err)
		}
	}
	flagged := false
	type entry struct {
		Model string `json:"model"`
		*mutnet.Report
	}
	var all []entry
	for _, path := range fs.Args() {
		b, err := os.ReadFile(path)
		if err != nil {
			return failure(stderr, "inspect", err)
		}
		m, err := onnx.Unmarshal(b)
		if err != nil {
			return failure(stderr, "inspect", fmt.Errorf("%s: %w", path, err))
		}
		rep, err := mutnet.Inspect(m, feats)
		if err != nil {
			return failure(stderr, "inspect", fmt.Errorf("%s: %w", path, err))
		}
		flagged = flagged || rep.Flagged
		all = append(all, entry{path, rep})
		if !*asJSON {
			printInspect(stdout, path, rep)
		}
	}
	if *asJSON {
		writeJSON(stdout, all)
	}
	if flagged {
		return 3
	}
	return 0
}

func printInspect(w io.Writer, path string, rep *mutnet.Report) {
	verdict := "no signature found"
	if rep.Flagged {
		verdict = fmt.Sprintf("FLAGGED: %d signature(s) of a label-inference model", len(rep.Findings))
	}
	fmt.Fprintf(w, "%s: %d nodes, %d parameters: %s\n", path, rep.Nodes, rep.Params, verdict)
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "  %-22s %s: %s\n", f.Rule, f.Node, f.Detail)
	}
}
