package apa

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/cputime"
)

// TestLogMPBound checks logMP's bound against logAGM at twice the
// precision plus 64 bits, at every reduction depth, on random arguments
// and the edges: x near 1, x a product of the primes (a = b, t = 0), just
// below and above powers of two, tiny and huge exponents.
func TestLogMPBound(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	precs := []uint{60, 300, 1500, 5000}
	if !testing.Short() {
		precs = append(precs, 40000)
	}
	var cc Consts
	c := consts{shared: &cc}
	edges := func(wp uint) []*big.Float {
		p := wp + 20
		xs := []*big.Float{
			big.NewFloat(3), big.NewFloat(2 * 3 * 5 * 7 * 11 * 13), big.NewFloat(37.0 / 1024),
			new(big.Float).SetPrec(p).Quo(big.NewFloat(3*3*3*3*3*3*3), big.NewFloat(37*37*37*37)),
		}
		one := new(big.Float).SetPrec(p).SetInt64(1)
		eps := new(big.Float).SetPrec(p).SetMantExp(one, -int(wp)/3)
		xs = append(xs, new(big.Float).SetPrec(p).Add(one, eps), new(big.Float).SetPrec(p).Sub(one, eps))
		two := new(big.Float).SetPrec(p).SetMantExp(one, 40)
		xs = append(xs, new(big.Float).SetPrec(p).Add(two, eps), new(big.Float).SetPrec(p).Sub(two, eps))
		xs = append(xs, new(big.Float).SetPrec(p).SetMantExp(randFloat(r, p, 0, 0), 1<<30))
		xs = append(xs, new(big.Float).SetPrec(p).SetMantExp(randFloat(r, p, 0, 0), -(1<<30)))
		for range 12 {
			xs = append(xs, randFloat(r, p, -70, 70))
		}
		return xs
	}
	for _, wp := range precs {
		for _, R := range []uint{20, 32, 64, 96, 128, 160} {
			for i, xb := range edges(wp) {
				var x, y, ref, d xf
				x.setBig(xb)
				e, ok := logMP(&y, &x, wp, R, &c)
				if !ok {
					// Refusing is allowed (the caller takes the AGM) where
					// the exponents' products would exceed the precision,
					// never at the depth logAny chooses.
					if R == logMPR(wp) {
						t.Errorf("logMP wp=%d R=%d case %d: not ok", wp, R, i)
					}
					continue
				}
				logAGM(&ref, &x, 2*wp+64, &c)
				d.sub(&y, &ref, 0)
				if d.sign() != 0 && !(d.top() < e) {
					t.Errorf("logMP wp=%d R=%d case %d: error 2^%d, bound 2^%d", wp, R, i, d.top(), e)
				}
				if e > -int64(wp) {
					t.Errorf("logMP wp=%d R=%d case %d: bound 2^%d", wp, R, i, e)
				}
			}
		}
	}
}

var crossoverR = flag.Bool("logmp.sweepR", false, "with -logmp.crossover, sweep the reduction depth R")

var crossoverAll = flag.Bool("logmp.all", false, "with -logmp.crossover, time logMP at every precision")

var crossover = flag.Bool("logmp.crossover", false, "time Consts.Log by logMP against the AGM (TestLogMPCrossover)")

// TestLogMPCrossover times Log with logMP against the AGM alone,
// alternated in one process, CPU time, medians of 7: warm (one Consts,
// prime logarithms cached) and cold (the package-level Log, a fresh cache
// each call), new ÷ AGM per precision. "new" is logAny as shipped
// (logMPMinPrec, logMPMaxPrec); with -logmp.all it is logMP at every
// precision (how the thresholds were chosen), and with -logmp.sweepR it
// sweeps the reduction depth R (how logMPR was chosen). Run with
//
//	go test -count=1 -v -run TestLogMPCrossover ./apa -args -logmp.crossover
func TestLogMPCrossover(t *testing.T) {
	if !*crossover {
		t.Skip("timing: -logmp.crossover")
	}
	r := rand.New(rand.NewPCG(41, 42))
	oldMin, oldMax := logMPMinPrec, logMPMaxPrec
	defer func() { logMPMinPrec, logMPMaxPrec, logMPRForce = oldMin, oldMax, 0 }()
	newMin, newMax := oldMin, oldMax
	if *crossoverAll || *crossoverR {
		newMin, newMax = 0, ^uint(0)
	}
	precs := []uint{24, 53, 113, 200, 300, 500, 1000, 3000, 10000, 30000, 100000, 200000, 400000, 1000000}
	Rs := []uint{0}
	if *crossoverR {
		precs = []uint{300, 500, 1000, 3000, 10000, 30000, 100000, 200000}
		Rs = []uint{20, 32, 64, 96, 128}
	}
	for _, prec := range precs {
		for _, R := range Rs {
			logMPRForce = R
			var cc Consts
			xs := make([]*big.Float, 5)
			for i := range xs {
				xs[i] = randFloat(r, prec, -20, 20)
			}
			z := new(big.Float).SetPrec(prec)
			warm := func() {
				for _, x := range xs {
					if _, err := cc.Log(z, x); err != nil {
						t.Fatal(err)
					}
				}
			}
			cold := func() {
				for _, x := range xs {
					if _, err := Log(z, x); err != nil {
						t.Fatal(err)
					}
				}
			}
			line := fmt.Sprintf("prec %7d (R = %3d):", prec, logMPR(prec+guard(prec)))
			for _, f := range []struct {
				name string
				run  func()
			}{{"warm", warm}, {"cold", cold}} {
				if f.name == "cold" && (*crossoverR || prec > 100000) {
					continue
				}
				// inner runs take about 20 ms of CPU.
				inner := 1
				for {
					t0 := cputime.Now()
					for range inner {
						f.run()
					}
					if d := (cputime.Now() - t0).Seconds(); d > 0.004 || inner > 1<<20 {
						inner = max(1, int(float64(inner)*0.02/max(d, 1e-6)))
						break
					}
					inner *= 4
				}
				var tn, to []float64
				for rep := range 2*7 + 2 {
					mp := rep%2 == 0
					if mp {
						logMPMinPrec, logMPMaxPrec = newMin, newMax
					} else {
						logMPMinPrec, logMPMaxPrec = ^uint(0), ^uint(0)
					}
					t0 := cputime.Now()
					for range inner {
						f.run()
					}
					d := (cputime.Now() - t0).Seconds() / float64(5*inner)
					if rep < 2 {
						continue // warm-up: prime logarithms computed
					}
					if mp {
						tn = append(tn, d)
					} else {
						to = append(to, d)
					}
				}
				slices.Sort(tn)
				slices.Sort(to)
				mn, mo := tn[len(tn)/2], to[len(to)/2]
				line += fmt.Sprintf(" %s new %.4g ms, AGM %.4g ms, ratio %.3f;", f.name, mn*1e3, mo*1e3, mn/mo)
			}
			t.Log(line)
		}
	}
}

// TestLogAnyRetry checks logAny's retry after a refused reduction: at
// 3,000 bits a depth of 160 bits is refused (the exponents' products
// would outgrow the precision), and the shallower depths it then tries
// must still give a result within its bound.
func TestLogAnyRetry(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	var cc Consts
	c := consts{shared: &cc}
	defer func() { logMPRForce = 0 }()
	wp := uint(3000)
	for i := range 6 {
		var x, y, ref, d xf
		x.setBig(randFloat(r, wp, -10, 10))
		if _, ok := logMP(&y, &x, wp, 160, &c); ok {
			t.Errorf("case %d: depth 160 at %d bits not refused", i, wp)
		}
		// The bound of logMP at some depth, not logAGM's (which differs).
		e64, ok := logMP(&y, &x, wp, 64, &c)
		if !ok {
			t.Fatalf("case %d: depth 64 refused", i)
		}
		logMPRForce = 160
		cc.primeLogsWorth(wp + 8) // an earlier asking: the next is worth it
		e := logAny(&y, &x, wp, &c)
		logMPRForce = 0
		logAGM(&ref, &x, 2*wp+64, &c)
		d.sub(&y, &ref, 0)
		if d.sign() != 0 && !(d.top() < e) || e > -int64(wp) {
			t.Errorf("case %d: error 2^%d, bound 2^%d", i, d.top(), e)
		}
		if e != e64 {
			t.Errorf("case %d: bound 2^%d, not logMP's 2^%d (the AGM was taken)", i, e, e64)
		}
	}
}
