package main

// This file holds labelinf sweep: an attack against the benchmark
// labelings, per scorer (catalog.Sweep), in process or on the work queue.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/queue"
)

// scorerList is a repeatable -scorer flag.
type scorerList []string

func (l *scorerList) String() string { return strings.Join(*l, " ") }

func (l *scorerList) Set(s string) error {
	if s == "" {
		return errors.New("empty scorer")
	}
	*l = append(*l, s)
	return nil
}

// runSweep is labelinf sweep.
func runSweep(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet("sweep", stderr)
	var scorers scorerList
	fs.Var(&scorers, "scorer", "a simulated scorer's model `NAME` (labelinf help scorers); repeat for several (default float64-sklearn)")
	n := fs.Int("n", 2000, "labels `N` of each labeling")
	k := fs.Int("k", 2, "classes `K`")
	strategy := fs.String("strategy", catalog.AutoName, "the `attack` (labelinf help attacks; auto: its pick per scorer, as labelinf attack runs it)")
	seeds := fs.Int("seeds", 20, "seeded labelings 1 to `S` (as labelinf attack -seed draws them), beside all 0, all K−1 and i mod K")
	check := fs.Bool("check", false, "spend one more query per run verifying every label at once")
	cpu := fs.Bool("cpu", true, "report the attacker's CPU seconds (the one part of the report that differs between two runs)")
	asJSON := fs.Bool("json", false, "print the report as JSON: the configuration, a row per scorer and every run")
	var qf queueFlags
	qf.add(fs)
	if !parseFlags(fs, args, stderr) {
		return 2
	}
	if len(scorers) == 0 {
		scorers = scorerList{"float64-sklearn"}
	}
	sw := &catalog.Sweep{Scorers: scorers, N: *n, K: *k, Strategy: *strategy, Seeds: *seeds, Check: *check}
	if err := sw.Validate(); err != nil {
		return usageError(stderr, "sweep", errors.New(strings.TrimPrefix(err.Error(), "catalog: sweep: ")))
	}
	if err := qf.check(fs); err != nil {
		return usageError(stderr, "sweep", err)
	}
	cells := sw.Cells()
	runs := make([]catalog.SweepRun, len(cells))
	if *qf.dsn != "" {
		in, err := json.Marshal(sw)
		if err != nil {
			return failure(stderr, "sweep", err)
		}
		names := make([]string, len(cells))
		for i, c := range cells {
			names[i] = c.Scorer + "/" + c.Labeling
		}
		out, err := queueRun(e, "sweep", queue.KindSweep, in, names, &qf, false)
		if err != nil {
			return failure(stderr, "sweep", err)
		}
		if out == nil {
			return 0 // detached
		}
		if runs, err = queue.SweepRuns(sw, out); err != nil {
			return failure(stderr, "sweep", err)
		}
	} else {
		bar := newProgress(stderr, len(cells))
		for i := range cells {
			r, err := sw.RunCell(e.ctx, i)
			if err != nil {
				bar.done()
				return failure(stderr, "sweep", err)
			}
			runs[i] = r
			bar.step(i+1, "runs")
		}
		bar.done()
	}
	rep, err := sw.Report(runs, *cpu)
	if err != nil {
		return failure(stderr, "sweep", err)
	}
	if *asJSON {
		if err := writeJSON(stdout, rep); err != nil {
			return failure(stderr, "sweep", err)
		}
	} else {
		printSweep(stdout, rep, *cpu)
	}
	bad := 0
	for _, r := range rep.Runs {
		if !r.Verified {
			bad++
		}
	}
	if bad > 0 {
		return failure(stderr, "sweep", fmt.Errorf("%d of %d runs did not recover every label verified", bad, len(rep.Runs)))
	}
	return 0
}

// printSweep prints a sweep's report as a Markdown table (BENCHMARKS.md's
// query tables), then the runs that did not verify.
func printSweep(w io.Writer, rep *catalog.SweepReport, cpu bool) {
	fmt.Fprintf(w, "N = %d, K = %d, -strategy %s, %d labelings each (seeds 1–%d, all 0, all K−1, i mod K)\n\n",
		rep.N, rep.K, rep.Strategy, len(catalog.BenchLabelingNames(rep.Seeds)), rep.Seeds)
	head, rule := "| scorer | attack | verified | queries: max (mean, min) |", "|---|---|---|---|"
	if cpu {
		head, rule = head+" attacker CPU median / max |", rule+"---|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, rule)
	for _, r := range rep.Rows {
		q := "–"
		if r.Verified > 0 {
			q = fmt.Sprintf("%s (%s, %s)", commas(r.MaxQueries), strings.TrimSuffix(fmt.Sprintf("%.1f", r.MeanQueries), ".0"), commas(r.MinQueries))
		}
		fmt.Fprintf(w, "| %s | %s | %d/%d | %s |", r.Scorer, orNone(strings.Join(r.Attacks, ", ")), r.Verified, r.Runs, q)
		if cpu {
			if r.CPUMedian != nil {
				fmt.Fprintf(w, " %.2f / %.2f s |", *r.CPUMedian, *r.CPUMax)
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		fmt.Fprintln(w)
	}
	for _, r := range rep.Runs {
		if !r.Verified {
			fmt.Fprintf(w, "not verified: %s on %s after %d queries: %s\n", r.Scorer, r.Labeling, r.Queries, orNone(r.Error))
		}
	}
}
