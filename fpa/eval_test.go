package fpa

import (
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// TestPairwiseMatchesNumpy: the pairwise order on float64 terms equals a
// direct float64 transcription of numpy's pairwise_sum, bit for bit, and
// Depths agrees with the additions counted along the way.
func TestPairwiseMatchesNumpy(t *testing.T) {
	r := testrand.New(t)
	for _, n := range []int{1, 7, 8, 9, 15, 16, 127, 128, 129, 255, 1000, 8193, 20000} {
		xs := make([]float64, n)
		fs := make([]Float, n)
		for i := range xs {
			xs[i] = r.NormFloat64() * float64(int(1)<<r.IntN(30))
			fs[i].SetFloat64(xs[i])
		}
		z := New(Binary64)
		_, err := Sum(z, fs, SumOptions{Order: Pairwise})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := z.Float64()
		if want := numpyPairwise(xs); got != want {
			t.Errorf("n=%d: got %v, want %v", n, got, want)
		}
		// Chunked: chunk sums added left to right.
		_, err = Sum(z, fs, SumOptions{Order: Pairwise, Chunk: 8192})
		if err != nil {
			t.Fatal(err)
		}
		want := 0.0
		for i := 0; i < n; i += 8192 {
			want += numpyPairwise(xs[i:min(i+8192, n)])
		}
		got, _ = z.Float64()
		if got != want {
			t.Errorf("chunked n=%d: got %v, want %v", n, got, want)
		}
		// Recursive and Kahan.
		_, err = Sum(z, fs, SumOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want = 0
		for _, x := range xs {
			want += x
		}
		got, _ = z.Float64()
		if got != want {
			t.Errorf("recursive n=%d: got %v, want %v", n, got, want)
		}
		_, err = Sum(z, fs, SumOptions{Order: Kahan})
		if err != nil {
			t.Fatal(err)
		}
		var s, c float64
		for _, x := range xs {
			y := x - c
			tt := s + y
			c = (tt - s) - y
			s = tt
		}
		got, _ = z.Float64()
		if got != s {
			t.Errorf("kahan n=%d: got %v, want %v", n, got, s)
		}
	}
}

func numpyPairwise(a []float64) float64 {
	n := len(a)
	switch {
	case n < 8:
		res := 0.0
		for _, x := range a {
			res += x
		}
		return res
	case n <= 128:
		var r [8]float64
		copy(r[:], a[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range r {
				r[j] += a[i+j]
			}
		}
		res := ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			res += a[i]
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return numpyPairwise(a[:n2]) + numpyPairwise(a[n2:])
}

// TestDepths checks Depths against a count of the additions each term's
// partial sum goes through, done by tagging the terms.
func TestDepths(t *testing.T) {
	for _, opt := range []SumOptions{{}, {Order: Pairwise}, {Order: Pairwise, Block: 16}, {Order: Pairwise, Chunk: 100}, {Chunk: 7},
		{Order: Cascade}, {Order: Cascade, Lanes: 4}, {Order: Cascade, Lanes: 16}, {Order: Cascade, Lanes: 1}} {
		sizes := []int{1, 2, 7, 8, 9, 17, 128, 129, 300, 1000}
		if opt.Order == Cascade && !testing.Short() {
			sizes = append(sizes, 8*4*16*16+37) // the cascade's level 2
		}
		for _, n := range sizes {
			got := Depths(nil, n, opt)
			want := countDepths(n, opt)
			if !slices.Equal(got, want) {
				t.Errorf("%+v n=%d: got %v, want %v", opt, n, got, want)
			}
		}
	}
}

// countDepths simulates the summation on sets of term indices.
func countDepths(n int, opt SumOptions) []int {
	d := make([]int, n)
	type part []int
	add := func(a, b part) part {
		if len(a) > 0 && len(b) > 0 {
			for _, i := range a {
				d[i]++
			}
			for _, i := range b {
				d[i]++
			}
		}
		return append(append(part{}, a...), b...)
	}
	var pw func(lo, hi int) part
	seq := func(lo, hi int) part {
		var acc part
		for i := lo; i < hi; i++ {
			acc = add(acc, part{i})
		}
		return acc
	}
	block := opt.block()
	pw = func(lo, hi int) part {
		m := hi - lo
		switch {
		case m < 8:
			return seq(lo, hi)
		case m <= block:
			var r [8]part
			for j := range r {
				r[j] = part{lo + j}
			}
			i := 8
			for ; i < m-m%8; i += 8 {
				for j := range r {
					r[j] = add(r[j], part{lo + i + j})
				}
			}
			res := add(add(add(r[0], r[1]), add(r[2], r[3])), add(add(r[4], r[5]), add(r[6], r[7])))
			for ; i < m; i++ {
				res = add(res, part{lo + i})
			}
			return res
		}
		m2 := m / 2
		m2 -= m2 % 8
		return add(pw(lo, lo+m2), pw(lo+m2, hi))
	}
	whole := func(lo, hi int) part {
		switch opt.Order {
		case Pairwise:
			return pw(lo, hi)
		case Cascade:
			return CascadeSum(hi-lo, opt.lanes(), func(i int) part { return part{lo + i} }, add, part{})
		}
		return seq(lo, hi)
	}
	if opt.Chunk <= 0 || opt.Chunk >= n {
		whole(0, n)
		return d
	}
	var acc part
	for i := 0; i < n; i += opt.Chunk {
		acc = add(acc, whole(i, min(i+opt.Chunk, n)))
	}
	return d
}

func TestRoundDecimal(t *testing.T) {
	tests := []struct {
		in   float64
		d    int
		want string
	}{
		{0.123456, 5, "0.12346"}, {2.675, 2, "2.67"}, // 2.675 is below 2.675 in binary
		{0.5, 0, "0"}, {1.5, 0, "2"}, {-0.000004, 5, "0.00000"}, {-0.000006, 5, "-0.00001"},
	}
	for _, tt := range tests {
		x := New(Binary64).SetFloat64(tt.in)
		got, err := RoundDecimal(x, tt.d)
		if err != nil {
			t.Fatal(err)
		}
		if got := got.FloatString(tt.d); got != tt.want {
			t.Errorf("RoundDecimal(%v, %d): got %v, want %v", tt.in, tt.d, got, tt.want)
		}
	}
	_, err := RoundDecimal(New(Binary64).SetNaN(), 2)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

// TestPairwiseBlockValidated: a pairwise block of 8 would split 9..15
// terms at 0 and recurse forever; it is refused, and the smallest block
// accepted, 16, sums 9..40 terms as the recursive order does on exact
// (small integer) terms.
func TestPairwiseBlockValidated(t *testing.T) {
	z := New(Binary64)
	xs := make([]Float, 12)
	for i := range xs {
		xs[i] = *New(Binary64).SetFloat64(float64(i))
	}
	_, err := Sum(z, xs, SumOptions{Order: Pairwise, Block: 8})
	if err == nil {
		t.Fatal("want an error, got nil")
	}
	for n := 9; n <= 40; n++ {
		xs := make([]Float, n)
		want := 0.0
		for i := range xs {
			xs[i] = *New(Binary64).SetFloat64(float64(i))
			want += float64(i)
		}
		_, err := Sum(z, xs, SumOptions{Order: Pairwise, Block: 16})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := z.Float64()
		if got != want {
			t.Fatalf("n = %d: got %v, want %v", n, got, want)
		}
	}
}
