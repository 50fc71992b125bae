package single

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSingleQueryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct{ n, k int }{{1, 2}, {2, 2}, {10, 2}, {300, 2}, {2000, 2}, {50, 3}, {400, 6}, {7, 10}} {
		q, err := NewQuery(tt.n, tt.k)
		require.NoError(t, err)
		for trial := 0; trial < 3; trial++ {
			labels := testrand.Labels(r, tt.n, tt.k)
			o, err := oracle.NewExact(labels, tt.k, q.Prec())
			require.NoError(t, err)
			res, err := Attack(context.Background(), o, Options{})
			require.NoError(t, err, "N=%d K=%d", tt.n, tt.k)
			assert.Equal(t, labels, res.Labels, "N=%d K=%d", tt.n, tt.k)
			assert.True(t, res.Verified)
			assert.Equal(t, 1, o.Queries())
		}
	}
}

// TestPlannedPrecisionIsTight checks the planner against the worst case it
// must cover, X = X_max (every label K−1): at the planned precision every
// labeling decodes, and a few bits below it a measurable fraction fails.
// The planner is a bound, so random labelings (X far below X_max) still
// decode below it; only near-worst-case labelings show the edge.
func TestPlannedPrecisionIsTight(t *testing.T) {
	bases := []int{40, 200, 1000}
	if testing.Short() {
		bases = bases[:2]
	}
	for _, base := range bases {
		for _, k := range []int{2, 3} {
			const trials = 12
			const below = 5
			fails := 0
			for n := base; n < base+trials; n++ {
				q, err := NewQuery(n, k)
				require.NoError(t, err)
				labels := make([]int, n)
				for i := range labels {
					labels[i] = k - 1
				}
				o, err := oracle.NewExact(labels, k, q.Prec())
				require.NoError(t, err)
				res, err := Attack(context.Background(), o, Options{})
				require.NoError(t, err, "N=%d K=%d at planned P=%d", n, k, q.Prec())
				assert.Equal(t, labels, res.Labels)

				low, err := oracle.NewExact(labels, k, q.Prec()-below)
				require.NoError(t, err)
				_, err = Attack(context.Background(), low, Options{})
				var pe *PrecisionError
				assert.True(t, errors.As(err, &pe), "below plan must be refused by default")
				res, err = Attack(context.Background(), low, Options{AllowLowPrecision: true})
				if err != nil || !slices.Equal(res.Labels, labels) {
					fails++
				}
			}
			t.Logf("N≈%d K=%d: %d/%d worst-case labelings fail %d bits below the plan", base, k, fails, trials, below)
			assert.GreaterOrEqual(t, fails, trials/3, "N≈%d K=%d: %d bits below the plan should fail often", base, k, below)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	q, err := NewQuery(100, 2)
	require.NoError(t, err)
	labels := testrand.Labels(rand.New(rand.NewPCG(3, 4)), 100, 2)
	o, err := oracle.NewExact(labels, 2, q.Prec())
	require.NoError(t, err)
	score, err := o.Score(context.Background(), q.Prediction())
	require.NoError(t, err)

	// One ulp off: no labeling rounds to it.
	off := new(big.Float).SetPrec(q.Prec()).Set(score)
	ulp := new(big.Float).SetMantExp(big.NewFloat(1), score.MantExp(nil)-int(q.Prec()))
	off.Add(off, ulp)
	_, err = q.Decode(off, Options{})
	assert.ErrorIs(t, err, decode.ErrInconsistent)

	// A score no labeling explains.
	_, err = q.Decode(new(big.Float).SetPrec(q.Prec()).SetFloat64(0.123456789), Options{})
	assert.ErrorIs(t, err, decode.ErrInconsistent)
	for _, bad := range []*big.Float{nil, big.NewFloat(0), big.NewFloat(-1), new(big.Float).SetInf(false)} {
		_, err = q.Decode(bad, Options{})
		assert.ErrorIs(t, err, decode.ErrInconsistent)
	}
	// Too few bits.
	_, err = q.Decode(new(big.Float).SetPrec(53).Set(score), Options{})
	var pe *PrecisionError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, q.Prec(), pe.Need)

	_, err = NewQuery(0, 2)
	assert.Error(t, err)
	_, err = NewQuery(10, 1)
	assert.Error(t, err)
}

// TestPrimePrediction checks the slab-allocated prediction against the
// construction written out with one big.Int per entry: Num[i][c] = p_i^c,
// Den[i] = Σ_c p_i^c, for powers below 2^64 (word slab) and above (K = 8
// on primes past 600).
func TestPrimePrediction(t *testing.T) {
	for _, tt := range []struct{ n, k int }{{1, 2}, {50, 2}, {30, 3}, {200, 8}} {
		q, err := NewQuery(tt.n, tt.k)
		require.NoError(t, err)
		p := q.Prediction()
		require.NoError(t, p.Validate())
		require.Equal(t, tt.n, p.N())
		for i, pr := range q.Primes {
			pb := new(big.Int).SetUint64(pr)
			den := new(big.Int)
			for c := range tt.k {
				want := new(big.Int).Exp(pb, big.NewInt(int64(c)), nil)
				require.Equal(t, 0, p.Num[i][c].Cmp(want), "N=%d K=%d row %d class %d", tt.n, tt.k, i, c)
				den.Add(den, want)
			}
			require.Equal(t, 0, p.Den[i].Cmp(den), "N=%d K=%d row %d", tt.n, tt.k, i)
		}
		// The plan's D is the product of the denominators.
		d := big.NewInt(1)
		for _, v := range p.Den {
			d.Mul(d, v)
		}
		require.Equal(t, 0, q.den.Cmp(d))
	}
}
