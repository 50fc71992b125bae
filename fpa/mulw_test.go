package fpa

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// randWords returns n random words; a third of the calls give all-ones
// words (the longest carry chains) or words at 0 and 2^64−1 mixed.
func randWords(r *rand.Rand, n int) []big.Word {
	w := make([]big.Word, n)
	kind := r.IntN(3)
	for i := range w {
		switch {
		case kind == 1:
			w[i] = ^big.Word(0)
		case kind == 2 && r.IntN(2) == 0:
			w[i] = big.Word(-r.Uint64N(2)) // 0 or 2^64−1
		default:
			w[i] = big.Word(r.Uint64())
		}
	}
	return w
}

// TestMulShortKernels checks mulShortADX against mulShortGo for every
// pair of lengths up to nwMaxWords and every cut column, the full
// product (c ≤ 0) against big.Int's, and the short product's left-out
// part against shortCut's bound 2c·β^(c+1).
func TestMulShortKernels(t *testing.T) {
	nwOnly(t)
	r := testrand.New(t)
	step := 1
	if testing.Short() {
		step = 5
	}
	for nx := 1; nx <= nwMaxWords; nx += step {
		for ny := 1; ny <= nwMaxWords; ny += step {
			x, y := randWords(r, nx), randWords(r, ny)
			full := new(big.Int).Mul(new(big.Int).SetBits(x), new(big.Int).SetBits(y))
			for c := -1; c <= nx+ny; c++ {
				got, want := make([]big.Word, nx+ny), make([]big.Word, nx+ny)
				mulShortADX(got, x, y, c)
				mulShortGo(want, x, y, c)
				if new(big.Int).SetBits(got).Cmp(new(big.Int).SetBits(want)) != 0 {
					t.Fatalf("mulShortADX(%x, %x, c=%d) = %x; mulShortGo %x", x, y, c, got, want)
				}
				gi := new(big.Int).SetBits(got)
				if c <= 0 && gi.Cmp(full) != 0 {
					t.Fatalf("mulShortADX(%x, %x, c=%d) = %x; want the product %x", x, y, c, got, full)
				}
				miss := new(big.Int).Sub(full, gi)
				bound := new(big.Int).Lsh(big.NewInt(int64(2*max(c, 1))), uint(64*(max(c, 0)+1)))
				if miss.Sign() < 0 || miss.Cmp(bound) >= 0 {
					t.Fatalf("short product of %x, %x at c=%d leaves out %x, not in [0, 2c·β^(c+1))", x, y, c, miss)
				}
			}
		}
	}
}

// TestSubMulKernels checks subMulADX against subMulVW, value and
// returned word, on lengths 0 to 40 and all-ones words (z − x·y's
// borrows and carries through every word).
func TestSubMulKernels(t *testing.T) {
	r := testrand.New(t)
	n := 4000
	if testing.Short() {
		n = 500
	}
	for i := range n {
		k := i % 41
		z, x := randWords(r, k), randWords(r, k)
		y := big.Word(r.Uint64())
		switch r.IntN(4) {
		case 0:
			y = ^big.Word(0)
		case 1:
			y = big.Word(r.Uint64N(3))
		}
		got, want := append([]big.Word(nil), z...), append([]big.Word(nil), z...)
		cg := subMulADX(got, x, y)
		cw := subMulVW(want, x, uint64(y))
		if uint64(cg) != cw || new(big.Int).SetBits(got).Cmp(new(big.Int).SetBits(want)) != 0 {
			t.Fatalf("subMulADX(%x, %x, %x) = %x, %x; subMulVW %x, %x", z, x, y, got, cg, want, cw)
		}
	}
}

// TestMulWFallbacks checks mulW against mulBig on the products where the
// short product's Ziv test fails (exact products, and (2^p−1)², whose
// bits below the round bit are zeros down to a last one), and the
// pure-Go path (useADX off) on random operands; the fallback allocates
// nothing either.
func TestMulWFallbacks(t *testing.T) {
	nwOnly(t)
	r := testrand.New(t)
	for _, f := range nwFormats {
		p := uint(f.Prec())
		ones := new(big.Int).Sub(new(big.Int).Lsh(bigOne, p), bigOne)
		odd := new(big.Int).Lsh(bigOne, p-1)
		odd.SetBit(odd, 0, 1) // 2^(p−1)+1: (2^(p−1)+1)² has a lone 1 far below
		for _, m := range []*big.Int{ones, odd, new(big.Int).Lsh(big.NewInt(3), p-2)} {
			for _, mode := range allModes {
				x := New(f)
				x.roundBig(false, m, -int64(p), false)
				got, want := New(f).SetMode(mode), New(f).SetMode(mode)
				got.mulW(true, x, x)
				want.mulBig(true, x, x)
				if !sameFloat(got, want) {
					t.Fatalf("%v %v mul(%v, itself) = %v (%v); big.Int path %v (%v)", f, mode,
						x.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
				}
				if a := testing.AllocsPerRun(5, func() { got.Mul(x, x) }); a != 0 {
					t.Errorf("%v mul(%v, itself): %v allocations per op", f, x.Text('x', -1), a)
				}
			}
		}
	}
	defer func(u bool) { useADX = u }(useADX)
	useADX = false
	for range 200 {
		f := nwFormats[r.IntN(len(nwFormats))]
		mode := allModes[r.IntN(len(allModes))]
		x := randEdgeN(r, f, nil)
		y := randEdgeN(r, f, x)
		got, want := New(f).SetMode(mode), New(f).SetMode(mode)
		got.mulW(false, x, y)
		want.mulBig(false, x, y)
		if !sameFloat(got, want) {
			t.Fatalf("%v %v pure-Go mul(%v, %v) = %v (%v); big.Int path %v (%v)", f, mode,
				x.Text('x', -1), y.Text('x', -1), got.Text('x', -1), got.acc, want.Text('x', -1), want.acc)
		}
	}
}

// TestShiftKernels checks shlVU and shrVU (the assembly on amd64)
// against shlVUGo and shrVUGo for lengths 0 to 40 and every shift,
// shrVU also in place.
func TestShiftKernels(t *testing.T) {
	r := testrand.New(t)
	for n := 0; n <= 40; n++ {
		for s := uint(0); s < 64; s++ {
			x := randWords(r, n+1)
			got, want := make([]big.Word, n+2), make([]big.Word, n+2)
			shlVU(got, x[:n+1], s)
			shlVUGo(want, x[:n+1], s)
			if !slices.Equal(got, want) {
				t.Fatalf("shlVU(%x, %d) = %x; want %x", x, s, got, want)
			}
			got, want = make([]big.Word, n), make([]big.Word, n)
			shrVU(got, x, s)
			shrVUGo(want, x, s)
			if !slices.Equal(got, want) {
				t.Fatalf("shrVU(%x, %d) = %x; want %x", x, s, got, want)
			}
			in := append([]big.Word(nil), x...)
			shrVU(in[:n], in, s)
			if !slices.Equal(in[:n], want) {
				t.Fatalf("shrVU in place (%x, %d) = %x; want %x", x, s, in[:n], want)
			}
		}
	}
}

// TestShrAddKernels checks addShrADX and subShrADX against addShrGo and
// subShrGo for len(x) up to 34, every len(y) ≤ len(x), every shift and
// carry in.
func TestShrAddKernels(t *testing.T) {
	r := testrand.New(t)
	for n := 1; n <= 34; n++ {
		for ly := 1; ly <= n; ly++ {
			for s := uint(0); s < 64; s += 1 + uint(r.IntN(4)) {
				x, y := randWords(r, n), randWords(r, ly)
				c := big.Word(r.IntN(2))
				got, want := make([]big.Word, n), make([]big.Word, n)
				cg, cw := addShrADX(got, x, y, s, c), addShrGo(want, x, y, s, c)
				if cg != cw || !slices.Equal(got, want) {
					t.Fatalf("addShrADX(%x, %x>>%d, %d) = %x, %d; addShrGo %x, %d", x, y, s, c, got, cg, want, cw)
				}
				cg, cw = subShrADX(got, x, y, s, c), subShrGo(want, x, y, s, c)
				if cg != cw || !slices.Equal(got, want) {
					t.Fatalf("subShrADX(%x, %x>>%d, %d) = %x, %d; subShrGo %x, %d", x, y, s, c, got, cg, want, cw)
				}
			}
		}
	}
}
