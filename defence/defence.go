package defence

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"sync"
	"sync/atomic"
)

// Sentinel errors, for errors.Is.
var (
	// ErrNoPerRow is returned by a mechanism that needs per-row losses
	// (the parameter-free Ladder's paired test, Thresholdout without a
	// TrainScore) when the metric has none, as ROC AUC has none.
	ErrNoPerRow = errors.New("defence: the metric has no per-row losses")
	// ErrExhausted is returned by Thresholdout once its budget B is spent:
	// the paper's mechanism stops answering (outputs ⊥) [DFHPRR15].
	ErrExhausted = errors.New("defence: thresholdout budget exhausted")
	// ErrNotClosed is returned when the private score is asked for before
	// the competition closes.
	ErrNotClosed = errors.New("defence: competition not closed; private score withheld")
)

// Submission is what a scorer knows of one submission when it asks a
// [Chain] for the score to release. Losses are on the lower-is-better
// scale (pass 1 − AUC for ROC AUC).
type Submission struct {
	// Team names the account the submission is charged to; per-team
	// Ladders keep one state per Team. The empty string is a team.
	Team string
	// Pred is the canonical byte encoding of the prediction (see
	// [CanonicalPred]); keyed noise hashes it. May be nil unless a keyed
	// [Noise] keyed on the prediction is in the chain.
	Pred []byte
	// Losses holds the per-row loss ℓ(f(x_i), y_i) of every holdout row
	// (public and private), in row order. Nil for a metric without a
	// per-row decomposition (AUC); then Mean must be set and mechanisms
	// that need per-row losses return ErrNoPerRow.
	Losses []float64
	// Mean returns the exact score of the submission on the given holdout
	// rows (indices into the holdout). Nil means the exact rational mean
	// of Losses over those rows (exact in the float64 values given; see
	// [ExactMean]). A scorer with an exact or higher-precision loss (the
	// loss package) sets it so that rounding acts on the true value.
	Mean func(rows []int) (*big.Rat, error)
	// Train holds the per-row losses on the training rows (labels public),
	// used by [Thresholdout]; TrainScore, if non-nil, overrides their mean.
	Train      []float64
	TrainScore *big.Rat
	// HigherIsBetter marks a score whose larger values are better
	// (accuracy, ROC AUC): the Ladder then moves on a score above the best
	// by more than its margin, not below it. Losses stay losses (lower is
	// better: accuracy's 0/1 loss), so the parameter-free Ladder's margin
	// from their paired differences is the same on either side.
	HigherIsBetter bool
}

// Released is the answer a [Chain] releases for one submission.
type Released struct {
	// Score is the released value, an exact rational.
	Score *big.Rat
	// Decimals is the number of decimals Score was rounded to by a
	// [Round] stage, or −1 if no rounding stage ran.
	Decimals int
	// Rows is the number of holdout rows the score was computed on.
	Rows int
	// Events lists what the stages did, one short line each
	// ("ladder: repeated best", "thresholdout: holdout answered, budget 3
	// left"), for logs; the server must not show them to the submitter
	// (they say whether the Ladder moved, which the score already says,
	// but Thresholdout's would reveal that the threshold was crossed).
	Events []string
}

// Text returns the released score as a decimal string: exactly Decimals
// digits after the point if it was rounded, else the shortest float64
// text (a chain without rounding releases more than any display shows;
// see [Round]).
func (r Released) Text() string {
	if r.Decimals >= 0 {
		return r.Score.FloatString(r.Decimals)
	}
	f, _ := r.Score.Float64()
	return fmt.Sprintf("%v", f)
}

// Float64 returns the released score as the nearest float64.
func (r Released) Float64() float64 {
	f, _ := r.Score.Float64()
	return f
}

// state is what flows through the stages of a chain for one submission.
type state struct {
	sub      *Submission
	n        int   // number of holdout rows
	rows     []int // holdout rows in scope; nil means all n
	score    *big.Rat
	decimals int
	events   []string
}

// rowIndex returns the rows in scope. The slice may be shared with other
// submissions (every row in order): callers must not modify it.
func (s *state) rowIndex() []int {
	if s.rows == nil {
		s.rows = identityRows(s.n)
	}
	return s.rows
}

// identity holds 0, 1, …, m−1 for the largest m asked for so far; its
// prefixes are shared, read-only, by every submission scored on all rows.
var identity atomic.Pointer[[]int]

// identityRows returns 0, 1, …, n−1, shared (its capacity is n, so that
// an append copies).
func identityRows(n int) []int {
	if p := identity.Load(); p != nil && len(*p) >= n {
		return (*p)[:n:n]
	}
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	identity.Store(&r)
	return r[:n:n]
}

// nrows returns the number of rows in scope.
func (s *state) nrows() int {
	if s.rows == nil {
		return s.n
	}
	return len(s.rows)
}

// losses returns the per-row losses of the rows in scope. The slice may
// alias the submission's: callers must not modify it, and must copy it to
// keep it.
func (s *state) losses() ([]float64, error) {
	if s.sub.Losses == nil {
		return nil, ErrNoPerRow
	}
	if s.rows == nil {
		return s.sub.Losses, nil
	}
	r := s.rows
	out := make([]float64, len(r))
	for j, i := range r {
		out[j] = s.sub.Losses[i]
	}
	return out, nil
}

// value returns the current score, computing the exact score on the rows
// in scope the first time it is needed.
func (s *state) value() (*big.Rat, error) {
	if s.score != nil {
		return s.score, nil
	}
	var (
		v   *big.Rat
		err error
	)
	if s.sub.Mean != nil {
		v, err = s.sub.Mean(s.rowIndex())
		if err == nil && v == nil {
			err = errors.New("defence: Submission.Mean returned nil")
		}
	} else {
		l, _ := s.losses()
		v, err = ExactMean(l)
	}
	if err != nil {
		return nil, err
	}
	s.score = new(big.Rat).Set(v)
	return s.score, nil
}

// Stage is one mechanism of a [Chain]. The set of stages is closed: build
// them with [NewRound], [NewNoise], [NewLadder], [NewThresholdout],
// [NewSplit] and [NewSubset]. A stage belongs to one chain: the chain's
// lock is what serialises its random streams.
type Stage interface {
	// String names the stage and its settings.
	String() string
	apply(s *state) error
	kind() stageKind
}

type stageKind int

const (
	rowStage   stageKind = iota // chooses the rows scored (Split, Subset)
	scoreStage                  // transforms the score (Round, Noise, Ladder, Thresholdout)
)

// Chain applies its stages in order to each submission and releases the
// result. Row stages ([Split], then [Subset]) come first and choose the
// holdout rows scored; score stages follow, each transforming the score
// the previous one released (e.g. Ladder → Noise → Round). A Chain is safe
// for concurrent use; submissions are processed one at a time, in the
// order Release is called, because the Ladder and Thresholdout are
// sequential mechanisms.
type Chain struct {
	mu     sync.Mutex
	n      int
	stages []Stage
	split  *Split
	// needPred: a stage reads Submission.Pred (noise keyed on it).
	needPred bool
}

// NewChain returns a chain over a holdout of n rows. It returns an error
// if n < 1, if a row stage follows a score stage, if there is more than
// one Split or Subset, or if a parameter-free Ladder follows a Subset (its
// paired test needs the same rows for the leader and the challenger).
func NewChain(n int, stages ...Stage) (*Chain, error) {
	if n < 1 {
		return nil, fmt.Errorf("defence: holdout of %d rows", n)
	}
	c := &Chain{n: n, stages: stages}
	seenScore, seenSubset := false, false
	for i, st := range stages {
		if st == nil {
			return nil, fmt.Errorf("defence: stage %d is nil", i)
		}
		switch st.kind() {
		case rowStage:
			if seenScore {
				return nil, fmt.Errorf("defence: row stage %v after a score stage", st)
			}
		default:
			seenScore = true
		}
		switch t := st.(type) {
		case *Split:
			if c.split != nil || seenSubset {
				return nil, fmt.Errorf("defence: Split must come first and once")
			}
			if t.n != n {
				return nil, fmt.Errorf("defence: Split over %d rows in a chain over %d", t.n, n)
			}
			c.split = t
		case *Subset:
			if seenSubset {
				return nil, fmt.Errorf("defence: more than one Subset")
			}
			seenSubset = true
		case *Noise:
			c.needPred = c.needPred || t.opts.Key == KeyedPrediction
		case *Ladder:
			if t.opts.Kind == ParameterFree && seenSubset {
				return nil, fmt.Errorf("defence: a parameter-free Ladder needs fixed rows; it cannot follow a Subset")
			}
		}
	}
	return c, nil
}

// Rows returns the number of holdout rows of the chain.
func (c *Chain) Rows() int { return c.n }

// NeedsPred reports whether a stage reads Submission.Pred (noise keyed
// on the prediction); a scorer may skip encoding it otherwise.
func (c *Chain) NeedsPred() bool { return c.needPred }

// Split returns the chain's Split stage, or nil.
func (c *Chain) Split() *Split { return c.split }

// Ladder returns the chain's first Ladder stage, or nil: a host persists
// its [Ladder.Snapshot] and restores it after a restart.
func (c *Chain) Ladder() *Ladder {
	for _, st := range c.stages {
		if l, ok := st.(*Ladder); ok {
			return l
		}
	}
	return nil
}

// Thresholdout returns the chain's first Thresholdout stage, or nil: a
// host persists its [Thresholdout.Remaining] budget across restarts.
func (c *Chain) Thresholdout() *Thresholdout {
	for _, st := range c.stages {
		if t, ok := st.(*Thresholdout); ok {
			return t
		}
	}
	return nil
}

// Release runs sub through the chain and returns the released score.
// It returns an error, and changes no state, if sub is malformed (wrong
// number of losses, a NaN, infinite or negative loss). A stage's own
// refusal (ErrExhausted, ErrNoPerRow, a Subset larger than the rows) is
// returned as an error too; stateful stages before the refusing one
// (Ladder, Thresholdout, fresh Noise's counter) keep their update, so put
// Thresholdout first and check a chain's settings once with a test
// submission. The host must call Release only for a submission it has
// already charged to the submitter's budget.
func (c *Chain) Release(sub Submission) (Released, error) {
	if err := checkSubmission(&sub, c.n); err != nil {
		return Released{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &state{sub: &sub, n: c.n, decimals: -1}
	for _, st := range c.stages {
		if err := st.apply(s); err != nil {
			return Released{}, err
		}
	}
	v, err := s.value()
	if err != nil {
		return Released{}, err
	}
	return Released{Score: v, Decimals: s.decimals, Rows: s.nrows(), Events: s.events}, nil
}

// checkSubmission validates the user-supplied parts of sub.
func checkSubmission(sub *Submission, n int) error {
	if sub.Losses == nil && sub.Mean == nil {
		return errors.New("defence: submission has neither Losses nor Mean")
	}
	if sub.Losses != nil {
		if len(sub.Losses) != n {
			return fmt.Errorf("defence: %d per-row losses for a holdout of %d rows", len(sub.Losses), n)
		}
		if err := checkLosses(sub.Losses); err != nil {
			return err
		}
	}
	if err := checkLosses(sub.Train); err != nil {
		return fmt.Errorf("%w (training rows)", err)
	}
	return nil
}

func checkLosses(l []float64) error {
	for i, v := range l {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("defence: loss of row %d is %v; want finite and ≥ 0", i, v)
		}
	}
	return nil
}

// ExactMean returns the exact rational mean of the float64 values x.
// Every float64 is m·2^e with an integer m < 2^53; the mantissas are
// summed exactly in 128-bit accumulators, one per exponent and sign
// (2^75 terms before overflow), which are then combined in one big.Int
// and divided by len(x) as a rational. It returns an error if x is empty
// or holds a NaN or an infinity.
func ExactMean(x []float64) (*big.Rat, error) {
	if len(x) == 0 {
		return nil, errors.New("defence: mean of no rows")
	}
	lo, hi := math.MaxInt, math.MinInt
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("defence: value %d is %v", i, v)
		}
		if v != 0 {
			_, e := mantExp(v)
			lo, hi = min(lo, e), max(hi, e)
		}
	}
	sum := new(big.Rat)
	if lo <= hi {
		type acc struct{ hi, lo uint64 }
		pos := make([]acc, hi-lo+1)
		neg := make([]acc, hi-lo+1)
		for _, v := range x {
			if v == 0 {
				continue
			}
			m, e := mantExp(v)
			a := &pos[e-lo]
			if v < 0 {
				a = &neg[e-lo]
			}
			var c uint64
			a.lo, c = bits.Add64(a.lo, m, 0)
			a.hi += c
		}
		tot, t := new(big.Int), new(big.Int)
		for k := len(pos) - 1; k >= 0; k-- {
			// tot = tot·2 + (pos − neg)[k], Horner in base 2 from the top.
			tot.Lsh(tot, 1)
			for sign, a := range [2]acc{pos[k], neg[k]} {
				if a.hi == 0 && a.lo == 0 {
					continue
				}
				t.SetUint64(a.hi)
				t.Lsh(t, 64)
				t.Or(t, new(big.Int).SetUint64(a.lo))
				if sign == 0 {
					tot.Add(tot, t)
				} else {
					tot.Sub(tot, t)
				}
			}
		}
		sum.SetInt(tot)
		p := new(big.Int).Lsh(big.NewInt(1), uint(abs(lo)))
		if lo >= 0 {
			sum.Mul(sum, new(big.Rat).SetInt(p))
		} else {
			sum.Quo(sum, new(big.Rat).SetInt(p))
		}
	}
	return sum.Quo(sum, new(big.Rat).SetInt64(int64(len(x)))), nil
}

// mantExp returns the integer mantissa m < 2^53 and exponent e of a
// finite nonzero v, |v| = m·2^e.
func mantExp(v float64) (uint64, int) {
	b := math.Float64bits(v)
	exp := int(b>>52) & 0x7ff
	m := b & (1<<52 - 1)
	if exp == 0 {
		return m, -1074 // subnormal
	}
	return m | 1<<52, exp - 1075
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
