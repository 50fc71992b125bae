package fpa

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// exactBinary returns the exact mean loss (to 2^−(prec−8)) of what l
// computes, and the largest exact term: clip in the format as the server
// does, then everything exact.
func exactBinary(t *testing.T, l *Loss, labels []int, p []Float, prec uint) (*big.Float, *big.Float) {
	t.Helper()
	m, maxT := exactBinaryPrec(l, labels, p, prec)
	require.NotNil(t, m)
	return m, maxT
}

func exactBinaryPrec(l *Loss, labels []int, p []Float, prec uint) (*big.Float, *big.Float) {
	c, err := l.parse()
	if err != nil {
		return nil, nil
	}
	eps, oneMinus, floor := c.eps, c.oneMinus, c.floor
	sum := new(big.Float).SetPrec(prec)
	maxT := new(big.Float)
	for i := range p {
		pc := New(l.Format).SetMode(l.Mode).Set(&p[i])
		if eps != nil {
			clip(pc, eps, oneMinus)
		}
		q, err := pc.Big(new(big.Float).SetPrec(prec))
		if err != nil {
			return nil, nil
		}
		if labels[i] == 0 {
			q.Sub(new(big.Float).SetPrec(prec).SetInt64(1), q)
		}
		tt := new(big.Float).SetPrec(prec)
		if _, err := apa.Log(tt, q); err != nil {
			return nil, nil
		}
		if floor != nil {
			fb, _ := floor.Big(nil)
			if tt.Cmp(fb) < 0 {
				tt.Set(fb)
			}
		}
		tt.Neg(tt)
		if tt.Cmp(maxT) > 0 {
			maxT.Set(tt)
		}
		sum.Add(sum, tt)
	}
	return sum.Quo(sum, new(big.Float).SetInt64(int64(len(p)))), maxT
}

func randPreds(r *rand.Rand, f Format, n int) ([]int, []Float) {
	labels := make([]int, n)
	p := make([]Float, n)
	for i := range p {
		labels[i] = r.IntN(2)
		p[i].f = f
		v := r.Float64()
		switch r.IntN(4) {
		case 0: // confident, often wrong: large terms
			v = r.Float64() * 1e-6
		case 1:
			v = 1 - r.Float64()*1e-6
		}
		p[i].SetFloat64(v)
	}
	return labels, p
}

// TestLossBound: on random predictions and labels, for several formats,
// summation orders and library-like settings, the emulated loss is within
// Bound (a priori) and TermBound (a posteriori) of the exact loss; and the
// bound is not vacuous (the worst observed error uses some of it).
func TestLossBound(t *testing.T) {
	r := testrand.New(t)
	losses := []Loss{
		{Format: Binary64, Eps: "2.220446049250313e-16", Renormalize: true, Sum: SumOptions{Order: Pairwise, Chunk: 8192}, LogULPs: 1},
		{Format: Binary32, Eps: "1e-7", Sum: SumOptions{Order: Pairwise}},
		{Format: Binary32, LogFloor: "-100", Sum: SumOptions{Order: Pairwise}},
		{Format: Binary64, Eps: "1e-15"},
		{Format: Binary16, Eps: "1e-3", Sum: SumOptions{Order: Recursive}},
		{Format: BFloat16, Eps: "1e-2", Sum: SumOptions{Order: Pairwise, Block: 16}},
		{Format: Binary16, Eps: "1e-3", Sum: SumOptions{Order: Kahan}},
		{Format: Format{ExpBits: 6, FracBits: 12}, Eps: "1e-4", Mode: ToZero, Sum: SumOptions{Order: Pairwise, Chunk: 100}},
		{Format: Format{ExpBits: 6, FracBits: 12}, Eps: "1e-3", Mode: ToPositiveInf, Renormalize: true},
	}
	trials, maxN := 6, 700
	if testing.Short() {
		trials, maxN = 3, 300
	}
	for _, l := range losses {
		t.Run(l.Format.String()+"/"+l.Sum.Order.String(), func(t *testing.T) {
			worst := 0.0
			for trial := range trials {
				n := 1 + r.IntN(maxN)
				if trial == 0 {
					n = maxN
				}
				labels, p := randPreds(r, l.Format, n)
				got, terms, err := l.Binary(nil, labels, p)
				require.NoError(t, err)
				exact, maxT := exactBinary(t, &l, labels, p, l.Format.Prec()+80)
				gb, err := got.Big(nil)
				require.NoError(t, err)
				diff := new(big.Float).SetPrec(exact.Prec()).Sub(gb, exact)
				diff.Abs(diff)
				prior, err := l.Bound(n, maxT)
				require.NoError(t, err)
				post, err := l.TermBound(terms)
				require.NoError(t, err)
				assert.True(t, diff.Cmp(prior) <= 0, "n=%d: |error| %v above Bound %v", n, diff, prior)
				assert.True(t, diff.Cmp(post) <= 0, "n=%d: |error| %v above TermBound %v", n, diff, post)
				ratio, _ := new(big.Float).Quo(diff, post).Float64()
				worst = max(worst, ratio)
			}
			assert.Greater(t, worst, 1e-4, "the bound is vacuous: worst error/bound %.2g", worst)
		})
	}
}

func TestLossErrors(t *testing.T) {
	p := make([]Float, 2)
	p[0].SetFloat64(0.5)
	p[1].SetFloat64(0.25)
	tests := []struct {
		name   string
		l      Loss
		labels []int
	}{
		{"no format", Loss{}, []int{0, 1}},
		{"bad eps", Loss{Format: Binary64, Eps: "0.7"}, []int{0, 1}},
		{"eps syntax", Loss{Format: Binary64, Eps: "abc"}, []int{0, 1}},
		{"floor positive", Loss{Format: Binary64, LogFloor: "3"}, []int{0, 1}},
		{"label 2", Loss{Format: Binary64}, []int{0, 2}},
		{"length", Loss{Format: Binary64}, []int{0}},
		{"eps below resolution", Loss{Format: BFloat16, Eps: "1e-3"}, []int{0, 1}},
		{"block", Loss{Format: Binary64, Sum: SumOptions{Order: Pairwise, Block: 12}}, []int{0, 1}},
	}
	for _, tt := range tests {
		_, _, err := tt.l.Binary(nil, tt.labels, p)
		assert.Error(t, err, tt.name)
	}
	// A probability of 0 without clipping: an infinite term is an error.
	p[1].SetFloat64(0)
	_, _, err := (&Loss{Format: Binary64}).Binary(nil, []int{0, 1}, p)
	assert.Error(t, err)
	// With clipping it is fine.
	_, _, err = (&Loss{Format: Binary64, Eps: "1e-15"}).Binary(nil, []int{0, 1}, p)
	assert.NoError(t, err)
}

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
		require.NoError(t, err)
		got, _ := z.Float64()
		assert.Equal(t, numpyPairwise(xs), got, "n=%d", n)
		// Chunked: chunk sums added left to right.
		_, err = Sum(z, fs, SumOptions{Order: Pairwise, Chunk: 8192})
		require.NoError(t, err)
		want := 0.0
		for i := 0; i < n; i += 8192 {
			want += numpyPairwise(xs[i:min(i+8192, n)])
		}
		got, _ = z.Float64()
		assert.Equal(t, want, got, "chunked n=%d", n)
		// Recursive and Kahan.
		_, err = Sum(z, fs, SumOptions{})
		require.NoError(t, err)
		want = 0
		for _, x := range xs {
			want += x
		}
		got, _ = z.Float64()
		assert.Equal(t, want, got, "recursive n=%d", n)
		_, err = Sum(z, fs, SumOptions{Order: Kahan})
		require.NoError(t, err)
		var s, c float64
		for _, x := range xs {
			y := x - c
			tt := s + y
			c = (tt - s) - y
			s = tt
		}
		got, _ = z.Float64()
		assert.Equal(t, s, got, "kahan n=%d", n)
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
	for _, opt := range []SumOptions{{}, {Order: Pairwise}, {Order: Pairwise, Block: 16}, {Order: Pairwise, Chunk: 100}, {Chunk: 7}} {
		for _, n := range []int{1, 2, 7, 8, 9, 17, 128, 129, 300, 1000} {
			got := Depths(nil, n, opt)
			want := countDepths(n, opt)
			assert.Equal(t, want, got, "%+v n=%d", opt, n)
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
		if opt.Order == Pairwise {
			return pw(lo, hi)
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
		require.NoError(t, err)
		assert.Equal(t, tt.want, got.FloatString(tt.d), "RoundDecimal(%v, %d)", tt.in, tt.d)
	}
	_, err := RoundDecimal(New(Binary64).SetNaN(), 2)
	assert.Error(t, err)
}
