// Package subsetsum provides sets with distinct subset sums and searches
// over their subset sums: the weights of the noise-robust label-inference
// codes, where a score determines a subset sum up to ±τ and distinct,
// well-separated subset sums make the labeling unique [AKXFT21, §4].
//
// Sets: [PowersOfTwo], [ConwayGuy], and the lower bound every such set
// obeys, [MinLargestBound]. Their exact minimum gap: [Gap]. Decoding a
// noisy sum: [DecodeSuperincreasing] in O(n) big-integer steps for
// superincreasing weights, [Window] and [Closest] by meet-in-the-middle in
// O(2^(n/2)) for any weights, and [BruteClosest], the papers' 2ⁿ
// enumeration, as the baseline.
//
// # References
//
//   - [AKXFT21] A. Aggarwal et al., "Label Inference Attacks from Log-loss
//     Scores", ICML 2021, arXiv:2105.08266.
//   - [GM88] R. K. Guy, "Sets of integers whose subsets have distinct
//     sums", Annals of Discrete Mathematics 12 (1982) 141–154; J. H.
//     Conway and R. K. Guy's sequence, OEIS A005318.
//   - [AKXFT-EA] A. Aggarwal, S. Kasiviswanathan, Z. Xu, O. Feyisetan,
//     N. Teissier, "Reconstructing Test Labels from Noisy Loss Scores
//     (Extended Abstract)".
//   - [HS74] E. Horowitz, S. Sahni, "Computing partitions with
//     applications to the knapsack problem", JACM 21(2), 1974.
//   - [Fre98] P. E. Frenkel, "Integer sets with distinct subset sums",
//     Proc. AMS 126(11), 1998.
//   - [Boh96] T. Bohman, "A sum packing problem of Erdős and the
//     Conway–Guy sequence", Proc. AMS 124 (1996) 3627–3636.
package subsetsum

import (
	"fmt"
	"math"
)

// ConwayGuySeq returns u_0, …, u_n of the Conway–Guy sequence: u_0 = 0,
// u_1 = 1, u_{k+1} = 2u_k − u_{k−r}, r = round(√(2k)) [GM88].
func ConwayGuySeq(n int) ([]int64, error) {
	if n < 0 || n > 60 {
		return nil, fmt.Errorf("subsetsum: Conway–Guy index %d outside [0, 60]", n)
	}
	u := make([]int64, n+1)
	if n >= 1 {
		u[1] = 1
	}
	for k := 1; k < n; k++ {
		r := int(math.Round(math.Sqrt(float64(2 * k))))
		u[k+1] = 2*u[k] - u[k-r]
	}
	return u, nil
}

// ConwayGuy returns the Conway–Guy set of n elements, {u_n − u_i : 0 ≤ i <
// n}, in increasing order. Its subset sums are distinct (proved for
// n ≤ 80 [Boh96]; TestConwayGuyDistinct checks n ≤ 20 exhaustively), so
// their minimum gap is at least 1, while its largest element u_n is about
// 0.53·2^(n−1) for n = 16, smaller than the 2^(n−1) of powers of two.
func ConwayGuy(n int) ([]int64, error) {
	if n < 1 {
		return nil, fmt.Errorf("subsetsum: Conway–Guy set of %d elements", n)
	}
	u, err := ConwayGuySeq(n)
	if err != nil {
		return nil, err
	}
	s := make([]int64, n)
	for i := range n {
		s[n-1-i] = u[n] - u[i]
	}
	return s, nil
}
