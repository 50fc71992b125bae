package bigmul

import (
	"math/big"
	"slices"
	"testing"
)

// TestSetTrace checks that Mul reports its operands' sizes, longer first,
// and squares as squares, that a transform's MulWrap reports its modulus,
// and that SetTrace(nil) stops the reports.
func TestSetTrace(t *testing.T) {
	var got []Product
	SetTrace(func(p Product) { got = append(got, p) })
	x := new(big.Int).Lsh(big.NewInt(1), 64*40-1) // 40 words
	y := new(big.Int).Lsh(big.NewInt(1), 64*3-1)  // 3 words
	var z big.Int
	Mul(&z, y, x)
	Sqr(&z, x)
	big1 := new(big.Int).Lsh(big.NewInt(1), 64*3000-1) // 3,000 words: a transform
	MulWrap(&z, big1, big1, 64*3000)
	SetTrace(nil)
	Mul(&z, x, y)
	if want := []Product{{40, 3, false, 0}, {40, 40, true, 0}, {3000, 3000, true, 64 * 3000}}; !slices.Equal(got, want) {
		t.Errorf("traced %v, want %v", got, want)
	}
}
