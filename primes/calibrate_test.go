package primes

import (
	"flag"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/cputime"
)

var calibrate = flag.Bool("calibrate", false, "measure the scaled remainder tree's cut-over (scaledCutBits)")

// TestCalibrateCut prints the median process CPU time of building the
// product tree of the first 200,000 primes and of its remainder tree for a
// sweep of scaledCutBits, alternating the candidates. Run with
// go test ./primes -run CalibrateCut -calibrate -v; scaledCutBits is set
// from its output.
func TestCalibrateCut(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	old := scaledCutBits
	defer func() { scaledCutBits = old }()
	ps, err := FirstN(200000)
	if err != nil {
		t.Fatal(err)
	}
	xs := make([]*big.Int, len(ps))
	for i, p := range ps {
		xs[i] = new(big.Int).SetUint64(p)
	}
	cuts := []int{1 << 6, 1 << 7, 1 << 8, 1 << 9, 1 << 11}
	trees := make([]*ProductTree, len(cuts))
	build := make([][]time.Duration, len(cuts))
	rem := make([][]time.Duration, len(cuts))
	var x *big.Int
	for range 5 {
		for i, c := range cuts {
			scaledCutBits = c
			s := cputime.Now()
			trees[i] = NewProductTree(xs)
			build[i] = append(build[i], cputime.Now()-s)
			if x == nil {
				x = randInts(rand.New(rand.NewPCG(1, 2)), 1, trees[i].Root().BitLen()-3)[0]
			}
			s = cputime.Now()
			trees[i].Remainders(x)
			rem[i] = append(rem[i], cputime.Now()-s)
		}
	}
	for i, c := range cuts {
		slices.Sort(build[i])
		slices.Sort(rem[i])
		t.Logf("scaledCutBits=%d build %v remainders %v", c, build[i][2], rem[i][2])
	}
}
