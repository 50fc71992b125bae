package decode

import (
	"testing"

	"github.com/labelinf/labelinf/scorer"
)

// TestPaletteRepresentable checks the list decoders' palette: against a
// model that clips (or floors its log) a negative weight reaches −wmax,
// as before; against an unclipped one every row, of either sign, has
// finite terms (binary32 designed rows of weight down to −103 whose
// 1 − p rounds to 0 in the format).
func TestPaletteRepresentable(t *testing.T) {
	t.Parallel()
	for _, name := range []string{scorer.Float64Sklearn, scorer.Float32Keras, scorer.TorchBCE, scorer.Leaderboard, "binary32", "binary64", "exact", "binary16", "fpa:11,10", "fpa:15,112"} {
		m, err := scorer.ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := newMulti(300, 2, MultiOptions{Model: m, Strategy: Leaderboard})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if a.pExt == 0 && a.wneg != a.wmax {
			t.Errorf("%s clips: wneg = %v; want wmax = %v", name, a.wneg, a.wmax)
		}
		st := newLbState(a)
		if err := st.palette(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lo := 0.0
		for r := range st.pal {
			st.row(r)
			lo = min(lo, st.pal[r].w)
		}
		if st.err != nil {
			t.Errorf("%s: %v", name, st.err)
		}
		t.Logf("%s: weights down to %.3g (wmax %.4g, wneg %.4g)", name, lo, a.wmax, a.wneg)
	}
}
