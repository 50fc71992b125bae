package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/labelinf/labelinf/passive"
	"github.com/labelinf/labelinf/queue"
)

// censusRow is BLIA's CENSUS result without DP [BLIA, Table 2 and Table 4
// row "Infinity"], printed beside ours for comparison.
const censusRow = "BLIA Table 2 (CENSUS, ε = inf): train 84.72%, threshold 51.73%, delta-margin 51.15%"

func runBLIA(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet("blia", stderr)
	data := fs.String("data", "adult", "data set: adult, wdbc, titanic, banknote, haberman or a CSV `file` (label in the last column)")
	dir := fs.String("datadir", "", "read the built-in data sets' files from `dir` instead of the copies embedded in the binary")
	model := fs.String("model", "logreg", "model: logreg or mlp")
	epsFlag := fs.String("epsilon", "inf,4,2,1,0.8,0.5,0.3", "comma-separated privacy `budgets` (inf = no label DP)")
	seeds := fs.Int("seeds", 5, "repetitions with seeds S, S+1, …")
	seed := fs.Uint64("seed", 1, "first seed `S`")
	canaries := fs.Float64("canaries", 0.02, "fraction of training rows made canaries")
	train := fs.Float64("train", 0.8, "fraction of the training file trained on (the rest is held out)")
	alpha := fs.Float64("alpha", 1, "delta-margin weight α of the margin")
	beta := fs.Float64("beta", 1, "delta-margin weight β of the loss")
	hidden := fs.String("hidden", "64,32", "MLP hidden layer `widths`")
	epochs := fs.Int("epochs", 20, "MLP training epochs")
	batch := fs.Int("batch", 128, "MLP mini-batch size")
	lr := fs.Float64("lr", 1e-3, "MLP Adam step size")
	decay := fs.Float64("decay", 0, "MLP L2 weight penalty")
	lambda := fs.Float64("lambda", 1e-4, "logistic regression L2 penalty")
	workers := fs.Int("workers", 0, "models trained at once (default: the number of CPUs)")
	all := fs.Bool("all", false, "print every attack and the decoy control, not only the paper's two")
	asJSON := fs.Bool("json", false, "print the full report as JSON")
	var qf queueFlags
	qf.add(fs)
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	set := setFlags(fs)
	eps, err := passive.ParseEpsilons(*epsFlag)
	if err != nil {
		fmt.Fprintf(stderr, "labelinf blia: -epsilon: %v\n", err)
		return 2
	}
	var widths []int
	for _, f := range strings.Split(*hidden, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || w < 1 {
			fmt.Fprintf(stderr, "labelinf blia: -hidden %q: want comma-separated widths ≥ 1\n", *hidden)
			return 2
		}
		widths = append(widths, w)
	}
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"-seeds must be in [1, 1000]", *seeds >= 1 && *seeds <= 1000},
		{"-epochs must be ≥ 1", *epochs >= 1},
		{"-batch must be ≥ 1", *batch >= 1},
		{"-workers must be ≥ 0", *workers >= 0},
		{"-lr must be > 0", *lr > 0 && !math.IsInf(*lr, 0)},
		{"-lambda must be > 0", *lambda > 0 && !math.IsInf(*lambda, 0)},
		{"-alpha must be > 0", *alpha > 0 && !math.IsInf(*alpha, 0)},
		{"-beta must be > 0 (the paper's β; β = 0 would make delta-margin the fixed threshold)", *beta > 0 && !math.IsInf(*beta, 0)},
		{"-decay must be ≥ 0", *decay >= 0 && !math.IsInf(*decay, 0)},
		{"-canaries must be in (0, 1)", *canaries > 0 && *canaries < 1},
		{"-train must be in (0, 1]", *train > 0 && *train <= 1},
		{"-model must be logreg or mlp", *model == "logreg" || *model == "mlp"},
	} {
		if !c.ok {
			fmt.Fprintf(stderr, "labelinf blia: %s\n", c.name)
			return 2
		}
	}
	var err2 error
	if *model == "logreg" {
		err2 = rejectFlags(set, "to -model logreg (an MLP flag)", "hidden", "epochs", "batch", "lr", "decay")
	} else {
		err2 = rejectFlags(set, "to -model mlp (logistic regression's penalty; see -decay)", "lambda")
	}
	if err2 != nil {
		return usageError(stderr, "blia", err2)
	}
	if err := qf.check(fs); err != nil {
		return usageError(stderr, "blia", err)
	}
	d, err := passive.LoadDataset(*dir, *data)
	if err != nil {
		return failure(stderr, "blia", err)
	}
	prog := newProgress(stderr, 1)
	cfg := passive.Config{
		Model:    *model,
		LogReg:   passive.LogRegOptions{Lambda: *lambda},
		MLP:      passive.MLPOptions{Hidden: widths, Epochs: *epochs, Batch: *batch, LR: *lr, Decay: *decay},
		Epsilons: eps, Seeds: *seeds, FirstSeed: *seed, CanaryFrac: *canaries, TrainFrac: *train,
		Alpha: *alpha, Beta: *beta, Workers: *workers,
		Progress: func(done, total int) {
			prog.total = total
			prog.step(done, "training "+*model+" on "+d.Name)
		},
	}
	var rep *passive.Report
	if *qf.dsn != "" {
		rep, err = bliaQueue(e, d, cfg, &qf)
		if err == nil && rep == nil {
			return 0 // detached
		}
	} else {
		rep, err = passive.RunExperiment(e.ctx, d, cfg)
		prog.done()
	}
	if err != nil {
		fmt.Fprintf(stderr, "labelinf blia: %v\n", err)
		return 1
	}
	if *asJSON {
		writeJSON(stdout, rep)
		return 0
	}
	printBLIA(stdout, rep, &cfg, *all)
	return 0
}

// printBLIA prints the report as two tables: the paper's (accuracies and
// success ratios, mean ± sd over seeds) and the tests (pooled over seeds).
func printBLIA(w io.Writer, rep *passive.Report, cfg *passive.Config, all bool) {
	run := rep.Epsilons[0].Runs[0]
	arch := "L2 logistic regression"
	if rep.Model == "mlp" {
		arch = fmt.Sprintf("MLP %v, %d epochs", cfg.MLP.Hidden, cfg.MLP.Epochs)
	}
	fmt.Fprintf(w, "BLIA on %s: %d training rows, %d canaries, %d features; %s; %d seed(s), %.1f s\n\n",
		rep.Dataset, run.TrainRows, run.Canaries, rep.Features, arch, rep.Seeds, rep.Seconds)
	pct := func(s passive.Stat) string {
		if rep.Seeds == 1 {
			return fmt.Sprintf("%.2f", 100*s.Mean)
		}
		return fmt.Sprintf("%.2f ± %.2f", 100*s.Mean, 100*s.SD)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	testName := "test acc"
	if run.TestRows == 0 {
		testName = "(no test rows)"
	}
	fmt.Fprintf(tw, "ε\ttrain acc %%\t%s %%\tthreshold %%\tdelta-margin %%\t\n", testName)
	for _, e := range rep.Epsilons {
		test := pct(e.TestAcc)
		if run.TestRows == 0 {
			test = "—"
		}
		fmt.Fprintf(tw, "%v\t%s\t%s\t%s\t%s\t\n", e.Epsilon, pct(e.TrainAcc), test, pct(e.Rates[0]), pct(e.Rates[1]))
	}
	tw.Flush()
	if rep.Dataset == "adult" {
		fmt.Fprintf(w, "(%s)\n", censusRow)
	}
	fmt.Fprintf(w, "\nPooled over seeds: success ratio, 95%% Clopper–Pearson CI, one-sided p-values against ½ and against the\n")
	fmt.Fprintf(w, "no-memorization null given the model's outputs; memorization is claimed only at p(null) < %g.\n\n", passive.Alpha)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "ε\tattack\trate %%\t95%% CI\tDP bound %%\tp(½)\tnull rate %%\tp(null)\tmemorization\t\n")
	show := func(e *passive.EpsilonReport, name string, o passive.Outcome) {
		verdict := "no"
		if o.Detected {
			verdict = "DETECTED"
		}
		fmt.Fprintf(tw, "%v\t%s\t%.2f\t[%.2f, %.2f]\t%.2f\t%s\t%.2f\t%s\t%s\t\n", e.Epsilon, name, 100*o.Rate, 100*o.CI[0], 100*o.CI[1],
			100*e.Keep, pval(o.PHalf), 100*o.NullRate, pval(o.PCond), verdict)
	}
	for i := range rep.Epsilons {
		e := &rep.Epsilons[i]
		for a, name := range rep.Attacks {
			if a >= 2 && !all {
				break
			}
			show(e, name, e.Pooled[a])
		}
		if all {
			for a, name := range rep.Attacks {
				show(e, name+" on decoys", e.PooledDecoys[a])
			}
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "\ndelta-margin reads each canary's log-loss against its training label, so it beats ½ without any\n")
	fmt.Fprintf(w, "memorization (null rate); p(½) overstates it, p(null) does not. No attack can beat the DP bound\n")
	fmt.Fprintf(w, "e^ε/(1+e^ε) in expectation. Every attack and the decoy control: -all; the full report: -json.\n")
}

// pval formats a p-value compactly.
func pval(p float64) string {
	switch {
	case p < 1e-300:
		return "<1e-300"
	case p < 1e-3:
		return fmt.Sprintf("%.1e", p)
	default:
		return fmt.Sprintf("%.3f", p)
	}
}

// bliaQueue runs the experiment's units, one model per (seed, ε), on the
// work queue and assembles its report (nil when detached).
func bliaQueue(e *env, d *passive.Dataset, cfg passive.Config, qf *queueFlags) (*passive.Report, error) {
	w, err := cfg.Wire()
	if err != nil {
		return nil, err
	}
	bi := queue.BLIAInput{Config: w, Dataset: d}
	in, err := queue.MarshalBLIA(bi)
	if err != nil {
		return nil, err
	}
	var names []string
	for s := range w.Seeds {
		for _, eps := range w.Epsilons {
			names = append(names, fmt.Sprintf("seed %d, ε %v", w.FirstSeed+uint64(s), eps))
		}
	}
	t0 := time.Now()
	out, err := queueRun(e, "blia", queue.KindBLIA, in, names, qf, false)
	if err != nil || out == nil {
		return nil, err
	}
	return queue.BLIAReport(bi, out, time.Since(t0).Seconds())
}
