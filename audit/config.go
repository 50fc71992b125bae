package audit

// This file holds the competition configuration the audit reads (the
// fields of labelinf serve's competition config, plus the audit's own)
// and the default grid of defences.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/labelinf/labelinf/datasets"
	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/serve"
)

// Config is one competition as a host describes it to the audit. The
// competition fields have the names and meanings of labelinf serve's
// competition config (id, title, labels, classes, metric, clip, decimals,
// public_fraction, daily_limit, total_limit, min_interval); the rest
// configure the audit. Exactly one of Labels, Dataset and Rows says where
// the private labels come from.
type Config struct {
	ID    string `json:"id"`
	Title string `json:"title,omitempty"`
	// Labels is a labels file: one class index (0 or 1) per line, blank
	// lines and lines starting with # skipped; a relative path is relative
	// to the config file's directory.
	Labels string `json:"labels,omitempty"`
	// Dataset names an embedded label set of package datasets
	// (imdb_like: 25,000 labels; wdbc, haberman, …).
	Dataset string `json:"dataset,omitempty"`
	// Rows > 0 draws Rows uniform random labels from LabelSeed (a
	// synthetic competition).
	Rows      int    `json:"rows,omitempty"`
	LabelSeed uint64 `json:"label_seed,omitempty"`
	// Classes is the number of classes (default 2). A metric or K no
	// attack here reads (roc-auc with K > 2) is audited as "not measured".
	Classes int `json:"classes,omitempty"`
	// Metric is a log-loss scorer model name as labelinf attack -assume
	// takes it (float64-sklearn, float32-keras, torch-bce, leaderboard,
	// fpa:E,M); default leaderboard.
	Metric string `json:"metric,omitempty"`
	// Clip overrides the model's clipping: "none" or ε in (0, 1/2).
	Clip string `json:"clip,omitempty"`
	// Decimals, PublicFraction and the limits describe the competition
	// as configured: the audit adds it to the grid as the cell
	// "as configured". PublicFraction also sets the split cell of the
	// default grid (0.3 if absent or 1).
	Decimals       *int    `json:"decimals,omitempty"`
	PublicFraction float64 `json:"public_fraction,omitempty"`
	DailyLimit     int     `json:"daily_limit,omitempty"`
	TotalLimit     int     `json:"total_limit,omitempty"`
	MinInterval    string  `json:"min_interval,omitempty"`
	// Defence is the competition's defence as serve's config writes it
	// (package defence's Settings): it joins the fields above in the "as
	// configured" cell.
	Defence *defence.Settings `json:"defence,omitempty"`

	// Seed drives every random stream of the audit (the defences'
	// simulated noise, splits and subsets, the honest submissions, the
	// attacks' random vectors): one seed, one byte-identical report.
	Seed uint64 `json:"seed,omitempty"`
	// Days is the competition's length (default 90), for the verdict of
	// cells with a daily limit.
	Days int `json:"days,omitempty"`
	// Accounts is the number of accounts the attacker is assumed to hold
	// for the verdict (default 1); the report also gives the days needed
	// with 1, 10 and 100 accounts.
	Accounts int `json:"accounts,omitempty"`
	// AttackerAccounts are the numbers of accounts the audit tries the
	// attacks with (default 1, 10, 100, 1,000): each cell reports what
	// the attacker recovers with each, and accounts_needed, the fewest
	// accounts (up to the largest of them) with which some attack
	// recovers StopFraction of the public labels within the limit.
	AttackerAccounts []int `json:"attacker_accounts,omitempty"`
	// Limit is the number of submissions the host deems within an
	// attacker's reach when a cell sets no limit (default 100,000).
	Limit int `json:"limit,omitempty"`
	// Measure is the most submissions one attack runs for real (default
	// 4,000); an attack that needs more is extrapolated from its measured
	// prefix and marked so.
	Measure int `json:"measure,omitempty"`
	// Honest is a directory of honest teams ([LoadHonest]: one directory
	// per team, its prediction files in name order, or a flat directory
	// of files, one team each; a file is one probability of class 1 per
	// line, as many lines as labels); empty: the default teams
	// ([TrainedTeams] where the dataset has features, else
	// [HonestTeams]).
	Honest string `json:"honest,omitempty"`
	// Grid replaces the default grid of defences.
	Grid []Cell `json:"grid,omitempty"`
	// NoConfigured leaves the "as configured" cell out.
	NoConfigured bool `json:"no_configured,omitempty"`

	dir string // the config file's directory
}

// Cell is one defence setting of the grid: a name for the table and the
// defence settings (package defence's JSON).
type Cell struct {
	Name    string           `json:"name"`
	Defence defence.Settings `json:"defence"`
}

// Defaults of [Config].
const (
	DefaultDays    = 90
	DefaultLimit   = 100000
	DefaultMeasure = 4000
	DefaultMetric  = scorer.Leaderboard
	// MaxAttackerAccounts bounds attacker_accounts (accounts_needed is
	// searched one count at a time up to the largest).
	MaxAttackerAccounts = 1_000_000
)

// DefaultAttackerAccounts is attacker_accounts' default.
var DefaultAttackerAccounts = []int{1, 10, 100, 1000}

// ConfigError is a problem with the audit's input: the config file, its
// labels, its grid or the honest submissions. Run and LoadConfig return
// one (errors.As) for every such problem, so that a caller can tell bad
// input from a failed audit.
type ConfigError struct{ Err error }

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// LoadConfig reads a JSON or YAML (.yaml, .yml) config file. Unknown
// fields are an error in both. A JSON file with a "competitions" list is
// labelinf serve's config file: see [LoadConfigFor].
func LoadConfig(path string) (*Config, error) { return LoadConfigFor(path, "") }

// LoadConfigFor reads an audit config file, or labelinf serve's config
// file as it is, read by serve's own parser (serve.LoadConfig: every
// serve field accepted and checked as serve checks it): the audit then
// audits its competition id ("" when the file holds one), with the
// audit's own fields at their defaults. id must be "" for an audit
// config.
func LoadConfigFor(path, id string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{fmt.Errorf("audit: config: %w", err)}
	}
	if isServeConfig(path, b) {
		return fromServe(path, id)
	}
	if id != "" {
		return nil, &ConfigError{fmt.Errorf("audit: config %s is an audit config of one competition: -competition applies to labelinf serve's config files", path)}
	}
	var c *Config
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		c, err = ParseYAML(b)
	default:
		c, err = ParseJSON(b)
	}
	if err != nil {
		return nil, &ConfigError{fmt.Errorf("audit: config %s: %w", path, err)}
	}
	c.dir = filepath.Dir(path)
	return c, nil
}

// isServeConfig reports whether b is a JSON object with a
// "competitions" member: labelinf serve's config file.
func isServeConfig(path string, b []byte) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		return false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) != nil {
		return false
	}
	_, ok := top["competitions"]
	return ok
}

// fromServe returns the audit config of competition id of serve's
// config file path.
func fromServe(path, id string) (*Config, error) {
	sc, err := serve.LoadConfig(path)
	if err != nil {
		return nil, &ConfigError{fmt.Errorf("audit: %w", err)}
	}
	var ids []string
	for _, cc := range sc.Competitions {
		ids = append(ids, cc.ID)
	}
	var cc *serve.CompetitionConfig
	for i := range sc.Competitions {
		if sc.Competitions[i].ID == id || (id == "" && len(sc.Competitions) == 1) {
			cc = &sc.Competitions[i]
		}
	}
	if cc == nil {
		if id == "" {
			return nil, &ConfigError{fmt.Errorf("audit: %s holds %d competitions (%s): pick one with -competition ID", path, len(ids), strings.Join(ids, ", "))}
		}
		return nil, &ConfigError{fmt.Errorf("audit: %s has no competition %q (it has %s)", path, id, strings.Join(ids, ", "))}
	}
	if cc.Defence != nil && cc.Defence.Thresholdout != nil {
		return nil, &ConfigError{fmt.Errorf("audit: competition %q: Thresholdout answers from training rows; the audit does not attack it yet (not measured)", cc.ID)}
	}
	labels, err := filepath.Abs(cc.Labels) // serve joined it to the file's directory
	if err != nil {
		return nil, &ConfigError{fmt.Errorf("audit: %w", err)}
	}
	c := &Config{ID: cc.ID, Title: cc.Title, Labels: labels, Classes: cc.Classes, Metric: cc.Metric, Clip: cc.Clip,
		Decimals: cc.Decimals, DailyLimit: cc.DailyLimit, TotalLimit: cc.TotalLimit, Defence: cc.Defence,
		dir: filepath.Dir(path)}
	if cc.PublicFraction != 1 {
		c.PublicFraction = cc.PublicFraction
	}
	if cc.MinInterval != 0 {
		c.MinInterval = time.Duration(cc.MinInterval).String()
	}
	return c, nil
}

// ParseJSON decodes a JSON config, refusing unknown fields.
func ParseJSON(b []byte) (*Config, error) {
	var c Config
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the config object")
	}
	return &c, nil
}

// ParseYAML decodes a YAML config with the JSON field names: the YAML is
// read as a tree, converted to JSON and decoded by [ParseJSON], so both
// forms accept exactly the same fields.
func ParseYAML(b []byte) (*Config, error) {
	var v any
	if err := yaml.Unmarshal(b, &v); err != nil {
		return nil, err
	}
	v, err := jsonable(v)
	if err != nil {
		return nil, err
	}
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return ParseJSON(j)
}

// jsonable turns YAML's map[string]any trees (and any non-string keys)
// into values encoding/json accepts.
func jsonable(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			y, err := jsonable(x)
			if err != nil {
				return nil, err
			}
			t[k] = y
		}
		return t, nil
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			y, err := jsonable(x)
			if err != nil {
				return nil, err
			}
			m[fmt.Sprint(k)] = y
		}
		return m, nil
	case []any:
		for i, x := range t {
			y, err := jsonable(x)
			if err != nil {
				return nil, err
			}
			t[i] = y
		}
		return t, nil
	}
	return v, nil
}

// competition is a checked config: labels, the scorer model (unrounded)
// and the resolved audit parameters.
type competition struct {
	cfg    Config
	labels []int
	k      int           // classes
	model  *scorer.Model // Decimals −1: the chain rounds
	// kmodel is a K-class log-loss metric's model (K > 2), as model.
	kmodel *scorer.Model
	// higher: the metric's higher scores are better (accuracy, ROC AUC);
	// the honest cost compares them negated.
	higher bool
	eps    float64 // the model's clipping (1e-300 if none)
	cells  []Cell
	// dir is the config file's directory; honestSource says where the
	// honest teams come from.
	dir          string
	honestSource string
}

// resolve checks c and loads its labels.
func (c *Config) resolve() (*competition, error) { return c.resolveWith(nil) }

// resolveWith checks c; labels, if not nil, are the competition's labels
// (a decoded [Plan]'s), and c's labels, dataset and rows are not read.
func (c *Config) resolveWith(labels []int) (*competition, error) {
	out := &competition{cfg: *c, k: 2, dir: c.dir}
	cc := &out.cfg
	if cc.ID == "" {
		cc.ID = "competition"
	}
	if cc.Classes == 0 {
		cc.Classes = 2
	}
	if cc.Classes < 2 || cc.Classes > 1000 {
		return nil, fmt.Errorf("audit: classes = %d outside [2, 1000]", cc.Classes)
	}
	out.k = cc.Classes
	n := 0
	if labels != nil {
		n = -1 // given
	}
	for _, s := range []bool{cc.Labels != "", cc.Dataset != "", cc.Rows != 0} {
		if s {
			n++
		}
	}
	if n != 1 && labels == nil {
		return nil, errors.New("audit: set exactly one of labels (a file), dataset (an embedded label set) and rows (synthetic labels)")
	}
	var err error
	switch {
	case labels != nil:
		out.labels = labels
		for i, y := range labels {
			if y < 0 || y >= out.k {
				return nil, fmt.Errorf("audit: label %d is %d; want a class in [0, %d)", i, y, out.k)
			}
		}
	case cc.Labels != "":
		p := cc.Labels
		if !filepath.IsAbs(p) && c.dir != "" {
			p = filepath.Join(c.dir, p)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("audit: labels: %w", err)
		}
		if out.labels, err = datasets.ParseLabels(b, p, out.k); err != nil {
			return nil, fmt.Errorf("audit: labels: %w", err)
		}
	case cc.Dataset != "":
		if out.labels, err = datasets.Labels(cc.Dataset); err != nil {
			return nil, fmt.Errorf("audit: dataset: %w", err)
		}
		for i, y := range out.labels {
			if y < 0 || y >= out.k {
				return nil, fmt.Errorf("audit: dataset %s: label %d is %d; want a class in [0, %d)", cc.Dataset, i, y, out.k)
			}
		}
	default:
		if cc.Rows < 2 || cc.Rows > 10_000_000 {
			return nil, fmt.Errorf("audit: rows = %d outside [2, 10^7]", cc.Rows)
		}
		r := rand.New(rand.NewPCG(cc.LabelSeed, 0x1abe15))
		out.labels = make([]int, cc.Rows)
		for i := range out.labels {
			out.labels[i] = r.IntN(out.k)
		}
	}
	if len(out.labels) < 2 {
		return nil, fmt.Errorf("audit: %d labels; need at least 2", len(out.labels))
	}
	if cc.Metric == "" {
		cc.Metric = DefaultMetric
	}
	_, isDiscrete := out.discreteMetric()
	if out.k == 2 && !isDiscrete {
		if out.model, out.eps, err = parseMetric(cc.Metric, cc.Clip); err != nil {
			return nil, err
		}
	} else if !isDiscrete {
		// A K-class log-loss: the attacks plan with kmodel (package
		// decode's K-ary strategies through the catalogue, KBin first);
		// the honest cost, whose teams are binary, is not measured.
		if out.kmodel, out.eps, err = parseMetric(cc.Metric, cc.Clip); err != nil {
			return nil, err
		}
	}
	if cc.Days == 0 {
		cc.Days = DefaultDays
	}
	if cc.Accounts == 0 {
		cc.Accounts = 1
	}
	if cc.Limit == 0 {
		cc.Limit = DefaultLimit
	}
	if cc.AttackerAccounts == nil {
		cc.AttackerAccounts = slices.Clone(DefaultAttackerAccounts)
	}
	if len(cc.AttackerAccounts) == 0 || !slices.IsSorted(cc.AttackerAccounts) || cc.AttackerAccounts[0] < 1 || cc.AttackerAccounts[len(cc.AttackerAccounts)-1] > MaxAttackerAccounts {
		return nil, fmt.Errorf("audit: attacker_accounts %v: want an ascending list of counts in [1, %d]", cc.AttackerAccounts, MaxAttackerAccounts)
	}
	if cc.Measure == 0 {
		cc.Measure = DefaultMeasure
	}
	if cc.Days < 0 || cc.Accounts < 0 || cc.Limit < 0 || cc.Measure < 100 {
		return nil, fmt.Errorf("audit: days (%d), accounts (%d) and limit (%d) must be ≥ 0 and measure (%d) ≥ 100", cc.Days, cc.Accounts, cc.Limit, cc.Measure)
	}
	if cc.PublicFraction < 0 || cc.PublicFraction > 1 {
		return nil, fmt.Errorf("audit: public_fraction = %v outside (0, 1]", cc.PublicFraction)
	}
	if _, err := (defence.LimitSettings{PerDay: cc.DailyLimit, Total: cc.TotalLimit, MinInterval: cc.MinInterval}).Limits(); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	cells := cc.Grid
	if cells == nil {
		cells = DefaultGrid(len(out.labels), cc.PublicFraction)
	}
	if !cc.NoConfigured {
		cells = append([]Cell{configured(cc)}, cells...)
	}
	seen := map[string]bool{}
	for i, cell := range cells {
		if cell.Name == "" {
			cell.Name = cell.Defence.String()
		}
		if cell.Defence.Thresholdout != nil {
			return nil, fmt.Errorf("audit: grid cell %q: Thresholdout needs training rows with public labels, which an audited competition does not have here", cell.Name)
		}
		if seen[cell.Name] {
			return nil, fmt.Errorf("audit: grid: two cells named %q", cell.Name)
		}
		seen[cell.Name] = true
		if sp := cell.Defence.Split; sp != nil && sp.Seed == "" {
			// The simulated split's seed comes from the audit seed.
			s := cellSeed(cc.Seed, "split "+cell.Name)
			sp2 := *sp
			sp2.Seed = hex.EncodeToString(s[:])
			cell.Defence.Split = &sp2
		}
		if _, err := cell.Defence.SimulationChain(len(out.labels), cellSeed(cc.Seed, cell.Name), nil); err != nil {
			return nil, fmt.Errorf("audit: grid cell %q: %w", cell.Name, err)
		}
		cells[i] = cell
	}
	out.cells = cells
	return out, nil
}

// configured is the competition as its config sets it up: its defence
// (serve's "defence"), with the competition's decimals, split and limits
// (serve takes each from one of the two places).
func configured(c *Config) Cell {
	var s defence.Settings
	if c.Defence != nil {
		s = *c.Defence
	}
	if c.Decimals != nil {
		s.Decimals = c.Decimals
	}
	if c.DailyLimit != 0 || c.TotalLimit != 0 || c.MinInterval != "" {
		s.Limits = defence.LimitSettings{PerDay: c.DailyLimit, Total: c.TotalLimit, MinInterval: c.MinInterval}
	}
	if s.Decimals != nil && *s.Decimals < 0 {
		s.Decimals = nil
	} else if s.Decimals == nil {
		if m, err := scorer.ParseModel(c.Metric); err == nil && m.Decimals >= 0 {
			d := m.Decimals
			s.Decimals = &d
		}
	}
	if f := c.PublicFraction; f > 0 && f < 1 {
		s.Split = &defence.SplitSettings{Public: f}
	}
	return Cell{Name: "as configured", Defence: s}
}

// parseMetric returns the unrounded scorer model of a log-loss metric
// with clip applied, and its clipping ε as a float64.
func parseMetric(name, clip string) (*scorer.Model, float64, error) {
	m, err := scorer.ParseModel(name)
	if err != nil {
		return nil, 0, fmt.Errorf("audit: metric: %w", err)
	}
	if m.Exact {
		return nil, 0, fmt.Errorf("audit: metric %q: arbitrary-precision scorers are not a served metric", name)
	}
	l := m.Loss
	switch clip {
	case "":
	case "none":
		l.Eps = ""
	default:
		e, err := strconv.ParseFloat(clip, 64)
		if err != nil || !(e > 0 && e < 0.5) {
			return nil, 0, fmt.Errorf("audit: clip %q: want none or a number in (0, 0.5)", clip)
		}
		l.Eps = clip
	}
	mname := m.Name
	if clip != "" {
		mname += " clip=" + clip
	}
	// Rebuilt through ParseModel's checks, its clip parsed once.
	out, err := scorer.NewModel(scorer.Model{Name: mname, Loss: l, Decimals: -1, Desc: m.Desc})
	if err != nil {
		return nil, 0, fmt.Errorf("audit: metric %q: %w", name, err)
	}
	eps := 1e-300
	if l.Eps != "" {
		eps, _ = strconv.ParseFloat(l.Eps, 64)
	}
	return out, eps, nil
}

// DefaultGrid is the grid of the issue for n labels: none; rounding to
// 5, 3 and 2 decimals; fresh Gaussian noise at three scales (a tenth of,
// equal to and ten times one label's largest move ln(10⁶)/n at a 10⁻⁶
// clip, rounded to one significant digit, so the grid is the same for
// every metric); the fixed-step Ladder (η = 0.01, the code's grid) and
// the parameter-free Ladder, each with one global best [BH15] and with
// one best per team (the authors' code), and the per-team
// parameter-free Ladder rounding every release, the first included, to
// a coarse grid of 0.01 (what fresh accounts then see is a score
// rounded to 2 decimals); 5 submissions per day; a
// public/private split (publicFraction, 0.3 if unset); scoring on a
// random subset of half the rows.
func DefaultGrid(n int, publicFraction float64) []Cell {
	d := func(v int) *int { return &v }
	move := 13.8 / float64(n)
	scale := func(f float64) float64 {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(f*move, 'e', 0, 64), 64)
		return v
	}
	if !(publicFraction > 0 && publicFraction < 1) {
		publicFraction = 0.3
	}
	grid := []Cell{
		{Name: "none"},
		{Name: "round 5", Defence: defence.Settings{Decimals: d(5)}},
		{Name: "round 3", Defence: defence.Settings{Decimals: d(3)}},
		{Name: "round 2", Defence: defence.Settings{Decimals: d(2)}},
	}
	for _, f := range []float64{0.1, 1, 10} {
		s := scale(f)
		grid = append(grid, Cell{Name: "gauss " + strconv.FormatFloat(s, 'g', -1, 64),
			Defence: defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: s}}})
	}
	grid = append(grid,
		Cell{Name: "ladder fixed", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01", Grid: defence.CodeGrid(n).FloatString(12)}}},
		Cell{Name: "ladder free", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free"}}},
		Cell{Name: "ladder fixed/team", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01", Grid: defence.CodeGrid(n).FloatString(12), PerTeam: true}}},
		Cell{Name: "ladder free/team", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", PerTeam: true}}},
		Cell{Name: "ladder free/team grid 0.01", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", Grid: "0.01", PerTeam: true}}},
		Cell{Name: "5/day", Defence: defence.Settings{Limits: defence.LimitSettings{PerDay: 5}}},
		Cell{Name: "split " + strconv.FormatFloat(publicFraction, 'g', -1, 64), Defence: defence.Settings{Split: &defence.SplitSettings{Public: publicFraction}}},
		Cell{Name: fmt.Sprintf("subset %d", max(1, n/2)), Defence: defence.Settings{Subset: max(1, n/2)}},
	)
	return grid
}

// cellSeed derives a cell's 32-byte simulation seed from the audit seed.
func cellSeed(seed uint64, name string) [32]byte {
	var out [32]byte
	r := rand.New(rand.NewPCG(seed, hash64(name)))
	for i := range 4 {
		v := r.Uint64()
		for j := range 8 {
			out[8*i+j] = byte(v >> (8 * j))
		}
	}
	return out
}

// hash64 is FNV-1a.
func hash64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// LoadLabels returns the competition's private labels as the audit reads
// them (the labels file, the embedded data set or the synthetic draw).
func (c *Config) LoadLabels() ([]int, error) {
	comp, err := c.resolve()
	if err != nil {
		return nil, &ConfigError{err}
	}
	return comp.labels, nil
}
