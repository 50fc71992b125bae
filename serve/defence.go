package serve

// This file connects a served competition to package defence: the
// competition's "defence" settings (defence.Settings, the same JSON the
// audit's grid uses) are checked against the competition's own fields,
// built into a defence.Chain, and every public score is released through
// it with the submission's team, prediction bytes and per-row losses.

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/libm"
	"github.com/labelinf/labelinf/metric"
)

// minSecretBytes is the least length of a defence secret: 32 bytes, the
// key size of the HMAC-SHA256 that derives the noise streams.
const minSecretBytes = 32

// checkDefence checks a competition's defence settings against its own
// fields: each of rounding, split, clipping and limits is set in one
// place only, Thresholdout (which needs training rows with public labels,
// which a served competition does not have) is refused, and the secret
// file and simulation seed are well formed. NewCompetition calls it too,
// so that a config built in code is checked as a file is.
func checkDefence(cc *CompetitionConfig) error {
	d := cc.Defence
	if d == nil {
		if cc.DefenceSecretFile != "" || cc.SimulationSeed != "" || cc.TrainLabels != "" || cc.DefenceStateFile != "" || cc.PublishDefence {
			return errors.New("defence_secret_file, defence_state_file, simulation_seed, train_labels and publish_defence need a defence")
		}
		return nil
	}
	if cc.TrainLabels != "" && d.Thresholdout == nil {
		return errors.New("train_labels without defence.thresholdout: training rows serve only Thresholdout")
	}
	switch {
	case d.Decimals != nil && cc.Decimals != nil:
		return errors.New("decimals set both in the competition and in its defence; set it in one place")
	case d.Decimals != nil && (*d.Decimals < 0 || *d.Decimals > 17):
		return fmt.Errorf("defence.decimals %d outside [0, 17]", *d.Decimals)
	case d.Split != nil && ((cc.PublicFraction != 0 && cc.PublicFraction != 1) || cc.SplitSeed != 0):
		return errors.New("public_fraction/split_seed and defence.split both set; set the split in one place")
	case d.Split != nil && !d.Split.Close.IsZero() && !cc.Closes.IsZero() && !d.Split.Close.Equal(cc.Closes):
		return errors.New("closes and defence.split.close differ")
	case d.Clip != 0 && cc.Clip != "":
		return errors.New("clip set both in the competition and in its defence; set it in one place")
	case d.Limits != (defence.LimitSettings{}) && (cc.DailyLimit != 0 || cc.TotalLimit != 0 || cc.MinInterval != 0):
		return errors.New("limits set both in the competition (daily_limit, total_limit, min_interval) and in its defence; set them in one place")
	case d.Thresholdout != nil && cc.TrainLabels == "":
		return errors.New("defence.thresholdout needs train_labels: training rows whose labels are public play the paper's training set")
	}
	if cc.SimulationSeed != "" {
		if _, err := parseSimulationSeed(cc.SimulationSeed); err != nil {
			return err
		}
		if cc.DefenceSecretFile != "" {
			return errors.New("simulation_seed and defence_secret_file both set: a simulation derives its secret from the seed")
		}
	}
	return nil
}

func parseSimulationSeed(s string) ([32]byte, error) {
	var seed [32]byte
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		return seed, errors.New("simulation_seed must be 64 hexadecimal digits")
	}
	copy(seed[:], b)
	return seed, nil
}

// readSecret reads the defence secret file: its bytes, surrounding white
// space removed, at least minSecretBytes of them.
func readSecret(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("defence_secret_file: %w", err)
	}
	b = []byte(strings.TrimSpace(string(b)))
	if len(b) < minSecretBytes {
		return nil, fmt.Errorf("defence_secret_file %s: %d bytes; want at least %d (e.g. head -c 48 /dev/urandom | base64 > FILE)", path, len(b), minSecretBytes)
	}
	return b, nil
}

// served is a competition's defence chain and what Release needs beside
// the prediction. The chain's memory is scratch: what it remembers
// between submissions is in the database (defstate.go).
type served struct {
	mu     sync.Mutex // held from restoring the chain's state to reading it back
	chain  *defence.Chain
	labels []int         // every holdout row's label, in row order
	eps    float64       // the per-row log-loss clipping (1e-300 if none)
	perRow bool          // a stage reads the per-row losses
	rows   metric.Metric // the metric, if it has per-row losses (metric.RowLosses); nil: the log-loss's
	higher bool          // the metric's higher scores are better (the Ladder's direction)
	// stateFile is a defence_state_file to import once (defstate.go).
	stateFile     string
	ladderPerTeam bool
	thPerTeam     bool // Thresholdout keeps one budget per team
	// sim: simulation_seed; the random streams' positions are stored too.
	sim bool
	// subset: a Subset stage draws the rows scored at release.
	subset bool
	// thInit and streamsInit are the state before any submission.
	thInit      defence.ThresholdoutState
	streamsInit []byte
}

// buildDefence applies cc.Defence to c (whose metric, labels and
// decimals NewCompetition has set): the effective rounding, limits and
// split, and the chain that releases the public score.
func buildDefence(c *Competition, cc CompetitionConfig, labels []int) error {
	d := *cc.Defence
	if d.Decimals != nil {
		c.Decimals = *d.Decimals
	} else if c.Decimals >= 0 {
		dd := c.Decimals
		d.Decimals = &dd
	}
	if d.Limits != (defence.LimitSettings{}) {
		l, err := d.Limits.Limits()
		if err != nil {
			return err
		}
		c.Limits = Limits{Daily: l.PerDay, Total: l.Total, MinInterval: l.MinInterval}
	}
	ll, isLog := c.Metric.(*metric.LogLoss)
	hasRows := metric.HasRowLosses(c.Metric)
	keyedLosses := d.Noise != nil && d.Noise.Key == "losses"
	// The fixed-step Ladder reads the score alone; the parameter-free
	// one's paired test and noise keyed on the losses read per-row losses.
	needRows := keyedLosses || d.Ladder != nil && d.Ladder.Kind != "fixed"
	if needRows && !isLog && !hasRows {
		return fmt.Errorf("defence: the parameter-free Ladder and noise keyed on the losses are defined on a per-row loss; metric %s has none (a row's share of it depends on the other rows): use the fixed-step Ladder, which reads the score alone", c.Metric.Name())
	}
	keyed := d.Noise != nil && d.Noise.Key != "" && d.Noise.Key != "fresh"
	var (
		ch  *defence.Chain
		err error
	)
	switch {
	case cc.SimulationSeed != "":
		seed, _ := parseSimulationSeed(cc.SimulationSeed)
		ch, err = d.SimulationChain(len(labels), seed, nil)
	case keyed && cc.DefenceSecretFile == "":
		return errors.New("defence: noise keyed on the prediction or the losses needs defence_secret_file (the same noise after a restart needs the same secret)")
	default:
		var secret []byte
		if cc.DefenceSecretFile != "" {
			if secret, err = readSecret(cc.DefenceSecretFile); err != nil {
				return err
			}
		}
		ch, err = d.Chain(len(labels), secret, nil)
	}
	if err != nil {
		return err
	}
	if sp := ch.Split(); sp != nil {
		c.publicRows, c.privateRows = sp.Public(), sp.Private()
		if !d.Split.Close.IsZero() {
			c.Closes = d.Split.Close
		}
	}
	s := &served{chain: ch, stateFile: cc.DefenceStateFile, labels: labels, eps: 1e-300, perRow: needRows,
		higher:        !c.Metric.LowerIsBetter(),
		ladderPerTeam: d.Ladder != nil && d.Ladder.PerTeam, sim: cc.SimulationSeed != "",
		thPerTeam: d.Thresholdout != nil && d.Thresholdout.PerTeam}
	if th := ch.Thresholdout(); th != nil {
		s.thInit = th.State()
	}
	if s.sim {
		if s.streamsInit, err = ch.StreamState(); err != nil {
			return err
		}
	}
	if hasRows {
		s.rows = c.Metric
	}
	if isLog && ll.Eps() != "" {
		if e, err := strconv.ParseFloat(ll.Eps(), 64); err == nil && e > 0 {
			s.eps = e
		}
	}
	c.defence = s
	return nil
}

// errInfinite is the metric's score being infinite on the rows a
// defence asked for: the release is +Inf, not a defended value.
var errInfinite = errors.New("serve: infinite loss")

// releasePublic releases the public score of pred (every holdout row,
// row-major) by team through the competition's defence chain; train holds
// the predictions of the training rows (Thresholdout), nil without them.
func (c *Competition) releasePublic(pred, train []float64, team string, st StateTx) (string, error) {
	s := c.defence
	per := 1
	if c.K > 2 {
		per = c.K
	}
	sub := defence.Submission{Team: team, HigherIsBetter: s.higher}
	if s.chain.NeedsPred() {
		sub.Pred = defence.CanonicalPred(pred)
	}
	if s.perRow {
		sub.Losses = make([]float64, c.N)
		s.rowLosses(sub.Losses, pred, c.K)
	}
	var rowLabels []int
	var rowPred []float64
	sub.Mean = func(rows []int) (*big.Rat, error) {
		labels, rp := s.labels, pred
		if !identity(rows, len(s.labels)) {
			if rowLabels == nil {
				rowLabels, rowPred = make([]int, 0, len(rows)), make([]float64, 0, len(rows)*per)
			}
			rowLabels, rowPred = rowLabels[:0], rowPred[:0]
			for _, i := range rows {
				rowLabels = append(rowLabels, s.labels[i])
				rowPred = append(rowPred, pred[i*per:(i+1)*per]...)
			}
			labels, rp = rowLabels, rowPred
		}
		v := c.Metric.Score(labels, rp, c.K)
		if v.Inf {
			return nil, errInfinite
		}
		return v.R, nil
	}
	if len(c.train) > 0 {
		// Thresholdout compares the metric's exact score on the training
		// rows with the holdout's.
		v := c.Metric.Score(c.train, train, c.K)
		if v.Inf {
			return formatValue(metric.Value{Inf: true}, c.Decimals), nil
		}
		sub.TrainScore = v.R
	}
	if !s.subset {
		// The rows the chain will score are known (the split's public rows,
		// or all): score them before release locks the defence state, so
		// that the lock, which serialises a global defence's submissions
		// across replicas, is held for as short a time as possible.
		rows := identityRows(c.N)
		if sp := s.chain.Split(); sp != nil {
			rows = sp.Public()
		}
		v, verr := sub.Mean(rows)
		mean := sub.Mean
		sub.Mean = func(r []int) (*big.Rat, error) {
			if slices.Equal(r, rows) {
				if verr != nil {
					return nil, verr
				}
				return new(big.Rat).Set(v), nil
			}
			return mean(r)
		}
	}
	r, err := s.release(st, sub)
	if errors.Is(err, errInfinite) {
		return formatValue(metric.Value{Inf: true}, c.Decimals), nil
	}
	if err != nil {
		return "", err
	}
	return formatValue(metric.Value{R: r.Score}, c.Decimals), nil
}

// exhausted is the refusal of a submission once Thresholdout's budget
// is spent (thresholdout.exhausted "refuse", the default).
func (c *Competition) exhausted() *apiError {
	msg := "the holdout's Thresholdout budget, shared by every team, is spent: it answers no more submissions"
	if th := c.defence.chain.Thresholdout(); th != nil && th.PerTeam() {
		msg = "your team's Thresholdout budget is spent: the holdout answers no more of its submissions"
	}
	return reject(http.StatusForbidden, "holdout_exhausted", msg)
}

// identityRows returns 0, 1, …, n−1.
func identityRows(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

// identity reports whether rows is 0, 1, …, n−1: every row, in order.
func identity(rows []int, n int) bool {
	if len(rows) != n {
		return false
	}
	for j, i := range rows {
		if i != j {
			return false
		}
	}
	return true
}

// rowLosses writes the metric's per-row loss into dst (accuracy's 0/1
// loss, the Brier score's squared error: metric.RowLosses), or for a log-loss
// the float64 log-loss of every row: binary
// rows as defence.LogLoss with the metric's clipping, K-class rows as
// −ln of the true class's probability clipped to [ε, 1−ε]. These feed the
// parameter-free Ladder's paired test and noise keyed on the losses; the
// score itself is the metric's.
func (s *served) rowLosses(dst, pred []float64, k int) {
	if s.rows != nil {
		metric.RowLosses(s.rows, dst, s.labels, pred, k)
		return
	}
	if k <= 2 {
		_ = defence.LogLoss{Eps: s.eps}.PerRow(dst, pred, s.labels)
	} else {
		for i, y := range s.labels {
			dst[i] = -libm.GoLog(math.Min(math.Max(pred[i*k+y], s.eps), 1-s.eps))
		}
	}
	// Without clipping a certain wrong prediction has an infinite loss
	// (the score is then +Inf); its row enters the paired test as the
	// largest loss a float64 probability can give, −ln(2^−1074).
	for i, v := range dst {
		if v > MaxRowLoss {
			dst[i] = MaxRowLoss
		}
	}
}

// MaxRowLoss is −ln(2^−1074) rounded up, the largest per-row log-loss of
// a positive float64 probability: the cap of an infinite per-row loss.
const MaxRowLoss = 744.5

// simulationWarning is logged for every competition built from a
// simulation seed.
const simulationWarning = "simulation_seed set: this competition's noise and subsets are predictable from the seed; use it for audits only, never for a real competition"
