package scorer

import (
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// ReportFloat is Report as a float64, exactly, on cached and uncached
// buffers, for models whose score is their mean in the format; for a
// score rounded to decimals it declines (ok false).
func TestReportFloat(t *testing.T) {
	r := testrand.New(t)
	for _, name := range []string{"float32-keras", "float64-sklearn", "torch-bce", "leaderboard"} {
		m, err := ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := m.NewEmulator()
		if err != nil {
			t.Fatal(err)
		}
		const n = 300
		for _, buf := range []*Terms{e.NewTerms(n), e.NewCachedTerms(n)} {
			for i := range n {
				buf.Set(i, float64(float32(r.Float64()*3)))
			}
			want, err := e.Report(buf)
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := e.ReportFloat(buf)
			if err != nil {
				t.Fatal(err)
			}
			if m.Decimals >= 0 {
				if ok {
					t.Errorf("%s: ReportFloat ok on a score rounded to decimals", name)
				}
				continue
			}
			if !ok || new(big.Rat).SetFloat64(got).Cmp(want) != 0 {
				t.Errorf("%s: ReportFloat %v (ok %v), Report %v", name, got, ok, want.FloatString(20))
			}
		}
	}
}
