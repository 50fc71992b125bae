package scorer

import (
	"testing"
)

// TermsCached must give Terms' values, value and precision, whether a
// probability's log is computed or found in the cache: rows that repeat
// probabilities within a row and across rows, for a K-ary and a binary
// row of each model.
func TestTermsCached(t *testing.T) {
	rows := [][]float64{
		{0.5, 0.25, 0.125, 0.125},
		{0.125, 0.125, 0.25, 0.5},
		{0.1, 0.2, 0.3, 0.4},
		{0.4, 0.3, 0.2, 0.1},
		{1e-300, 0.5, 0.5, 0},
		{0.3}, {0.7}, {0.3},
	}
	for _, name := range []string{Float64Sklearn, Float32Keras, TorchBCE} {
		m, err := ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		var tc TermCache
		for pass := range 2 {
			for _, row := range rows {
				want, werr := m.Terms(row)
				got, gerr := m.TermsCached(row, &tc)
				if (werr != nil) != (gerr != nil) {
					t.Fatalf("%s %v: errors %v, %v", name, row, werr, gerr)
				}
				if werr != nil {
					continue
				}
				for c := range want {
					if got[c].Cmp(want[c]) != 0 || got[c].Prec() != want[c].Prec() {
						t.Errorf("%s %v pass %d class %d: cached %v (prec %d), want %v (prec %d)", name, row, pass, c, got[c], got[c].Prec(), want[c], want[c].Prec())
					}
				}
			}
		}
		if len(tc.terms) == 0 {
			t.Errorf("%s: nothing cached", name)
		}
	}
}
