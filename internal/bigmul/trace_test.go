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
	x := new(big.Int).Lsh(big.NewInt(1), wordBits*40-1) // 40 words
	y := new(big.Int).Lsh(big.NewInt(1), wordBits*3-1)  // 3 words
	var z big.Int
	Mul(&z, y, x)
	Sqr(&z, x)
	big1 := new(big.Int).Lsh(big.NewInt(1), wordBits*3000-1) // 3,000 words: a transform
	MulWrap(&z, big1, big1, wordBits*3000)
	MulHigh(&z, x, y, wordBits*20)
	// On 32-bit words there is no transform: MulWrap reports Mul's square.
	wrap := uint(0)
	if wordBits == 64 {
		wrap = 64 * 3000
	}
	SetTrace(nil)
	Mul(&z, x, y)
	if want := []Product{{40, 3, false, 0, 0}, {40, 40, true, 0, 0}, {3000, 3000, true, wrap, 0}, {40, 3, false, 0, wordBits * 20}}; !slices.Equal(got, want) {
		t.Errorf("traced %v, want %v", got, want)
	}
}
