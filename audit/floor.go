package audit

// This file computes a cell's floor: a lower bound on the submissions of
// any attack that recovers every public label.

import (
	"context"
	"math"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/discrete"
)

// Floor is a lower bound on the submissions of any attack, adaptive or
// not, that recovers every public label of the cell, for the worst
// labeling (a bound on average over the labelings with this class
// balance, which the worst one is at least):
//
//   - Information: the public labels' entropy given their class counts,
//     log₂ C(n; n₀, n₁, …) bits (discrete.LabelBits), over the bits one released score can
//     carry (BitsPerRelease): log₂ of the number of values a score
//     rounded to the cell's decimals can take in [0, ln(1/ε)]; 64 for
//     an unrounded float64; under noise at most the capacity of the
//     additive channel for an input of that range (Gaussian:
//     ½·log₂(1 + Var/σ²) with Var ≤ range²/4; Laplace b: the same
//     entropy-power bound against a noise entropy log₂(2eb)).
//   - Model: the project's proved floor for the metric's scorer model
//     (decode.FloorMulti's AnyBackground: the scores only few labelings
//     reach left out, on the worst labeling of N labels), where the
//     released score is a function of that model's scores over every row
//     (no noise, split or subset); 0 elsewhere.
//
// Submissions is the larger; Ratio the best attack's submissions over
// it (0 when no attack recovers).
type Floor struct {
	Submissions    int64   `json:"submissions"`
	EntropyBits    float64 `json:"entropy_bits"`
	BitsPerRelease float64 `json:"bits_per_release"`
	Information    int64   `json:"information"`
	Model          int64   `json:"model,omitempty"`
	Ratio          float64 `json:"ratio,omitempty"`
}

// floor computes the cell's floor.
func (c *cellRun) floor(ctx context.Context) (Floor, error) {
	var f Floor
	if _, ok := c.comp.discreteMetric(); ok {
		// A metric of package discrete: its information bound.
		n, err := c.discreteFloor()
		if err != nil {
			return Floor{}, err
		}
		f.Information, f.Submissions = int64(n), int64(n)
		return f, nil
	}
	var pub []int
	for i, p := range c.public {
		if p {
			pub = append(pub, c.comp.labels[i])
		}
	}
	// log₂ of the labelings with the public labels' class counts (a
	// binomial for two classes).
	f.EntropyBits = discrete.LabelBits(pub, c.comp.k)
	d := c.cell.Defence
	eps := max(c.comp.eps, 1e-300)
	span := -math.Log(eps) // a mean log-loss lies in [0, ln(1/ε)]
	bits := 64.0           // a float64
	if d.Decimals != nil {
		bits = math.Min(bits, math.Log2(span*math.Pow(10, float64(*d.Decimals))+1))
	}
	if z := d.Noise; z != nil && z.Scale > 0 {
		v := span * span / 4
		var capBits float64
		if z.Kind == "laplace" {
			capBits = 0.5*math.Log2(2*math.Pi*math.E*(v+2*z.Scale*z.Scale)) - math.Log2(2*math.E*z.Scale)
		} else {
			capBits = 0.5 * math.Log2(1+v/(z.Scale*z.Scale))
		}
		bits = math.Min(bits, math.Max(capBits, 0))
	}
	f.BitsPerRelease = bits
	if bits > 0 {
		f.Information = int64(math.Ceil(f.EntropyBits / bits))
	}
	if d.Noise == nil && d.Split == nil && d.Subset == 0 && c.comp.k == 2 {
		m := c.roundedModel(d.Decimals)
		if d.Ladder != nil {
			// The Ladder rounds the exact score to its grid: bound the
			// attack by the unrounded model, of which every release is a
			// function.
			m = c.roundedModel(nil)
		}
		fl, err := decode.FloorMulti(ctx, decode.MultiOptions{N: len(c.comp.labels), K: 2, Model: m})
		if err != nil {
			return Floor{}, err
		}
		f.Model = int64(fl.AnyBackground)
	}
	f.Submissions = max(f.Information, f.Model)
	return f, nil
}
