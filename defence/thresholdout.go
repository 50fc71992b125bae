package defence

import (
	"crypto/rand"
	"errors"
	"fmt"
	"math"
	"math/big"
	mrand "math/rand/v2"
	"sync"
)

// ThresholdoutOptions configures [NewThresholdout]. T, Sigma and Budget
// are in score units: the paper states them for queries with values in
// [0, 1]; for a loss bounded by L (1 for 0/1 loss, ln(1/ε) for log-loss
// clipped at ε) multiply τ by L, which is what [ThresholdoutDefaults]
// does.
type ThresholdoutOptions struct {
	// T is the threshold on |holdout − train|, ≥ 0.
	T float64
	// Sigma is the noise rate σ, > 0: the threshold is perturbed by
	// Lap(2σ), each comparison by Lap(4σ) and each holdout answer by
	// Lap(σ) [DFHPRR15, Thresholdout].
	Sigma float64
	// Budget is B ≥ 1: the number of holdout answers (comparisons above
	// the threshold) before the mechanism stops answering.
	Budget int
	// Gaussian replaces every Laplace draw by a Gaussian of the same
	// scale, as the authors' supplementary experiment does
	// (andyljones/thresholdout thresholdout.py; DEFENCES.md §2.4).
	Gaussian bool
	// Seed seeds the ChaCha8 stream of the noise; nil draws it from
	// crypto/rand (the host keeps it secret; tests fix it).
	Seed *[32]byte
	// PerTeam keeps one budget B and one threshold T̂ per
	// Submission.Team instead of one for all (the paper's single
	// analyst). The global budget is what the theorem covers, and its
	// cost is availability: one team that overfits the holdout spends it
	// for everyone. Per team, no team can exhaust another's, but k
	// accounts buy k budgets (k·B holdout answers): the guarantee holds
	// per account only.
	PerTeam bool
	// TrainWhenExhausted makes a spent budget answer the training score
	// (which depends on the public training rows only) instead of
	// ErrExhausted.
	TrainWhenExhausted bool
}

// ThresholdoutDefaults returns the settings of [DFHPRR15, Theorem 9] for m
// queries, accuracy tau (on the paper's [0, 1] scale), failure probability
// beta and a loss bounded by lossBound: T = 3τL/4 and σ = τL/(96·ln(4m/β)).
// The budget B is the host's choice (the theorem's sample size grows with
// it); it is set to budget.
func ThresholdoutDefaults(tau float64, m int, beta, lossBound float64, budget int) (ThresholdoutOptions, error) {
	if !(tau > 0 && tau <= 1) || m < 1 || !(beta > 0 && beta < 1) || !(lossBound > 0) || math.IsInf(lossBound, 0) || budget < 1 {
		return ThresholdoutOptions{}, fmt.Errorf("defence: Thresholdout defaults need 0 < τ ≤ 1, m ≥ 1, 0 < β < 1, 0 < L < ∞, B ≥ 1; have τ=%v m=%d β=%v L=%v B=%d", tau, m, beta, lossBound, budget)
	}
	return ThresholdoutOptions{
		T:      3 * tau * lossBound / 4,
		Sigma:  tau * lossBound / (96 * math.Log(4*float64(m)/beta)),
		Budget: budget,
	}, nil
}

// ThresholdoutScienceCode returns the settings of the authors'
// supplementary experiment for a holdout of n rows: threshold 4/√n,
// Gaussian noise of standard deviation ("tolerance") 1/√n
// (andyljones/thresholdout thresholdout.py, n = 10,000: 0.04 and 0.01),
// scaled by the loss bound L, with the given budget.
func ThresholdoutScienceCode(n int, lossBound float64, budget int) (ThresholdoutOptions, error) {
	if n < 1 || !(lossBound > 0) || math.IsInf(lossBound, 0) || budget < 1 {
		return ThresholdoutOptions{}, fmt.Errorf("defence: Thresholdout needs n ≥ 1, 0 < L < ∞, B ≥ 1; have n=%d L=%v B=%d", n, lossBound, budget)
	}
	r := 1 / math.Sqrt(float64(n))
	return ThresholdoutOptions{T: 4 * r * lossBound, Sigma: r * lossBound, Budget: budget, Gaussian: true}, nil
}

// Thresholdout is the reusable holdout of [DFHPRR15]: the competition's
// training rows, whose labels are public, play the training set S_t and
// the holdout rows in scope play S_h. For each submission it answers the
// training score unless |holdout − train| > T̂ + Lap(4σ), where T̂ = T +
// Lap(2σ); then it answers holdout + Lap(σ), spends one unit of the
// budget and redraws T̂ (the sparse-vector step the theorem cites
// [inferred]; DEFENCES.md §2.4). Once the budget is spent it returns
// ErrExhausted for every submission. Below the threshold the answer
// depends on the training rows only, so it tells nothing about the
// private labels.
//
// The budget is global by default (the paper's mechanism has one
// analyst); [ThresholdoutOptions.PerTeam] keeps one per team.
type Thresholdout struct {
	mu    sync.Mutex // guards the state against Remaining/Restore during a release
	opts  ThresholdoutOptions
	src   *mrand.ChaCha8 // rng's source, whose position StreamState saves
	rng   *mrand.Rand
	all   thState             // the global budget and threshold
	teams map[string]*thState // PerTeam: each team's, created at its first submission
}

// thState is one budget and its noisy threshold T̂.
type thState struct {
	that   float64
	budget int
}

// NewThresholdout returns a Thresholdout stage.
func NewThresholdout(o ThresholdoutOptions) (*Thresholdout, error) {
	if !(o.T >= 0) || math.IsInf(o.T, 0) || !(o.Sigma > 0) || math.IsInf(o.Sigma, 0) || o.Budget < 1 {
		return nil, fmt.Errorf("defence: Thresholdout needs T ≥ 0, σ > 0 finite, B ≥ 1; have T=%v σ=%v B=%d", o.T, o.Sigma, o.Budget)
	}
	var seed [32]byte
	if o.Seed != nil {
		seed = *o.Seed
	} else if _, err := rand.Read(seed[:]); err != nil {
		return nil, fmt.Errorf("defence: reading crypto/rand: %w", err)
	}
	o.Seed = nil // never kept where a caller could read it back
	src := mrand.NewChaCha8(seed)
	t := &Thresholdout{opts: o, src: src, rng: mrand.New(src)}
	if o.PerTeam {
		t.teams = map[string]*thState{}
	} else {
		t.all = t.fresh(o.Budget)
	}
	return t, nil
}

// fresh returns a budget with a newly drawn threshold.
func (t *Thresholdout) fresh(budget int) thState {
	return thState{that: t.opts.T + t.noise(2*t.opts.Sigma), budget: budget}
}

// of returns team's state (the global one unless PerTeam).
func (t *Thresholdout) of(team string) *thState {
	if !t.opts.PerTeam {
		return &t.all
	}
	st, ok := t.teams[team]
	if !ok {
		f := t.fresh(t.opts.Budget)
		st = &f
		t.teams[team] = st
	}
	return st
}

func (t *Thresholdout) String() string {
	per := ""
	if t.opts.PerTeam {
		per = " per team"
	}
	return fmt.Sprintf("thresholdout(T=%g, σ=%g, B=%d%s)", t.opts.T, t.opts.Sigma, t.opts.Budget, per)
}
func (t *Thresholdout) kind() stageKind { return scoreStage }

// PerTeam reports whether each team has its own budget.
func (t *Thresholdout) PerTeam() bool { return t.opts.PerTeam }

// Remaining returns the global budget left (PerTeam: B, the budget of a
// team yet to submit; see [Thresholdout.TeamState]).
func (t *Thresholdout) Remaining() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.opts.PerTeam {
		return t.opts.Budget
	}
	return t.all.budget
}

// TeamState returns, with PerTeam, team's budget left and threshold, and
// false if team has not submitted (it starts with B and a fresh
// threshold); without PerTeam, the global state ([Thresholdout.State]).
func (t *Thresholdout) TeamState(team string) (ThresholdoutState, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.opts.PerTeam {
		return ThresholdoutState{Remaining: t.all.budget, Threshold: t.all.that}, true
	}
	st, ok := t.teams[team]
	if !ok {
		return ThresholdoutState{}, false
	}
	return ThresholdoutState{Remaining: st.budget, Threshold: st.that}, true
}

// SetTeamState sets, with PerTeam, team's budget left and threshold; nil
// forgets team, which then starts afresh (B, a new threshold drawn from
// the stream) at its next submission. Without PerTeam it sets the global
// state (nil is an error). It returns an error, and changes nothing, for
// a budget outside [0, B] or a threshold that is NaN or infinite.
func (t *Thresholdout) SetTeamState(team string, st *ThresholdoutState) error {
	if st == nil {
		if !t.opts.PerTeam {
			return errors.New("defence: Thresholdout has one global state; it cannot be forgotten")
		}
		t.mu.Lock()
		delete(t.teams, team)
		t.mu.Unlock()
		return nil
	}
	if err := t.checkState(*st); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.opts.PerTeam {
		t.all = thState{that: st.Threshold, budget: st.Remaining}
		return nil
	}
	t.teams[team] = &thState{that: st.Threshold, budget: st.Remaining}
	return nil
}

func (t *Thresholdout) noise(scale float64) float64 {
	if t.opts.Gaussian {
		return draw(t.rng, Gaussian, scale)
	}
	return draw(t.rng, Laplace, scale)
}

func (t *Thresholdout) apply(s *state) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.of(s.sub.Team)
	if st.budget < 1 && !t.opts.TrainWhenExhausted {
		return ErrExhausted
	}
	train := s.sub.TrainScore
	if train == nil {
		if len(s.sub.Train) == 0 {
			return errors.New("defence: Thresholdout needs the training rows' losses or TrainScore")
		}
		var err error
		if train, err = ExactMean(s.sub.Train); err != nil {
			return err
		}
	}
	if st.budget < 1 {
		// Spent, with TrainWhenExhausted: the training score, without
		// looking at the holdout.
		s.score = new(big.Rat).Set(train)
		s.events = append(s.events, "thresholdout: budget spent, training score answered")
		return nil
	}
	h, err := s.value()
	if err != nil {
		return err
	}
	hf, _ := h.Float64()
	tf, _ := train.Float64()
	eta := t.noise(4 * t.opts.Sigma)
	if math.Abs(hf-tf) > st.that+eta {
		xi := t.noise(t.opts.Sigma)
		if math.IsInf(xi, 0) || math.IsNaN(xi) {
			return fmt.Errorf("defence: Thresholdout noise overflowed (σ %g)", t.opts.Sigma)
		}
		*st = t.fresh(st.budget - 1)
		s.score = new(big.Rat).Add(h, new(big.Rat).SetFloat64(xi))
		s.events = append(s.events, fmt.Sprintf("thresholdout: holdout answered, budget %d left", st.budget))
		return nil
	}
	s.score = new(big.Rat).Set(train)
	s.events = append(s.events, "thresholdout: training score answered")
	return nil
}

// Restore sets the budget left, for a host that persists
// [Thresholdout.Remaining] across restarts (the noise is redrawn from the
// new seed; only the budget carries the mechanism's guarantee over). It
// returns an error if remaining is negative or above the configured B.
func (t *Thresholdout) Restore(remaining int) error {
	if t.opts.PerTeam {
		return errors.New("defence: Thresholdout keeps one budget per team: restore each with SetTeamState")
	}
	if remaining < 0 || remaining > t.opts.Budget {
		return fmt.Errorf("defence: Thresholdout budget %d out of [0, %d]", remaining, t.opts.Budget)
	}
	t.mu.Lock()
	t.all.budget = remaining
	t.mu.Unlock()
	return nil
}
