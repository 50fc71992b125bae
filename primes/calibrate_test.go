package primes

import (
	"flag"
	"math/big"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
	"time"
)

var calibrate = flag.Bool("calibrate", false, "measure the scaled remainder tree's cut-over (scaledCutBits)")

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

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
			s := cpuTime()
			trees[i] = NewProductTree(xs)
			build[i] = append(build[i], cpuTime()-s)
			if x == nil {
				x = randInts(rand.New(rand.NewPCG(1, 2)), 1, trees[i].Root().BitLen()-3)[0]
			}
			s = cpuTime()
			trees[i].Remainders(x)
			rem[i] = append(rem[i], cpuTime()-s)
		}
	}
	for i, c := range cuts {
		slices.Sort(build[i])
		slices.Sort(rem[i])
		t.Logf("scaledCutBits=%d build %v remainders %v", c, build[i][2], rem[i][2])
	}
}
