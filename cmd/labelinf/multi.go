package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
)

// scorerFlags are the flags plan and attack share.
type scorerFlags struct {
	n, k          *int
	scorer        *string
	assume        *string
	noise         *string
	tau, delta    *float64
	asJSON, check *bool
}

func addScorerFlags(fs *flag.FlagSet) *scorerFlags {
	return &scorerFlags{
		n:      fs.Int("n", 0, "number of labels"),
		k:      fs.Int("k", 2, "number of classes"),
		scorer: fs.String("scorer", oracle.Float64Sklearn, "scorer: "+strings.Join(oracle.ModelNames, ", ")+", or cmd:PROGRAM"),
		assume: fs.String("assume", "", "the scorer model to plan for (required with cmd:PROGRAM)"),
		noise:  fs.String("noise", "none", "noise on each score: none, bounded, gaussian, laplace, multiplicative"),
		tau:    fs.Float64("tau", 0, "noise scale: bounded half-width, Gaussian σ, Laplace b, multiplicative ε"),
		delta:  fs.Float64("delta", 1e-6, "Gaussian and Laplace noise: overall failure probability"),
		asJSON: fs.Bool("json", false, "print JSON"),
		check:  fs.Bool("check", false, "spend one more query verifying every label at once (default true for cmd:PROGRAM)"),
	}
}

// model returns the model to plan for and, for cmd:PROGRAM, the program.
func (f *scorerFlags) model() (*oracle.Model, string, oracle.Noise, error) {
	name, prog := *f.scorer, ""
	if p, ok := strings.CutPrefix(name, "cmd:"); ok || isHTTPScorer(name) {
		if !ok {
			p = name
		}
		prog = p
		if *f.assume == "" {
			return nil, "", oracle.Noise{}, errors.New("--scorer cmd:PROGRAM needs --assume MODEL, the model to plan for")
		}
		name = *f.assume
	} else if *f.assume != "" && *f.assume != name {
		return nil, "", oracle.Noise{}, errors.New("--assume is only for --scorer cmd:PROGRAM")
	}
	m, err := oracle.ParseModel(name)
	if err != nil {
		return nil, "", oracle.Noise{}, err
	}
	nz, err := oracle.ParseNoise(*f.noise, *f.tau, *f.delta)
	if err != nil {
		return nil, "", oracle.Noise{}, err
	}
	if *f.k < 2 || *f.k > 64 {
		return nil, "", oracle.Noise{}, fmt.Errorf("--k %d outside [2, 64]", *f.k)
	}
	return m, prog, nz, nil
}

// blockStats summarises block sizes.
type blockStats struct {
	First  int `json:"first"`
	Min    int `json:"min"`
	Median int `json:"median"`
	Max    int `json:"max"`
	Last   int `json:"last"`
}

func statsOf(b []int) *blockStats {
	if len(b) == 0 {
		return nil
	}
	s := slices.Clone(b)
	slices.Sort(s)
	return &blockStats{First: b[0], Min: s[0], Median: s[len(s)/2], Max: s[len(s)-1], Last: b[len(b)-1]}
}

type planRow struct {
	Strategy string      `json:"strategy"`
	Queries  int         `json:"queries,omitempty"`
	Labels   float64     `json:"labels_per_query,omitempty"`
	Blocks   *blockStats `json:"blocks,omitempty"`
	Gap      float64     `json:"gap,omitempty"`
	Budget   float64     `json:"budget,omitempty"`
	Error    string      `json:"error,omitempty"`
}

type planOut struct {
	N            int       `json:"n"`
	K            int       `json:"k"`
	Scorer       string    `json:"scorer"`
	Noise        string    `json:"noise"`
	Tau          float64   `json:"tau"`
	ScoreBits    float64   `json:"score_bits"`
	FloorQueries float64   `json:"floor_queries"`
	Strategies   []planRow `json:"strategies"`
}

func runPlan(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addScorerFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "labelinf plan: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	m, _, nz, err := sf.model()
	if err == nil && (*sf.n < 1 || *sf.n > decode.MaxN) {
		err = fmt.Errorf("--n %d outside [1, %d]", *sf.n, decode.MaxN)
	}
	if err != nil {
		fmt.Fprintf(stderr, "labelinf plan: %v\n", err)
		return 2
	}
	n, k := *sf.n, *sf.k
	out := planOut{N: n, K: k, Scorer: m.Name, Noise: nz.Kind.String(), Tau: nz.Tau}
	// The largest mean a query can have: every point at the largest term.
	smax := maxTerm(m)
	out.ScoreBits = m.ScoreBits(smax)
	out.FloorQueries = float64(n) * math.Log2(float64(k)) / out.ScoreBits
	for _, s := range []decode.Strategy{decode.Primes, decode.Alg3, decode.Blocks} {
		row := planRow{Strategy: s.String()}
		p, err := decode.PlanMulti(n, k, decode.MultiOptions{Strategy: s, Model: m, Noise: nz, Check: *sf.check})
		if err != nil {
			row.Error = err.Error()
		} else {
			row.Queries, row.Blocks, row.Gap, row.Budget = p.Queries, statsOf(p.Blocks), p.Gap, p.Budget
			row.Labels = float64(n) / float64(len(p.Blocks))
		}
		out.Strategies = append(out.Strategies, row)
	}
	if *sf.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
		return 0
	}
	fmt.Fprintf(stdout, "N = %d, K = %d, scorer %s (%s), noise %s τ = %g\n", n, k, m.Name, m.Desc, out.Noise, nz.Tau)
	fmt.Fprintf(stdout, "information floor: %.1f queries (%.1f bits per score)\n", out.FloorQueries, out.ScoreBits)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "strategy\tqueries\tlabels/query\tfirst\tmedian\tlast\tgap\tbudget\t")
	for _, r := range out.Strategies {
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t-\t\n", r.Strategy)
			continue
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%d\t%d\t%d\t%.3g\t%.3g\t\n", r.Strategy, r.Queries, r.Labels, r.Blocks.First, r.Blocks.Median, r.Blocks.Last, r.Gap, r.Budget)
	}
	tw.Flush()
	for _, r := range out.Strategies {
		if r.Error != "" {
			fmt.Fprintf(stdout, "%s: %s\n", r.Strategy, r.Error)
		}
	}
	return 0
}

// maxTerm is the largest term one point can contribute under m.
func maxTerm(m *oracle.Model) float64 {
	t, err := m.Terms([]float64{0})
	if err != nil || t[1].IsInf() {
		t, err = m.Terms([]float64{0x1p-1074})
		if err != nil {
			return 745
		}
	}
	f, _ := t[1].Float64()
	return f
}

type attackOut struct {
	N             int         `json:"n"`
	K             int         `json:"k"`
	Scorer        string      `json:"scorer"`
	Assume        string      `json:"assume"`
	Strategy      string      `json:"strategy"`
	Noise         string      `json:"noise"`
	Tau           float64     `json:"tau"`
	Queries       int         `json:"queries"`
	Retries       int         `json:"retries"`
	Accuracy      *float64    `json:"accuracy"`
	Verified      bool        `json:"verified"`
	Checked       bool        `json:"checked"`
	Seconds       float64     `json:"seconds"`
	AttackSeconds float64     `json:"attack_seconds"`
	ScorerSeconds float64     `json:"scorer_seconds"`
	Blocks        *blockStats `json:"blocks,omitempty"`
	Error         string      `json:"error,omitempty"`
}

// timed measures the time spent in the scorer.
type timed struct {
	oracle.Scorer
	d time.Duration
}

func (t *timed) Score(p *oracle.Pred) (*big.Rat, error) {
	t0 := time.Now()
	r, err := t.Scorer.Score(p)
	t.d += time.Since(t0)
	return r, err
}

func runAttack(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("attack", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sf := addScorerFlags(fs)
	seed := fs.Uint64("seed", 1, "seed of the simulated labels and noise")
	strategy := fs.String("strategy", "auto", "auto (= blocks), blocks, primes (ICML Alg 1), alg3 (ICML Alg 3), robust-single (ICML Alg 2, one query, -scorer apa)")
	encoding := fs.String("encoding", "logit", "robust-single: predictions as logit, logprob or prob")
	weights := fs.String("weights", "powers", "robust-single: weights powers (ICML Alg 2) or conway-guy (K = 2, N ≤ 50)")
	margin := fs.Float64("margin", 0, "robust-single: δ in the weight unit 2Nτ(1+δ) (0 = 1/16; ln 3 − 1 is EA Thm 14)")
	labelsFile := fs.String("labels", "", "file of private labels, one class index per line (simulated scorers)")
	outFile := fs.String("out", "", "write the recovered labels to FILE, one per line")
	partial := fs.Bool("allow-partial", false, "exit 0 even if accuracy < 1 or verification fails")
	timeout := fs.Duration("timeout", time.Minute, "cmd:PROGRAM: longest wait for one score")
	noEmu := fs.Bool("no-emulate", false, "decode with the rigorous error budget alone, no emulated brackets")
	apiKeyFile := fs.String("api-key-file", "", "http://…: file holding the API key of a labelinf serve competition")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "labelinf attack: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	usage := func(err error) int {
		fmt.Fprintf(stderr, "labelinf attack: %v\n", err)
		return 2
	}
	m, prog, nz, err := sf.model()
	if err != nil {
		return usage(err)
	}
	if *strategy == "robust-single" && isHTTPScorer(prog) {
		return usage(errors.New("--strategy robust-single needs an arbitrary-precision scorer, not a served competition"))
	}
	if *strategy == "robust-single" {
		return runRobust(robustArgs{sf: sf, m: m, prog: prog, nz: nz, seed: *seed, labelsFile: *labelsFile, outFile: *outFile,
			encoding: *encoding, weights: *weights, margin: *margin}, stdout, stderr)
	}
	st, err := decode.ParseStrategy(*strategy)
	if err != nil {
		return usage(err)
	}
	n, k := *sf.n, *sf.k
	var truth []int
	var sc oracle.Scorer
	if isHTTPScorer(prog) {
		if *labelsFile != "" {
			return usage(errors.New("--labels is for simulated scorers; a served competition holds its own labels"))
		}
		c, err := httpScorer(prog, *apiKeyFile, m)
		if err != nil {
			return usage(err)
		}
		n, k = c.N(), c.K()
		sc = c
	} else if prog != "" {
		if *labelsFile != "" {
			return usage(errors.New("--labels is for simulated scorers; an external scorer holds its own labels"))
		}
		if n < 1 || n > decode.MaxN {
			return usage(fmt.Errorf("--n %d outside [1, %d]", n, decode.MaxN))
		}
		c, err := oracle.NewCmd(prog, n, k, *timeout)
		if err != nil {
			return usage(err)
		}
		defer c.Close()
		if !m.Exact && m.Decimals < 0 {
			f := m.Loss.Format
			c.RoundTo = &f
		}
		sc = c
	} else {
		if truth, err = privateLabels(*labelsFile, n, k, *seed, decode.MaxN); err != nil {
			return usage(err)
		}
		n = len(truth)
		sim, err := oracle.NewSim(m, truth, k)
		if err != nil {
			return usage(err)
		}
		sc = sim
		if nz.Kind != oracle.NoNoise {
			if sc, err = oracle.NewNoisy(sim, nz, *seed); err != nil {
				return usage(err)
			}
		}
	}
	if prog != "" {
		checkSet := false
		fs.Visit(func(f *flag.Flag) { checkSet = checkSet || f.Name == "check" })
		if !checkSet {
			// An external scorer may not be the model it is planned as:
			// verify every label end to end unless told not to.
			*sf.check = true
		}
	}
	ts := &timed{Scorer: sc}
	bar := newProgress(stderr, n)
	t0 := time.Now()
	res, aerr := decode.AttackMulti(ts, decode.MultiOptions{
		Strategy: st, Model: m, Noise: nz, Check: *sf.check, NoEmulation: *noEmu,
		Progress: func(known, q int) { bar.step(known, fmt.Sprintf("labels, %d queries", q)) },
	})
	bar.done()
	el := time.Since(t0)
	out := attackOut{N: n, K: k, Scorer: *sf.scorer, Assume: m.Name, Strategy: st.String(), Noise: nz.Kind.String(), Tau: nz.Tau,
		Seconds: el.Seconds(), ScorerSeconds: ts.d.Seconds(), AttackSeconds: (el - ts.d).Seconds()}
	ok := aerr == nil
	if aerr != nil {
		out.Error = aerr.Error()
	}
	if res != nil {
		out.Queries, out.Retries, out.Verified, out.Checked, out.Blocks = res.Queries, res.Retries, res.Verified, res.Checked, statsOf(res.Blocks)
		ok = ok && res.Verified
		if truth != nil {
			acc, all := accuracyOf(res.Labels, truth)
			out.Accuracy = &acc
			ok = ok && all
		}
		if *outFile != "" {
			if err := writeLabels(*outFile, res.Labels); err != nil {
				fmt.Fprintf(stderr, "labelinf attack: %v\n", err)
				return 1
			}
		}
	}
	if *sf.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(out)
	} else {
		acc := "unknown"
		if out.Accuracy != nil {
			acc = strconv.FormatFloat(*out.Accuracy*100, 'f', 2, 64) + "%"
		}
		fmt.Fprintf(stdout, "%s against %s: N = %d, K = %d, %d queries (%d retries), accuracy %s, verified %v, %.2fs (attack %.2fs, scorer %.2fs)\n",
			out.Strategy, out.Scorer, n, k, out.Queries, out.Retries, acc, out.Verified, out.Seconds, out.AttackSeconds, out.ScorerSeconds)
		if out.Error != "" {
			fmt.Fprintf(stdout, "error: %s\n", out.Error)
		}
	}
	if !ok && !*partial {
		return 1
	}
	return 0
}

// accuracyOf returns the fraction of got equal to truth, and whether all
// are.
func accuracyOf(got, truth []int) (float64, bool) {
	right := 0
	for i, c := range got {
		if c == truth[i] {
			right++
		}
	}
	return float64(right) / float64(len(truth)), right == len(truth)
}

// privateLabels returns the labels a simulated scorer holds: those of
// file if it is not empty (checked against n unless n is 0), else n seeded
// random labels in [0, k), with n in [1, maxN].
func privateLabels(file string, n, k int, seed uint64, maxN int) ([]int, error) {
	if file != "" {
		truth, err := readLabels(file, k)
		if err != nil {
			return nil, err
		}
		if n != 0 && n != len(truth) {
			return nil, fmt.Errorf("--n %d but %s holds %d labels", n, file, len(truth))
		}
		return truth, nil
	}
	if n < 1 || n > maxN {
		return nil, fmt.Errorf("--n %d outside [1, %d]", n, maxN)
	}
	r := rand.New(rand.NewPCG(seed, 0x6c6162656c73))
	truth := make([]int, n)
	for i := range truth {
		truth[i] = r.IntN(k)
	}
	return truth, nil
}

// readLabels reads one class index in [0, k) per line; blank lines are
// skipped.
func readLabels(name string, k int) ([]int, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []int
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v >= k {
			return nil, fmt.Errorf("%s:%d: %q is not a class index in [0, %d)", name, line, s, k)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no labels", name)
	}
	return out, nil
}

func writeLabels(name string, labels []int) error {
	var b []byte
	for _, c := range labels {
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, '\n')
	}
	return os.WriteFile(name, b, 0o644)
}
