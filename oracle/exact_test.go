package oracle

import (
	"context"
	"math/big"
	"testing"

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
