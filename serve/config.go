package serve

// This file reads the server's configuration file and builds the
// competitions it names.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/metric"
)

// Config is the server's configuration file (JSON). Relative paths in it
// are relative to the file's directory. See examples/competition.json.
type Config struct {
	// Listen is the TCP address (default 127.0.0.1:8080).
	Listen string `json:"listen"`
	// Database: driver "sqlite" (default; DSN is a file path, default
	// labelinf.db beside the config) or "postgres" (DSN is a PostgreSQL
	// connection string).
	Database DatabaseConfig `json:"database"`
	// MaxBodyBytes bounds a request body (default 16 MiB: 25,000 rows of
	// 10 classes written with 17 digits is about 5 MiB).
	MaxBodyBytes int64 `json:"max_body_bytes"`
	// ClientIPHeader, when the server runs behind a reverse proxy, names
	// the header that proxy sets to the client's address (X-Real-IP); empty
	// (default) uses the connection's address. Never set it without a proxy
	// that overwrites the header: clients could pick their own address.
	ClientIPHeader string `json:"client_ip_header"`
	// RejectRate and RejectBurst bound the rejected requests (bad key, bad
	// body, over budget): RejectBurst at once, then RejectRate per second
	// (defaults 1 and 20), per key for requests with a valid key, per
	// client address for those without one.
	RejectRate  float64 `json:"reject_rate"`
	RejectBurst int     `json:"reject_burst"`
	// ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout and
	// ShutdownTimeout (defaults 5s, 30s, 30s, 60s, 20s) bound slow clients
	// and the drain on SIGTERM.
	ReadHeaderTimeout Duration `json:"read_header_timeout"`
	ReadTimeout       Duration `json:"read_timeout"`
	WriteTimeout      Duration `json:"write_timeout"`
	IdleTimeout       Duration `json:"idle_timeout"`
	ShutdownTimeout   Duration `json:"shutdown_timeout"`

	Competitions []CompetitionConfig `json:"competitions"`

	dir string
}

// DatabaseConfig selects the store.
type DatabaseConfig struct {
	Driver string `json:"driver"`
	DSN    string `json:"dsn"`
}

// CompetitionConfig is one competition.
type CompetitionConfig struct {
	// ID names the competition in URLs: 1 to 64 of [a-z0-9-].
	ID    string `json:"id"`
	Title string `json:"title"`
	// Labels is the private labels file: one class index in [0, Classes)
	// per line, row i on line i+1 (blank lines and lines starting with #
	// are skipped).
	Labels  string `json:"labels"`
	Classes int    `json:"classes"`
	// Metric is a scorer model name as labelinf attack -assume takes it
	// (float64-sklearn, float32-keras, torch-bce, leaderboard, fpa:E,M),
	// accuracy (scikit-learn's rule: a binary p = 0.5 is class 0),
	// accuracy-v1 (releases before it: p = 0.5 is class 1; only to finish
	// a competition scored so, see CheckRules), roc-auc (binary only) or
	// brier (scikit-learn's brier_score_loss; K > 2: its multiclass form,
	// rows summing to 1).
	Metric string `json:"metric"`
	// Clip overrides a log-loss model's clipping: "none", or ε to clip
	// predictions to [ε, 1−ε]. Empty keeps the model's.
	Clip string `json:"clip"`
	// Decimals the reported score is rounded to (ties to even); absent
	// takes the model's (5 for leaderboard, accuracy, roc-auc and brier,
	// unrounded for the others), −1 reports it unrounded.
	Decimals *int `json:"decimals"`
	// PublicFraction of the rows, drawn with SplitSeed, make the public
	// leaderboard; the rest the private one, revealed after Closes. 1 (or
	// absent) makes every row public.
	PublicFraction float64 `json:"public_fraction"`
	SplitSeed      uint64  `json:"split_seed"`
	// Closes is when submissions stop and the private leaderboard is
	// revealed (RFC 3339); absent never closes.
	Closes time.Time `json:"closes"`
	// DailyLimit (per UTC day) and TotalLimit bound each key's accepted
	// submissions; MinInterval is the least time between two of a key's
	// submissions. Zero means no limit.
	DailyLimit  int      `json:"daily_limit"`
	TotalLimit  int      `json:"total_limit"`
	MinInterval Duration `json:"min_interval"`
	// Defence is the competition's defences as package defence's
	// Settings (the JSON the audit's grid uses: split, subset, ladder,
	// noise, decimals, clip, limits), released through a defence.Chain
	// with the submitter's key name as the team. Rounding, the split,
	// clipping and the limits may each be set here or in the fields
	// above, not in both; thresholdout needs TrainLabels. The private
	// score, revealed at the close, is the metric's, rounded. Absent:
	// rounding alone.
	Defence *defence.Settings `json:"defence,omitempty"`
	// TrainLabels is a labels file (the format of Labels) of training
	// rows whose labels are public, as a Kaggle train.csv: with it a
	// submission carries predictions for the training rows first, then
	// for the holdout rows, and defence.thresholdout, which it requires,
	// answers the training score unless the holdout's differs by more
	// than its noisy threshold [DFHPRR15].
	TrainLabels string `json:"train_labels,omitempty"`
	// DefenceStateFile is where older servers (schema version 2 and before)
	// kept the defence's state (the Ladder's bests and leaders,
	// Thresholdout's budget). The state now lives in the database, read
	// and written in each submission's transaction, so that replicas
	// share it; a server given this field imports the file into the
	// database once, renames it FILE.imported-TIME (and logs why), and
	// refuses to start while a file that disagrees with the database is
	// there. Leave it out of new configs.
	DefenceStateFile string `json:"defence_state_file,omitempty"`
	// DefenceSecretFile holds the host's secret (at least 32 bytes) that
	// keys the noise; required for noise keyed on the prediction or the
	// losses, so that a restart gives the same noise to the same
	// prediction. Fresh noise without it uses a random secret per process.
	DefenceSecretFile string `json:"defence_secret_file,omitempty"`
	// HostTokenFile holds the host's token (at least 32 bytes) that
	// authenticates POST /v1/competitions/{id}/host/submissions, through
	// which a platform's scoring step (Codabench, EvalAI, Hugging Face;
	// docs/PLATFORMS.md) submits on behalf of a team named in the request
	// (host.go). Absent: that route answers 404.
	HostTokenFile string `json:"host_token_file,omitempty"`
	// PublishDefence makes GET /v1/competitions/{id} publish the
	// defence's parameters as "defence" (PublishedDefence: the split's
	// public fraction and close, the subset size, Thresholdout's T, σ,
	// budget and options, the Ladder's kind, η, grid and scope, the
	// noise's kind, scale and key mode, decimals, clip, limits). Never
	// published: seeds (split_seed, defence.split.seed, simulation_seed),
	// the noise secret, the state file, which rows are public, any team's
	// state. Off (the default), nothing about the defence is published;
	// the metric's model ("model") is published either way.
	PublishDefence bool `json:"publish_defence,omitempty"`
	// SimulationSeed (64 hexadecimal digits) builds the defence with
	// defence.Settings.SimulationChain: every random stream (noise,
	// subsets) follows from it, so that labelinf audit's loopback mode
	// releases the same scores as its in-process simulation. Never set it
	// on a real competition: its noise would be predictable and replayed
	// after a restart (the server logs a warning).
	SimulationSeed string `json:"simulation_seed,omitempty"`
}

// A Duration is a time.Duration written in JSON as a Go duration string
// ("1.5s", "10m").
type Duration time.Duration

// UnmarshalJSON implements json.Unmarshaler.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: want a string such as \"10s\", got %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("duration %q is negative", s)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d Duration) or(def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return time.Duration(d)
}

// LoadConfig reads and checks the configuration file at path.
func LoadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	var c Config
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("serve: %s: %w", path, err)
	}
	c.dir = filepath.Dir(path)
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("serve: %s: %w", path, err)
	}
	return &c, nil
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

func (c *Config) validate() error {
	if c.Listen == "" {
		c.Listen = "127.0.0.1:8080"
	}
	switch c.Database.Driver {
	case "", "sqlite":
		c.Database.Driver = "sqlite"
		if c.Database.DSN == "" {
			c.Database.DSN = "labelinf.db"
		}
		c.Database.DSN = c.path(c.Database.DSN)
	case "postgres":
		if c.Database.DSN == "" {
			return errors.New("database: postgres needs a dsn")
		}
	default:
		return fmt.Errorf("database: driver %q, want sqlite or postgres", c.Database.Driver)
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = 16 << 20
	}
	if c.MaxBodyBytes < 1024 {
		return fmt.Errorf("max_body_bytes %d below 1024", c.MaxBodyBytes)
	}
	if c.RejectRate == 0 {
		c.RejectRate = 1
	}
	if c.RejectBurst == 0 {
		c.RejectBurst = 20
	}
	if c.RejectRate < 0 || c.RejectBurst < 0 {
		return errors.New("reject_rate and reject_burst must be positive")
	}
	if len(c.Competitions) == 0 {
		return errors.New("no competitions")
	}
	seen := map[string]bool{}
	for i := range c.Competitions {
		cc := &c.Competitions[i]
		if !idPattern.MatchString(cc.ID) {
			return fmt.Errorf("competition %d: id %q: want 1 to 64 of [a-z0-9-]", i, cc.ID)
		}
		if seen[cc.ID] {
			return fmt.Errorf("competition %q defined twice", cc.ID)
		}
		seen[cc.ID] = true
		if cc.Labels == "" {
			return fmt.Errorf("competition %q: no labels file", cc.ID)
		}
		cc.Labels = c.path(cc.Labels)
		if cc.PublicFraction == 0 {
			cc.PublicFraction = 1
		}
		if !(cc.PublicFraction > 0 && cc.PublicFraction <= 1) {
			return fmt.Errorf("competition %q: public_fraction %v outside (0, 1]", cc.ID, cc.PublicFraction)
		}
		if cc.DailyLimit < 0 || cc.TotalLimit < 0 {
			return fmt.Errorf("competition %q: negative limit", cc.ID)
		}
		if cc.Decimals != nil && (*cc.Decimals < -1 || *cc.Decimals > 17) {
			return fmt.Errorf("competition %q: decimals %d outside [-1, 17]", cc.ID, *cc.Decimals)
		}
		if err := checkDefence(cc); err != nil {
			return fmt.Errorf("competition %q: %w", cc.ID, err)
		}
		if cc.HostTokenFile != "" {
			cc.HostTokenFile = c.path(cc.HostTokenFile)
		}
		if cc.DefenceSecretFile != "" {
			cc.DefenceSecretFile = c.path(cc.DefenceSecretFile)
		}
		if cc.TrainLabels != "" {
			cc.TrainLabels = c.path(cc.TrainLabels)
		}
		if cc.DefenceStateFile != "" {
			cc.DefenceStateFile = c.path(cc.DefenceStateFile)
		}
	}
	return nil
}

func (c *Config) path(p string) string {
	if filepath.IsAbs(p) || c.dir == "" {
		return p
	}
	return filepath.Join(c.dir, p)
}

// A Competition is a loaded competition: its labels, split, metric and
// releaser.
type Competition struct {
	ID, Title     string
	K             int
	N             int
	Metric        metric.Metric
	Decimals      int
	Releaser      Releaser
	Closes        time.Time
	Limits        Limits
	publicRows    []int // ascending
	privateRows   []int // ascending
	publicLabels  []int
	privateLabels []int
	defence       *served // nil: the public score goes through Releaser
	train         []int   // the training rows' labels (public), before the holdout rows
	scoredRows    int     // the holdout rows a public score covers
	published     *PublishedDefence
	hostToken     string // hex SHA-256 of the host token; "" without one
}

// Rows returns the number of rows a submission carries: the training
// rows, if any, then the N holdout rows.
func (c *Competition) Rows() int { return len(c.train) + c.N }

// HasPrivate reports whether the competition keeps a private board.
func (c *Competition) HasPrivate() bool { return len(c.privateRows) > 0 }

// Closed reports whether the competition is closed at t.
func (c *Competition) Closed(t time.Time) bool { return !c.Closes.IsZero() && !t.Before(c.Closes) }

// PublicRows returns the number of holdout rows a public score covers:
// the public rows, or a random subset of them of the defence's subset
// size.
func (c *Competition) PublicRows() int { return c.scoredRows }

// NewCompetition loads cc's labels and builds it. A Releaser chain of
// defences goes in front of the rounding (nil: rounding alone); it cannot
// be combined with cc.Defence, which releases the public score through a
// defence.Chain (the private score, revealed at the close, is the
// metric's, rounded).
func NewCompetition(cc CompetitionConfig, defences Chain) (*Competition, error) {
	if cc.Classes < 2 {
		return nil, fmt.Errorf("serve: competition %q: classes %d, need at least 2", cc.ID, cc.Classes)
	}
	if cc.Defence != nil && len(defences) > 0 {
		return nil, fmt.Errorf("serve: competition %q: both a Releaser chain and defence settings", cc.ID)
	}
	if err := checkDefence(&cc); err != nil {
		return nil, fmt.Errorf("serve: competition %q: %w", cc.ID, err)
	}
	if cc.Defence != nil && cc.Defence.Clip != 0 {
		if cc.Clip != "" {
			return nil, fmt.Errorf("serve: competition %q: clip set both in the competition and in its defence; set it in one place", cc.ID)
		}
		cc.Clip = strconv.FormatFloat(cc.Defence.Clip, 'g', -1, 64)
	}
	m, err := metric.Parse(cc.Metric, cc.Clip)
	if err != nil {
		return nil, fmt.Errorf("serve: competition %q: %w", cc.ID, err)
	}
	labels, err := ReadLabels(cc.Labels, cc.Classes)
	if err != nil {
		return nil, fmt.Errorf("serve: competition %q: %w", cc.ID, err)
	}
	c := &Competition{ID: cc.ID, Title: cc.Title, K: cc.Classes, N: len(labels), Metric: m, Closes: cc.Closes,
		Limits: Limits{Daily: cc.DailyLimit, Total: cc.TotalLimit, MinInterval: time.Duration(cc.MinInterval)}}
	if c.Title == "" {
		c.Title = c.ID
	}
	c.Decimals = m.DefaultDecimals()
	if cc.Decimals != nil {
		c.Decimals = *cc.Decimals
	}
	c.publicRows, c.privateRows = Split(len(labels), cc.PublicFraction, cc.SplitSeed)
	if cc.TrainLabels != "" {
		if c.train, err = ReadLabels(cc.TrainLabels, cc.Classes); err != nil {
			return nil, fmt.Errorf("serve: competition %q: train_labels: %w", cc.ID, err)
		}
	}
	if cc.Defence != nil {
		if err := buildDefence(c, cc, labels); err != nil {
			return nil, fmt.Errorf("serve: competition %q: %w", cc.ID, err)
		}
	}
	c.Releaser = append(slices.Clone(defences), Round{Decimals: c.Decimals})
	if len(c.publicRows) == 0 {
		return nil, fmt.Errorf("serve: competition %q: public_fraction %v of %d rows leaves no public row", cc.ID, cc.PublicFraction, len(labels))
	}
	c.scoredRows = len(c.publicRows)
	if cc.Defence != nil && cc.Defence.Subset > 0 {
		if cc.Defence.Subset > len(c.publicRows) {
			return nil, fmt.Errorf("serve: competition %q: defence.subset %d over the %d public rows", cc.ID, cc.Defence.Subset, len(c.publicRows))
		}
		c.scoredRows = cc.Defence.Subset
	}
	if cc.PublishDefence {
		c.published = publishDefence(*cc.Defence)
		c.published.Decimals = &c.Decimals
	}
	c.publicLabels = gatherInts(labels, c.publicRows)
	c.privateLabels = gatherInts(labels, c.privateRows)
	if m.Name() == metric.AUC {
		if cc.Classes != 2 {
			return nil, fmt.Errorf("serve: competition %q: roc-auc needs classes 2", cc.ID)
		}
		for _, b := range [][]int{c.publicLabels, c.privateLabels} {
			if len(b) > 0 && (!slices.Contains(b, 0) || !slices.Contains(b, 1)) {
				return nil, fmt.Errorf("serve: competition %q: roc-auc needs both classes on each board", cc.ID)
			}
		}
	}
	if cc.HostTokenFile != "" {
		t, err := readHostToken(cc.HostTokenFile)
		if err != nil {
			return nil, fmt.Errorf("serve: competition %q: %w", cc.ID, err)
		}
		c.hostToken = hashSecret(t)
	}
	return c, nil
}

// Split returns the public and private rows of n rows: a seeded uniform
// random subset of round(fraction·n) rows is public (PCG seeded with
// seed), each list ascending so that a board is scored in the file's order.
func Split(n int, fraction float64, seed uint64) (public, private []int) {
	np := int(fraction*float64(n) + 0.5)
	perm := rand.New(rand.NewPCG(seed, 0x6c6162656c696e66)).Perm(n) // "labelinf"
	public = slices.Clone(perm[:np])
	private = slices.Clone(perm[np:])
	slices.Sort(public)
	slices.Sort(private)
	return public, private
}

func gatherInts(x []int, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = x[j]
	}
	return out
}

// ReadLabels reads a labels file: one class index in [0, k) per line.
func ReadLabels(path string, k int) ([]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var labels []int
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v >= k {
			return nil, fmt.Errorf("%s:%d: label %q, want an integer in [0, %d)", path, line, clipText(s, 40), k)
		}
		labels = append(labels, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(labels) == 0 {
		return nil, fmt.Errorf("%s: no labels", path)
	}
	return labels, nil
}
