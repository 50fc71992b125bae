// This file implements the BLIA experiment end to end: split, canaries,
// randomized response, training, attacks and statistics, over several
// privacy budgets and seeds.

package passive

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"
)

// An Epsilon is a privacy budget; +Inf means no label DP. It encodes in
// JSON as a number, or as the string "inf".
type Epsilon float64

// String formats ε as the paper does ("inf" for no privacy).
func (e Epsilon) String() string {
	if math.IsInf(float64(e), 1) {
		return "inf"
	}
	return strconv.FormatFloat(float64(e), 'g', -1, 64)
}

// MarshalJSON implements [json.Marshaler].
func (e Epsilon) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(e), 1) {
		return []byte(`"inf"`), nil
	}
	return json.Marshal(float64(e))
}

// UnmarshalJSON implements [json.Unmarshaler], accepting what
// [Epsilon.MarshalJSON] writes.
func (e *Epsilon) UnmarshalJSON(b []byte) error {
	if string(b) == `"inf"` {
		*e = Epsilon(math.Inf(1))
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("passive: privacy budget %s is not a number or \"inf\"", b)
	}
	*e = Epsilon(v)
	return nil
}

// ParseEpsilons parses a comma-separated list of privacy budgets such as
// "inf,4,2,1,0.8,0.5,0.3". Each must be "inf" or a number ≥ 0.
func ParseEpsilons(s string) ([]Epsilon, error) {
	var out []Epsilon
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		var v float64
		switch strings.ToLower(f) {
		case "inf", "+inf", "infinity", "∞":
			v = math.Inf(1)
		default:
			var err error
			if v, err = strconv.ParseFloat(f, 64); err != nil {
				return nil, fmt.Errorf("passive: privacy budget %q is not a number or inf", f)
			}
		}
		if _, err := KeepProb(v); err != nil {
			return nil, err
		}
		out = append(out, Epsilon(v))
	}
	return out, nil
}

// ModelNames lists the models [Config.Model] accepts.
var ModelNames = []string{"logreg", "mlp"}

// Config describes a BLIA experiment. The zero value of every field but
// Model has a documented default.
type Config struct {
	// Model is "logreg" or "mlp".
	Model  string
	LogReg LogRegOptions
	// MLP configures the network; its Seed and Progress are set per run.
	MLP MLPOptions
	// Epsilons are the privacy budgets; nil means {+Inf}.
	Epsilons []Epsilon
	// Seeds is the number of repetitions, with seeds FirstSeed,
	// FirstSeed+1, …; 0 means 1. Each seed draws its own split, canaries,
	// canary flips, randomized response and initialization; within a seed
	// these are shared by every ε (randomized response coupled as in
	// [RRUniforms]).
	Seeds     int
	FirstSeed uint64
	// CanaryFrac is the fraction of training rows made canaries; 0 means
	// 0.02 [BLIA, §6].
	CanaryFrac float64
	// TrainFrac is the fraction of the training table used for training,
	// the rest being held out; 0 means 0.8, which gives CENSUS's 26,048
	// training rows [BLIA, Table 1]. 1 trains on every row.
	TrainFrac float64
	// Alpha and Beta weigh the delta-margin attacks; 0 means 1.
	Alpha, Beta float64
	// Workers is the number of runs trained at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, if not nil, is called as training advances with the work
	// done and the total, in epochs (MLP) or runs (logreg). It may be
	// called from several goroutines, never concurrently.
	Progress func(done, total int)
}

func (c *Config) validate() error {
	switch c.Model {
	case "logreg":
		if err := c.LogReg.validate(); err != nil {
			return err
		}
	case "mlp":
		if err := c.MLP.validate(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("passive: unknown model %q (want %s)", c.Model, strings.Join(ModelNames, " or "))
	}
	if c.Epsilons == nil {
		c.Epsilons = []Epsilon{Epsilon(math.Inf(1))}
	}
	if len(c.Epsilons) == 0 {
		return fmt.Errorf("passive: no privacy budget")
	}
	for _, e := range c.Epsilons {
		if _, err := KeepProb(float64(e)); err != nil {
			return err
		}
	}
	if c.Seeds == 0 {
		c.Seeds = 1
	}
	if c.CanaryFrac == 0 {
		c.CanaryFrac = 0.02
	}
	if c.TrainFrac == 0 {
		c.TrainFrac = 0.8
	}
	if c.Alpha == 0 {
		c.Alpha = 1
	}
	if c.Beta == 0 {
		c.Beta = 1
	}
	if c.Workers == 0 {
		c.Workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case c.Seeds < 1 || c.Seeds > 1000:
		return fmt.Errorf("passive: %d seeds outside [1, 1000]", c.Seeds)
	case !(c.TrainFrac > 0 && c.TrainFrac <= 1):
		return fmt.Errorf("passive: training fraction %v outside (0, 1]", c.TrainFrac)
	case !(c.CanaryFrac > 0 && c.CanaryFrac < 1):
		return fmt.Errorf("passive: canary fraction %v outside (0, 1)", c.CanaryFrac)
	case c.Workers < 1:
		return fmt.Errorf("passive: %d workers", c.Workers)
	}
	return nil
}

// Attacks returns the attacks an experiment runs, in report order: the
// paper's two (fixed threshold and delta-margin as written), the other
// threshold rules, the symmetric delta-margin, and the loss-inversion
// control.
func (c *Config) Attacks() []Attack {
	return []Attack{
		{Kind: ThresholdFixed},
		{Kind: DeltaMargin, Alpha: c.Alpha, Beta: c.Beta},
		{Kind: ThresholdMean},
		{Kind: ThresholdMedian},
		{Kind: DeltaMarginSymmetric, Alpha: c.Alpha, Beta: c.Beta},
		{Kind: LossInversion},
	}
}

// A Run is one trained model (one seed, one ε) and its attack outcomes.
type Run struct {
	Seed      uint64  `json:"seed"`
	TrainRows int     `json:"train_rows"`
	Canaries  int     `json:"canaries"`
	RRFlipped int     `json:"rr_flipped"` // training labels flipped by randomized response
	TrainAcc  float64 `json:"train_acc"`  // against the labels trained on, as the paper reports it
	// TestAcc is the accuracy against true labels on the TestRows rows of
	// the test file, or of the held-out rows when there is none; 0 when
	// TestRows is 0.
	TestAcc  float64 `json:"test_acc"`
	TestRows int     `json:"test_rows"`
	// CanaryFit is the fraction of canaries whose training label the model
	// reproduces (p₁ ≥ ½ iff the label is 1).
	CanaryFit float64   `json:"canary_fit"`
	Seconds   float64   `json:"seconds"`
	Outcomes  []Outcome `json:"outcomes"`
	// Decoys are the same attacks scored against fresh labels drawn like
	// the canary labels but never shown to the model: a control whose
	// PCond must be uniform, and whose PHalf is not for attacks that read
	// the loss.
	Decoys []Outcome `json:"decoys"`
}

// A Stat is a mean and sample standard deviation over seeds.
type Stat struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
}

func statOf(x []float64) Stat {
	var s Stat
	for _, v := range x {
		s.Mean += v
	}
	s.Mean /= float64(len(x))
	if len(x) > 1 {
		var ss float64
		for _, v := range x {
			ss += (v - s.Mean) * (v - s.Mean)
		}
		s.SD = math.Sqrt(ss / float64(len(x)-1))
	}
	return s
}

// An EpsilonReport summarizes the runs of one privacy budget.
type EpsilonReport struct {
	Epsilon  Epsilon `json:"epsilon"`
	Keep     float64 `json:"keep"`
	TrainAcc Stat    `json:"train_acc"`
	TestAcc  Stat    `json:"test_acc"`
	// Rates[a] is the success ratio of attack a over seeds; Pooled[a] pools
	// the seeds' canaries into one test, and PooledDecoys does the same
	// for the decoy control.
	Rates        []Stat    `json:"rates"`
	Pooled       []Outcome `json:"pooled"`
	PooledDecoys []Outcome `json:"pooled_decoys"`
	Runs         []Run     `json:"runs"`
}

// A Report is the result of [RunExperiment].
type Report struct {
	Dataset    string          `json:"dataset"`
	Model      string          `json:"model"`
	Features   int             `json:"features"`
	Seeds      int             `json:"seeds"`
	CanaryFrac float64         `json:"canary_frac"`
	TrainFrac  float64         `json:"train_frac"`
	Attacks    []string        `json:"attacks"`
	ReadLabels []bool          `json:"reads_labels"`
	Epsilons   []EpsilonReport `json:"epsilons"`
	Seconds    float64         `json:"seconds"`
}

// seedData is what every ε of one seed shares.
type seedData struct {
	seed      uint64
	x, xTest  *mat.Dense
	y         []int // true labels of the training rows
	yTest     []int
	canaries  []int // positions within the training rows
	yCanary   []int // y with the canaries flipped
	u         []float64
	decoyY    []int // decoy canary labels (fresh coins)
	decoyU    []float64
	nFeatures int
}

// Stream identifiers of the per-seed random sources, so that changing one
// step (say the canary fraction) leaves the others' draws unchanged.
const (
	streamSplit = iota + 1
	streamCanary
	streamFlip
	streamRR
	streamDecoy
	streamModel
)

// newStream returns the random source of one step of one seed. The two
// PCG seeds go through SplitMix64's finalizer [Ste14] so that nearby
// seeds and stream numbers start from unrelated states.
func newStream(seed uint64, stream int) *rand.Rand {
	return rand.New(rand.NewPCG(splitmix(seed), splitmix(seed^uint64(stream)*0x9e3779b97f4a7c15)))
}

// splitmix is the finalizer of SplitMix64 [Ste14]: a bijection of uint64
// with full avalanche.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func prepare(d *Dataset, cfg *Config, seed uint64) (*seedData, error) {
	t := d.Train
	n := t.Rows()
	perm := newStream(seed, streamSplit).Perm(n)
	// scikit-learn's train_test_split rounds the test share up; this gives
	// CENSUS's 26,048 training rows of 32,561 [BLIA, Table 1].
	nTrain := n - int(math.Ceil((1-cfg.TrainFrac)*float64(n)))
	if nTrain < 2 {
		return nil, fmt.Errorf("passive: %s: a training fraction of %v leaves %d training rows", d.Name, cfg.TrainFrac, nTrain)
	}
	trainRows, heldRows := perm[:nTrain], perm[nTrain:]
	enc := NewEncoder(t, trainRows)
	sd := &seedData{seed: seed, x: enc.Encode(t, trainRows), nFeatures: len(enc.Features())}
	sd.y = make([]int, nTrain)
	for r, i := range trainRows {
		sd.y[r] = t.Labels[i]
	}
	switch {
	case d.Test != nil:
		all := make([]int, d.Test.Rows())
		for i := range all {
			all[i] = i
		}
		sd.xTest, sd.yTest = enc.Encode(d.Test, all), d.Test.Labels
	case len(heldRows) > 0:
		sd.xTest = enc.Encode(t, heldRows)
		sd.yTest = make([]int, len(heldRows))
		for r, i := range heldRows {
			sd.yTest[r] = t.Labels[i]
		}
	}
	var err error
	if sd.canaries, err = Canaries(nTrain, cfg.CanaryFrac, newStream(seed, streamCanary)); err != nil {
		return nil, err
	}
	sd.yCanary = append([]int(nil), sd.y...)
	FlipCanaries(sd.yCanary, sd.canaries, newStream(seed, streamFlip))
	sd.u = RRUniforms(nTrain, newStream(seed, streamRR))
	dr := newStream(seed, streamDecoy)
	sd.decoyY = make([]int, len(sd.canaries))
	for i := range sd.decoyY {
		sd.decoyY[i] = dr.IntN(2)
	}
	sd.decoyU = RRUniforms(len(sd.canaries), dr)
	return sd, nil
}

// RunExperiment runs the experiment cfg on d: for every seed and every ε it
// splits the data, flips the canaries, applies randomized response, trains
// the model, runs the attacks on the canaries and tests the outcomes. Runs
// are trained cfg.Workers at a time; the report does not depend on the
// number of workers. It returns ctx.Err() if ctx is cancelled.
func RunExperiment(ctx context.Context, d *Dataset, cfg Config) (*Report, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	seeds := make([]*seedData, cfg.Seeds)
	for s := range seeds {
		var err error
		if seeds[s], err = prepare(d, &cfg, cfg.FirstSeed+uint64(s)); err != nil {
			return nil, err
		}
	}
	attacks := cfg.Attacks()
	type job struct{ e, s int }
	runs := make([][]Run, len(cfg.Epsilons))
	for e := range runs {
		runs[e] = make([]Run, cfg.Seeds)
	}
	unit := 1
	if cfg.Model == "mlp" {
		unit = cfg.MLP.Epochs
	}
	total := len(cfg.Epsilons) * cfg.Seeds * unit
	var mu sync.Mutex
	done := 0
	tick := func(k int) {
		if cfg.Progress == nil {
			return
		}
		mu.Lock()
		done += k
		cfg.Progress(done, total)
		mu.Unlock()
	}
	jobs := make(chan job)
	errs := make(chan error, cfg.Workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r, err := runOne(ctx, seeds[j.s], &cfg, cfg.Epsilons[j.e], attacks, tick)
				if err != nil {
					errs <- err
					cancel()
					return
				}
				runs[j.e][j.s] = r
			}
		}()
	}
feed:
	for s := range cfg.Seeds {
		for e := range cfg.Epsilons {
			select {
			case jobs <- job{e, s}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	select {
	case err := <-errs:
		return nil, err
	default:
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return assemble(d, &cfg, seeds[0].nFeatures, runs, time.Since(start).Seconds()), nil
}

// assemble is the report of cfg on d from its runs (runs[ε][seed]).
func assemble(d *Dataset, cfg *Config, features int, runs [][]Run, seconds float64) *Report {
	attacks := cfg.Attacks()
	rep := &Report{
		Dataset: d.Name, Model: cfg.Model, Features: features, Seeds: cfg.Seeds,
		CanaryFrac: cfg.CanaryFrac, TrainFrac: cfg.TrainFrac,
	}
	for _, a := range attacks {
		rep.Attacks = append(rep.Attacks, a.String())
		rep.ReadLabels = append(rep.ReadLabels, a.ReadsLabels())
	}
	for e, eps := range cfg.Epsilons {
		keep, _ := KeepProb(float64(eps))
		er := EpsilonReport{Epsilon: eps, Keep: keep, Runs: runs[e]}
		var tr, te []float64
		for _, r := range runs[e] {
			tr = append(tr, r.TrainAcc)
			te = append(te, r.TestAcc)
		}
		er.TrainAcc, er.TestAcc = statOf(tr), statOf(te)
		for a := range attacks {
			var rates []float64
			var os, ds []Outcome
			for _, r := range runs[e] {
				rates = append(rates, r.Outcomes[a].Rate)
				os = append(os, r.Outcomes[a])
				ds = append(ds, r.Decoys[a])
			}
			er.Rates = append(er.Rates, statOf(rates))
			er.Pooled = append(er.Pooled, Pool(os...))
			er.PooledDecoys = append(er.PooledDecoys, Pool(ds...))
		}
		rep.Epsilons = append(rep.Epsilons, er)
	}
	rep.Seconds = seconds
	return rep
}

// runOne trains and attacks one (seed, ε) model.
func runOne(ctx context.Context, sd *seedData, cfg *Config, eps Epsilon, attacks []Attack, tick func(int)) (Run, error) {
	start := time.Now()
	keep, err := KeepProb(float64(eps))
	if err != nil {
		return Run{}, err
	}
	n := len(sd.y)
	yt, flipped := RandomizedResponse(make([]int, n), sd.yCanary, keep, sd.u)
	var model Classifier
	switch cfg.Model {
	case "logreg":
		m, err := TrainLogReg(ctx, sd.x, yt, cfg.LogReg)
		if err != nil {
			return Run{}, err
		}
		model = m
		tick(1)
	case "mlp":
		opt := cfg.MLP
		opt.Seed = newStream(sd.seed, streamModel).Uint64()
		opt.Progress = func(int, int) { tick(1) }
		m, err := TrainMLP(ctx, sd.x, yt, opt)
		if err != nil {
			return Run{}, err
		}
		model = m
	}
	r := Run{Seed: sd.seed, TrainRows: n, Canaries: len(sd.canaries), RRFlipped: flipped}
	p := model.Prob1(nil, sd.x)
	for i, v := range p {
		if math.IsNaN(v) {
			return Run{}, &DivergedError{Model: cfg.Model, Seed: sd.seed, Row: i}
		}
	}
	r.TrainAcc = accuracy(p, yt)
	if sd.xTest != nil {
		r.TestAcc, r.TestRows = accuracy(model.Prob1(nil, sd.xTest), sd.yTest), len(sd.yTest)
	}
	m := len(sd.canaries)
	p1 := make([]float64, m)
	canary := make([]int, m)
	trained := make([]int, m)
	for k, i := range sd.canaries {
		p1[k], canary[k], trained[k] = p[i], sd.yCanary[i], yt[i]
	}
	r.CanaryFit = accuracy(p1, trained)
	decoyT, _ := RandomizedResponse(make([]int, m), sd.decoyY, keep, sd.decoyU)
	for _, a := range attacks {
		o, err := Evaluate(a, p1, canary, trained, keep)
		if err != nil {
			return Run{}, err
		}
		dcy, err := Evaluate(a, p1, sd.decoyY, decoyT, keep)
		if err != nil {
			return Run{}, err
		}
		r.Outcomes = append(r.Outcomes, o)
		r.Decoys = append(r.Decoys, dcy)
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// DivergedError reports training that diverged: the trained model's
// predicted probability of a training row is NaN (weights overflowed, for
// instance with too large a step size). It is a training failure, not a
// data error.
type DivergedError struct {
	Model string // "logreg" or "mlp"
	Seed  uint64
	Row   int // the first training row whose prediction is NaN
}

func (e *DivergedError) Error() string {
	hint := ""
	if e.Model == "mlp" {
		hint = " (is the step size too large?)"
	}
	return fmt.Sprintf("passive: %s training diverged (seed %d): its prediction for training row %d is NaN%s", e.Model, e.Seed, e.Row, hint)
}

// accuracy is the fraction of rows with (p ≥ ½) == (y = 1).
func accuracy(p []float64, y []int) float64 {
	c := 0
	for i, v := range p {
		if b2i(v >= 0.5) == y[i] {
			c++
		}
	}
	return float64(c) / float64(len(p))
}
