package scorer

import (
	"math"
	"testing"
)

// TestGoLogSubnormal: the default simulated log stays faithful on
// subnormal arguments, where Go's amd64 math.Log is not (−709.09 for
// 2^−1074, whose log is −744.44).
func TestGoLogSubnormal(t *testing.T) {
	for _, x := range []float64{5e-324, 1e-320, 1e-310, 0x1.fffffffffffffp-1023, 0x1p-1022, 0.5} {
		got := goLog(x)
		// ln x = ln(x·2^k) − k·ln 2, checked within 2 ulps.
		_, e := math.Frexp(x)
		want := math.Log(math.Ldexp(x, 1-e)) + float64(e-1)*math.Ln2
		if math.Abs(got-want) > 2*(math.Nextafter(math.Abs(want), math.Inf(1))-math.Abs(want)) {
			t.Errorf("goLog(%g) = %v, ln x = %v", x, got, want)
		}
	}
}
