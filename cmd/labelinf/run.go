package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"text/tabwriter"
	"time"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
)

const usage = `usage: labelinf demo [-json] [-seed S] [-n N] [-kn N] [-k K]
       labelinf fpa -format NAME|E,M [-round MODE] -op OP A [B [C]]
       labelinf plan -n N [-k K] [-scorer NAME] [-noise KIND -tau T -delta D] [-json]
       labelinf attack [-scorer NAME|cmd:PROGRAM [-assume NAME]] -n N [-k K] [-seed S]
                       [-strategy auto|blocks|primes|alg3] [-labels FILE] [-out FILE] [-json]
       labelinf blia [-data adult|wdbc|FILE] [-model logreg|mlp] [-epsilon LIST] [-seeds N] [-json]
       labelinf serve -config FILE | labelinf serve keys add|list|revoke -config FILE ...
run 'go doc ./cmd/labelinf' for the manual`

// run is the whole command; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "demo":
		return runDemo(args[1:], stdout, stderr)
	case "fpa":
		return runFPA(args[1:], stdout, stderr)
	case "plan":
		return runPlan(args[1:], stdout, stderr)
	case "attack":
		return runAttack(args[1:], stdout, stderr)
	case "blia":
		return runBLIA(args[1:], stdout, stderr)
	case "serve":
		return runServe(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "labelinf: unknown command %q\n%s\n", args[0], usage)
		return 2
	}
}

// demoRow is one line of the demo's output.
type demoRow struct {
	N             int     `json:"n"`
	K             int     `json:"k"`
	Queries       int     `json:"queries"`
	Bits          uint    `json:"bits"`
	Accuracy      float64 `json:"accuracy"`
	Verified      bool    `json:"verified"`
	Seconds       float64 `json:"seconds"`
	OracleSeconds float64 `json:"oracle_seconds"`
	AttackSeconds float64 `json:"attack_seconds"`
}

func runDemo(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	seed := fs.Uint64("seed", 1, "seed of the private labels")
	n := fs.Int("n", 25000, "labels in the binary case")
	kn := fs.Int("kn", 5000, "labels in the K-ary case (0 skips it)")
	k := fs.Int("k", 6, "classes in the K-ary case")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "labelinf demo: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *n < 1 || *n > decode.MaxN {
		fmt.Fprintf(stderr, "labelinf demo: -n %d outside [1, %d]\n", *n, decode.MaxN)
		return 2
	}
	if *kn < 0 || *kn > decode.MaxN {
		fmt.Fprintf(stderr, "labelinf demo: -kn %d outside [0, %d]\n", *kn, decode.MaxN)
		return 2
	}
	if *k < 2 || *k > 1<<16 {
		fmt.Fprintf(stderr, "labelinf demo: -k %d outside [2, 65536]\n", *k)
		return 2
	}
	type job struct{ n, k int }
	jobs := []job{{*n, 2}}
	if *kn > 0 {
		jobs = append(jobs, job{*kn, *k})
	}
	prog := newProgress(stderr, len(jobs))
	var rows []demoRow
	failed := false
	for i, j := range jobs {
		prog.step(i, fmt.Sprintf("N=%d K=%d", j.n, j.k))
		row, err := demoCase(j.n, j.k, *seed+uint64(i))
		if err != nil {
			prog.done()
			fmt.Fprintf(stderr, "labelinf demo: N=%d K=%d: %v\n", j.n, j.k, err)
			return 1
		}
		if row.Accuracy != 1 || !row.Verified {
			failed = true
		}
		rows = append(rows, row)
	}
	prog.done()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rows); err != nil {
			fmt.Fprintf(stderr, "labelinf demo: %v\n", err)
			return 1
		}
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "N\tK\tqueries\tbits\taccuracy\tverified\tseconds\toracle s\tattack s\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.4f\t%v\t%.3f\t%.3f\t%.3f\t\n", r.N, r.K, r.Queries, r.Bits, r.Accuracy, r.Verified, r.Seconds, r.OracleSeconds, r.AttackSeconds)
		}
		tw.Flush()
	}
	if failed {
		fmt.Fprintln(stderr, "labelinf demo: some labels were not recovered")
		return 1
	}
	return 0
}

// demoCase draws n seeded labels in [0, k), hides them in an exact oracle at
// the planned precision and runs the single-query attack.
func demoCase(n, k int, seed uint64) (demoRow, error) {
	r := rand.New(rand.NewPCG(seed, 0x6c6162656c696e66)) // "labelinf"
	labels := make([]int, n)
	for i := range labels {
		labels[i] = r.IntN(k)
	}
	start := time.Now()
	q, err := decode.NewSingleQuery(n, k)
	if err != nil {
		return demoRow{}, err
	}
	o, err := oracle.NewExact(labels, k, q.Prec())
	if err != nil {
		return demoRow{}, err
	}
	t0 := time.Now()
	score, err := o.Score(q.Prediction())
	if err != nil {
		return demoRow{}, err
	}
	t1 := time.Now()
	res, err := q.Decode(score, decode.Options{})
	t2 := time.Now()
	if err != nil {
		return demoRow{}, err
	}
	if len(res.Labels) != n {
		return demoRow{}, errors.New("decoded a labeling of the wrong length")
	}
	right := 0
	for i, y := range res.Labels {
		if y == labels[i] {
			right++
		}
	}
	return demoRow{
		N: n, K: k, Queries: o.Queries(), Bits: q.Prec(),
		Accuracy: float64(right) / float64(n), Verified: res.Verified,
		Seconds:       t2.Sub(start).Seconds(),
		OracleSeconds: t1.Sub(t0).Seconds(),
		AttackSeconds: t2.Sub(t1).Seconds(),
	}, nil
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
	filled := width * i / p.total
	bar := make([]byte, width)
	for j := range bar {
		bar[j] = '.'
		if j < filled {
			bar[j] = '#'
		}
	}
	fmt.Fprintf(p.w, "\r[%s] %d/%d %s   ", bar, i, p.total, what)
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
