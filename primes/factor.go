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
// decoding step of [AKXFT21, Theorems 1 and 3]: σ_i = e_i. It builds the
// tree of [NewPowerTree](ps, maxExp) and calls its
// [ProductTree.Multiplicities]; a caller that decodes several integers
// over the same primes builds the tree once. The ps must be distinct
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
	for _, p := range ps {
		if p < 2 {
			return nil, fmt.Errorf("primes: %d is not a prime", p)
		}
	}
	return NewPowerTree(ps, maxExp).Multiplicities(x)
}

// Multiplicities returns, for a tree t of [NewPowerTree](ps, e) over
// distinct primes ps, the exponent e_i of each p_i in x, given that x = Π
// p_i^e_i with every e_i ≤ e; otherwise (x has another prime factor, or
// an exponent exceeds e) it returns ErrNotSmooth. x must be positive.
//
// It computes x mod p_i^e for all i by one remainder tree and reads e_i
// off each residue: a residue 0 means e_i ≥ e, read as e, and otherwise
// the multiplicity of p_i in the residue is e_i (for k < e, x mod p^e =
// p^k·(u mod p^(e−k)) with p ∤ u). Moduli p^e instead of p^(e+1) halve
// the tree for binary labels. It then checks that Π p_i^e_i = x exactly,
// by a product tree over the p_i with e_i > 0. It returns an error if t
// is not a power tree.
func (t *ProductTree) Multiplicities(x *big.Int) ([]int, error) {
	ls := t.leaves
	if ls.words == nil || ls.exps != nil {
		return nil, errors.New("primes: Multiplicities needs a tree from NewPowerTree")
	}
	if x.Sign() <= 0 {
		return nil, fmt.Errorf("primes: Multiplicities of non-positive %v", x.Sign())
	}
	n, e := t.Len(), ls.exp
	out := make([]int, n)
	if ls.fits {
		rs := t.Residues(x, nil)
		parallel(n, n >= 1<<14, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] = multiplicityWord(rs[i], ls.words[i], e)
			}
		})
	} else {
		rs := t.Remainders(x)
		parallel(n, n >= 1<<14, func(lo, hi int) {
			var q, r, pb big.Int
			for i := lo; i < hi; i++ {
				v := rs[i]
				if v.Sign() == 0 { // p^e divides x: e_i = e, or the check below fails
					out[i] = int(e)
					continue
				}
				pb.SetUint64(ls.words[i])
				k := 0
				for {
					q.QuoRem(v, &pb, &r)
					if r.Sign() != 0 {
						break
					}
					v.Set(&q)
					k++
				}
				out[i] = k
			}
		})
	}
	// Check x = Π p_i^e_i over the p_i with e_i > 0.
	var sel []uint64
	var es []uint
	for i, k := range out {
		if k > 0 {
			sel = append(sel, ls.words[i])
			es = append(es, uint(k))
		}
	}
	if len(sel) == 0 {
		if x.Cmp(big.NewInt(1)) != 0 {
			return nil, ErrNotSmooth
		}
		return out, nil
	}
	if product(&leafSet{words: sel, exps: es}).Cmp(x) != 0 {
		return nil, ErrNotSmooth
	}
	return out, nil
}

// multiplicityWord returns the multiplicity of p in r = x mod p^e (r <
// p^e < 2^64), read as e for r = 0.
func multiplicityWord(r, p uint64, e uint) int {
	if r == 0 {
		return int(e)
	}
	k := 0
	for r%p == 0 {
		r /= p
		k++
	}
	return k
}
