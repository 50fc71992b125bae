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

func TestRoundHalfEven(t *testing.T) {
	for _, c := range []struct {
		x    string
		d    int
		want string
	}{
		{"1/8", 2, "3/25"},      // 0.125 → 0.12 (tie, even)
		{"27/200", 2, "7/50"},   // 0.135 → 0.14 (tie, even)
		{"-1/8", 2, "-3/25"},    // −0.125 → −0.12
		{"-27/200", 2, "-7/50"}, // −0.135 → −0.14
		{"5/2", 0, "2"},
		{"7/2", 0, "4"},
		{"-5/2", 0, "-2"},
		{"1/3", 3, "333/1000"},
		{"-2/3", 3, "-667/1000"},
	} {
		x, _ := new(big.Rat).SetString(c.x)
		want, _ := new(big.Rat).SetString(c.want)
		if got := RoundHalfEven(x, Pow10(c.d)); got.Cmp(want) != 0 {
			t.Errorf("RoundHalfEven(%s, 10^%d) = %s, want %s", c.x, c.d, got.RatString(), c.want)
		}
	}
}
