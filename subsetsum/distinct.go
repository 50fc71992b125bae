// This file implements more sets with distinct subset sums, and the lower
// bound on the largest element of any such set.

package subsetsum

import (
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/primes"
)

// PowersOfTwo returns {1, 2, 4, …, 2^(n−1)}, the superincreasing set of
// [AKXFT21, Algorithm 2]: every subset sum is a distinct n-bit integer,
// so the minimum gap is exactly 1 and a sum is decoded by reading its
// binary digits. It returns an error for n < 1.
func PowersOfTwo(n int) ([]*big.Int, error) {
	if n < 1 {
		return nil, fmt.Errorf("subsetsum: set of %d powers of two", n)
	}
	s := make([]*big.Int, n)
	for i := range s {
		s[i] = new(big.Int).Lsh(big.NewInt(1), uint(i))
	}
	return s, nil
}

// MinLargestBound returns a lower bound on the largest element of any set
// of n positive integers with distinct subset sums:
//
//	max S ≥ C(n−1, ⌊(n−1)/2⌋) ≈ 2^n/√(2πn),
//
// Frenkel's elementary proof of the Erdős–Moser bound [Fre98], the
// "Euler" bound [AKXFT21, Theorem 5] extends to real weights with minimum
// gap γ (max S ≥ γ·bound) and turns into [AKXFT21, Theorem 6]: a
// single-query τ-robust prediction needs a weight of at least
// 2Nτ·MinLargestBound(N), exponential in N, so Ω(N) bits of score.
// The true minimum (OEIS A276661: 1, 2, 4, 7, 13, 24, 44, 84, 161 for
// n ≤ 9) is about twice the bound. It returns an error for n < 1.
func MinLargestBound(n int) (*big.Int, error) {
	if n < 1 {
		return nil, fmt.Errorf("subsetsum: bound for a set of %d elements", n)
	}
	return new(big.Int).Binomial(int64(n-1), int64((n-1)/2)), nil
}

// PrimeLogs returns {ln 2, ln 3, ln 5, …, ln p_n} at prec bits, each
// correctly rounded: the weights of [EA, Corollary 3] (squared Euclidean
// and norm-like losses, 0⁺-separability). Their subset sums are distinct
// by unique factorization (Σ_A ln p = ln Π_A p), but the gaps are those
// between products of primes, as small as ln(1 + 1/Π p): decoding them
// needs the score to that many bits, which is why the noisy attacks use
// powers of two. It returns an error for n < 1 or prec < 2.
func PrimeLogs(n int, prec uint) ([]*big.Float, error) {
	if n < 1 || prec < 2 {
		return nil, fmt.Errorf("subsetsum: %d prime logarithms at %d bits", n, prec)
	}
	ps, err := primes.FirstN(n)
	if err != nil {
		return nil, err
	}
	out := make([]*big.Float, n)
	for i, p := range ps {
		z := new(big.Float).SetPrec(prec)
		if _, err := apa.Log(z, new(big.Float).SetUint64(p)); err != nil {
			return nil, err
		}
		out[i] = z
	}
	return out, nil
}
