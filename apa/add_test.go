package apa

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestAddMatchesBig checks Add and Sub against big.Float's own Add and Sub
// (the oracle: exact alignment, then one rounding) on random operands with
// exponent gaps up to 60,000 bits, where the stand-in path is
// taken, across precisions, all six rounding modes, z of precision 0 and z
// aliasing an operand: value, accuracy and precision must be identical.
func TestAddMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 15))
	modes := []big.RoundingMode{big.ToNearestEven, big.ToNearestAway, big.ToZero, big.AwayFromZero, big.ToNegativeInf, big.ToPositiveInf}
	precs := []uint{0, 1, 2, 3, 24, 53, 64, 117, 300}
	gaps := []int{0, 1, 50, 200, 700, 1500, 4000, 20000, 60000}
	n := 4000
	if testing.Short() {
		n = 800
	}
	stand := 0
	for i := range n {
		px := uint(1 + rng.IntN(400))
		py := uint(1 + rng.IntN(400))
		x := randAddend(rng, px, 0)
		if rng.IntN(4) == 0 { // a power of two: the binade below is finer
			x.SetMantExp(big.NewFloat(0.5), rng.IntN(20)-10)
			if rng.IntN(2) == 0 {
				x.Neg(x)
			}
		}
		y := randAddend(rng, py, x.MantExp(nil)-gaps[rng.IntN(len(gaps))]-rng.IntN(40))
		if rng.IntN(2) == 0 {
			x, y = y, x
		}
		p := precs[rng.IntN(len(precs))]
		mode := modes[rng.IntN(len(modes))]
		for _, sub := range []bool{false, true} {
			want := new(big.Float).SetPrec(p).SetMode(mode)
			got := new(big.Float).SetPrec(p).SetMode(mode)
			if sub {
				want.Sub(x, y)
				Sub(got, x, y)
			} else {
				want.Add(x, y)
				Add(got, x, y)
			}
			if got.Cmp(want) != 0 || got.Acc() != want.Acc() || got.Prec() != want.Prec() {
				t.Fatalf("case %d (sub=%v): %v ± %v at prec %d, %v: got %v (%v, prec %d), want %v (%v, prec %d)",
					i, sub, x.Text('p', 0), y.Text('p', 0), p, mode, got.Text('p', 0), got.Acc(), got.Prec(), want.Text('p', 0), want.Acc(), want.Prec())
			}
		}
		// Aliasing: z is x.
		if p > 0 {
			a := new(big.Float).SetPrec(p).SetMode(mode)
			a.Set(x)
			w := new(big.Float).SetPrec(p).SetMode(mode).Add(a, y)
			Add(a, a, y)
			if a.Cmp(w) != 0 || a.Acc() != w.Acc() {
				t.Fatalf("case %d aliased: got %v, want %v", i, a.Text('p', 0), w.Text('p', 0))
			}
		}
		if _, ok := standIn(new(big.Float).SetPrec(p), x, y); ok {
			stand++
		}
		if _, ok := standIn(new(big.Float).SetPrec(p), y, x); ok {
			stand++
		}
	}
	if stand < n/8 {
		t.Errorf("the stand-in path ran in %d of %d cases; the test does not exercise it", stand, n)
	}
}

// randAddend returns a random nonzero float of precision prec, exactly prec
// significant bits when prec > 1, with exponent e.
func randAddend(rng *rand.Rand, prec uint, e int) *big.Float {
	m := new(big.Int)
	for i := range int(prec) {
		m.SetBit(m, i, uint(rng.IntN(2)))
	}
	m.SetBit(m, int(prec)-1, 1)
	m.SetBit(m, 0, 1)
	f := new(big.Float).SetPrec(prec).SetInt(m)
	f.SetMantExp(f, e-f.MantExp(nil))
	if rng.IntN(2) == 0 {
		f.Neg(f)
	}
	return f
}

// TestAddHugeGap adds 2^(−10⁹) to 1, where big.Float.Add shifts by 10⁹
// bits (1.3 s): the result and its accuracy follow from the rounding mode
// alone (an independent oracle), and Add must not take the slow path.
func TestAddHugeGap(t *testing.T) {
	one := new(big.Float).SetPrec(117).SetInt64(1)
	tiny := new(big.Float).SetMantExp(big.NewFloat(1), -1_000_000_000)
	up := new(big.Float).SetPrec(117).Add(one, new(big.Float).SetMantExp(big.NewFloat(1), -116))
	down := new(big.Float).SetPrec(117).Sub(one, new(big.Float).SetMantExp(big.NewFloat(1), -117))
	for _, tc := range []struct {
		mode    big.RoundingMode
		sub     bool
		want    *big.Float
		wantAcc big.Accuracy
	}{
		{big.ToNearestEven, false, one, big.Below},
		{big.ToPositiveInf, false, up, big.Above},
		{big.ToZero, false, one, big.Below},
		{big.ToNearestEven, true, one, big.Above},
		{big.ToNegativeInf, true, down, big.Below},
		{big.AwayFromZero, true, one, big.Above},
	} {
		z := new(big.Float).SetPrec(117).SetMode(tc.mode)
		if tc.sub {
			Sub(z, one, tiny)
		} else {
			Add(z, one, tiny)
		}
		if z.Cmp(tc.want) != 0 || z.Acc() != tc.wantAcc {
			t.Errorf("%v sub=%v: got %v (%v), want %v (%v)", tc.mode, tc.sub, z.Text('p', 0), z.Acc(), tc.want.Text('p', 0), tc.wantAcc)
		}
	}
}

// BenchmarkAddGap adds 2^(−gap) to a running sum near 1 at 117 bits, the
// sum aliased with the result as in an accumulation loop, with
// big.Float.Add (the baseline, which aligns the operands exactly into a
// fresh gap-bit buffer when they alias) and with Add, in the same run:
// go test -run NONE -bench AddGap -benchtime 0.3s ./apa.
func BenchmarkAddGap(b *testing.B) {
	for _, gap := range []int{1e3, 1e4, 1e6, 1e8} {
		one := new(big.Float).SetPrec(117).SetInt64(1)
		tiny := new(big.Float).SetMantExp(big.NewFloat(0.5), 1-gap)
		z := new(big.Float).SetPrec(117)
		b.Run(fmt.Sprintf("gap=%d/big", gap), func(b *testing.B) {
			for b.Loop() {
				z.Set(one)
				z.Add(z, tiny)
			}
		})
		b.Run(fmt.Sprintf("gap=%d/apa", gap), func(b *testing.B) {
			for b.Loop() {
				z.Set(one)
				Add(z, z, tiny)
			}
		})
	}
}
