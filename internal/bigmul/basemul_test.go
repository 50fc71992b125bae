package bigmul

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMulRows checks mulRowsADX (where it runs) and mulRowsGo against
// math/big on every small shape, random and all-ones words.
func TestMulRows(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for nx := 1; nx <= 41; nx++ {
		for ny := 1; ny <= 9; ny++ {
			for _, ones := range []bool{false, true} {
				x, y := make([]big.Word, nx), make([]big.Word, ny)
				for i := range x {
					x[i] = big.Word(r.Uint64())
					if ones {
						x[i] = ^big.Word(0)
					}
				}
				for i := range y {
					y[i] = big.Word(r.Uint64())
					if ones {
						y[i] = ^big.Word(0)
					}
				}
				want := new(big.Int).Mul(new(big.Int).SetBits(x), new(big.Int).SetBits(y))
				for name, f := range map[string]func(z, x, y []big.Word){"asm": mulRowsADX, "go": mulRowsGo} {
					if name == "asm" && !useADX {
						continue
					}
					z := make([]big.Word, nx+ny+1)
					z[nx+ny] = 12345 // guard word
					f(z, x, y)
					if z[nx+ny] != 12345 {
						t.Fatalf("%s %d×%d: wrote past the product", name, nx, ny)
					}
					if got := new(big.Int).SetBits(z[:nx+ny]); got.Cmp(want) != 0 {
						t.Fatalf("%s %d×%d (ones %v): wrong product", name, nx, ny, ones)
					}
				}
			}
		}
	}
}

// TestKaratsubaWords checks kmul and ksqr against math/big with the
// thresholds lowered so that every branch (unbalanced chunks, odd
// halves, the square's rows) runs at small sizes, on random and
// adversarial operands.
func TestKaratsubaWords(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	ok, okS, okR := karaWords, karaSqrWords, sqrRowsWords
	defer func() { karaWords, karaSqrWords, sqrRowsWords = ok, okS, okR }()
	ths := [][3]int{{2, 2, 1}, {3, 5, 4}, {8, 8, 3}, {24, 40, 12}}
	if testing.Short() {
		ths = ths[1:3]
	}
	for _, th := range ths {
		karaWords, karaSqrWords, sqrRowsWords = th[0], th[1], th[2]
		for _, nx := range []int{1, 2, 3, 7, 16, 33, 70} {
			for _, ny := range []int{1, 2, 5, nx / 3, nx - 1, nx} {
				if ny < 1 || ny > nx {
					continue
				}
				xs, ys := adversarial(r, nx), adversarial(r, ny)
				for i, x := range xs {
					y := ys[(i+2)%len(ys)]
					s := getArena(toomScratchWords(nx))
					z := make([]big.Word, nx+ny)
					s.kmul(z, x.Bits(), y.Bits())
					if new(big.Int).SetBits(z).Cmp(new(big.Int).Mul(x, y)) != 0 {
						t.Fatalf("thresholds %v: kmul(%d, %d words, #%d) wrong", th, nx, ny, i)
					}
					z = make([]big.Word, 2*nx)
					s.ksqr(z, x.Bits())
					if new(big.Int).SetBits(z).Cmp(new(big.Int).Mul(x, x)) != 0 {
						t.Fatalf("thresholds %v: ksqr(%d words, #%d) wrong", th, nx, i)
					}
				}
			}
		}
	}
}

// TestSqrRows checks sqrRowsADX against sqrRowsGo on every length up to
// 40, random and all-ones words, z holding garbage on entry.
func TestSqrRows(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 3))
	for n := 1; n <= 40; n++ {
		for _, ones := range []bool{false, true} {
			x := make([]big.Word, n)
			for i := range x {
				x[i] = big.Word(r.Uint64())
				if ones {
					x[i] = ^big.Word(0)
				}
			}
			z1, z2 := make([]big.Word, 2*n+1), make([]big.Word, 2*n+1)
			for i := range z1 {
				z1[i], z2[i] = big.Word(r.Uint64()), 7 // garbage; guard word
			}
			z1[2*n] = 7
			sqrRowsADX(z1[:2*n], x)
			sqrRowsGo(z2[:2*n], x)
			if !slices.Equal(z1, z2) {
				t.Fatalf("sqrRowsADX(%d words, ones %v) = %v, want %v", n, ones, z1, z2)
			}
		}
	}
}

// TestAddSubVV checks addVV and subVV (assembly where it runs) against
// the Go loops at every length up to 21, with all-ones words for long
// carry chains.
func TestAddSubVV(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	for n := 0; n <= 21; n++ {
		for _, ones := range []bool{false, true} {
			x, y := make([]big.Word, n), make([]big.Word, n)
			for i := range x {
				x[i], y[i] = big.Word(r.Uint64()), big.Word(r.Uint64())
				if ones {
					x[i], y[i] = ^big.Word(0), 0
					if i == 0 {
						y[i] = 1
					}
				}
			}
			z1, z2 := make([]big.Word, n), make([]big.Word, n)
			if c1, c2 := addVV(z1, x, y), addVVGo(z2, x, y); c1 != c2 || !slices.Equal(z1, z2) {
				t.Fatalf("addVV, %d words (ones %v): %v %v, want %v %v", n, ones, z1, c1, z2, c2)
			}
			if b1, b2 := subVV(z1, y, x), subVVGo(z2, y, x); b1 != b2 || !slices.Equal(z1, z2) {
				t.Fatalf("subVV, %d words (ones %v): %v %v, want %v %v", n, ones, z1, b1, z2, b2)
			}
		}
	}
}

// TestSqrDiag checks sqrDiagADX against sqrDiagGo on every length up to
// 40, on the triangles of random and all-ones words (whose doubled sum
// with the squares is the square: it fits), and that the two make the
// square with sqrRowsADX.
func TestSqrDiag(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 4))
	for n := 1; n <= 40; n++ {
		for _, ones := range []bool{false, true} {
			x := make([]big.Word, n)
			for i := range x {
				x[i] = big.Word(r.Uint64())
				if ones {
					x[i] = ^big.Word(0)
				}
			}
			z1, z2 := make([]big.Word, 2*n+1), make([]big.Word, 2*n+1)
			z1[2*n], z2[2*n] = 7, 7 // guard word
			sqrRowsGo(z1[:2*n], x)
			copy(z2, z1)
			sqrDiagADX(z1[:2*n], x)
			sqrDiagGo(z2[:2*n], x)
			if !slices.Equal(z1, z2) {
				t.Fatalf("sqrDiagADX(%d words, ones %v) = %v, want %v", n, ones, z1, z2)
			}
			xi := new(big.Int).SetBits(x)
			if new(big.Int).SetBits(z1[:2*n]).Cmp(new(big.Int).Mul(xi, xi)) != 0 {
				t.Fatalf("rows and diagonal of %d words (ones %v): not the square", n, ones)
			}
		}
	}
}
