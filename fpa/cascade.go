package fpa

// This file implements PyTorch's CPU summation order (cascade_sum in
// aten/src/ATen/native/cpu/SumKernel.cpp, PyTorch 1.8 to 2.x; Debian 12
// ships 1.13.1), which torch.sum and torch.mean use on a contiguous
// float tensor: the order alone, generic in the values added, so that
// the same code drives the emulated sum, the native one and the error
// depths.

import "math/bits"

// CascadeLanes is the number of float32 lanes of PyTorch's Vectorized
// type in its AVX2 and default CPU kernels (256 bits); its AVX-512
// kernels have 16.
const CascadeLanes = 8

// CascadeSum returns the sum of the n values load(0), …, load(n−1) added in
// PyTorch's cascade order over a contiguous array, single-threaded (one
// reduction range: PyTorch splits a reduction across threads only above
// 32,768 elements), with add the rounded addition and zero the additive
// identity (+0: PyTorch's accumulators start at 0 and 0 + x is exact).
// lanes is the vector width in elements (8 for float32 with AVX2, 4 for
// float64; 16 and 8 with AVX-512).
//
// The order (vectorized_inner_sum, row_sum, multi_row_sum):
//
//   - the array is read as V = ⌊n/lanes⌋ vectors; lane l of vector j is
//     element j·lanes + l, and every vector addition adds lane to lane;
//   - the vectors are summed by row_sum: read as ⌊V/4⌋ rows of 4 vectors,
//     the 4 columns are summed at once by multi_row_sum, the last V mod 4
//     vectors are added to column 0, then columns 1, 2, 3 in turn;
//   - multi_row_sum keeps 4 levels of accumulators per column: blocks of
//     2^p rows (p = max(4, ⌈log2 rows⌉/4)) are summed left to right into
//     level 0, which is then added into level 1 and cleared; level 1 into
//     level 2 whenever the row count is a multiple of 2^2p, level 2 into
//     level 3 at multiples of 2^3p; at the end, the rows left over go into
//     level 0, and levels 1, 2, 3 are added to it in turn;
//   - the n mod lanes elements after the last vector are summed left to
//     right into a scalar from 0, then the lanes of the vector sum are
//     added to it in turn, and the result to the output, set to 0 first;
//   - an array of fewer than lanes elements is summed by the scalar
//     row_sum instead (4 columns of single elements).
//
// It panics if lanes < 1.
func CascadeSum[V any](n, lanes int, load func(i int) V, add func(a, b V) V, zero V) V {
	if lanes < 1 {
		panic("fpa: CascadeSum with fewer than 1 lane")
	}
	if n < lanes {
		// Fewer elements than one vector: the scalar row_sum
		// (scalar_inner_sum).
		return add(zero, rowSum(n, load, add, zero))
	}
	nv := n / lanes
	final := zero
	for k := nv * lanes; k < n; k++ {
		final = add(final, load(k))
	}
	for l := range lanes {
		final = add(final, rowSum(nv, func(j int) V { return load(j*lanes + l) }, add, zero))
	}
	return add(zero, final)
}

// rowSum is row_sum of one lane over size values.
func rowSum[V any](size int, load func(i int) V, add func(a, b V) V, zero V) V {
	const ilp = 4
	rows := size / ilp
	part := multiRowSum(rows, func(i, k int) V { return load(i*ilp + k) }, add, zero)
	for i := rows * ilp; i < size; i++ {
		part[0] = add(part[0], load(i))
	}
	for k := 1; k < ilp; k++ {
		part[0] = add(part[0], part[k])
	}
	return part[0]
}

// multiRowSum is multi_row_sum with 4 columns over size rows.
func multiRowSum[V any](size int, load func(i, k int) V, add func(a, b V) V, zero V) [4]V {
	const levels = 4
	power := max(4, ceilLog2(size)/levels)
	step := 1 << power
	mask := step - 1
	var acc [levels][4]V
	for j := range acc {
		for k := range acc[j] {
			acc[j][k] = zero
		}
	}
	i := 0
	for i+step <= size {
		for range step {
			for k := range 4 {
				acc[0][k] = add(acc[0][k], load(i, k))
			}
			i++
		}
		for j := 1; j < levels; j++ {
			for k := range 4 {
				acc[j][k] = add(acc[j][k], acc[j-1][k])
				acc[j-1][k] = zero
			}
			if i&(mask<<(j*power)) != 0 {
				break
			}
		}
	}
	for ; i < size; i++ {
		for k := range 4 {
			acc[0][k] = add(acc[0][k], load(i, k))
		}
	}
	for j := 1; j < levels; j++ {
		for k := range 4 {
			acc[0][k] = add(acc[0][k], acc[j][k])
		}
	}
	return acc[0]
}

// ceilLog2 is PyTorch's utils::CeilLog2: ⌈log2 x⌉, and 1 for x ≤ 2.
func ceilLog2(x int) int {
	if x <= 2 {
		return 1
	}
	return bits.Len64(uint64(x - 1))
}
