// This file implements the leaves of product trees: arbitrary integers, or
// powers of word-sized bases kept as words.

package primes

import (
	"math/big"
	"math/bits"
)

// leafSet is the list of leaves of a product tree. Either big holds them
// as integers, or leaf i is words[i]^e with e = exp, or e = exps[i] when
// exps is not nil. Word leaves cost 8 bytes each instead of a big.Int
// and its words (about 48 bytes), and their remainders are taken by word
// division.
type leafSet struct {
	big   []*big.Int
	words []uint64
	exp   uint
	exps  []uint
	fits  bool // word leaves whose every value is below 2^64
}

// bigLeaves returns the leaf set of the integers xs (referenced).
func bigLeaves(xs []*big.Int) *leafSet { return &leafSet{big: xs} }

// powerLeaves returns the leaf set of ws[i]^e (ws referenced; every
// ws[i] ≥ 1, e ≥ 1).
func powerLeaves(ws []uint64, e uint) *leafSet {
	l := &leafSet{words: ws, exp: e, fits: true}
	for _, w := range ws {
		if _, ok := powWord(w, e); !ok {
			l.fits = false
			break
		}
	}
	return l
}

func (l *leafSet) len() int {
	if l.big != nil {
		return len(l.big)
	}
	return len(l.words)
}

// e returns the exponent of word leaf i.
func (l *leafSet) e(i int) uint {
	if l.exps != nil {
		return l.exps[i]
	}
	return l.exp
}

// bitLen returns an upper bound on the bit length of leaf i, exact for
// big leaves and plain words.
func (l *leafSet) bitLen(i int) int {
	if l.big != nil {
		return l.big[i].BitLen()
	}
	return int(l.e(i)) * bits.Len64(l.words[i])
}

// value returns leaf i, in tmp for word leaves (tmp must not be one of the
// big leaves).
func (l *leafSet) value(i int, tmp *big.Int) *big.Int {
	if l.big != nil {
		return l.big[i]
	}
	e := l.e(i)
	if v, ok := powWord(l.words[i], e); ok {
		return tmp.SetUint64(v)
	}
	tmp.SetUint64(l.words[i])
	return tmp.Exp(tmp, new(big.Int).SetUint64(uint64(e)), nil)
}

// word returns word leaf i; l.fits must hold.
func (l *leafSet) word(i int) uint64 {
	v, _ := powWord(l.words[i], l.e(i))
	return v
}

// powWord returns w^e and whether it is below 2^64.
func powWord(w uint64, e uint) (uint64, bool) {
	r := uint64(1)
	for range e {
		hi, lo := bits.Mul64(r, w)
		if hi != 0 {
			return 0, false
		}
		r = lo
	}
	return r, true
}

// modWord returns x mod m for the natural number with little-endian words
// x (of bits.UintSize bits) and m > 0, by word division from the top (each
// step's remainder stays below m, as bits.Div64 needs).
func modWord(x []big.Word, m uint64) uint64 {
	var r uint64
	k := len(x)
	if k > 0 && uint64(x[k-1]) < m {
		r = uint64(x[k-1])
		k--
	}
	for k--; k >= 0; k-- {
		hi, lo := r, uint64(x[k]) // r·β + x[k], β = 2^64
		if bits.UintSize == 32 {  // β = 2^32
			hi, lo = r>>32, r<<32|uint64(x[k])
		}
		_, r = bits.Div64(hi, lo, m)
	}
	return r
}
