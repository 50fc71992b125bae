package audit

// This file holds the honest submissions and the cost a defence imposes
// on them.

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/scorer"
)

// Honest is one honest submission: a name and one probability of class 1
// per holdout row.
type Honest struct {
	Name string
	Pred []float64
}

// A Team is an honest team: its submissions, in the order it makes
// them.
type Team struct {
	Name string
	Subs []Honest
}

// OneEach returns one team per submission (a flat set of honest
// submissions, each made once).
func OneEach(hs []Honest) []Team {
	out := make([]Team, len(hs))
	for i, h := range hs {
		out[i] = Team{Name: h.Name, Subs: []Honest{h}}
	}
	return out
}

// HonestTeams returns the default synthetic honest teams for labels:
// teams that iterate, each improving its model over its submissions
// with diminishing returns (quality a_j = a·(1 − 0.6·2^−j) for its j-th
// of 6, from 0: 0.4a, 0.7a, 0.85a, …, 0.98a), on one noise draw per
// team and a small private draw per submission, so that late
// resubmissions move the score by a little: the improvements a Ladder
// hides), for 8 final qualities a from 0.6 to 3, and 4 teams that end
// in near-ties (a = 1.2 + 0.002·t) and resubmit near-ties of their own
// (the same model with a fresh small draw). Deterministic in seed.
func HonestTeams(labels []int, seed uint64) []Team {
	r := rand.New(rand.NewPCG(seed, 0x7ea35))
	n := len(labels)
	sigmoid := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	sub := func(a float64, base []float64, private float64) []float64 {
		p := make([]float64, n)
		for i, y := range labels {
			p[i] = sigmoid(a*float64(2*y-1) + base[i] + private*r.NormFloat64())
		}
		return p
	}
	draw := func() []float64 {
		b := make([]float64, n)
		for i := range b {
			b[i] = r.NormFloat64()
		}
		return b
	}
	const m = 6
	var out []Team
	for t, a := range []float64{0.6, 0.9, 1.2, 1.5, 1.8, 2.1, 2.5, 3} {
		base := draw()
		tm := Team{Name: fmt.Sprintf("team-%d(a=%g)", t, a)}
		for j := range m {
			aj := a * (1 - 0.6*math.Pow(2, -float64(j)))
			tm.Subs = append(tm.Subs, Honest{Name: fmt.Sprintf("%s#%d", tm.Name, j+1), Pred: sub(aj, base, 0.05)})
		}
		out = append(out, tm)
	}
	base := draw()
	for t := range 4 {
		a := 1.2 + 0.002*float64(t)
		tm := Team{Name: fmt.Sprintf("near-tie-%d(a=%g)", t, a)}
		for j := range 3 {
			tm.Subs = append(tm.Subs, Honest{Name: fmt.Sprintf("%s#%d", tm.Name, j+1), Pred: sub(a, base, 0.02)})
		}
		out = append(out, tm)
	}
	return out
}

// LoadHonest reads the honest teams of dir. A directory of
// subdirectories holds one team per subdirectory (in name order), whose
// regular files, in name order, are its submissions in order; a flat
// directory of files holds one submission per team. A file is one
// probability of class 1 per line (blank lines and lines starting with #
// skipped), n lines. A directory holding both files and subdirectories
// is refused (which files would be whose?).
func LoadHonest(dir string, n int) ([]Team, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("audit: honest: %w", err)
	}
	var files, dirs []string
	for _, e := range ents {
		switch {
		case e.IsDir():
			dirs = append(dirs, e.Name())
		case e.Type().IsRegular():
			files = append(files, e.Name())
		}
	}
	if len(files) > 0 && len(dirs) > 0 {
		return nil, fmt.Errorf("audit: honest: %s holds both files and directories: put every team's files in its own directory, or use a flat directory of one submission per team", dir)
	}
	var out []Team
	if len(dirs) == 0 {
		hs, err := loadFiles(dir, files, n)
		if err != nil {
			return nil, err
		}
		out = OneEach(hs)
	}
	for _, d := range dirs {
		sub := filepath.Join(dir, d)
		ents, err := os.ReadDir(sub)
		if err != nil {
			return nil, fmt.Errorf("audit: honest: %w", err)
		}
		var fs []string
		for _, e := range ents {
			if e.Type().IsRegular() {
				fs = append(fs, e.Name())
			}
		}
		if len(fs) == 0 {
			return nil, fmt.Errorf("audit: honest: team directory %s holds no submission file", sub)
		}
		hs, err := loadFiles(sub, fs, n)
		if err != nil {
			return nil, err
		}
		out = append(out, Team{Name: d, Subs: hs})
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("audit: honest: %s holds %d teams; need at least 2", dir, len(out))
	}
	return out, nil
}

// loadFiles reads the prediction files names of dir (ReadDir's order:
// by name).
func loadFiles(dir string, names []string, n int) ([]Honest, error) {
	var out []Honest
	for _, name := range names {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("audit: honest: %w", err)
		}
		var p []float64
		for ln, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			v, err := strconv.ParseFloat(line, 64)
			if err != nil || !(v >= 0 && v <= 1) {
				return nil, fmt.Errorf("audit: honest: %s:%d: %q is not a probability in [0, 1]", path, ln+1, line)
			}
			p = append(p, v)
		}
		if len(p) != n {
			return nil, fmt.Errorf("audit: honest: %s has %d predictions; the competition has %d rows", path, len(p), n)
		}
		out = append(out, Honest{Name: name, Pred: p})
	}
	return out, nil
}

// HonestCost is what a defence does to honest teams that iterate: each
// team's submissions go in turn (every team's first, then every team's
// second, …) to a fresh copy of the cell, each team with its own
// account. At the end, per team, |shown best − true best| (shown: the
// best score its releases showed; true: the best true score of its
// submissions, the metric on every holdout row, unrounded and
// undefended): its mean (MeanAbs) and largest (MaxAbs) over the teams,
// and Kendall's τ-b between the teams' true and shown bests (the final
// leaderboard). Improvements counts the submissions whose true score
// beat their team's previous true best, HiddenImprovements those of
// them after which the team's shown best did not improve.
type HonestCost struct {
	Submissions        int     `json:"submissions"`
	Teams              int     `json:"teams"`
	MeanAbs            float64 `json:"mean_abs_error"`
	MaxAbs             float64 `json:"max_abs_error"`
	KendallTau         float64 `json:"kendall_tau"`
	Improvements       int     `json:"improvements"`
	HiddenImprovements int     `json:"hidden_improvements"`
}

// trueScores returns the undefended score of each team's submissions.
func trueScores(m *scorer.Model, labels []int, ts []Team) ([][]float64, error) {
	out := make([][]float64, len(ts))
	for t, tm := range ts {
		for _, h := range tm.Subs {
			r, err := m.Eval(labels, &scorer.Pred{K: 2, P: h.Pred})
			if err != nil {
				return nil, fmt.Errorf("audit: honest submission %s: %w", h.Name, err)
			}
			v, _ := r.Float64()
			out[t] = append(out[t], v)
		}
	}
	return out, nil
}

// honestCost runs the honest teams against a fresh target of the cell
// (lower scores better: log-loss).
func (c *cellRun) honestCost(ctx context.Context, ts []Team, truth [][]float64) (HonestCost, error) {
	t, err := c.open(ctx)
	if err != nil {
		return HonestCost{}, err
	}
	defer t.Close()
	var hc HonestCost
	hc.Teams = len(ts)
	shown := make([]float64, len(ts))
	best := make([]float64, len(ts))
	for i := range ts {
		shown[i], best[i] = math.Inf(1), math.Inf(1)
	}
	rounds := 0
	for _, tm := range ts {
		rounds = max(rounds, len(tm.Subs))
	}
	for j := range rounds {
		for i, tm := range ts {
			if j >= len(tm.Subs) {
				continue
			}
			r, err := t.Submit(ctx, fmt.Sprintf("honest-%d", i), tm.Subs[j].Pred)
			if err != nil {
				return HonestCost{}, fmt.Errorf("audit: cell %q: honest submission %s: %w", c.cell.Name, tm.Subs[j].Name, err)
			}
			hc.Submissions++
			v, _ := r.Float64()
			if c.comp.higher {
				v = -v // compared as the truth is (honestmetric.go)
			}
			tv := truth[i][j]
			improved := j > 0 && tv < best[i]
			if improved {
				hc.Improvements++
				if !(v < shown[i]) {
					hc.HiddenImprovements++
				}
			}
			best[i] = math.Min(best[i], tv)
			shown[i] = math.Min(shown[i], v)
		}
	}
	for i := range ts {
		d := math.Abs(shown[i] - best[i])
		hc.MeanAbs += d
		hc.MaxAbs = math.Max(hc.MaxAbs, d)
	}
	hc.MeanAbs /= float64(len(ts))
	hc.KendallTau = KendallTau(best, shown)
	return hc, nil
}

// KendallTau returns Kendall's τ-b of x and y: (concordant − discordant)
// pairs over √((pairs untied in x)·(pairs untied in y)). It returns 0
// when either ranking is constant or has fewer than two points (no order
// to agree with): a Ladder that repeats one best for everybody scores 0.
func KendallTau(x, y []float64) float64 {
	n := len(x)
	var conc, disc, tx, ty float64
	for i := range n {
		for j := i + 1; j < n; j++ {
			a, b := cmp(x[i], x[j]), cmp(y[i], y[j])
			switch {
			case a == 0 && b == 0:
			case a == 0:
				tx++
			case b == 0:
				ty++
			case a == b:
				conc++
			default:
				disc++
			}
		}
	}
	d := math.Sqrt((conc + disc + tx) * (conc + disc + ty))
	if d == 0 {
		return 0
	}
	return (conc - disc) / d
}

func cmp(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// bests returns each team's best true score.
func bests(truth [][]float64) []float64 {
	out := make([]float64, len(truth))
	for i, s := range truth {
		out[i] = slices.Min(s)
	}
	return out
}

// nearTies counts the scores within 0.001 of another.
func nearTies(s []float64) int {
	t := slices.Clone(s)
	slices.Sort(t)
	k := 0
	for i := range t {
		if (i > 0 && t[i]-t[i-1] <= 0.001) || (i+1 < len(t) && t[i+1]-t[i] <= 0.001) {
			k++
		}
	}
	return k
}

// honestTeams returns the honest teams of the audit and says where they
// come from: o's, the config's directory, teams trained for real on the
// features of the competition's embedded data set, else the synthetic
// teams of [HonestTeams].
func (comp *competition) honestTeams(ctx context.Context, o Options) ([]Team, error) {
	switch {
	case o.Teams != nil:
		comp.honestSource = "given teams"
		return o.Teams, nil
	case o.Honest != nil:
		comp.honestSource = "given submissions, one team each"
		return OneEach(o.Honest), nil
	case comp.cfg.Honest != "":
		dir := comp.cfg.Honest
		if comp.dir != "" && !filepath.IsAbs(dir) {
			dir = filepath.Join(comp.dir, dir)
		}
		ts, err := LoadHonest(dir, len(comp.labels))
		if err != nil {
			return nil, &ConfigError{err}
		}
		comp.honestSource = "directory " + filepath.Base(dir)
		return ts, nil
	}
	if comp.cfg.Dataset != "" {
		ts, err := TrainedTeams(ctx, comp.cfg.Dataset, comp.labels, comp.cfg.Seed)
		if err != nil {
			return nil, err
		}
		if ts != nil {
			comp.honestSource = "trained on " + comp.cfg.Dataset + "'s features (logistic regression and MLP checkpoints)"
			return ts, nil
		}
	}
	comp.honestSource = "synthetic improving teams"
	return HonestTeams(comp.labels, comp.cfg.Seed), nil
}
