package primes

import (
	"errors"
	"fmt"
	"math/big"
	mbits "math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/cputime"
)

func isPrimeTrial(n uint64) bool {
	if n < 2 {
		return false
	}
	for d := uint64(2); d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}

func TestUpToMatchesTrialDivision(t *testing.T) {
	for _, x := range []uint64{0, 1, 2, 3, 4, 10, 97, 100, 65535, 65537, 200003} {
		var want []uint64
		for n := uint64(0); n <= x; n++ {
			if isPrimeTrial(n) {
				want = append(want, n)
			}
		}
		if got := UpTo(x); !slices.Equal(got, want) {
			t.Errorf("UpTo(%d): got %v, want %v", x, got, want)
		}
	}
}

func TestFirstN(t *testing.T) {
	// Known values of p_n (OEIS A000040; p_10^6 = 15485863).
	tests := []struct {
		n    int
		last uint64
	}{{1, 2}, {2, 3}, {6, 13}, {1000, 7919}, {100000, 1299709}, {1000000, 15485863}}
	for _, tt := range tests {
		ps, err := FirstN(tt.n)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != tt.n {
			t.Fatalf("len %d, want %d", len(ps), tt.n)
		}
		if got := ps[tt.n-1]; got != tt.last {
			t.Errorf("FirstN(%d) last: got %v, want %v", tt.n, got, tt.last)
		}
	}
	ps, err := FirstN(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 0 {
		t.Errorf("%v, want empty", ps)
	}
	_, err = FirstN(-1)
	if !errors.Is(err, ErrCount) {
		t.Errorf("error %v, want %v", err, ErrCount)
	}
}

func TestNthUpperBound(t *testing.T) {
	ps, err := FirstN(300000)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		b := NthUpperBound(uint64(i + 1))
		if b < p {
			t.Fatalf("NthUpperBound(%d) = %d < p_n = %d", i+1, b, p)
		}
	}
	// p_10^7 = 179424673 and p_10^8 = 2038074743 (OEIS A006988).
	if !(NthUpperBound(1e7) >= uint64(179424673)) {
		t.Errorf("NthUpperBound(1e7) = %v, want >= %v", NthUpperBound(1e7), uint64(179424673))
	}
	if !(NthUpperBound(1e8) >= uint64(2038074743)) {
		t.Errorf("NthUpperBound(1e8) = %v, want >= %v", NthUpperBound(1e8), uint64(2038074743))
	}
}

// wordBits is big.Word's size.
const wordBits = mbits.UintSize

func randInts(r *rand.Rand, n, bits int) []*big.Int {
	xs := make([]*big.Int, n)
	for i := range xs {
		w := make([]big.Word, (bits+wordBits-1)/wordBits)
		for j := range w {
			w[j] = big.Word(r.Uint64())
		}
		xs[i] = new(big.Int).SetBits(w)
		xs[i].Add(xs[i], big.NewInt(1))
	}
	return xs
}

func TestProductAndRemainderTrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 7, 64, 1001} {
		for _, bits := range []int{5, 64, 3000} {
			if n*bits > 300000 { // keep the direct-Mod oracle fast
				continue
			}
			xs := randInts(r, n, bits)
			want := big.NewInt(1)
			for _, x := range xs {
				want.Mul(want, x)
			}
			tr := NewProductTree(xs)
			if got := tr.Root().Cmp(want); got != 0 {
				t.Errorf("root n=%d bits=%d: got %v, want %v", n, bits, got, 0)
			}
			x := randInts(r, 1, 2*want.BitLen()+10)[0]
			rs := tr.Remainders(x)
			if len(rs) != n {
				t.Fatalf("len %d, want %d", len(rs), n)
			}
			for i := range xs {
				w := new(big.Int).Mod(x, xs[i])
				if rs[i].Cmp(w) != 0 {
					t.Errorf("x mod leaf %d (n=%d bits=%d)", i, n, bits)
				}
			}
		}
	}
	if got, want := Product(nil).Int64(), int64(1); got != want {
		t.Errorf("Product(nil).Int64() = %v, want %v", got, want)
	}
}

func TestMultiplicities(t *testing.T) {
	ps, err := FirstN(500)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, maxExp := range []int{1, 2, 5} {
		e := make([]int, len(ps))
		x := big.NewInt(1)
		for i, p := range ps {
			e[i] = r.IntN(maxExp + 1)
			x.Mul(x, new(big.Int).Exp(new(big.Int).SetUint64(p), big.NewInt(int64(e[i])), nil))
		}
		got, err := Multiplicities(x, ps, maxExp)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, e) {
			t.Errorf("maxExp %d: got %v, want %v", maxExp, got, e)
		}
		// Off by one: not smooth.
		_, err = Multiplicities(new(big.Int).Add(x, big.NewInt(2)), ps, maxExp)
		if !errors.Is(err, ErrNotSmooth) {
			t.Errorf("error %v, want %v", err, ErrNotSmooth)
		}
		// p_0 = 2 to the power maxExp+1 times a smooth cofactor: the
		// residue mod 2^maxExp is 0, read as maxExp, and the check fails.
		over := new(big.Int).Lsh(x, uint(maxExp+1-e[0]))
		_, err = Multiplicities(over, ps, maxExp)
		if !errors.Is(err, ErrNotSmooth) {
			t.Errorf("2^(maxExp+1) divides x: error %v, want %v", err, ErrNotSmooth)
		}
		// A foreign prime factor.
		_, err = Multiplicities(new(big.Int).Mul(x, big.NewInt(7927)), ps, maxExp)
		if !errors.Is(err, ErrNotSmooth) {
			t.Errorf("7927 is the 1001st prime: error %v, want %v", err, ErrNotSmooth)
		}
	}
	// Exponent above the bound.
	_, err = Multiplicities(big.NewInt(8), ps, 2)
	if !errors.Is(err, ErrNotSmooth) {
		t.Errorf("error %v, want %v", err, ErrNotSmooth)
	}
	_, err = Multiplicities(big.NewInt(0), ps, 2)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func BenchmarkFirstN(b *testing.B) {
	for _, n := range []int{1e4, 1e5, 1e6} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				FirstN(n)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "primes/s")
		})
	}
}

// mathBigProduct is the baseline: the same balanced tree with math/big's
// Karatsuba multiplication only.
func mathBigProduct(xs []*big.Int) *big.Int {
	for len(xs) > 1 {
		nxt := make([]*big.Int, (len(xs)+1)/2)
		for i := range nxt {
			if 2*i+1 < len(xs) {
				nxt[i] = new(big.Int).Mul(xs[2*i], xs[2*i+1])
			} else {
				nxt[i] = xs[2*i]
			}
		}
		xs = nxt
	}
	return xs[0]
}

func primeInts(b *testing.B, n int) []*big.Int {
	ps, err := FirstN(n)
	if err != nil {
		b.Fatal(err)
	}
	xs := make([]*big.Int, n)
	for i, p := range ps {
		xs[i] = new(big.Int).SetUint64(p)
	}
	return xs
}

func BenchmarkProductTree(b *testing.B) {
	for _, n := range []int{1e4, 1e5, 1e6} {
		xs := primeInts(b, n)
		b.Run(fmt.Sprintf("n=%d/impl=labelinf", n), func(b *testing.B) {
			for b.Loop() {
				NewProductTree(xs)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=mathbig", n), func(b *testing.B) {
			for b.Loop() {
				mathBigProduct(xs)
			}
		})
	}
}

func BenchmarkRemainderTree(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1e4, 1e5} {
		xs := primeInts(b, n)
		tr := NewProductTree(xs)
		x := randInts(r, 1, 2*tr.Root().BitLen())[0]
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				tr.Remainders(x)
			}
			b.ReportMetric(float64(x.BitLen()), "bits")
		})
	}
}

// TestScaledRemainderTree forces the scaled remainder tree down to small
// nodes and checks it against direct division on the inputs where a
// fixed-point fraction is most fragile: remainders 0 (x a multiple of
// leaves), x = root − 1, x ≥ root, and leaves of very unequal sizes.
func TestScaledRemainderTree(t *testing.T) {
	old := scaledCutBits
	defer func() { scaledCutBits = old }()
	r := rand.New(rand.NewPCG(9, 10))
	for _, cut := range []int{1, 64, 1 << 11} {
		scaledCutBits = cut
		for _, n := range []int{2, 5, 33, 300} {
			xs := make([]*big.Int, n)
			for i := range xs {
				xs[i] = randInts(r, 1, 1+r.IntN(200))[0]
			}
			tr := NewProductTree(xs)
			root := tr.Root()
			multiple := big.NewInt(1) // product of every other leaf
			for i := 0; i < n; i += 2 {
				multiple.Mul(multiple, xs[i])
			}
			cases := map[string]*big.Int{
				"zero":     new(big.Int),
				"root-1":   new(big.Int).Sub(root, big.NewInt(1)),
				"root":     new(big.Int).Set(root),
				"3root+5":  new(big.Int).Add(new(big.Int).Mul(root, big.NewInt(3)), big.NewInt(5)),
				"multiple": multiple,
				"random":   randInts(r, 1, root.BitLen()-1)[0],
			}
			for name, x := range cases {
				rs := tr.Remainders(x)
				if len(rs) != n {
					t.Fatalf("len %d, want %d", len(rs), n)
				}
				for i := range xs {
					w := new(big.Int).Mod(x, xs[i])
					if rs[i].Cmp(w) != 0 {
						t.Errorf("%s mod leaf %d (n=%d cut=%d): got %v want %v", name, i, n, cut, rs[i], w)
						break
					}
				}
			}
		}
	}
}

// TestScaledRemainderTreeLarge runs the scaled remainder tree on a tree
// whose upper nodes are large enough for bigmul's wrapped transform (the
// middle products), against direct division.
func TestScaledRemainderTreeLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	n := 4000
	xs := randInts(r, n, 64)
	tr := NewProductTree(xs)
	root := tr.Root()
	if !(root.BitLen() > 200000) {
		t.Fatalf("root.BitLen() = %v, want > %v", root.BitLen(), 200000)
	}
	for name, x := range map[string]*big.Int{
		"root-1": new(big.Int).Sub(root, big.NewInt(1)),
		"random": randInts(r, 1, root.BitLen()-1)[0],
	} {
		rs := tr.Remainders(x)
		if len(rs) != n {
			t.Fatalf("len %d, want %d", len(rs), n)
		}
		// Every 13th leaf and the last: direct division is the slow part.
		for i := 0; i < n; i = min(i+13, n-1+boolInt(i == n-1)) {
			w := new(big.Int).Mod(x, xs[i])
			if rs[i].Cmp(w) != 0 {
				t.Errorf("%s mod leaf %d: got %v want %v", name, i, rs[i], w)
				break
			}
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestPowerTree checks NewPowerTree's root, Remainders, Residues and
// Multiplicities against math/big, with leaves below 2^64 (word path) and
// above (e = 7 on primes above 600: the big path).
func TestPowerTree(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	ps, err := FirstN(1201)
	if err != nil {
		t.Fatal(err)
	}
	foreign := new(big.Int).SetUint64(ps[1200])
	ps = ps[:1200]
	for _, tc := range []struct {
		ps []uint64
		e  int
	}{{ps[:1], 1}, {ps[:7], 1}, {ps, 1}, {ps, 2}, {ps[:300], 5}, {ps[110:400], 7}} {
		tr := NewPowerTree(tc.ps, tc.e)
		leaves := make([]*big.Int, len(tc.ps))
		want := big.NewInt(1)
		for i, p := range tc.ps {
			leaves[i] = new(big.Int).Exp(new(big.Int).SetUint64(p), big.NewInt(int64(tc.e)), nil)
			want.Mul(want, leaves[i])
		}
		if got := tr.Root().Cmp(want); got != 0 {
			t.Fatalf("root of %d primes ^%d: got %v, want %v", len(tc.ps), tc.e, got, 0)
		}
		fits := true
		for _, l := range leaves {
			fits = fits && l.BitLen() <= 64
		}
		for _, x := range []*big.Int{big.NewInt(0), new(big.Int).Sub(want, big.NewInt(1)), randInts(r, 1, want.BitLen()+70)[0]} {
			xc := new(big.Int).Set(x)
			rs := tr.Remainders(x)
			if len(rs) != len(tc.ps) {
				t.Fatalf("len %d, want %d", len(rs), len(tc.ps))
			}
			var ws []uint64
			if fits {
				ws = tr.Residues(x, make([]uint64, 3))
			} else {
				mustPanic(t, func() { tr.Residues(x, nil) })
			}
			for i, l := range leaves {
				m := new(big.Int).Mod(x, l)
				if rs[i].Cmp(m) != 0 {
					t.Fatalf("x mod leaf %d (e=%d)", i, tc.e)
				}
				if fits {
					if want := m.Uint64(); ws[i] != want {
						t.Fatalf("residue %d (e=%d): got %v, want %v", i, tc.e, ws[i], want)
					}
				}
			}
			rs[0].SetInt64(12345) // results are fresh: x is untouched
			if x.Cmp(xc) != 0 {
				t.Fatalf("x = %v, want %v", x, xc)
			}
		}
		// Multiplicities on the tree: a random smooth x, and x·q for a
		// foreign prime q.
		es := make([]int, len(tc.ps))
		x := big.NewInt(1)
		for i, p := range tc.ps {
			es[i] = r.IntN(tc.e + 1)
			x.Mul(x, new(big.Int).Exp(new(big.Int).SetUint64(p), big.NewInt(int64(es[i])), nil))
		}
		got, err := tr.Multiplicities(x)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, es) {
			t.Fatalf("e=%d: got %v, want %v", tc.e, got, es)
		}
		_, err = tr.Multiplicities(x.Mul(x, foreign))
		if !errors.Is(err, ErrNotSmooth) {
			t.Fatalf("error %v, want %v", err, ErrNotSmooth)
		}
	}
	_, err = NewProductTree([]*big.Int{big.NewInt(6)}).Multiplicities(big.NewInt(6))
	if err == nil {
		t.Errorf("not a power tree: no error")
	}
	mustPanic(t, func() { NewPowerTree(nil, 1) })
	mustPanic(t, func() { NewPowerTree([]uint64{2, 0}, 1) })
	mustPanic(t, func() { NewPowerTree([]uint64{2}, 0) })
}

// TestModWord checks word division against math/big on random lengths
// and moduli, including the top word below and above the modulus.
func TestModWord(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for range 2000 {
		x := randInts(r, 1, 64*(r.IntN(9)))[0]
		if r.IntN(4) == 0 {
			x.SetUint64(r.Uint64N(1000))
		}
		m := r.Uint64() >> r.IntN(64)
		if m == 0 {
			m = 1
		}
		want := new(big.Int).Mod(x, new(big.Int).SetUint64(m)).Uint64()
		if got := modWord(x.Bits(), m); got != want {
			t.Fatalf("%v mod %d: got %v, want %v", x, m, got, want)
		}
	}
	if got, want := modWord(nil, 7), uint64(0); got != want {
		t.Errorf("modWord(nil, 7) = %v, want %v", got, want)
	}
}

// TestGroupLog checks that the group size follows the mean leaf, not the
// first (short) primes: 2^c mean-sized leaves just exceed scaledCutBits.
func TestGroupLog(t *testing.T) {
	ps, err := FirstN(100000) // 17-bit primes but for the first few
	if err != nil {
		t.Fatal(err)
	}
	c := groupLog(powerLeaves(ps, 1))
	mean := 0
	for _, p := range ps {
		mean += bitsLen(p)
	}
	mean /= len(ps)
	if !((mean << c) > scaledCutBits) {
		t.Errorf("c = %d", c)
	}
	if !((mean << (c - 1)) <= scaledCutBits) {
		t.Errorf("c = %d", c)
	}
	if got, want := groupLog(bigLeaves(randInts(rand.New(rand.NewPCG(1, 1)), 4, 3*scaledCutBits))), uint(0); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

func bitsLen(p uint64) int { return new(big.Int).SetUint64(p).BitLen() }

// BenchmarkMultiplicities decodes x = Π p_i^e_i (e_i random in [0, e])
// over the first n primes, as decode's single query does for K = e+1
// classes: e = 1 (binary, word leaves) and e = 5 (K = 6; p^5 ≥ 2^64 from
// p = 7,132 on, so most leaves take the big path).
func BenchmarkMultiplicities(b *testing.B) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, n := range []int{1e4, 1e5} {
		ps, err := FirstN(n)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range []int{1, 5} {
			xs := make([]*big.Int, 0, n)
			for _, p := range ps {
				if k := r.IntN(e + 1); k > 0 {
					xs = append(xs, new(big.Int).Exp(new(big.Int).SetUint64(p), big.NewInt(int64(k)), nil))
				}
			}
			x := Product(xs)
			b.Run(fmt.Sprintf("n=%d/e=%d", n, e), func(b *testing.B) {
				c0 := cputime.Now()
				for b.Loop() {
					if _, err := Multiplicities(x, ps, e); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cputime.Now()-c0).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// TestPowerTreeNoGroups forces c = 0 (every word leaf its own node of the
// first kept level) and checks remainders, residues and multiplicities.
func TestPowerTreeNoGroups(t *testing.T) {
	old := scaledCutBits
	defer func() { scaledCutBits = old }()
	scaledCutBits = 1
	ps, err := FirstN(60)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(25, 26))
	for _, e := range []int{1, 2, 12} { // 12: p^12 ≥ 2^64 from p = 41 on
		tr := NewPowerTree(ps, e)
		if want := uint(0); tr.c != want {
			t.Fatalf("tr.c = %v, want %v", tr.c, want)
		}
		x := randInts(r, 1, tr.Root().BitLen()+30)[0]
		rs := tr.Remainders(x)
		for i, p := range ps {
			m := new(big.Int).Exp(new(big.Int).SetUint64(p), big.NewInt(int64(e)), nil)
			if rs[i].Cmp(new(big.Int).Mod(x, m)) != 0 {
				t.Fatalf("e=%d leaf %d", e, i)
			}
		}
		es := make([]int, len(ps))
		y := big.NewInt(1)
		for i, p := range ps {
			es[i] = r.IntN(e + 1)
			y.Mul(y, new(big.Int).Exp(new(big.Int).SetUint64(p), big.NewInt(int64(es[i])), nil))
		}
		got, err := tr.Multiplicities(y)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, es) {
			t.Fatalf("e=%d: got %v, want %v", e, got, es)
		}
	}
}

// mustPanic fails t unless f panics.
func mustPanic(t *testing.T, f func()) {
	t.Helper()
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}()
	if !panicked {
		t.Error("no panic")
	}
}
