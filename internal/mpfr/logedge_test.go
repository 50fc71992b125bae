//go:build mpfr && cgo

package mpfr

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgreeLogEdges checks apa's Log through a reused Consts (the
// multi-prime reduction of apa/logmp.go from its second call) against
// MPFR bit for bit on the reduction's edges: x a product of the primes
// (a = b: the series vanishes), such a product times 1 ± 2^-k, x near 1
// (no reduction), just below and above powers of two, tiny and huge
// exponents, and random arguments.
func TestAgreeLogEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 1))
	precs := []uint{24, 64, 150, 1000, 5000, 20000}
	if !testing.Short() {
		precs = append(precs, 100000)
	}
	var cache apa.Consts
	for _, prec := range precs {
		p := prec + 40
		one := new(big.Float).SetPrec(p).SetInt64(1)
		pow2 := func(k int) *big.Float { return new(big.Float).SetPrec(p).SetMantExp(one, k) }
		ratio := func(a, b int64) *big.Float {
			return new(big.Float).SetPrec(p).Quo(new(big.Float).SetInt64(a), new(big.Float).SetInt64(b))
		}
		plus := func(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(p).Add(x, y) }
		minus := func(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(p).Sub(x, y) }
		mul := func(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(p).Mul(x, y) }
		k := int(prec) / 3
		xs := []*big.Float{
			big.NewFloat(3), big.NewFloat(2 * 3 * 5 * 7 * 11 * 13), big.NewFloat(37.0 / 1024),
			ratio(3*3*3*3*3*3*3, 37*37*37*37), ratio(29*31, 17*19*23),
			mul(big.NewFloat(3), plus(one, pow2(-k))), mul(big.NewFloat(35), minus(one, pow2(-40))),
			plus(one, pow2(-k)), minus(one, pow2(-k)), plus(one, pow2(-3)),
			minus(pow2(40), pow2(-k)), plus(pow2(40), pow2(-k)), minus(pow2(-7), pow2(-k-7)),
			mul(big.NewFloat(3), pow2(1<<29)), mul(big.NewFloat(5), pow2(-(1 << 29))), // MPFR's default range: 2^±(2^30)
		}
		for range 12 {
			x := randFloat(r, p)
			xs = append(xs, x.SetMantExp(x, r.IntN(200)-100))
		}
		for i, x := range xs {
			want := mpfrLog(prec, x)
			for range 2 { // the second call takes the multi-prime path
				got, err := cache.Log(new(big.Float).SetPrec(prec), x)
				require.NoError(t, err)
				assert.Equal(t, 0, got.Cmp(want), "Consts.Log at %d bits, case %d", prec, i)
			}
			got, err := apa.Log(new(big.Float).SetPrec(prec), x)
			require.NoError(t, err)
			assert.Equal(t, 0, got.Cmp(want), "Log at %d bits, case %d", prec, i)
		}
	}
}
