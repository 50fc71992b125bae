package fingerprint

import (
	"context"
	"hash/fnv"
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/scorer"
)

// odd is a scorer outside the candidate grid, written out in plain Go
// float64 (not from scorer's components): score computes the reported
// value from the labels and the probabilities.
type odd struct {
	labels  []int
	score   func(labels []int, p []float64) float64
	queries int
}

func (o *odd) N() int       { return len(o.labels) }
func (o *odd) K() int       { return 2 }
func (o *odd) Queries() int { return o.queries }
func (o *odd) Score(_ context.Context, p *scorer.Pred) (*big.Rat, error) {
	o.queries++
	return new(big.Rat).SetFloat64(o.score(o.labels, p.P)), nil
}

func clipTerms(labels []int, p []float64, eps float64) []float64 {
	t := make([]float64, len(p))
	for i, x := range p {
		x = min(max(x, eps), 1-eps)
		if labels[i] == 1 {
			t[i] = -math.Log(x)
		} else {
			t[i] = -math.Log(1 - x)
		}
	}
	return t
}

// TestNoModelFits checks scorers no candidate describes: each is
// reported as "no model fits", never as a named model.
func TestNoModelFits(t *testing.T) {
	scorers := map[string]func([]int, []float64) float64{
		"clip 1e-12": func(l []int, p []float64) float64 {
			s := 0.0
			for _, v := range clipTerms(l, p, 1e-12) {
				s += v
			}
			return s / float64(len(p))
		},
		"reversed sum": func(l []int, p []float64) float64 {
			t := clipTerms(l, p, 0x1p-52)
			s := 0.0
			for i := len(t) - 1; i >= 0; i-- {
				s += t[i]
			}
			return s / float64(len(p))
		},
		"float32 sum of float64 terms": func(l []int, p []float64) float64 {
			var s float32
			for _, v := range clipTerms(l, p, 0x1p-52) {
				s += float32(v)
			}
			return float64(s / float32(len(p)))
		},
		"noise keyed on the prediction": func(l []int, p []float64) float64 {
			h := fnv.New64a()
			for _, v := range p {
				b := math.Float64bits(v)
				h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24), byte(b >> 32), byte(b >> 40), byte(b >> 48), byte(b >> 56)})
			}
			s := 0.0
			for _, v := range clipTerms(l, p, 0x1p-52) {
				s += v
			}
			u := float64(h.Sum64()>>11)/(1<<53) - 0.5
			return s/float64(len(p)) + 1e-9*u
		},
	}
	r := testrand.New(t)
	for name, f := range scorers {
		wrong, nofit, trials := 0, 0, 5
		if testing.Short() {
			trials = 2
		}
		for trial := range trials {
			n := []int{198, 1000}[trial%2]
			labels := make([]int, n)
			for i := range labels {
				labels[i] = r.IntN(2)
			}
			res, err := Identify(context.Background(), &odd{labels: labels, score: f})
			if err != nil {
				t.Fatal(err)
			}
			if res.Model != nil {
				wrong++
				t.Errorf("%s N=%d: identified as %s after %d probes", name, n, res.Model.Name, res.Queries())
				continue
			}
			nofit++
			if trial == 0 {
				t.Logf("%s: %d probes, no model fits: %s", name, res.Queries(), res.NoFit)
			}
		}
		t.Logf("%s: %d of %d reported no model fits, %d wrong", name, nofit, trials, wrong)
	}
}
