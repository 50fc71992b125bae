package bigmul

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSetTrace checks that Mul reports its operands' sizes, longer first,
// and squares as squares, and that SetTrace(nil) stops the reports.
func TestSetTrace(t *testing.T) {
	type call struct {
		x, y int
		sq   bool
	}
	var got []call
	SetTrace(func(x, y int, sq bool) { got = append(got, call{x, y, sq}) })
	x := new(big.Int).Lsh(big.NewInt(1), 64*40-1) // 40 words
	y := new(big.Int).Lsh(big.NewInt(1), 64*3-1)  // 3 words
	var z big.Int
	Mul(&z, y, x)
	Sqr(&z, x)
	SetTrace(nil)
	Mul(&z, x, y)
	assert.Equal(t, []call{{40, 3, false}, {40, 40, true}}, got)
}
