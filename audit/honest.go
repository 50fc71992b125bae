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

// HonestSet returns the default honest submissions for labels: models of
// several qualities, each a noisy version of the truth (probability
// σ(a·(2y−1) + g), g standard normal per row, for 8 qualities a from 0.3
// to 3), and a cluster of 12 near-ties (a = 1.2 + 0.002·j on one shared
// noise draw plus a small private one), whose true scores lie within
// 0.001 of a neighbour: the submissions a defence reorders. Deterministic
// in seed.
func HonestSet(labels []int, seed uint64) []Honest {
	r := rand.New(rand.NewPCG(seed, 0x40e57))
	n := len(labels)
	sigmoid := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	var out []Honest
	for j, a := range []float64{0.3, 0.6, 0.9, 1.2, 1.5, 2, 2.5, 3} {
		p := make([]float64, n)
		for i, y := range labels {
			p[i] = sigmoid(a*float64(2*y-1) + r.NormFloat64())
		}
		out = append(out, Honest{Name: fmt.Sprintf("model-%d(a=%g)", j, a), Pred: p})
	}
	base := make([]float64, n)
	for i := range base {
		base[i] = r.NormFloat64()
	}
	for j := range 12 {
		a := 1.2 + 0.002*float64(j)
		p := make([]float64, n)
		for i, y := range labels {
			p[i] = sigmoid(a*float64(2*y-1) + base[i] + 0.02*r.NormFloat64())
		}
		out = append(out, Honest{Name: fmt.Sprintf("near-tie-%d(a=%g)", j, a), Pred: p})
	}
	return out
}

// LoadHonest reads every regular file of dir (in name order) as an
// honest submission: one probability of class 1 per line (blank lines
// and lines starting with # skipped), n lines.
func LoadHonest(dir string, n int) ([]Honest, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("audit: honest: %w", err)
	}
	var out []Honest
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
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
		out = append(out, Honest{Name: e.Name(), Pred: p})
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("audit: honest: %s holds %d prediction files; need at least 2", dir, len(out))
	}
	return out, nil
}

// HonestCost is what a defence does to honest submissions: the mean and
// largest |reported − true| score (true: the metric on every holdout
// row, unrounded, undefended) and Kendall's τ-b between the true and the
// reported leaderboards.
type HonestCost struct {
	Submissions int     `json:"submissions"`
	MeanAbs     float64 `json:"mean_abs_error"`
	MaxAbs      float64 `json:"max_abs_error"`
	KendallTau  float64 `json:"kendall_tau"`
}

// trueScores returns the undefended score of each honest submission.
func trueScores(m *scorer.Model, labels []int, hs []Honest) ([]float64, error) {
	out := make([]float64, len(hs))
	for i, h := range hs {
		r, err := m.Eval(labels, &scorer.Pred{K: 2, P: h.Pred})
		if err != nil {
			return nil, fmt.Errorf("audit: honest submission %s: %w", h.Name, err)
		}
		out[i], _ = r.Float64()
	}
	return out, nil
}

// honestCost submits every honest submission once, each as its own team,
// in order, to a fresh target of the cell.
func (c *cellRun) honestCost(ctx context.Context, hs []Honest, truth []float64) (HonestCost, error) {
	t, err := c.open(ctx)
	if err != nil {
		return HonestCost{}, err
	}
	defer t.Close()
	rep := make([]float64, len(hs))
	var hc HonestCost
	for i, h := range hs {
		r, err := t.Submit(ctx, fmt.Sprintf("honest-%d", i), h.Pred)
		if err != nil {
			return HonestCost{}, fmt.Errorf("audit: cell %q: honest submission %s: %w", c.cell.Name, h.Name, err)
		}
		rep[i], _ = r.Float64()
		d := math.Abs(rep[i] - truth[i])
		hc.MeanAbs += d
		hc.MaxAbs = math.Max(hc.MaxAbs, d)
	}
	hc.Submissions = len(hs)
	hc.MeanAbs /= float64(len(hs))
	hc.KendallTau = KendallTau(truth, rep)
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
