package bigint

import (
	"math"
	"math/big"
	"testing"
)

// The three roundings against math's on float64 values, and exactly on a
// value far beyond float64's integers.
func TestRoundings(t *testing.T) {
	for _, x := range []float64{0, 0.5, -0.5, 1.5, -1.5, 2.25, -2.25, 7, -7, 1e15 + 0.5, -1e15 - 0.5, 0x1p-60, -0x1p-60} {
		f := new(big.Float).SetFloat64(x)
		for _, c := range []struct {
			name string
			got  *big.Int
			want float64
		}{{"Floor", Floor(f), math.Floor(x)}, {"Ceil", Ceil(f), math.Ceil(x)}, {"Round", Round(f), math.Floor(x + 0.5)}} {
			if w, _ := new(big.Float).SetFloat64(c.want).Int(nil); c.got.Cmp(w) != 0 {
				t.Errorf("%s(%g) = %v, want %v", c.name, x, c.got, w)
			}
		}
	}
	want := new(big.Int).Lsh(big.NewInt(1), 100)
	big1 := new(big.Float).SetPrec(200).SetInt(want)
	big1.Sub(big1, big.NewFloat(0.25)) // 2^100 − 1/4, exact at 200 bits
	if got := Round(big1); got.Cmp(want) != 0 {
		t.Errorf("Round(2^100 − 1/4) = %v, want 2^100", got)
	}
	if got := Ceil(big1); got.Cmp(want) != 0 {
		t.Errorf("Ceil(2^100 − 1/4) = %v, want 2^100", got)
	}
	if got := Floor(big1); got.Cmp(new(big.Int).Sub(want, big.NewInt(1))) != 0 {
		t.Errorf("Floor(2^100 − 1/4) = %v, want 2^100 − 1", got)
	}
}
