package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/primes"
	"github.com/labelinf/labelinf/single"
)

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

func runDemo(e *env, args []string) int {
	fs := newFlagSet("demo", e.stderr)
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	seed := fs.Uint64("seed", 1, "seed of the private labels")
	n := fs.Int("n", 25000, "labels in the binary case")
	kn := fs.Int("kn", 5000, "labels in the K-ary case (0 skips it)")
	k := fs.Int("k", 6, "classes in the K-ary case")
	memLimit := fs.Int64("memlimit", 900, "soft memory limit of the Go runtime in `MiB` while the demo runs, and the budget of its size check (0: the runtime's, GOMEMLIMIT)")
	if !parseFlags(fs, args, e.stderr) {
		return 2
	}
	budget, err := demoBudget(*memLimit, setFlags(fs)["memlimit"])
	if err != nil {
		return usageError(e.stderr, "demo", err)
	}
	type job struct{ n, k int }
	jobs := []job{{*n, 2}}
	switch {
	case *n < 1 || *n > decode.MaxN:
		return usageError(e.stderr, "demo", fmt.Errorf("-n %d outside [1, %d]", *n, decode.MaxN))
	case *kn < 0 || *kn > decode.MaxN:
		return usageError(e.stderr, "demo", fmt.Errorf("-kn %d outside [0, %d]", *kn, decode.MaxN))
	case *k < 2 || *k > 1<<16:
		return usageError(e.stderr, "demo", fmt.Errorf("-k %d outside [2, 65536]", *k))
	}
	if *kn > 0 {
		jobs = append(jobs, job{*kn, *k})
	}
	for _, j := range jobs {
		if err := demoCost(j.n, j.k, budget); err != nil {
			return usageError(e.stderr, "demo", err)
		}
	}
	if budget.set {
		// Near the limit the collector runs more often instead of
		// letting the heap grow to twice the live size (GOGC = 100):
		// the peak stays near the live peak demoPeakBytes models.
		old := debug.SetMemoryLimit(budget.bytes)
		defer debug.SetMemoryLimit(old)
	}
	prog := newProgress(e.stderr, len(jobs))
	var rows []demoRow
	failed := false
	for i, j := range jobs {
		prog.step(i, fmt.Sprintf("N=%d K=%d", j.n, j.k))
		var row demoRow
		var err error
		if werr := await(e.ctx, func() { row, err = demoCase(e, j.n, j.k, *seed+uint64(i)) }); werr != nil {
			err = werr
		}
		if err != nil {
			prog.done()
			return failure(e.stderr, "demo", fmt.Errorf("N=%d K=%d: %w", j.n, j.k, err))
		}
		if row.Accuracy != 1 || !row.Verified {
			failed = true
		}
		rows = append(rows, row)
	}
	prog.done()
	if *asJSON {
		writeJSON(e.stdout, rows)
	} else {
		printDemo(e.stdout, rows)
	}
	if failed {
		return failure(e.stderr, "demo", errors.New("some labels were not recovered"))
	}
	return 0
}

// printDemo prints the demo's table between the sentences that say what
// it shows and what to try next. Every figure in the sentences is read
// from rows.
func printDemo(w io.Writer, rows []demoRow) {
	fmt.Fprint(w, `A loss score is one number a scoring server (a competition leaderboard, an
evaluation API) returns for a whole set of predictions: here the mean
cross-entropy of the predictions against N private labels. Each case below
hides seeded random labels behind an exact server, submits one prediction
built from primes (Aggarwal et al., ICML 2021, Theorems 1 and 3) and reads
every label back from the score it gets:

`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "N\tK\tqueries\tbits\taccuracy\tverified\tseconds\toracle s\tattack s\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%.4f\t%v\t%.3f\t%.3f\t%.3f\t\n", r.N, r.K, r.Queries, r.Bits, r.Accuracy, r.Verified, r.Seconds, r.OracleSeconds, r.AttackSeconds)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, r := range rows {
		what := "labels"
		if r.K > 2 {
			what = fmt.Sprintf("labels of %d classes", r.K)
		}
		scores := "one score"
		if r.Queries != 1 {
			scores = fmt.Sprintf("%s scores", commas(r.Queries))
		}
		got := "All " + commas(r.N) + " " + what + " came"
		if r.Accuracy != 1 || !r.Verified {
			got = fmt.Sprintf("%.2f%% of %s %s (verified %v) came", 100*r.Accuracy, commas(r.N), what, r.Verified)
		}
		fmt.Fprintf(w, "%s from %s of %s bits (%.1f per label), in %.3f s\n(server %.3f s, decoding %.3f s).\n",
			got, scores, commas(int(r.Bits)), float64(r.Bits)/float64(r.N), r.Seconds, r.OracleSeconds, r.AttackSeconds)
	}
	fmt.Fprint(w, `
A real server's score has 53 bits (a float64) or a few decimals, so an attack
needs many scores, and a host can add defences. Try next:

  labelinf attack -scorer float64-sklearn -n 1000   scikit-learn's log_loss
  labelinf plan -scorer leaderboard -n 25000        scores each attack needs
  labelinf help                                     the manual and its topics

(From a clone, labelinf is go run ./cmd/labelinf until go install ./cmd/labelinf.)
`)
}

// commas formats n with a comma between groups of three digits.
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// demoMem is the memory a demo case may use: bytes (the soft limit of
// -memlimit, or of GOMEMLIMIT; math.MaxInt64 for none) and whether the
// demo sets it itself.
type demoMem struct {
	bytes int64
	set   bool
	from  string // what the budget is, for error messages
}

// demoBudget returns the memory budget of -memlimit mib (given tells
// whether the flag was given): a positive mib is the soft limit the demo
// sets, unless GOMEMLIMIT is set and the flag was not given; 0 keeps the
// runtime's limit (GOMEMLIMIT). A limit above the machine's memory is an
// error, where the machine's memory is known (Linux).
func demoBudget(mib int64, given bool) (demoMem, error) {
	const maxMiB = 1 << 40 // 1 EiB: the flag's range, far above any machine
	if mib < 0 || mib > maxMiB {
		return demoMem{}, fmt.Errorf("-memlimit %d MiB outside [0, %d] (0: the runtime's GOMEMLIMIT)", mib, int64(maxMiB))
	}
	total, known := physicalMemory()
	if mib > 0 && known && uint64(mib)<<20 > total {
		return demoMem{}, fmt.Errorf("-memlimit %d MiB is over this machine's %d MiB of memory", mib, total>>20)
	}
	if mib > 0 && (given || os.Getenv("GOMEMLIMIT") == "") {
		return demoMem{bytes: mib << 20, set: true, from: fmt.Sprintf("-memlimit %d MiB", mib)}, nil
	}
	if lim := debug.SetMemoryLimit(-1); lim < math.MaxInt64 {
		return demoMem{bytes: lim, from: fmt.Sprintf("GOMEMLIMIT (%d MiB)", lim>>20)}, nil
	}
	if known {
		// No limit: the heap grows to twice its live size (GOGC = 100)
		// before a collection, so half the machine's memory is what the
		// live peak may reach.
		return demoMem{bytes: int64(total / 2), from: fmt.Sprintf("half this machine's %d MiB (no memory limit: the heap doubles between collections)", total>>20)}, nil
	}
	return demoMem{bytes: math.MaxInt64, from: "no memory limit"}, nil
}

// Memory model of one demo case (an exact server and the single-query
// attack in one process), fitted to the live heap peaks measured in
// BENCHMARKS.md's "Exact single query" section (N = 10^5 to 3·10^6, K =
// 2), bytes as a function of N, K and the score's bits P ≈ (K−1)·N·log2
// p_N:
//
//	peak = base + N·(perLabel + K·perClass) + predBits/8 + perBit(P)·P,
//
// where predBits ≈ K(K−1)/2·N·log2 p_N are the prediction's powers p_i^c
// (one word each while they fit one, counted in perClass), and perBit(P)
// collects what scales with P: the number-theoretic transforms' buffers
// and twiddle tables (internal/bigmul), the binary splitting of π and
// ln 2, the logarithm's and the exponential's iterates, the product tree
// that factors X. It grows slowly with P (longer transforms per bit, more
// tree levels); the fit bounds the measured live peaks from N = 10^5 to
// 3·10^6 by 9–22% and extrapolates to 14.3 bytes per bit at N = 10^7.
const (
	peakBase      = 8 << 20 // the runtime and the binary
	peakPerLabel  = 64      // labels (demo, server, decoded), primes, the prediction's row slices
	peakPerClass  = 48      // per label and class: the prediction's *big.Int, big.Int and word
	peakPerBit    = 9.5     // bytes per bit of P up to P = 2^22
	peakPerBitLog = 0.8     // more bytes per bit for each doubling of P above 2^22
)

// demoPeakBytes returns the modelled live heap peak of a demo case with n
// labels of k classes, whose score needs about bits bits.
func demoPeakBytes(n, k int, bits float64) float64 {
	perBit := peakPerBit + peakPerBitLog*max(0, math.Log2(bits)-22)
	predBits := bits * float64(k) / 2 // K(K−1)/2·N·log2 p_N
	return peakBase + float64(n)*(peakPerLabel+peakPerClass*float64(k)) + predBits/8 + perBit*bits
}

// demoCost refuses, before anything is allocated, a case whose modelled
// peak (demoPeakBytes) is over the memory budget. The score's bits are
// bounded by (K−1)·N·log2 p_N, the leading term of the planned precision
// (the log of Π p_i^(K−1)), with p_N bounded by Rosser–Schoenfeld
// (primes.NthUpperBound). The prediction's size is also checked by
// single.NewQuery.
func demoCost(n, k int, mem demoMem) error {
	bits := float64(k-1) * float64(n) * math.Log2(float64(primes.NthUpperBound(uint64(n))))
	need := demoPeakBytes(n, k, bits)
	if need > float64(mem.bytes) {
		return fmt.Errorf("N = %d, K = %d: the score would need about %.3g bits ((K−1)·N·log2 p_N) and the case about %.0f MiB at its peak, over %s; lower -n, -kn or -k, or raise -memlimit", n, k, bits, need/(1<<20), mem.from)
	}
	return nil
}

// demoCase draws n seeded labels in [0, k), hides them in an exact oracle at
// the planned precision and runs the single-query attack.
func demoCase(e *env, n, k int, seed uint64) (demoRow, error) {
	r := rand.New(rand.NewPCG(seed, 0x6c6162656c696e66)) // "labelinf"
	labels := make([]int, n)
	for i := range labels {
		labels[i] = r.IntN(k)
	}
	start := e.now()
	q, err := single.NewQuery(n, k)
	if err != nil {
		return demoRow{}, err
	}
	o, err := oracle.NewExact(labels, k, q.Prec())
	if err != nil {
		return demoRow{}, err
	}
	// π and ln 2 are public: server and attacker share one cache, so the
	// 10^7-bit constants are computed once (by the server's logarithm).
	o.UseConsts(q.Consts())
	t0 := e.now()
	score, err := o.Score(e.ctx, q.Prediction())
	if err != nil {
		return demoRow{}, err
	}
	t1 := e.now()
	res, err := q.Decode(score, single.Options{})
	t2 := e.now()
	if err != nil {
		return demoRow{}, err
	}
	if len(res.Labels) != n {
		return demoRow{}, errors.New("decoded a labeling of the wrong length")
	}
	acc, _ := accuracyOf(res.Labels, labels)
	return demoRow{
		N: n, K: k, Queries: o.Queries(), Bits: q.Prec(),
		Accuracy: acc, Verified: res.Verified,
		Seconds:       t2.Sub(start).Seconds(),
		OracleSeconds: t1.Sub(t0).Seconds(),
		AttackSeconds: t2.Sub(t1).Seconds(),
	}, nil
}
