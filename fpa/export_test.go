package fpa

import (
	"flag"
	mrand "math/rand"
	"math/rand/v2"
)

var long = flag.Bool("long", false, "run the long checks (10^7 random operands per op)")

// r2 adapts a v2 generator to the math/rand interface that big.Int.Rand
// wants. It draws from r itself: seeding a math/rand source per call
// (mrand.NewSource) cost about 10 µs, a third of fpa's -short CPU.
func r2(r *rand.Rand) *mrand.Rand { return mrand.New(v2Source{r}) }

// v2Source is a math/rand Source64 reading a math/rand/v2 generator.
type v2Source struct{ r *rand.Rand }

func (s v2Source) Int63() int64   { return s.r.Int64() }
func (s v2Source) Uint64() uint64 { return s.r.Uint64() }

// Seed panics: the stream is r's, seed r instead.
func (s v2Source) Seed(int64) {
	panic("fpa test: v2Source cannot be reseeded; seed its rand/v2 generator")
}
