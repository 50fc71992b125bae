package scorer

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/apa"
)

// TestLog64Subnormal: log64 is within 1 ulp of the exact log on normal and
// subnormal inputs (Go's amd64 math.Log returns −709.09 for 2^−1074,
// golang/go#56600), and a float64 server scores a subnormal prediction
// with it.
func TestLog64Subnormal(t *testing.T) {
	for _, x := range []float64{5e-324, 1e-320, 1e-310, 0x1p-1022 * (1 - 0x1p-52), 0x1p-1022, 1e-300, 0.3, 7} {
		l, err := apa.Log(new(big.Float).SetPrec(200), new(big.Float).SetFloat64(x))
		require.NoError(t, err)
		want, _ := l.Float64()
		got := log64(x)
		ulp := math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want)
		assert.LessOrEqual(t, math.Abs(got-want), ulp, "log64(%g) = %v; want %v", x, got, want)
	}
	m, err := ParseModel("float64")
	require.NoError(t, err)
	r, err := m.Eval([]int{1}, &Pred{K: 2, P: []float64{5e-324}})
	require.NoError(t, err)
	f, _ := r.Float64()
	assert.InDelta(t, 744.4400719213812, f, 1e-12, "score of label 1 at p = 2^−1074")
}
