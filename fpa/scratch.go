package fpa

// The wide paths (significands beyond 64 bits) compute on big.Int, and a
// big.Int allocates its words on first use. To keep them from allocating
// on every operation, each operation borrows its intermediates from a pool
// of scratch integers whose words are kept between operations, and reads
// its operands' significands in place (mantRef).

import (
	"math/big"
	"sync"
)

// scratch holds an operation's intermediate integers.
type scratch struct {
	a, b, c, d, e big.Int
	lv            [isqrtLevels]big.Int // isqrtRec's levels
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// maxPooledWords bounds the integers kept in the pool (32 KiB each, a
// product of two 100,000-bit significands): a 10^6-bit operation should
// not pin its megabits in every P's cache.
const maxPooledWords = 4096

func putScratch(s *scratch) {
	for _, t := range []*big.Int{&s.a, &s.b, &s.c, &s.d, &s.e} {
		if cap(t.Bits()) > maxPooledWords {
			t.SetBits(nil)
		}
	}
	for i := range s.lv {
		if cap(s.lv[i].Bits()) > maxPooledWords {
			s.lv[i].SetBits(nil)
		}
	}
	scratchPool.Put(s)
}

// bigOne is the constant 1; it is only read.
var bigOne = big.NewInt(1)

// mantRef returns x's significand (x finite): x's own integer when x is
// wide (the caller must not modify it), else t set to it.
func (x *Float) mantRef(t *big.Int) *big.Int {
	if x.f.small() {
		return t.SetUint64(x.lo)
	}
	return &x.hi
}
