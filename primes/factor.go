// This file implements factorisation over a known set of primes.

package primes

import (
	"errors"
	"fmt"
	"math/big"
)

// ErrNotSmooth reports that an integer is not a product of the given primes
// with multiplicities within the bound.
var ErrNotSmooth = errors.New("primes: integer does not factor over the given primes within the multiplicity bound")

// Multiplicities returns, for each prime p_i of ps, the exponent e_i of p_i
// in x, given that every e_i ≤ maxExp and that x = Π p_i^e_i. This is the
// decoding step of [AKXFT21, Theorems 1 and 3]: σ_i = e_i.
//
// It computes x mod p_i^maxExp for all i by one remainder tree and reads e_i
// off each residue: a residue 0 means e_i ≥ maxExp, read as maxExp, and
// otherwise the multiplicity of p_i in the residue is e_i (for e < maxExp,
// x mod p^maxExp = p^e·(u mod p^(maxExp−e)) with p ∤ u). It then checks
// that Π p_i^e_i = x exactly; if not (x has another factor, or an exponent
// exceeds maxExp) it returns ErrNotSmooth. Moduli p^maxExp instead of
// p^(maxExp+1) halve the tree for binary labels. The ps must be distinct
// primes; x must be positive.
func Multiplicities(x *big.Int, ps []uint64, maxExp int) ([]int, error) {
	if x.Sign() <= 0 {
		return nil, fmt.Errorf("primes: Multiplicities of non-positive %v", x.Sign())
	}
	if len(ps) == 0 {
		if x.Cmp(big.NewInt(1)) == 0 {
			return nil, nil
		}
		return nil, ErrNotSmooth
	}
	if maxExp < 1 {
		return nil, fmt.Errorf("primes: maxExp %d < 1", maxExp)
	}
	mods := make([]*big.Int, len(ps))
	e := big.NewInt(int64(maxExp))
	for i, p := range ps {
		mods[i] = new(big.Int).Exp(new(big.Int).SetUint64(p), e, nil)
	}
	t := NewProductTree(mods)
	rs := t.Remainders(x)
	out := make([]int, len(ps))
	var q, r, pb big.Int
	pows := make([]*big.Int, len(ps))
	for i, p := range ps {
		pb.SetUint64(p)
		v := rs[i]
		k := 0
		if v.Sign() == 0 { // p^maxExp divides x: e = maxExp, or the check below fails
			k = maxExp
		}
		v = new(big.Int).Set(v)
		for k < maxExp {
			q.QuoRem(v, &pb, &r)
			if r.Sign() != 0 {
				break
			}
			v.Set(&q)
			k++
		}
		out[i] = k
		pows[i] = new(big.Int).Exp(&pb, big.NewInt(int64(k)), nil)
	}
	if Product(pows).Cmp(x) != 0 {
		return nil, ErrNotSmooth
	}
	return out, nil
}
