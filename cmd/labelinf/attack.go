package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/fingerprint"
	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/cputime"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/serve"
)

// maxAttackN bounds N for the multi-query attack: every query submits N
// rows and the attack needs about N/40 queries against a float64 scorer,
// so its time grows as N². Measured with labelinf attack -n 100000 on a
// loaded 2-core machine: 2,446 queries, 70 s; 2^17 takes about two
// minutes there, while N = 10^6 had not finished after 120 s.
const maxAttackN = 1 << 17

// maxEmulatedCost bounds N²·M for a simulated fpa:E,M scorer that is
// emulated (any format but binary32 and binary64, which run natively):
// the attack sends about N/50 queries of N terms, each term a logarithm at
// M bits. Measured on a loaded 2-core machine, one unit of N²·M costs
// 1–5·10^-8 s (N = 3000 at fpa:11,500: 40 s; N = 1000 at fpa:11,10000:
// 107 s), so the bound 2^32 is a few minutes at most.
const maxEmulatedCost = 1 << 32 // untyped; compared as float64

// maxAttackFracBits bounds M of an fpa:E,M scorer in attack: the simulated
// scorer evaluates every term at M bits, so one query costs N logarithms
// at M bits. Measured with labelinf attack -n 100 -scorer fpa:11,M on a
// loaded 2-core machine: M = 10^4 took 2.3 s, 10^5 took 56 s (time grows
// as M^1.4), 10^6 over 60 s per query; at 2^14 it is about 5 s.
const maxAttackFracBits = 1 << 14

type attackOut struct {
	N        int     `json:"n"`
	K        int     `json:"k"`
	Scorer   string  `json:"scorer"`
	Assume   string  `json:"assume"`
	Strategy string  `json:"strategy"`
	Noise    string  `json:"noise"`
	Tau      float64 `json:"tau"`
	Queries  int     `json:"queries"`
	Probes   int     `json:"probes,omitempty"` // -assume auto: probe queries, counted in Queries
	// ProbeLabels are the labels the first identification's probes
	// determined, which the attack did not query (-assume auto).
	ProbeLabels int `json:"probe_labels,omitempty"`
	// Reidentified lists the changes of model mid-attack (-assume auto).
	Reidentified []reidentOut `json:"reidentified,omitempty"`
	// Refined lists the changes of decimals mid-attack (-assume auto).
	Refined       []refineOut `json:"refined,omitempty"`
	Retries       int         `json:"retries"`
	Accuracy      *float64    `json:"accuracy"`
	Verified      bool        `json:"verified"`
	Checked       bool        `json:"checked"`
	Seconds       float64     `json:"seconds"`
	AttackSeconds float64     `json:"attack_seconds"`
	ScorerSeconds float64     `json:"scorer_seconds"`
	// AttackCPUSeconds is the attacker's own CPU time: the process's CPU
	// over the attack less the scorer's calls' CPU on their thread (an
	// external scorer's process is not counted at all). Null where the
	// thread clock cannot be read (off Linux) and for robust-single.
	AttackCPUSeconds *float64    `json:"attack_cpu_seconds"`
	ScorerCPUSeconds *float64    `json:"scorer_cpu_seconds"`
	Blocks           *blockStats `json:"blocks,omitempty"`
	Error            string      `json:"error,omitempty"`
}

// result records an attack's error and result in out (queries, checks,
// blocks) and returns its labels, which of them are known, and whether
// they are verified (only when the attack also returned no error).
func (out *attackOut) result(res *decode.Result, aerr error) (labels []int, known []bool, verified bool) {
	if aerr != nil {
		out.Error = aerr.Error()
	}
	if res == nil {
		return nil, nil, false
	}
	out.Queries, out.Verified, out.Checked, out.Blocks = res.Queries, res.Verified, res.Checked, statsOf(res.Blocks)
	return res.Labels, res.Known, res.Verified && aerr == nil
}

// robustOut is attackOut plus the fields of -strategy robust-single.
type robustOut struct {
	attackOut
	ScoreBits uint   `json:"score_bits"`
	Encoding  string `json:"encoding"`
	Weights   string `json:"weights"`
}

// timed measures the time spent in the scorer.
type timed struct {
	scorer.Server
	now func() time.Time
	d   time.Duration
	// cpu is the scorer's CPU time on its calls' thread; cpuBad is set
	// if a thread clock could not be read.
	cpu    time.Duration
	cpuBad bool
}

func (t *timed) Score(ctx context.Context, p *scorer.Pred) (r *big.Rat, err error) {
	t0 := t.now()
	c, ok := cputime.Call(func() { r, err = t.Server.Score(ctx, p) })
	t.d += t.now().Sub(t0)
	t.cpu += c
	t.cpuBad = t.cpuBad || !ok
	return r, err
}

// cpuSeconds returns the attacker's and the scorer's CPU seconds given the
// process's CPU time over the attack (nil, nil if a clock failed).
func (t *timed) cpuSeconds(proc time.Duration, ok bool) (attack, scorer *float64) {
	if !ok || t.cpuBad {
		return nil, nil
	}
	a, s := max(proc-t.cpu, 0).Seconds(), t.cpu.Seconds()
	return &a, &s
}

// attackFlags are attack's flags beyond the scorer flags.
type attackFlags struct {
	*scorerFlags
	seed                         *uint64
	strategy                     *string
	encoding, weights            *string
	margin                       *float64
	labels, out, partialOut      *string
	apiKeyFile                   *string
	allowPartial, noEmu          *bool
	timeout                      *time.Duration
	set                          map[string]bool
	robustOnly, multiOnly, extra []string
}

func runAttack(e *env, args []string) int {
	fs := newFlagSet("attack", e.stderr)
	a := &attackFlags{scorerFlags: addScorerFlags(fs)}
	a.seed = fs.Uint64("seed", 1, "seed of the simulated labels and noise")
	a.strategy = fs.String("strategy", catalog.AutoName, "the `attack`: "+strings.Join(attackNames(), ", ")+" (labelinf help attacks says what each is)")
	a.encoding = fs.String("encoding", "logit", "robust-single: predictions as logit, logprob or prob")
	a.weights = fs.String("weights", "powers", "robust-single: weights powers (ICML Alg 2) or conway-guy (K = 2, N ≤ 50)")
	a.margin = fs.Float64("margin", 1.0/16, "robust-single: δ > 0 in the weight unit 2Nτ(1+δ) (ln 3 − 1 is EA Thm 14)")
	a.labels = fs.String("labels", "", "file of private labels, one class index per line (simulated scorers)")
	a.out = fs.String("out", "", "write the recovered labels to FILE, one per line, only if all are verified")
	a.partialOut = fs.String("partial-out", "", "write what the attack knows to FILE, one 'row label status' line per row, whatever the outcome")
	a.allowPartial = fs.Bool("allow-partial", false, "exit 0 even if accuracy < 1 or verification fails")
	a.timeout = fs.Duration("timeout", time.Minute, "cmd:PROGRAM: longest wait for one score (> 0)")
	a.noEmu = fs.Bool("no-emulate", false, "decode with the rigorous error budget alone, no emulated brackets")
	a.apiKeyFile = fs.String("api-key-file", "", "-scorer http://…: `file` holding the API key of a labelinf serve competition")
	if !parseFlags(fs, args, e.stderr) {
		return 2
	}
	a.set = setFlags(fs)
	if ms, ok, err := discreteTarget(e.ctx, a); err != nil {
		return servedError(e, "attack", err)
	} else if ok {
		return runDiscrete(e, a, ms)
	}
	if isHTTPScorer(*a.scorer) && *a.assume == "" {
		// Plan for the model the served competition publishes.
		if _, _, _, _, err := servedModel(e.ctx, a.scorerFlags, a.set); err != nil {
			return servedError(e, "attack", err)
		}
	}
	sp, err := a.parse(a.set)
	if err != nil {
		return usageError(e.stderr, "attack", err)
	}
	if *a.out != "" && *a.partialOut != "" && filepath.Clean(*a.out) == filepath.Clean(*a.partialOut) {
		return usageError(e.stderr, "attack", errors.New("-out and -partial-out name the same file"))
	}
	if at := catalog.Lookup(*a.strategy); at != nil && at.Kind == catalog.SingleQuery {
		if err := rejectFlags(a.set, "to -strategy "+at.Name, "assume", "check", "no-emulate", "timeout", "allow-partial", "partial-out", "api-key-file"); err != nil {
			return usageError(e.stderr, "attack", err)
		}
		if at.Name != "robust-single" {
			if err := rejectFlags(a.set, "to -strategy "+at.Name+" (only to robust-single)", "encoding", "weights", "margin"); err != nil {
				return usageError(e.stderr, "attack", err)
			}
		}
		return runSingle(e, a, sp, at)
	}
	if err := rejectFlags(a.set, "to -strategy "+*a.strategy+" (only to robust-single)", "encoding", "weights", "margin"); err != nil {
		return usageError(e.stderr, "attack", err)
	}
	return runMulti(e, a, sp)
}

// runMulti is the multi-query attack.
func runMulti(e *env, a *attackFlags, sp scorerSpec) int {
	fail := func(err error) int { return usageError(e.stderr, "attack", err) }
	var retired *decode.RetiredError
	if _, err := decode.ParseStrategy(*a.strategy); errors.As(err, &retired) {
		return fail(fmt.Errorf("-strategy %s: retired: use -strategy %s (%s)", retired.Name, retired.Use, retired.Why))
	}
	if *a.strategy != catalog.AutoName && catalog.Lookup(*a.strategy) == nil {
		return fail(fmt.Errorf("-strategy %q: no such attack%s (attacks: %s; labelinf help attacks says what each is)",
			*a.strategy, didYouMean(*a.strategy, attackNames()), strings.Join(attackNames(), ", ")))
	}
	var err error
	if *a.timeout <= 0 {
		return fail(fmt.Errorf("-timeout %v: want a duration > 0", *a.timeout))
	}
	if !sp.isCmd && a.set["timeout"] {
		return fail(errors.New("-timeout does not apply to a simulated scorer or a served competition (only to cmd:PROGRAM)"))
	}
	if sp.url == "" && a.set["api-key-file"] {
		return fail(errors.New("-api-key-file does not apply (only to -scorer http://…)"))
	}
	if f := sp.model.Loss.Format; !sp.model.Exact && f.FracBits > maxAttackFracBits {
		return fail(fmt.Errorf("-scorer %s: %d fraction bits, over the %d this command runs (every query evaluates N logarithms at that precision)", sp.model.Name, f.FracBits, maxAttackFracBits))
	}
	m, nz := sp.model, sp.noise
	n, k := *a.n, *a.k
	var truth []int
	var client *serve.Client
	if sp.url != "" {
		if *a.labels != "" {
			return fail(errors.New("-labels is for simulated scorers; a served competition holds its own labels"))
		}
		if client, err = httpScorer(e.ctx, sp.url, *a.apiKeyFile, m); err != nil {
			return fail(err)
		}
		if a.set["n"] && *a.n != client.N() || a.set["k"] && *a.k != client.K() {
			return fail(fmt.Errorf("-n %d -k %d, but the served competition has N = %d, K = %d", *a.n, *a.k, client.N(), client.K()))
		}
		n, k = client.N(), client.K()
		if n > maxAttackN {
			return fail(fmt.Errorf("the served competition has N = %d, over the %d this command runs", n, maxAttackN))
		}
		if !a.set["check"] {
			*a.check = true // as for cmd:PROGRAM: verify end to end
		}
	} else if sp.isCmd {
		if *a.labels != "" {
			return fail(errors.New("-labels is for simulated scorers; an external scorer holds its own labels"))
		}
		if n < 1 || n > maxAttackN {
			return fail(fmt.Errorf("-n %d outside [1, %d]", n, maxAttackN))
		}
		if !a.set["check"] {
			// An external scorer may not be the model it is planned as:
			// verify every label end to end unless told not to.
			*a.check = true
		}
	} else {
		if truth, err = privateLabels(*a.labels, n, k, *a.seed, maxAttackN); err != nil {
			return fail(err)
		}
		n = len(truth)
		if f := m.Loss.Format; !m.Exact && f != fpa.Binary64 && f != fpa.Binary32 {
			if cost := float64(n) * float64(n) * float64(f.FracBits); cost > maxEmulatedCost {
				return fail(fmt.Errorf("-n %d with the emulated scorer %s: N²·M = %.3g, over the %.0f this command runs (minutes); lower -n or the fraction bits", n, m.Name, cost, float64(maxEmulatedCost)))
			}
		}
	}
	var sc scorer.Server
	closeScorer := func(bool) {}
	if client != nil {
		sc = client
	} else if sc, closeScorer, err = newScorer(sp, truth, n, k, *a.seed, *a.timeout); err != nil {
		return fail(err)
	}
	// On a signal the command returns before the attack does: closeScorer
	// then kills an external scorer's process group at once.
	defer func() { closeScorer(e.ctx.Err() != nil) }()
	// The attack: the catalogue's entry, or auto's one rule for the
	// scorer (with -assume auto the model is identified first, and the
	// attack is cross unless named).
	tg := catalog.Target{Model: sp.model, N: n, K: k, Noise: nz, NoEmulation: *a.noEmu}
	var at *catalog.Attack
	if *a.strategy != catalog.AutoName || !sp.auto {
		if at, err = catalog.Parse(*a.strategy, tg); err != nil {
			return failure(e.stderr, "attack", err)
		}
		// A strategy that does not apply is not run (a decode strategy
		// would fall back to another and report that one's queries as
		// its own). With -assume auto the model is not known yet.
		if err := at.Applies(tg); err != nil && !sp.auto {
			return fail(notApplicable(at, tg, err))
		}
		if at.Run == nil {
			return fail(fmt.Errorf("-strategy %s is not run by attack: %s", at.Name, at.Doc))
		}
	}
	var st decode.Strategy // the multi-query strategy (nil: cross, or another kind)
	name := "cross"
	if at != nil {
		st, name = at.Strategy, at.Name
	}
	if sp.auto && at != nil && st == nil {
		return fail(fmt.Errorf("-assume auto runs a multi-query strategy, not %s", at.Name))
	}
	ts := &timed{Server: sc, now: e.now}
	t0 := e.now()
	bar := newProgress(e.stderr, n)
	c0, cok0 := cputime.Process()
	var res *decode.Result
	var aerr error
	var ar *fingerprint.AttackResult
	if sp.auto {
		// An identified model is checked end to end.
		*a.check = true
		ids := 0
		var fw io.Writer = e.stdout
		if *a.asJSON {
			fw = e.stderr
		}
		if err := await(e.ctx, func() {
			ar, aerr = fingerprint.Attack(e.ctx, ts, fingerprint.AttackOptions{
				Strategy: st, NoEmulation: *a.noEmu,
				OnIdentify: func(id *fingerprint.Result) {
					if ids++; ids > 1 {
						fmt.Fprintln(fw, "re-identification by new probes:")
					}
					printFingerprint(fw, fingerprintReport(*a.scorer, n, k, id))
				},
				OnModel:  func(m *scorer.Model) { roundTo(sc, m) },
				Progress: func(known, q int) { bar.step(known, fmt.Sprintf("labels, %d queries", q)) },
			})
		}); err != nil {
			bar.done()
			return failure(e.stderr, "attack", err)
		}
		if ar.Result == nil {
			bar.done()
			return failure(e.stderr, "attack", fmt.Errorf("-assume auto: %w", aerr))
		}
		res, m = ar.Result, ar.Model
	} else if err := await(e.ctx, func() {
		o := scorer.PerPoint(ts, sp.model)
		opt := catalog.Options{
			Check: *a.check, Seed: *a.seed, Progress: func(known, q int) { bar.step(known, fmt.Sprintf("labels, %d queries", q)) },
		}
		if *a.strategy == catalog.AutoName {
			// Auto's pick, or where it cannot carry one label a query
			// the attack that can (catalog.RunAuto).
			var ran *catalog.Attack
			if ran, res, aerr = catalog.RunAuto(e.ctx, o, tg, opt); ran != nil {
				name = ran.Name
			}
		} else {
			res, aerr = at.Run(e.ctx, o, tg, opt)
		}
	}); err != nil {
		bar.done()
		return failure(e.stderr, "attack", err)
	}
	bar.done()
	el := e.since(t0)
	c1, cok1 := cputime.Process()
	out := attackOut{N: n, K: k, Scorer: *a.scorer, Assume: m.Name, Strategy: name, Noise: nz.Kind.String(), Tau: nz.Tau,
		Seconds: el, ScorerSeconds: ts.d.Seconds(), AttackSeconds: el - ts.d.Seconds()}
	out.AttackCPUSeconds, out.ScorerCPUSeconds = ts.cpuSeconds(c1-c0, cok0 && cok1)
	labels, known, verified := out.result(res, aerr)
	if ar != nil {
		out.Probes, out.ProbeLabels = ar.Probes, ar.ProbeLabels
		for _, re := range ar.Reidentified {
			out.Reidentified = append(out.Reidentified, reidentOut(re))
		}
		for _, rf := range ar.Refined {
			out.Refined = append(out.Refined, refineOut(rf))
		}
	}
	if res != nil {
		out.Retries = res.Retries
	}
	return finishAttack(e, a, &out, func(o attackOut) any { return o }, labels, known, truth, verified, func() {
		acc := "unknown"
		if out.Accuracy != nil {
			acc = strconv.FormatFloat(*out.Accuracy*100, 'f', 2, 64) + "%"
		}
		cpu := ""
		if out.AttackCPUSeconds != nil {
			cpu = fmt.Sprintf("; attacker CPU %.2fs", *out.AttackCPUSeconds)
		}
		for _, re := range out.Reidentified {
			fmt.Fprintf(e.stdout, "re-identified after %d queries: %s failed (%s); now %s, from %s; %d labels read from the scores so far\n", re.AfterQuery, re.Failed, re.Why, orNone(re.Model), re.How, re.Labels)
		}
		for _, rf := range out.Refined {
			fmt.Fprintf(e.stdout, "decimals refined after %d queries: a score has %d decimals; %s → %s\n", rf.AfterQuery, rf.Decimals, rf.From, rf.To)
		}
		if out.ProbeLabels > 0 {
			fmt.Fprintf(e.stdout, "%d labels learned by the probes, not queried again\n", out.ProbeLabels)
		}
		fmt.Fprintf(e.stdout, "%s against %s: N = %d, K = %d, %d queries (%d retries), accuracy %s, verified %v, %.2fs (attack %.2fs, scorer %.2fs%s)\n",
			out.Strategy, out.Scorer, n, k, out.Queries, out.Retries, acc, out.Verified, out.Seconds, out.AttackSeconds, out.ScorerSeconds, cpu)
	})
}

// newScorer is attack's one call into oracle: the external scorer of
// cmd:PROGRAM (n points of k classes), or the simulated scorer of the
// model holding truth, with the noise. closeScorer ends an external
// scorer: at once, killing its process group, if kill is set.
func newScorer(sp scorerSpec, truth []int, n, k int, seed uint64, timeout time.Duration) (sc scorer.Server, closeScorer func(kill bool), err error) {
	m := sp.model
	if sp.isCmd {
		c, err := oracle.NewCmd(sp.prog, n, k, timeout)
		if err != nil {
			return nil, nil, err
		}
		if !sp.auto && !m.Exact && m.Decimals < 0 {
			f := m.Loss.Format
			c.RoundTo = &f
		}
		return c, func(kill bool) {
			if kill {
				c.Kill() // Close would wait for a query in flight
			}
			c.Close()
		}, nil
	}
	sim, err := oracle.NewSim(m, truth, k)
	if err != nil {
		return nil, nil, err
	}
	sc = sim
	if sp.noise.Kind != scorer.NoNoise {
		if sc, err = oracle.NewNoisy(sim, sp.noise, seed); err != nil {
			return nil, nil, err
		}
	}
	return sc, func(bool) {}, nil
}

// finishAttack fills out's accuracy, writes the output files and prints
// the result (asJSON(*out) as JSON, or the text of table), and returns the exit
// status. labels are the recovered labels (−1 unknown), known which of them
// the attack verified (nil: none), truth the private labels if known,
// verified whether every label is verified.
func finishAttack(e *env, a *attackFlags, out *attackOut, asJSON func(attackOut) any, labels []int, known []bool, truth []int, verified bool, table func()) int {
	ok := verified
	// Accuracy is null when the labels are unknown, and when no query was
	// sent: nothing was measured.
	if truth != nil && out.Queries > 0 {
		acc := 0.0
		all := false
		if labels != nil {
			acc, all = accuracyOf(labels, truth)
		}
		out.Accuracy = &acc
		ok = ok && all
	}
	code := 0
	if *a.out != "" {
		if verified {
			if err := writeLabels(*a.out, labels); err != nil {
				code = failure(e.stderr, "attack", err)
			}
		} else {
			fmt.Fprintf(e.stderr, "labelinf attack: -out %s not written: the labels are not all verified (see -partial-out)\n", *a.out)
		}
	}
	if *a.partialOut != "" {
		if err := writePartial(*a.partialOut, labels, known, out.N, verified, out.Error); err != nil {
			code = failure(e.stderr, "attack", err)
		}
	}
	if *a.asJSON {
		writeJSON(e.stdout, asJSON(*out))
	} else {
		table()
		if out.Error != "" {
			fmt.Fprintf(e.stdout, "error: %s\n", out.Error)
		}
	}
	if code != 0 {
		return code
	}
	if !ok && !*a.allowPartial {
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
		if len(truth) > maxN {
			return nil, fmt.Errorf("%s holds %d labels, over the %d this command runs", file, len(truth), maxN)
		}
		if n != 0 && n != len(truth) {
			return nil, fmt.Errorf("-n %d but %s holds %d labels", n, file, len(truth))
		}
		return truth, nil
	}
	if n < 1 || n > maxN {
		return nil, fmt.Errorf("-n %d outside [1, %d]", n, maxN)
	}
	return catalog.SeededLabels(seed, n, k), nil
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
	line := 1
	for ; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return nil, fmt.Errorf("%s:%d: %q is not a class index in [0, %d)", name, line, clip(s, 40), k)
		}
		if v >= k {
			if v < 64 {
				// Most likely the classes were not given: say so.
				return nil, fmt.Errorf("%s:%d: class %d, but -k is %d (the number of classes, 2 by default): give -k %d or more", name, line, v, k, v+1)
			}
			return nil, fmt.Errorf("%s:%d: %q is not a class index in [0, %d)", name, line, clip(s, 40), k)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes, not a class index", name, line, bufio.MaxScanTokenSize)
		}
		return nil, fmt.Errorf("%s:%d: %w", name, line, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no labels", name)
	}
	return out, nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// writeLabels writes a verified labeling, one class index per line.
func writeLabels(name string, labels []int) error {
	var b []byte
	for _, c := range labels {
		b = strconv.AppendInt(b, int64(c), 10)
		b = append(b, '\n')
	}
	return os.WriteFile(name, b, 0o644)
}

// writePartial writes what an attack knows about n rows: a header line
// that no reader of writeLabels' format accepts, then "row label status"
// per row (see the manual, "Output files"). A row is verified if the
// attack verified it (known[i]) or verified everything.
func writePartial(name string, labels []int, known []bool, n int, verified bool, errText string) error {
	var b []byte
	status := "verified"
	if !verified {
		status = "NOT verified"
	}
	b = fmt.Appendf(b, "# labelinf partial labels: %s; columns: row label status (verified, model = checked only against the assumed scorer model, unknown = label -1)\n", status)
	if errText != "" {
		b = fmt.Appendf(b, "# error: %s\n", strings.ReplaceAll(errText, "\n", " "))
	}
	for i := range n {
		c := -1
		if i < len(labels) {
			c = labels[i]
		}
		st := "unknown"
		switch {
		case c >= 0 && (verified || i < len(known) && known[i]):
			st = "verified"
		case c >= 0:
			st = "model"
		}
		b = fmt.Appendf(b, "%d %d %s\n", i, c, st)
	}
	return os.WriteFile(name, b, 0o644)
}

// notApplicable is the error of -strategy at against a target it does not
// apply to (why): it names auto's pick there.
func notApplicable(at *catalog.Attack, tg catalog.Target, why error) error {
	pick := "none: no attack of the catalogue applies"
	if p, err := catalog.Auto(tg); err == nil {
		pick = p.Name
	}
	return fmt.Errorf("-strategy %s does not apply: %w (-strategy auto picks %s here)", at.Name, why, pick)
}
