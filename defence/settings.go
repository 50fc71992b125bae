package defence

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// Settings is a competition's defence configuration as a host writes it
// (JSON; YAML through the same field names), from which [Settings.Chain]
// builds the chain in the one sensible order: Split, Subset,
// Thresholdout, Ladder, Noise, Round. The zero value is no defence: every
// score released exactly. The audit's grid is a list of Settings.
type Settings struct {
	// Split is the public/private split; nil scores every holdout row on
	// the public leaderboard.
	Split *SplitSettings `json:"split,omitempty"`
	// Subset scores each submission on a fresh random subset of this many
	// rows of the public ones; 0 is off.
	Subset int `json:"subset,omitempty"`
	// Thresholdout, if set, answers from the training rows.
	Thresholdout *ThresholdoutSettings `json:"thresholdout,omitempty"`
	// Ladder, if set, releases a new score only on a real improvement.
	Ladder *LadderSettings `json:"ladder,omitempty"`
	// Noise, if set, adds noise to each released score.
	Noise *NoiseSettings `json:"noise,omitempty"`
	// Decimals rounds the released score (Kaggle 5, EvalAI 2); nil
	// releases the exact score.
	Decimals *int `json:"decimals,omitempty"`
	// Clip is the log-loss clipping ε of [Hygiene]; 0 is none. The chain
	// does not use it (the scorer clips); it is here so one value
	// configures a competition.
	Clip float64 `json:"clip,omitempty"`
	// Limits are the submission limits per account.
	Limits LimitSettings `json:"limits,omitempty"`
}

// SplitSettings configures [NewSplit].
type SplitSettings struct {
	// Public is the public fraction in (0, 1] (Kaggle often 0.3).
	Public float64 `json:"public"`
	// Seed is 64 hexadecimal digits (32 bytes); the host keeps it secret.
	Seed string `json:"seed"`
	// Close is when the private leaderboard opens (RFC 3339); zero: only
	// by an explicit close.
	Close time.Time `json:"close,omitzero"`
}

// ThresholdoutSettings configures [NewThresholdout] in score units.
type ThresholdoutSettings struct {
	T        float64 `json:"t"`
	Sigma    float64 `json:"sigma"`
	Budget   int     `json:"budget"`
	Gaussian bool    `json:"gaussian,omitempty"`
	// PerTeam gives each team its own budget (and threshold) instead of
	// one for everyone (the paper's one analyst; the default).
	PerTeam bool `json:"per_team,omitempty"`
	// Exhausted is what a spent budget answers: "refuse" (the default,
	// ErrExhausted) or "train" (the training score alone, which says
	// nothing about the holdout).
	Exhausted string `json:"exhausted,omitempty"`
}

// LadderSettings configures [NewLadder]; Eta and Grid are decimal
// strings ("0.01") so that the grid is exact.
type LadderSettings struct {
	// Kind is "fixed" or "parameter-free".
	Kind    string `json:"kind"`
	Eta     string `json:"eta,omitempty"`
	Grid    string `json:"grid,omitempty"`
	PerTeam bool   `json:"per_team,omitempty"`
}

// NoiseSettings configures [NewNoise]; the secret is passed to
// [Settings.Chain], never written in the config.
type NoiseSettings struct {
	// Kind is "gaussian" or "laplace".
	Kind  string  `json:"kind"`
	Scale float64 `json:"scale"`
	// Key is "fresh" (default), "prediction" or "losses".
	Key string `json:"key,omitempty"`
}

// LimitSettings is [Limits] with the interval as a Go duration string
// ("1h30m").
type LimitSettings struct {
	PerDay      int    `json:"per_day,omitempty"`
	Total       int    `json:"total,omitempty"`
	MinInterval string `json:"min_interval,omitempty"`
}

// Limits returns the limits, or an error for a bad duration or a negative
// count.
func (l LimitSettings) Limits() (Limits, error) {
	var out Limits
	if l.MinInterval != "" {
		d, err := time.ParseDuration(l.MinInterval)
		if err != nil {
			return Limits{}, fmt.Errorf("defence: limits.min_interval: %w", err)
		}
		out.MinInterval = d
	}
	out.PerDay, out.Total = l.PerDay, l.Total
	return out, out.Validate()
}

// ParseSettings decodes JSON settings, refusing unknown fields.
func ParseSettings(data []byte) (Settings, error) {
	var s Settings
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Settings{}, fmt.Errorf("defence: settings: %w", err)
	}
	return s, nil
}

// Chain builds the chain of s over a holdout of n rows. secret keys the
// noise (nil: a fresh one from crypto/rand, right for fresh noise only;
// keyed noise needs the host's persisted secret); clock decides when the
// split closes (nil: time.Now). Randomness of Subset and Thresholdout is
// seeded from crypto/rand.
func (s Settings) Chain(n int, secret []byte, clock Clock) (*Chain, error) {
	return s.chain(n, secret, clock, nil)
}

// SimulationChain is [Settings.Chain] with every random stream derived
// from seed (HMAC-SHA256(seed, stage name)): the subset draws,
// Thresholdout's noise, and the noise secret and fresh-noise nonce. Two
// chains built from the same settings and seed release the same scores
// for the same submissions, which is what a reproducible audit needs and
// what a server must never do (its noise would be predictable to anyone
// who knows the seed and replayed after a restart).
func (s Settings) SimulationChain(n int, seed [32]byte, clock Clock) (*Chain, error) {
	return s.chain(n, nil, clock, &seed)
}

// derive returns HMAC-SHA256(seed, label).
func derive(seed *[32]byte, label string) [32]byte {
	m := hmac.New(sha256.New, seed[:])
	m.Write([]byte("labelinf/defence simulation\x00" + label))
	var out [32]byte
	copy(out[:], m.Sum(nil))
	return out
}

func (s Settings) chain(n int, secret []byte, clock Clock, sim *[32]byte) (*Chain, error) {
	var stages []Stage
	if s.Split != nil {
		seed, err := parseSeed(s.Split.Seed)
		if err != nil {
			return nil, err
		}
		sp, err := NewSplit(n, s.Split.Public, seed, s.Split.Close, clock)
		if err != nil {
			return nil, err
		}
		stages = append(stages, sp)
	}
	if s.Subset != 0 {
		var seed *[32]byte
		if sim != nil {
			d := derive(sim, "subset")
			seed = &d
		}
		sb, err := NewSubset(s.Subset, seed)
		if err != nil {
			return nil, err
		}
		stages = append(stages, sb)
	}
	if t := s.Thresholdout; t != nil {
		o := ThresholdoutOptions{T: t.T, Sigma: t.Sigma, Budget: t.Budget, Gaussian: t.Gaussian, PerTeam: t.PerTeam}
		switch t.Exhausted {
		case "", "refuse":
		case "train":
			o.TrainWhenExhausted = true
		default:
			return nil, fmt.Errorf("defence: thresholdout.exhausted %q; want refuse or train", t.Exhausted)
		}
		if sim != nil {
			d := derive(sim, "thresholdout")
			o.Seed = &d
		}
		th, err := NewThresholdout(o)
		if err != nil {
			return nil, err
		}
		stages = append(stages, th)
	}
	if l := s.Ladder; l != nil {
		o := LadderOptions{PerTeam: l.PerTeam}
		switch l.Kind {
		case "fixed":
			o.Kind = FixedStep
		case "parameter-free", "free":
			o.Kind = ParameterFree
		default:
			return nil, fmt.Errorf("defence: ladder.kind %q; want fixed or parameter-free", l.Kind)
		}
		var err error
		if o.Eta, err = parseRat("ladder.eta", l.Eta); err != nil {
			return nil, err
		}
		if o.Grid, err = parseRat("ladder.grid", l.Grid); err != nil {
			return nil, err
		}
		lad, err := NewLadder(o)
		if err != nil {
			return nil, err
		}
		stages = append(stages, lad)
	}
	if z := s.Noise; z != nil {
		o := NoiseOptions{Scale: z.Scale, Secret: secret}
		if sim != nil {
			k := derive(sim, "noise secret")
			nn := derive(sim, "noise nonce")
			o.Secret = k[:]
			o.Nonce = (*[16]byte)(nn[:16])
		}
		switch z.Kind {
		case "gaussian", "normal":
			o.Kind = Gaussian
		case "laplace":
			o.Kind = Laplace
		default:
			return nil, fmt.Errorf("defence: noise.kind %q; want gaussian or laplace", z.Kind)
		}
		switch z.Key {
		case "", "fresh":
			o.Key = Fresh
		case "prediction":
			o.Key = KeyedPrediction
		case "losses":
			o.Key = KeyedLosses
		default:
			return nil, fmt.Errorf("defence: noise.key %q; want fresh, prediction or losses", z.Key)
		}
		ns, err := NewNoise(o)
		if err != nil {
			return nil, err
		}
		stages = append(stages, ns)
	}
	if s.Decimals != nil {
		r, err := NewRound(*s.Decimals)
		if err != nil {
			return nil, err
		}
		stages = append(stages, r)
	}
	if err := (Hygiene{Clip: s.Clip}).Validate(); err != nil {
		return nil, err
	}
	if _, err := s.Limits.Limits(); err != nil {
		return nil, err
	}
	return NewChain(n, stages...)
}

// String names the settings for a table row, e.g.
// "split(0.3)+ladder(parameter-free)+round(5)+5/day"; "none" for the zero
// value.
func (s Settings) String() string {
	var parts []string
	if s.Split != nil {
		parts = append(parts, fmt.Sprintf("split(%g)", s.Split.Public))
	}
	if s.Subset != 0 {
		parts = append(parts, fmt.Sprintf("subset(%d)", s.Subset))
	}
	if t := s.Thresholdout; t != nil {
		parts = append(parts, fmt.Sprintf("thresholdout(T=%g,σ=%g,B=%d)", t.T, t.Sigma, t.Budget))
	}
	if l := s.Ladder; l != nil {
		p := "ladder(" + l.Kind
		if l.Eta != "" {
			p += ",η=" + l.Eta
		}
		if l.PerTeam {
			p += ",per-team"
		}
		parts = append(parts, p+")")
	}
	if z := s.Noise; z != nil {
		key := z.Key
		if key == "" {
			key = "fresh"
		}
		parts = append(parts, fmt.Sprintf("noise(%s,%g,%s)", z.Kind, z.Scale, key))
	}
	if s.Decimals != nil {
		parts = append(parts, fmt.Sprintf("round(%d)", *s.Decimals))
	}
	if s.Clip != 0 {
		parts = append(parts, fmt.Sprintf("clip(%g)", s.Clip))
	}
	if s.Limits.PerDay != 0 {
		parts = append(parts, fmt.Sprintf("%d/day", s.Limits.PerDay))
	}
	if s.Limits.Total != 0 {
		parts = append(parts, fmt.Sprintf("%d-total", s.Limits.Total))
	}
	if s.Limits.MinInterval != "" {
		parts = append(parts, "every-"+s.Limits.MinInterval)
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "+")
}

func parseSeed(h string) ([32]byte, error) {
	var seed [32]byte
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 32 {
		return seed, errors.New("defence: split.seed must be 64 hexadecimal digits")
	}
	copy(seed[:], b)
	return seed, nil
}

func parseRat(field, v string) (*big.Rat, error) {
	if v == "" {
		return nil, nil
	}
	// Plain decimals and fractions only: an exponent ("1e999999999")
	// would make big.Rat compute a huge power.
	if len(v) > 64 || strings.Trim(v, "0123456789./") != "" {
		return nil, fmt.Errorf("defence: %s %q: want a decimal (0.01) or a fraction (1/100)", field, v)
	}
	r, ok := new(big.Rat).SetString(v)
	if !ok {
		return nil, fmt.Errorf("defence: %s %q is not a decimal or fraction", field, v)
	}
	return r, nil
}

// Presets are the platforms' defaults (DEFENCES.md §2.5) as Settings:
// "kaggle" (5 decimals, 5 per day, a 30 % public split as in the Photo
// Quality competition of [BH15], 3,600 of 12,000 rows, whose seed the
// caller must set), "evalai" (2 decimals, 100,000 per day), "codabench"
// (2 decimals shown, 5 per day, 100 in total).
func Presets() map[string]Settings {
	five, two := 5, 2
	return map[string]Settings{
		"kaggle":    {Split: &SplitSettings{Public: 0.3}, Decimals: &five, Limits: LimitSettings{PerDay: 5}},
		"evalai":    {Decimals: &two, Limits: LimitSettings{PerDay: 100000}},
		"codabench": {Decimals: &two, Limits: LimitSettings{PerDay: 5, Total: 100}},
	}
}
