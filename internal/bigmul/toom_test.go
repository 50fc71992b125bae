package bigmul

import (
	"bytes"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// withToomThresholds runs f with the Toom thresholds of products and
// squares set to t3 and t4 (Toom-4,2's to t3).
func withToomThresholds(t3, t4 int, f func()) {
	o3, o4, s3, s4, o42 := toom3Words, toom4Words, toom3SqrWords, toom4SqrWords, toom42Words
	toom3Words, toom4Words, toom3SqrWords, toom4SqrWords, toom42Words = t3, t4, t3, t4, t3
	defer func() {
		toom3Words, toom4Words, toom3SqrWords, toom4SqrWords, toom42Words = o3, o4, s3, s4, o42
	}()
	f()
}

// oddPieces returns n words whose pieces of m words are all ones at odd
// indices and zero at even ones but for their lowest word, 1 (and the
// top word, odd).
func oddPieces(n, m int) *big.Int {
	w := make([]big.Word, n)
	for i := range w {
		switch {
		case (i/m)%2 == 1:
			w[i] = ^big.Word(0)
		case i%m == 0:
			w[i] = 1
		}
	}
	w[n-1] |= 1 // n words long
	return new(big.Int).SetBits(w)
}

// TestToomWords checks Toom-3 and Toom-4,2 on word slices (toomw.go)
// against math/big on every shape they take at small sizes, one level
// over the word-level Karatsuba, on random and adversarial operands
// (all ones: the largest values at 1 and 2; oddPieces: negative values
// at −1, alone and in pairs).
func TestToomWords(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	s := getArena(toomScratchWords(200))
	for nx := 9; nx <= 60; nx++ {
		m3, m4 := (nx+2)/3, (nx+3)/4
		for ny := 1; ny <= nx; ny++ {
			t3 := ny > 2*m3
			t42 := ny > m4 && ny <= 2*m4 && nx-3*m4 >= 1
			if !t3 && !t42 {
				continue
			}
			xs, ys := adversarial(r, nx), adversarial(r, ny)
			// Odd pieces all ones, even ones nearly zero: negative at −1.
			xs = append(xs, oddPieces(nx, m3), oddPieces(nx, m4))
			ys = append(ys, oddPieces(ny, m3), oddPieces(ny, m4), oddPieces(ny, m4))
			for i, x := range xs {
				y := ys[(i+1)%len(ys)]
				want := new(big.Int).Mul(x, y)
				z := make([]big.Word, nx+ny+1)
				z[nx+ny] = 99 // guard word
				s.off = 0
				if t3 {
					s.toom3w(z[:nx+ny], x.Bits(), y.Bits(), false)
				} else {
					s.toom42w(z[:nx+ny], x.Bits(), y.Bits())
				}
				if z[nx+ny] != 99 || new(big.Int).SetBits(z[:nx+ny]).Cmp(want) != 0 {
					t.Fatalf("%d×%d words (#%d, Toom-3 %v): wrong product", nx, ny, i, t3)
				}
				if ny == nx {
					s.off = 0
					s.toom3w(z[:2*nx], x.Bits(), x.Bits(), true)
					if new(big.Int).SetBits(z[:2*nx]).Cmp(new(big.Int).Mul(x, x)) != 0 {
						t.Fatalf("square of %d words (#%d): wrong", nx, i)
					}
				}
			}
		}
	}
}

// adversarial returns operands of n words that stress carries and signs:
// all ones, a power of two, 2^k − 1 pieces, alternating patterns.
func adversarial(r *rand.Rand, n int) []*big.Int {
	ones := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(bits.UintSize*n)), big.NewInt(1))
	pow := new(big.Int).Lsh(big.NewInt(1), uint(bits.UintSize*n-1))
	alt := make([]big.Word, n)
	sparse := make([]big.Word, n)
	for i := range alt {
		alt[i] = ^big.Word(0) / 3 * 2 // 0xAAAA…
		if i%7 == 0 {
			sparse[i] = ^big.Word(0)
		}
	}
	sparse[n-1] = 1
	return []*big.Int{ones, pow, new(big.Int).SetBits(alt), new(big.Int).SetBits(sparse), randInt(r, n)}
}

func TestToomMatchesMathBig(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	sizes := []int{1, 2, 5, 12, 13, 14, 25, 47, 64, 97, 130}
	ths := [][2]int{{4, 8}, {4, 1 << 30}, {1 << 30, 8}, {3, 4}, {1 << 30, 1 << 30}}
	if testing.Short() {
		ths = [][2]int{{4, 8}, {3, 4}}
	}
	for _, th := range ths {
		withToomThresholds(th[0], th[1], func() {
			for _, n := range sizes {
				for _, other := range []int{n, n - 1, n - n/5, n - n/4 + 1, n / 2, n/3 + 1} {
					if other < 1 {
						continue
					}
					xs, ys := adversarial(r, n), adversarial(r, other)
					for i, x := range xs {
						y := ys[(i+1)%len(ys)]
						want := new(big.Int).Mul(x, y)
						got := new(big.Int).SetBits(toomMul(nil, x.Bits(), y.Bits(), false))
						if got.Cmp(want) != 0 {
							t.Fatalf("thresholds %v: toomMul(%d words #%d, %d words) wrong", th, n, i, other)
						}
						sq := new(big.Int).SetBits(toomMul(nil, x.Bits(), x.Bits(), true))
						if sq.Cmp(new(big.Int).Mul(x, x)) != 0 {
							t.Fatalf("thresholds %v: toom square of %d words #%d wrong", th, n, i)
						}
					}
				}
			}
		})
	}
}

// TestToomResultOwned checks that a product's words are not the arena's:
// a second product must leave the first one intact.
func TestToomResultOwned(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 8))
	withToomThresholds(4, 8, func() {
		x, y := randInt(r, 100), randInt(r, 90)
		want := new(big.Int).Mul(x, y)
		got := new(big.Int).SetBits(toomMul(nil, x.Bits(), y.Bits(), false))
		toomMul(nil, y.Bits(), x.Bits(), true)
		toomMul(nil, x.Bits(), x.Bits(), false)
		if got.Cmp(want) != 0 {
			t.Fatal("a later product overwrote an earlier one")
		}
	})
}

// TestMulReusesZ checks Mul on the Toom path when z's storage is large
// enough (reused), shared with an operand (not reused), or a window of
// an operand's array.
func TestMulReusesZ(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 8))
	x, y := randInt(r, 400), randInt(r, 390)
	want := new(big.Int).Mul(x, y)
	z := new(big.Int).Lsh(randInt(r, 900), 7)
	if Mul(z, x, y).Cmp(want) != 0 {
		t.Fatal("Mul into a large z wrong")
	}
	if Mul(z, x, y).Cmp(want) != 0 {
		t.Fatal("Mul into a reused z wrong")
	}
	// z shares x's backing array (x's words are its low words).
	big2 := make([]big.Word, 2000)
	copy(big2, x.Bits())
	xs := new(big.Int).SetBits(big2[:len(x.Bits())])
	zs := new(big.Int).SetBits(big2[:0])
	if Mul(zs, xs, y).Cmp(want) != 0 {
		t.Fatal("Mul into z sharing x's array wrong")
	}
	x2 := new(big.Int).Set(x)
	if Mul(x2, x2, x2).Cmp(new(big.Int).Mul(x, x)) != 0 {
		t.Fatal("Mul(x, x, x) wrong")
	}
}

func TestDivExact(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, d := range []uint{3, 5, 15, 17, 255} {
		for n := 1; n < 20; n++ {
			q := randInt(r, n)
			if n%2 == 0 {
				q.Neg(q)
			}
			x := new(big.Int).Mul(q, new(big.Int).SetUint64(uint64(d)))
			got := new(big.Int)
			divExact(got, x, d)
			if got.Cmp(q) != 0 {
				t.Fatalf("divExact(%d words, %d) = %v, want %v", n, d, got, q)
			}
			divExact(x, x, d)
			if x.Cmp(q) != 0 {
				t.Fatalf("divExact in place (%d words, %d) wrong", n, d)
			}
		}
	}
}

// BenchmarkToom times toomMul against math/big (product and square) for
// mid-size operands.
func BenchmarkToom(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, words := range []int{150, 300, 700, 1600, 3000, 5000} {
		x, y := randInt(r, words), randInt(r, words)
		z := new(big.Int)
		b.Run(fmt.Sprintf("words=%d/op=mul/impl=mathbig", words), func(b *testing.B) {
			for b.Loop() {
				z.Mul(x, y)
			}
		})
		b.Run(fmt.Sprintf("words=%d/op=mul/impl=toom", words), func(b *testing.B) {
			for b.Loop() {
				toomMul(nil, x.Bits(), y.Bits(), false)
			}
		})
		b.Run(fmt.Sprintf("words=%d/op=sqr/impl=mathbig", words), func(b *testing.B) {
			for b.Loop() {
				z.Mul(x, x)
			}
		})
		b.Run(fmt.Sprintf("words=%d/op=sqr/impl=toom", words), func(b *testing.B) {
			for b.Loop() {
				toomMul(nil, x.Bits(), x.Bits(), true)
			}
		})
	}
}

// FuzzToom checks toomMul and Mul against math/big on fuzzed operands,
// with the Toom and Karatsuba thresholds lowered to a few words so that
// short inputs run every level; rep repeats the operand's bytes to reach
// longer inputs with the fuzzer's patterns.
func FuzzToom(f *testing.F) {
	f.Add([]byte{1}, []byte{255, 255, 255}, uint8(3), false)
	f.Add(bytesOf(0xff, 200), bytesOf(0xff, 190), uint8(1), false)
	f.Add(bytesOf(0x80, 64), []byte{}, uint8(9), true)
	f.Fuzz(func(t *testing.T, a, b []byte, rep uint8, neg bool) {
		r := int(rep%16) + 1
		x := new(big.Int).SetBytes(bytes.Repeat(a, r))
		y := new(big.Int).SetBytes(bytes.Repeat(b, r))
		if neg {
			x.Neg(x)
		}
		ok, okS, okR := karaWords, karaSqrWords, sqrRowsWords
		defer func() { karaWords, karaSqrWords, sqrRowsWords = ok, okS, okR }()
		karaWords, karaSqrWords, sqrRowsWords = 3, 4, 2
		withToomThresholds(5, 9, func() {
			want := new(big.Int).Mul(x, y)
			if got := Mul(new(big.Int), x, y); got.Cmp(want) != 0 {
				t.Fatalf("Mul(%x, %x) = %x, want %x", x, y, got, want)
			}
			xa, ya := new(big.Int).Abs(x), new(big.Int).Abs(y)
			if xa.Sign() == 0 || ya.Sign() == 0 {
				return
			}
			if len(xa.Bits()) < len(ya.Bits()) {
				xa, ya = ya, xa
			}
			if got := new(big.Int).SetBits(toomMul(nil, xa.Bits(), ya.Bits(), false)); got.Cmp(new(big.Int).Mul(xa, ya)) != 0 {
				t.Fatalf("toomMul(%x, %x) wrong", xa, ya)
			}
			if got := new(big.Int).SetBits(toomMul(nil, xa.Bits(), xa.Bits(), true)); got.Cmp(new(big.Int).Mul(xa, xa)) != 0 {
				t.Fatalf("toom square of %x wrong", xa)
			}
			if got := Sqr(new(big.Int), x); got.Cmp(new(big.Int).Mul(x, x)) != 0 {
				t.Fatalf("Sqr(%x) wrong", x)
			}
		})
	})
}

func bytesOf(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }
