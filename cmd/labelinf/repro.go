package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/labelinf/labelinf/queue"
	"github.com/labelinf/labelinf/repro"
)

// runRepro is labelinf repro: it regenerates the papers' tables and
// figures beside ours (package repro) and writes DIR/REPRO.md.
func runRepro(e *env, args []string) int {
	stdout, stderr := e.stdout, e.stderr
	fs := newFlagSet("repro", stderr)
	all := fs.Bool("all", false, "run every item")
	quick := fs.Bool("quick", false, "run the expensive items on a smaller case (the cheap ones whole)")
	out := fs.String("out", "", "write REPRO.md, the tables, CSVs and plots under `DIR` (default: a new directory labelinf-repro-* in the temporary directory; -out docs/repro regenerates the committed ones)")
	var qf queueFlags
	qf.add(fs)
	if !parseArgs(fs, args, stderr) {
		return 2
	}
	names := fs.Args()
	for _, n := range names {
		if strings.HasPrefix(n, "-") {
			return usageError(stderr, "repro", fmt.Errorf("flag %s after an item name: put the flags first", n))
		}
		if _, err := repro.Lookup(n); err != nil {
			return usageError(stderr, "repro", errors.New(strings.TrimPrefix(err.Error(), "repro: ")))
		}
	}
	switch {
	case *all && len(names) > 0:
		return usageError(stderr, "repro", fmt.Errorf("-all with item names %s: give one or the other", strings.Join(names, " ")))
	case !*all && len(names) == 0:
		return usageError(stderr, "repro", fmt.Errorf("no item: name items or give -all (items: %s)", itemNames()))
	case setFlags(fs)["out"] && *out == "":
		return usageError(stderr, "repro", fmt.Errorf("-out: need a directory"))
	}
	if err := qf.check(fs); err != nil {
		return usageError(stderr, "repro", err)
	}
	fresh := *out == ""
	if fresh {
		// A fresh directory: a run never rewrites a checkout's files
		// unless told to with -out.
		d, err := os.MkdirTemp("", "labelinf-repro-")
		if err != nil {
			return failure(stderr, "repro", err)
		}
		*out = d
	}
	if *qf.dsn != "" {
		return reproQueue(e, *out, names, *quick, &qf)
	}
	c := &repro.Config{Out: *out, Quick: *quick, Commit: gitCommit()}
	if isTerminal(stderr) {
		c.Progress = func(item, msg string) { fmt.Fprintf(stderr, "\r\033[Krepro %s: %s", item, msg) }
	}
	res, err := repro.Run(e.ctx, c, names)
	if c.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "item\tstatus\tseconds\n")
	for _, r := range res {
		q := ""
		if r.Quick {
			q = " (quick case)"
		}
		fmt.Fprintf(tw, "%s\t%s%s\t%.1f s\n", r.Item.Name, r.Status, q, r.Elapsed.Seconds())
	}
	tw.Flush()
	if err != nil {
		return failure(stderr, "repro", err)
	}
	if fresh {
		fmt.Fprintf(stdout, "ran %d items; wrote %s\n", len(res), filepath.Join(*out, "REPRO.md"))
		return 0
	}
	fmt.Fprintf(stdout, "ran %d items; wrote REPRO.md (keeping the sections of other items found there)\n", len(res))
	return 0
}

// reproQueue runs the items on the work queue, one cell each, and
// writes their files and REPRO.md into out.
func reproQueue(e *env, out string, names []string, quick bool, qf *queueFlags) int {
	if len(names) == 0 {
		for _, it := range repro.Items() {
			names = append(names, it.Name)
		}
	}
	ri := queue.ReproInput{Items: names, Quick: quick, Commit: gitCommit()}
	in, err := json.Marshal(ri)
	if err != nil {
		return failure(e.stderr, "repro", err)
	}
	res, err := queueRun(e, "repro", queue.KindRepro, in, names, qf, false)
	if err != nil {
		return failure(e.stderr, "repro", err)
	}
	if res == nil {
		return 0 // detached
	}
	failed, err := queue.WriteRepro(out, ri, res)
	if err != nil {
		return failure(e.stderr, "repro", err)
	}
	fmt.Fprintf(e.stdout, "ran %d items on the queue; wrote %s\n", len(names)-len(failed), filepath.Join(out, "REPRO.md"))
	if len(failed) > 0 {
		return failure(e.stderr, "repro", fmt.Errorf("%d items failed on the queue after their attempts: %s", len(failed), strings.Join(failed, "; ")))
	}
	return 0
}

func init() {
	helpExtra["repro"] = func() string {
		var b strings.Builder
		b.WriteString("Items:\n")
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		for _, it := range repro.Items() {
			fmt.Fprintf(tw, "  %s\t%s\n", it.Name, it.Title)
		}
		tw.Flush()
		return b.String()
	}
}

func itemNames() string {
	var s []string
	for _, it := range repro.Items() {
		s = append(s, it.Name)
	}
	return strings.Join(s, ", ")
}

// gitCommit names the commit of the working directory ("unknown" outside
// a git checkout), with "+dirty" if it has uncommitted changes.
func gitCommit() string {
	b, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown (not a git checkout)"
	}
	c := strings.TrimSpace(string(b))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += "+dirty"
	}
	return c
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
