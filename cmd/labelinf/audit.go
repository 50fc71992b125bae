package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/labelinf/labelinf/audit"
	"github.com/labelinf/labelinf/platform"
)

// selfEnv is added to the environment of a labelinf process this one
// starts (the test binary sets what makes it labelinf; see TestMain).
var selfEnv []string

// runAudit is labelinf audit: every defence of a grid against every
// attack that applies, and what each costs honest users (package audit).
func runAudit(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet("audit", stderr)
	config := fs.String("config", "", "competition config `FILE`: the audit's (.json, .yaml or .yml) or labelinf serve's config file as it is (this or -bundle is required)")
	competition := fs.String("competition", "", "the competition `ID` to audit when -config is serve's config file holding several")
	var bo bundleFlags
	bo.add(fs)
	asJSON := fs.Bool("json", false, "print the report as JSON instead of the table")
	out := fs.String("out", "", "write report.json, table.txt, plot.png and plot.svg into `DIR`")
	inprocess := fs.Bool("inprocess", false, "attack an in-process simulation of each cell instead of labelinf serve over loopback HTTP (faster; the same report)")
	honest := fs.String("honest", "", "honest teams: a `DIR` of team directories, each team's prediction files in name order, or of prediction files, one team each (overrides the config's honest)")
	workers := fs.Int("workers", 0, "cells audited at once (`W` ≥ 1; default: over loopback HTTP twice the cores, at least 2, as cells wait on their servers' fsyncs; with -inprocess 2; the report does not depend on it)")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	var qf queueFlags
	qf.add(fs)
	docs := fs.String("docs", "", "regenerate the documented audits (all, or the NAMEs given as arguments: imdb25k, small198, adult16k, accuracy1k) in the repository at `ROOT` (in process, no -config): docs/audit/NAME.json, .png, .svg and the tables of README.md and docs/AUDIT.md")
	if !parseArgs(fs, args, stderr) {
		return 2
	}
	if fs.NArg() > 0 && *docs == "" {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2
	}
	usage := func(format string, a ...any) int {
		return usageError(stderr, "audit", fmt.Errorf(format, a...))
	}
	if err := qf.check(fs); err != nil {
		return usage("%v", err)
	}
	switch {
	case *docs != "" && (*config != "" || *competition != "" || bo.set() || *honest != "" || *out != "" || *asJSON):
		return usage("-docs takes no -config, -competition, -bundle, -honest, -out or -json: it runs the documented audits")
	case *docs != "":
		if *workers == 0 {
			*workers = 2
		}
		var progress io.Writer
		if !*quiet {
			progress = stderr
		}
		if err := regenerateDocs(e.ctx, *docs, fs.Args(), *workers, progress); err != nil {
			return failure(stderr, "audit", err)
		}
		return 0
	case *config == "" && !bo.set():
		return usage("-config or -bundle is required")
	case *config != "" && bo.set():
		return usage("-config and -bundle (or -platform kaggle) exclude each other")
	case *competition != "" && bo.set():
		return usage("-competition applies to -config, not -bundle")
	case *workers < 0 || (*workers == 0 && setFlags(fs)["workers"]):
		return usage("-workers %d: need ≥ 1", *workers)
	}
	var (
		cfg *audit.Config
		err error
	)
	if bo.set() {
		var b *platform.Bundle
		var cleanup func()
		cfg, b, cleanup, err = bo.config()
		if err != nil {
			return usage("%v", err)
		}
		defer cleanup()
		w := io.Writer(stdout)
		if *asJSON {
			w = stderr
		}
		writeBundleSettings(w, b)
	} else if cfg, err = audit.LoadConfigFor(*config, *competition); err != nil {
		return usage("%v", err)
	}
	if *honest != "" {
		cfg.Honest, err = filepath.Abs(*honest)
		if err != nil {
			return usage("-honest: %v", err)
		}
	}
	if *qf.dsn != "" {
		rep, code, err := auditQueue(e, cfg, &qf, *quiet)
		if err != nil {
			return failure(stderr, "audit", err)
		}
		if rep == nil {
			return code
		}
		if code := writeAuditReport(e, rep, *out, *asJSON); code != 0 {
			return code
		}
		if n := failedCells(rep); n > 0 {
			return failure(stderr, "audit", fmt.Errorf("%d cells failed on the queue after their attempts (their errors are in the report)", n))
		}
		return 0
	}
	if *workers == 0 {
		*workers = 2
		if !*inprocess {
			// A loopback cell waits on its server (each submission's
			// commit is fsynced before the answer): more cells than cores
			// keep the cores busy meanwhile.
			*workers = max(2, 2*runtime.GOMAXPROCS(0))
		}
	}
	o := audit.Options{Target: audit.InProcess, Workers: *workers}
	if !*inprocess {
		// Each target is this executable running labelinf serve.
		exe, err := os.Executable()
		if err != nil {
			return failure(stderr, "audit", fmt.Errorf("finding labelinf's executable for labelinf serve: %w", err))
		}
		o.Target = audit.Loopback(audit.LoopbackOptions{Command: []string{exe}, Env: selfEnv})
	}
	if !*quiet {
		o.Progress = stderr
	}
	rep, err := audit.Run(e.ctx, cfg, o)
	if err != nil {
		var ce *audit.ConfigError
		if errors.As(err, &ce) {
			return usage("%v", err)
		}
		return failure(stderr, "audit", err)
	}
	return writeAuditReport(e, rep, *out, *asJSON)
}

// writeAuditReport writes rep's files into out (if set) and prints it.
func writeAuditReport(e *env, rep *audit.Report, out string, asJSON bool) int {
	if out != "" {
		if err := writeAuditFiles(out, rep); err != nil {
			return failure(e.stderr, "audit", err)
		}
	}
	var err error
	if asJSON {
		err = rep.WriteJSON(e.stdout)
	} else {
		err = rep.WriteTable(e.stdout)
	}
	if err != nil {
		return failure(e.stderr, "audit", err)
	}
	return 0
}

// writeAuditFiles writes the report's files into dir.
func writeAuditFiles(dir string, rep *audit.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name  string
		write func(*os.File) error
	}{
		{"report.json", func(f *os.File) error { return rep.WriteJSON(f) }},
		{"table.txt", func(f *os.File) error { return rep.WriteTable(f) }},
	} {
		fh, err := os.Create(filepath.Join(dir, f.name))
		if err != nil {
			return err
		}
		werr := f.write(fh)
		if err := fh.Close(); werr == nil {
			werr = err
		}
		if werr != nil {
			return werr
		}
	}
	for _, name := range []string{"plot.png", "plot.svg"} {
		if err := rep.SavePlot(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return nil
}

// documentedAudit is one audit the documents show.
type documentedAudit struct {
	name, config string
	readme       bool
}

// documentedAudits are the audits docs/AUDIT.md (and README.md where
// readme is set) show, each a config of the repository and the name of
// its files (docs/audit/NAME.*) and document sections.
var documentedAudits = []documentedAudit{
	{"imdb25k", "audit/testdata/imdb25k.json", true},
	{"small198", "audit/testdata/small198.yaml", true},
	{"adult16k", "audit/testdata/adult16k.json", false},
	{"accuracy1k", "audit/testdata/accuracy1k.json", false},
}

// regenerateDocs runs the documented audits in process and writes their
// files and tables into the repository at root.
func regenerateDocs(ctx context.Context, root string, names []string, workers int, progress io.Writer) error {
	for _, name := range names {
		if !slices.ContainsFunc(documentedAudits, func(d documentedAudit) bool { return d.name == name }) {
			return fmt.Errorf("-docs: no documented audit %q", name)
		}
	}
	for _, d := range documentedAudits {
		if len(names) > 0 && !slices.Contains(names, d.name) {
			continue
		}
		cfg, err := audit.LoadConfig(filepath.Join(root, d.config))
		if err != nil {
			return err
		}
		rep, err := audit.Run(ctx, cfg, audit.Options{Target: audit.InProcess, Workers: workers, Progress: progress})
		if err != nil {
			return err
		}
		if err := writeDocs(root, d.name, d.readme, rep); err != nil {
			return err
		}
	}
	return nil
}

// writeDocs writes one documented audit's report: docs/audit/NAME.json,
// .png, .svg, README.md's section NAME (Markdown) and docs/AUDIT.md's
// (the text table).
func writeDocs(root, name string, readme bool, rep *audit.Report) error {
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		return err
	}
	dir := filepath.Join(root, "docs", "audit")
	if err := os.WriteFile(filepath.Join(dir, name+".json"), js.Bytes(), 0o644); err != nil {
		return err
	}
	for _, ext := range []string{".png", ".svg"} {
		if err := rep.SavePlot(filepath.Join(dir, name+ext)); err != nil {
			return err
		}
	}
	md, table, err := docSections(rep)
	if err != nil {
		return err
	}
	files := []struct {
		path    string
		content []byte
	}{{filepath.Join(root, "docs", "AUDIT.md"), table}}
	if readme {
		files = append(files, struct {
			path    string
			content []byte
		}{filepath.Join(root, "README.md"), md})
	}
	for _, f := range files {
		doc, err := os.ReadFile(f.path)
		if err != nil {
			return err
		}
		doc, err = audit.Splice(doc, name, f.content)
		if err != nil {
			return fmt.Errorf("%s: %w", f.path, err)
		}
		if err := os.WriteFile(f.path, doc, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// docSections returns README's Markdown table and docs/AUDIT.md's text
// table of a report.
func docSections(rep *audit.Report) (md, table []byte, err error) {
	var b bytes.Buffer
	if err := rep.WriteMarkdown(&b); err != nil {
		return nil, nil, err
	}
	table, err = rep.TableBlock()
	return b.Bytes(), table, err
}
