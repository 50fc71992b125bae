package bigmul

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/cputime"
)

// BenchmarkSplitVsPlain times the split plan that planFor picks against
// the plain power-of-two plan that holds the same product, alternated in
// every repetition, and reports the median CPU time of each and their
// ratio (split ÷ plain).
func BenchmarkSplitVsPlain(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, bits := range []int{3e4, 1e5, 3e5, 1e6, 3e6} {
		x, y := randBitsD(r, bits, false), randBitsD(r, bits, false)
		sp := planFor(uint(bits), uint(bits))
		if sp.h == 0 {
			continue
		}
		var pp nttPlan
		for lg := uint(1); ; lg++ {
			if n := 1 << lg; n >= sp.coeffs() {
				pp = nttPlan{b: min(uint(maxPieceBits), (log2M-lg)/2), n: n}
				break
			}
		}
		b.Run(fmt.Sprintf("bits=%d", bits), func(b *testing.B) {
			var ts, tp []float64
			for b.Loop() {
				c0 := int64(cputime.Now())
				nttMulPlan(x.Bits(), y.Bits(), sp)
				c1 := int64(cputime.Now())
				nttMulPlan(x.Bits(), y.Bits(), pp)
				c2 := int64(cputime.Now())
				ts, tp = append(ts, float64(c1-c0)), append(tp, float64(c2-c1))
			}
			slices.Sort(ts)
			slices.Sort(tp)
			b.ReportMetric(ts[len(ts)/2]/1e3, "split-cpu-us")
			b.ReportMetric(tp[len(tp)/2]/1e3, "plain-cpu-us")
			b.ReportMetric(ts[len(ts)/2]/tp[len(tp)/2], "split/plain")
		})
	}
}
