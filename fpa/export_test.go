package fpa

import (
	"flag"
	mrand "math/rand"
	"math/rand/v2"
)

var long = flag.Bool("long", false, "run the long checks (10^7 random operands per op)")

// r2 adapts a v2 source to the math/rand interface that big.Int.Rand wants.
func r2(r *rand.Rand) *mrand.Rand { return mrand.New(mrand.NewSource(r.Int64())) }
