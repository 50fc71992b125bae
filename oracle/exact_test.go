package oracle

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/loss"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExact(t *testing.T) {
	o, err := NewExact([]int{0, 1, 1}, 2, 100)
	require.NoError(t, err)
	p, err := loss.BinaryFromFloats([]*big.Float{big.NewFloat(0.5), big.NewFloat(0.5), big.NewFloat(0.5)})
	require.NoError(t, err)
	s, err := o.Score(context.Background(), p)
	require.NoError(t, err)
	// Every row at ½: the loss is ln 2 whatever the labels.
	want, _ := new(big.Float).SetPrec(100).SetString("0.693147180559945309417232121458176568")
	assert.Equal(t, uint(100), s.Prec())
	assert.Equal(t, 0, s.Cmp(want), "score %v", s)
	assert.Equal(t, 1, o.Queries())

	_, err = o.Score(context.Background(), &loss.Rat{K: 2})
	assert.Error(t, err)
	assert.Equal(t, 2, o.Queries())
}

func TestNewExactErrors(t *testing.T) {
	_, err := NewExact(nil, 2, 53)
	assert.Error(t, err)
	_, err = NewExact([]int{0}, 1, 53)
	assert.Error(t, err)
	_, err = NewExact([]int{3}, 2, 53)
	assert.Error(t, err)
	_, err = NewExact([]int{0}, 2, 1)
	assert.Error(t, err)
}

// TestExactMatchesLoss checks the server's score (products on two
// goroutines, a shared constant cache) against loss.CrossEntropy, bit for
// bit, on random rational predictions with K = 2 and 5, with a zero
// probability on a labelled class (+Inf), at several precisions, and with
// a cache shared between two servers and reused across queries.
func TestExactMatchesLoss(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var cc apa.Consts
	ns, precs := []int{1, 40, 600}, []uint{53, 1000, 8000}
	if testing.Short() {
		ns, precs = []int{1, 40, 150}, []uint{53, 1000, 3000}
	}
	for _, k := range []int{2, 5} {
		for _, n := range ns {
			labels := make([]int, n)
			p := &loss.Rat{K: k, Num: make([][]*big.Int, n), Den: make([]*big.Int, n)}
			for i := range n {
				labels[i] = r.IntN(k)
				d := new(big.Int)
				row := make([]*big.Int, k)
				for c := range row {
					row[c] = new(big.Int).SetUint64(r.Uint64N(1 << 40))
					d.Add(d, row[c])
				}
				p.Num[i], p.Den[i] = row, d
			}
			for _, prec := range precs {
				want, err := loss.CrossEntropy(new(big.Float).SetPrec(prec), labels, p)
				require.NoError(t, err)
				for _, shared := range []bool{false, true} {
					o, err := NewExact(labels, k, prec)
					require.NoError(t, err)
					if shared {
						o.UseConsts(&cc)
					}
					got, err := o.Score(context.Background(), p)
					require.NoError(t, err)
					require.Equal(t, want.Text('p', 0), got.Text('p', 0), "K=%d N=%d prec=%d shared=%v", k, n, prec, shared)
				}
			}
			// A labelled class with probability 0: +Inf.
			p.Num[0][labels[0]] = new(big.Int)
			p.Den[0].SetInt64(0)
			for _, v := range p.Num[0] {
				p.Den[0].Add(p.Den[0], v)
			}
			if p.Den[0].Sign() == 0 {
				continue
			}
			o, err := NewExact(labels, k, 64)
			require.NoError(t, err)
			got, err := o.Score(context.Background(), p)
			require.NoError(t, err)
			assert.True(t, got.IsInf() && got.Sign() > 0, "K=%d N=%d: %v", k, n, got)
		}
	}
}
