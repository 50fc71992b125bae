package subsetsum

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// bruteGap is μ(S) by sorting all 2ⁿ subset sums: the test oracle of Gap.
func bruteGap(s []int64) int64 {
	sums := make([]int64, 1<<len(s))
	for m := 1; m < len(sums); m++ {
		i := bits.TrailingZeros(uint(m))
		sums[m] = sums[m&(m-1)] + s[i]
	}
	slices.Sort(sums)
	best := int64(-1)
	for i := 1; i < len(sums); i++ {
		if d := sums[i] - sums[i-1]; best < 0 || d < best {
			best = d
		}
	}
	return best
}

func maskSum(w []int64, m uint64) int64 {
	var s int64
	for i := range w {
		if m>>i&1 == 1 {
			s += w[i]
		}
	}
	return s
}

func TestGap(t *testing.T) {
	rng := testrand.New(t)
	for trial := range 60 {
		n := 1 + trial%16
		s := make([]int64, n)
		for i := range s {
			s[i] = rng.Int64N(1<<(n+1)) - 1<<n // signed, collisions likely
		}
		got, err := Gap(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := bruteGap(s); got != want {
			t.Errorf("Gap(%v): got %v, want %v", s, got, want)
		}
	}
	for n := 1; n <= 20; n++ {
		cg, err := ConwayGuy(n)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Gap(cg)
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(1); got != want {
			t.Errorf("Conway–Guy n=%d: got %v, want %v", n, got, want)
		}
	}
	// Powers of two at n = 30, the largest size (22 under -short, a
	// 256th of the sums to sort): μ = 1; doubling one weight makes two
	// subsets collide.
	np := 30
	if testing.Short() {
		np = 22
	}
	p := make([]int64, np)
	for i := range p {
		p[i] = 1 << i
	}
	got, err := Gap(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(1); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
	p[np-1] = 1 << (np - 2)
	got, err = Gap(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(0); got != want {
		t.Errorf("got %v, want %v", got, want)
	}

	for _, bad := range [][]int64{nil, make([]int64, 31), {1 << 62, 1 << 62}} {
		_, err := Gap(bad)
		if err == nil {
			t.Errorf("Gap(len %d): no error", len(bad))
		}
	}
}

// TestMinLargestBound checks the bound against the true minima (found here
// by exhaustive search for n ≤ 6 and from OEIS A276661 up to 9), and that
// every construction respects it.
func TestMinLargestBound(t *testing.T) {
	known := []int64{1, 2, 4, 7, 13, 24, 44, 84, 161} // OEIS A276661, n = 1..9
	for n := 1; n <= 6; n++ {
		if got, want := smallestMax(n), known[n-1]; got != want {
			t.Errorf("exhaustive minimum for n=%d: got %v, want %v", n, got, want)
		}
	}
	for n := 1; n <= 60; n++ {
		b, err := MinLargestBound(n)
		if err != nil {
			t.Fatal(err)
		}
		if n <= len(known) {
			if !(b.Int64() <= known[n-1]) {
				t.Errorf("n=%d", n)
			}
		}
		cg, err := ConwayGuy(n)
		if err != nil {
			t.Fatal(err)
		}
		if !(cg[n-1] >= b.Int64()) {
			t.Errorf("Conway–Guy n=%d", n)
		}
		p2, err := PowersOfTwo(n)
		if err != nil {
			t.Fatal(err)
		}
		if !(p2[n-1].Cmp(b) >= 0) {
			t.Errorf("powers of two n=%d", n)
		}
	}
	_, err := MinLargestBound(0)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

// smallestMax finds the least possible largest element of an n-set with
// distinct subset sums, by depth-first search over increasing sets.
func smallestMax(n int) int64 {
	for m := int64(n); ; m++ {
		if extend(nil, map[int64]bool{0: true}, n, m) {
			return m
		}
	}
}

func extend(set []int64, sums map[int64]bool, n int, m int64) bool {
	if len(set) == n {
		return set[n-1] == m
	}
	lo := int64(1)
	if len(set) > 0 {
		lo = set[len(set)-1] + 1
	}
	hi := m
	if len(set) < n-1 {
		hi = m - 1
	} else {
		lo = m
	}
	for x := lo; x <= hi; x++ {
		ok := true
		for s := range sums {
			if sums[s+x] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		next := make(map[int64]bool, 2*len(sums))
		for s := range sums {
			next[s] = true
			next[s+x] = true
		}
		if extend(append(set, x), next, n, m) {
			return true
		}
	}
	return false
}

func TestClosestAgainstBrute(t *testing.T) {
	rng := testrand.New(t)
	ctx := context.Background()
	for trial := range 200 {
		n := 1 + trial%20
		w := make([]int64, n)
		for i := range w {
			w[i] = rng.Int64N(1<<20) - 1<<18
		}
		target := rng.Int64N(1<<22) - 1<<21
		_, bs, err := BruteClosest(ctx, w, target)
		if err != nil {
			t.Fatal(err)
		}
		m, s, err := Closest(ctx, w, target)
		if err != nil {
			t.Fatal(err)
		}
		if s != bs {
			t.Errorf("Closest(%v, %d): got %v, want %v", w, target, s, bs)
		}
		if got := maskSum(w, m); got != s {
			t.Errorf("mask matches sum: got %v, want %v", got, s)
		}
	}
}

func TestWindow(t *testing.T) {
	rng := testrand.New(t)
	ctx := context.Background()
	// Conway–Guy weights scaled by 10: μ = 10, so a window of half-width
	// 4 around any subset sum holds exactly that subset.
	for n := 1; n <= 24; n++ {
		cg, err := ConwayGuy(n)
		if err != nil {
			t.Fatal(err)
		}
		w := make([]int64, n)
		for i := range w {
			w[i] = 10 * cg[i]
		}
		mask := rng.Uint64() & (1<<n - 1)
		s := maskSum(w, mask)
		noise := rng.Int64N(9) - 4
		got, err := Window(ctx, w, s+noise-4, s+noise+4, 2)
		if err != nil {
			t.Fatal(err)
		}
		if want := []uint64{mask}; !slices.Equal(got, want) {
			t.Errorf("n=%d: got %v, want %v", n, got, want)
		}
		// A window wider than μ can hold two subsets.
		got, err = Window(ctx, w, s-10, s+10, 1)
		if err != nil {
			if !errors.Is(err, ErrAmbiguous) {
				t.Errorf("error %v, want %v", err, ErrAmbiguous)
			}
			if len(got) != 1 {
				t.Errorf("len %d, want %d", len(got), 1)
			}
		}
	}
	// Every subset of a small random set is found, against brute force.
	w := []int64{3, -5, 7, 7, 11, 2}
	got, err := Window(ctx, w, 5, 9, 64)
	if err != nil {
		t.Fatal(err)
	}
	var want []uint64
	for m := uint64(0); m < 1<<len(w); m++ {
		if s := maskSum(w, m); s >= 5 && s <= 9 {
			want = append(want, m)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// Nothing in the window.
	got, err = Window(ctx, []int64{10, 20}, 11, 19, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("%v, want empty", got)
	}

	for _, tt := range []struct {
		w      []int64
		lo, hi int64
		limit  int
	}{{nil, 0, 1, 1}, {make([]int64, MaxMITM+1), 0, 1, 1}, {[]int64{1}, 2, 1, 1}, {[]int64{1}, 0, 1, 0}} {
		_, err := Window(ctx, tt.w, tt.lo, tt.hi, tt.limit)
		if err == nil {
			t.Error("want an error, got nil")
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	_, err = Window(cctx, make([]int64, 30), 0, 1, 1)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
}

func TestDecodeSuperincreasing(t *testing.T) {
	rng := testrand.New(t)
	p2, err := PowersOfTwo(64)
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		// Powers of two with r = 0 read off the bits of t.
		x := new(big.Int).SetUint64(rng.Uint64())
		bitsOut, err := DecodeSuperincreasing(p2, x, new(big.Int))
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range bitsOut {
			if want := x.Bit(i) == 1; b != want {
				t.Errorf("b = %v, want %v", b, want)
			}
		}
	}
	// Weights 2Nτ(1+δ)·2^i rounded to integers: gaps of 30, tolerance 14.
	w := make([]*big.Int, 40)
	for i := range w {
		w[i] = new(big.Int).Lsh(big.NewInt(30), uint(i))
	}
	r := big.NewInt(14)
	for range 50 {
		sum := new(big.Int)
		want := make([]bool, len(w))
		for i := range w {
			if rng.IntN(2) == 1 {
				want[i] = true
				sum.Add(sum, w[i])
			}
		}
		sum.Add(sum, big.NewInt(rng.Int64N(29)-14))
		got, err := DecodeSuperincreasing(w, sum, r)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("got %v, want %v", got, want)
		}
	}
	// Inconsistent target, and weights without the margin.
	_, err = DecodeSuperincreasing(w, big.NewInt(15), r)
	if !errors.Is(err, ErrNoSubset) {
		t.Errorf("error %v, want %v", err, ErrNoSubset)
	}
	_, err = DecodeSuperincreasing(w, big.NewInt(0), big.NewInt(15))
	if err == nil || !strings.Contains(err.Error(), "not superincreasing") {
		t.Errorf("error %v, want one containing %q", err, "not superincreasing")
	}
	_, err = DecodeSuperincreasing([]*big.Int{big.NewInt(0)}, big.NewInt(0), big.NewInt(0))
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = DecodeSuperincreasing(w, big.NewInt(0), big.NewInt(-1))
	if err == nil {
		t.Error("want an error, got nil")
	}
}

func BenchmarkClosest(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{20, 30, 40, 50} {
		cg, err := ConwayGuy(n)
		if err != nil {
			b.Fatal(err)
		}
		target := maskSum(cg, 0x5555555555555555&(1<<n-1)) + 1
		b.Run(fmt.Sprintf("algo=mitm/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Closest(ctx, cg, target); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "labels/op")
		})
		if n <= 30 {
			b.Run(fmt.Sprintf("algo=brute/n=%d", n), func(b *testing.B) {
				for b.Loop() {
					if _, _, err := BruteClosest(ctx, cg, target); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n), "labels/op")
			})
		}
	}
}

// TestPrimeLogs checks that the subset sums of prime logarithms are
// distinct, with the gaps the products of primes predict: the smallest
// gap of 2^n subset sums is ln of the ratio of the two closest products,
// found exactly with integers.
func TestPrimeLogs(t *testing.T) {
	const n = 10
	w, err := PrimeLogs(n, 200)
	if err != nil {
		t.Fatal(err)
	}
	ps := []int64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}
	type sp struct {
		sum  *big.Float
		prod int64
	}
	all := make([]sp, 1<<n)
	for m := range all {
		s, p := new(big.Float).SetPrec(200), int64(1)
		for i := range n {
			if m>>i&1 == 1 {
				s.Add(s, w[i])
				p *= ps[i]
			}
		}
		all[m] = sp{s, p}
	}
	slices.SortFunc(all, func(a, b sp) int { return a.sum.Cmp(b.sum) })
	for i := 1; i < len(all); i++ {
		if !(all[i-1].prod < all[i].prod) {
			t.Fatalf("sums sort like products: %v >= %v", all[i-1].prod, all[i].prod)
		}
	}
	// The smallest gap: the pair of consecutive products with the least ratio.
	best := 0
	for i := 2; i < len(all); i++ {
		a, b := all[i-1].prod, all[i].prod
		c, d := all[best].prod, all[best+1].prod
		if new(big.Int).Mul(big.NewInt(b), big.NewInt(c)).Cmp(new(big.Int).Mul(big.NewInt(d), big.NewInt(a))) < 0 {
			best = i - 1
		}
	}
	gap := new(big.Float).SetPrec(200).Sub(all[best+1].sum, all[best].sum)
	if !(gap.Sign() > 0) {
		t.Errorf("gap.Sign() = %v, want > %v", gap.Sign(), 0)
	}
	_, err = PrimeLogs(0, 64)
	if err == nil {
		t.Error("want an error, got nil")
	}
}
