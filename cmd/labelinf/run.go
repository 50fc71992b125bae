package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// usage is the short usage, the "Usage:" block of the manual (main.go's
// package doc); TestUsageMatchesManual keeps the two equal.
const usage = `usage: labelinf demo [-json] [-seed S] [-n N] [-kn N] [-k K] [-memlimit MiB]
       labelinf fpa -format NAME|E,M [-round MODE] -op OP [-acc] A [B [C]]
       labelinf plan [-n N] [-k K] [-scorer NAME|cmd:PROGRAM|URL [-assume NAME]] [-noise KIND -tau T -delta D] [-check]
                     [-dry-run-max M] [-json]
       labelinf attack [-scorer NAME|cmd:PROGRAM|URL [-assume NAME|auto]] [-n N] [-k K] [-seed S]
                       [-strategy ATTACK] [-noise KIND -tau T -delta D]
                       [-labels FILE] [-out FILE] [-partial-out FILE] [-check] [-no-emulate]
                       [-allow-partial] [-timeout D] [-api-key-file FILE] [-json]
       labelinf attack -scorer accuracy|roc-auc|brier[,dec=D|none] [-strategy auto|flip|group|family|walk|swap|rank] [-n N] [-k K]
                       [-seed S] [-labels FILE] [-noise KIND -tau T] [-out FILE] [-partial-out FILE] [-check] [-json]
       labelinf attack -scorer apa|apa:BITS -strategy robust-single -noise bounded|gaussian|laplace -tau T
                       [-delta D] [-n N] [-k K] [-seed S] [-encoding logit|logprob|prob]
                       [-weights powers|conway-guy] [-margin D] [-labels FILE] [-out FILE] [-json]
       labelinf attack -scorer apa|apa:BITS -strategy exact|prime-log|loss-family|mutnet [-noise KIND -tau T]
                       [-n N] [-k K] [-seed S] [-labels FILE] [-out FILE] [-json]
       labelinf blia [-data adult|wdbc|titanic|banknote|haberman|FILE] [-model logreg|mlp] [-epsilon LIST] [-seeds N]
                     [-seed S] [-canaries F] [-train F] [-alpha A] [-beta B] [-hidden W,W]
                     [-epochs E] [-batch B] [-lr R] [-decay D] [-lambda L] [-workers W]
                     [-datadir DIR] [-all] [-json] [-queue DSN [-detach] [-collect] [-cell-timeout D] [-attempts N]]
       labelinf sweep [-scorer NAME]... [-n N] [-k K] [-strategy ATTACK] [-seeds S] [-check] [-cpu=false] [-json]
                      [-queue DSN [-detach] [-collect] [-cell-timeout D] [-attempts N]]
       labelinf fingerprint [-scorer NAME|cmd:PROGRAM] [-n N] [-k K] [-seed S] [-labels FILE] [-timeout D] [-json]
       labelinf bits -loss NAME -n N [-k K] [-tau T] [-observe-max M] [-json]
       labelinf repro [-all] [-quick] [-out DIR] [-queue DSN [-detach] [-collect] [-cell-timeout D] [-attempts N]] [NAME...]
       labelinf audit -config FILE [-competition ID] [-inprocess] [-json] [-out DIR] [-honest DIR] [-workers W] [-quiet]
       labelinf audit -config FILE|-bundle PATH ... -queue DSN [-detach] [-collect] [-cell-timeout D] [-attempts N]
       labelinf audit -docs ROOT
       labelinf audit -bundle PATH [-platform kaggle] [-phase NAME] [-labels FILE] [-column NAME] [-metric NAME]
                      [-decimals D] [-daily-limit N] [-public-fraction F] [-inprocess] [-json] [-out DIR] [-quiet]
       labelinf worker -queue DSN [-concurrency K] [-rescue-after D] [-id NAME] [-grace D] [-quiet]
       labelinf queue -queue DSN [-grant ROLE]
       labelinf score -platform codabench|evalai|huggingface -metric NAME -key KEY -secret-file FILE
                      [-defence FILE] [-ref PATH] [-res PATH] [-out DIR] [-split CODENAME] [-column NAME]
       labelinf mutnet [-form theorem9|rows|split|hash|position] [-features FILE | -n N -dim D] [-base MODEL.onnx]
                       [-dtype float64|float32] [-block M] [-tau T] [-sigmoid-ulps U] [-seed S] -out MODEL.onnx [-plan FILE] [-json]
       labelinf mutnet -decode -plan FILE [-score S[,S...] | -scores FILE] [-labels FILE] [-labels-out FILE] [-json]
       labelinf inspect [-features FILE] [-json] MODEL.onnx...
       labelinf serve -config FILE [-listen ADDR] [-addr-file FILE] [-lock-wait D]
       labelinf serve keys add -config FILE -name TEAM | keys list -config FILE | keys revoke -config FILE ID
       labelinf version
       labelinf help [TOPIC|all]
run 'labelinf help' for the manual, 'labelinf COMMAND -h' for a command's flags`

// env is what a subcommand runs in: its context (cancelled by SIGINT or
// SIGTERM), its output streams and its clock.
type env struct {
	ctx    context.Context
	stdout *errWriter
	stderr io.Writer
	now    func() time.Time
}

// since returns the seconds elapsed since t0 on e's clock.
func (e *env) since(t0 time.Time) float64 { return e.now().Sub(t0).Seconds() }

// command is one subcommand: its name and the function that runs it on
// the arguments after the name and returns the exit status.
type command struct {
	name string
	run  func(e *env, args []string) int
	// signalEnds marks a command that a signal ends normally (serve
	// drains and exits 0); for the others a signal is an interruption
	// (exit 1).
	signalEnds bool
}

var commands = []command{
	{name: "demo", run: runDemo},
	{name: "fpa", run: runFPA},
	{name: "plan", run: runPlan},
	{name: "attack", run: runAttack},
	{name: "sweep", run: runSweep},
	{name: "fingerprint", run: runFingerprint},
	{name: "blia", run: runBLIA},
	{name: "bits", run: runBits},
	{name: "repro", run: runRepro},
	{name: "audit", run: runAudit},
	{name: "worker", run: runWorker, signalEnds: true},
	{name: "queue", run: runQueue},
	{name: "score", run: runScore},
	{name: "mutnet", run: runMutnet},
	{name: "inspect", run: runInspect},
	{name: "serve", run: runServe, signalEnds: true},
	{name: "version", run: runVersion},
	{name: "help", run: runHelp},
}

// run is the whole command without signal handling (for tests); it
// returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr, time.Now)
}

// runContext runs the subcommand named by args[0] in ctx. Exit status: 0
// on success, 1 on failure (a write error on stdout included), 2 on a
// usage error.
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer, now func() time.Time) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		args = []string{"help"}
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		e := &env{ctx: ctx, stdout: &errWriter{w: stdout}, stderr: stderr, now: now}
		code := c.run(e, args[1:])
		if e.stdout.err != nil {
			fmt.Fprintf(stderr, "labelinf %s: writing output: %v\n", c.name, e.stdout.err)
			return max(code, 1)
		}
		if code == 0 && ctx.Err() != nil && !c.signalEnds {
			code = 1
		}
		return code
	}
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	fmt.Fprintf(stderr, "labelinf: unknown command %q%s\nRun 'labelinf help' for the commands.\n", args[0], didYouMean(args[0], names))
	return 2
}

// errWriter keeps the first write error; later writes are dropped, so
// that output code can print freely and the caller checks once.
type errWriter struct {
	w   io.Writer
	err error
}

func (w *errWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	w.err = err
	return n, err
}

// newFlagSet returns a flag set for subcommand name that reports its
// errors to stderr and returns them instead of exiting. Its -h prints the
// command's usage and flags (parseArgs).
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("labelinf "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // parseArgs prints the help or the error's context
	lastFlagSets.Store(name, fs)
	return fs
}

// parseFlags parses args into fs and rejects operands. It returns false
// after reporting a usage error (exit status 2); -h is a usage request
// and also returns false.
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer) bool {
	if !parseArgs(fs, args, stderr) {
		return false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return false
	}
	return true
}

// setFlags returns the names of the flags set on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// rejectFlags returns an error naming the first flag of names that was set
// on the command line, which does not apply because of why.
func rejectFlags(set map[string]bool, why string, names ...string) error {
	for _, n := range names {
		if set[n] {
			return fmt.Errorf("-%s does not apply %s", n, why)
		}
	}
	return nil
}

// usageError reports err for subcommand name and returns exit status 2.
// An error about one of the command's flags ("-n 0 outside …") is
// followed by what the flag is and whether it was given.
func usageError(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "labelinf %s: %s\n", name, plainError(err))
	if x := explainFlag(name, err.Error()); x != "" {
		fmt.Fprintln(stderr, x)
	}
	return 2
}

// failure reports err for subcommand name and returns exit status 1.
func failure(stderr io.Writer, name string, err error) int {
	fmt.Fprintf(stderr, "labelinf %s: %s\n", name, plainError(err))
	return 1
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// await runs f on a goroutine and waits for it or for ctx's end, whichever
// comes first; it returns ctx's error in the latter case. It is for
// library calls that take no context: on a signal the command returns at
// once (its deferred clean-up, such as killing an external scorer, runs)
// and the process exits, abandoning f.
func await(ctx context.Context, f func()) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("interrupted (%w)", context.Cause(ctx))
	}
}

// progress draws a one-line progress bar on a terminal and nothing
// otherwise.
type progress struct {
	w     io.Writer
	total int
	on    bool
}

func newProgress(w io.Writer, total int) *progress {
	on := false
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			on = true
		}
	}
	return &progress{w: w, total: total, on: on}
}

func (p *progress) step(i int, what string) {
	if !p.on {
		return
	}
	const width = 20
	filled := 0
	if p.total > 0 {
		filled = width * min(i, p.total) / p.total
	}
	bar := strings.Repeat("#", filled) + strings.Repeat(".", width-filled)
	fmt.Fprintf(p.w, "\r[%s] %d/%d %s   ", bar, i, p.total, what)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
