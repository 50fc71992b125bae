package scorer

import (
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// ComputedTerm is the server's own term: emulating a whole query on the
// computed terms reports exactly the score the simulated server
// (Model.Eval) reports, for the presets that name their log; the others
// give no computed term.
func TestComputedTermExact(t *testing.T) {
	r := testrand.New(t)
	trials, maxN := 12, 5000
	if testing.Short() {
		trials, maxN = 4, 800
	}
	cases := []struct {
		name  string
		k     int
		exact bool
	}{
		{Float64Sklearn, 2, true}, {Float64Sklearn, 3, true}, {TorchBCE, 2, true}, {Float32Keras, 2, false},
	}
	for _, tt := range cases {
		m, err := ParseModel(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := m.NewEmulator()
		if err != nil {
			t.Fatal(err)
		}
		if e.ExactLog() != tt.exact {
			t.Errorf("%s: ExactLog() = %v; want %v", tt.name, e.ExactLog(), tt.exact)
		}
		w := 1
		if tt.k > 2 {
			w = tt.k
		}
		for range trials {
			n := 1 + r.IntN(maxN)
			p := randPred(r, n, tt.k)
			if tt.k > 2 {
				// Rows of K probabilities that sum to about 1 (renormalised
				// by the server anyway).
				for i := range n {
					var s float64
					for c := range tt.k {
						p.P[i*w+c] = 0.01 + r.Float64()
						s += p.P[i*w+c]
					}
					for c := range tt.k {
						p.P[i*w+c] /= s
					}
				}
			}
			labels := make([]int, n)
			terms := e.NewTerms(n)
			ok := true
			for i := range labels {
				labels[i] = r.IntN(tt.k)
				row := p.P[i*w : (i+1)*w]
				v, exact, err := e.ComputedTerm(row, tt.k, labels[i])
				if err != nil {
					// A row whose term is infinite (a probability of 0
					// unclipped): the server rejects it too; use 1/2.
					for c := range row {
						row[c] = 1 / float64(max(tt.k, 2))
					}
					if v, exact, err = e.ComputedTerm(row, tt.k, labels[i]); err != nil {
						t.Fatalf("%s: ComputedTerm(1/K): %v", tt.name, err)
					}
				}
				if exact != tt.exact {
					t.Fatalf("%s: ComputedTerm ok = %v; want %v", tt.name, exact, tt.exact)
				}
				ok = ok && exact
				terms.Set(i, v)
			}
			if !ok {
				continue
			}
			got, err := e.Report(terms)
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.Eval(labels, p)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(want) != 0 {
				t.Fatalf("%s K=%d n=%d: emulated %s; server %s", tt.name, tt.k, n, got.FloatString(20), want.FloatString(20))
			}
		}
	}
}

// A computed term lies in the faithful range of its exact term.
func TestComputedTermInRange(t *testing.T) {
	for _, name := range []string{Float64Sklearn, TorchBCE} {
		m, _ := ParseModel(name)
		e, _ := m.NewEmulator()
		for _, p := range []float64{0.5, 1e-3, 0.25, 0.999, 1e-30} {
			ts, err := m.Terms([]float64{p})
			if err != nil {
				t.Fatal(err)
			}
			for y := range 2 {
				v, ok, err := e.ComputedTerm([]float64{p}, 2, y)
				if err != nil || !ok {
					t.Fatalf("%s: ComputedTerm(%g, %d) = %v, %v", name, p, y, ok, err)
				}
				lo, hi := e.TermRange(ts[y])
				if v < lo || v > hi {
					t.Errorf("%s: ComputedTerm(%g, %d) = %g outside [%g, %g] (exact %s)", name, p, y, v, lo, hi, ts[y].Text('g', 20))
				}
			}
		}
	}
}
