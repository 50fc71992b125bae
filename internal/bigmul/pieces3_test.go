package bigmul

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPieces3 checks that pieces3 gives, for every piece width and for
// dense, sparse and all-ones operands, the words each prime's pieces gives.
func TestPieces3(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 33))
	for _, b := range []uint{1, 17, 63, 64, 65, 66, 74, 79, 82, 86} {
		for _, words := range []int{1, 2, 3, 5, 40, 333} {
			for kind := range 3 {
				x := randBitsD(r, 64*words, kind == 1).Bits()
				if kind == 2 {
					for j := range x {
						x[j] = ^x[j] | x[j]
					}
				}
				n := int((bitLen(x)+b-1)/b) + 5
				var dst [3][]uint64
				for k := range dst {
					dst[k] = make([]uint64, n)
					for j := range dst[k] {
						dst[k][j] = 12345 // dirty: pieces3 must clear the rest
					}
				}
				pieces3(dst, x, b)
				for k, q := range primes3 {
					want := make([]uint64, n)
					q.pieces(want, x, b)
					if !slices.Equal(dst[k], want) {
						t.Fatalf("b=%d words=%d kind=%d prime %d: pieces3 differs from pieces", b, words, kind, k)
					}
				}
			}
		}
	}
}
