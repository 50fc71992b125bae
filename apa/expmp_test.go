package apa

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/cputime"
)

// expArgs returns random and edge arguments for the exponential tests:
// |x| from 2^-200 to 2^31 (near the exponent range), both signs, sums of
// prime logarithms (coincidences with the reduction's lattice), tiny ones.
func expArgs(r *rand.Rand, prec uint, n int) []*big.Float {
	var xs []*big.Float
	for i := 0; i < n; i++ {
		lo, hi := -12, 4
		switch i % 5 {
		case 3:
			lo, hi = -200, -20
		case 4:
			lo, hi = 10, 31
		}
		x := randFloat(r, prec, lo, hi)
		if i%2 == 1 {
			x.Neg(x)
		}
		xs = append(xs, x)
	}
	// Coincidences: ln(p^a q^b …) rounded to prec bits, ± tiny.
	var c Consts
	for _, v := range []int64{2, 3, 36, 1 << 20, 3 * 5 * 7 * 11 * 13, 37 * 37 * 37} {
		l := new(big.Float).SetPrec(prec)
		c.Log(l, new(big.Float).SetInt64(v))
		xs = append(xs, l, new(big.Float).Neg(l))
	}
	for _, s := range []string{"1e-5", "-1e-5", "0.5", "-0.5", "1", "-1", "1488522235.5", "-1488522235.5"} {
		x, _ := new(big.Float).SetPrec(prec).SetString(s)
		xs = append(xs, x)
	}
	return xs
}

// TestExpMPBound checks expMP's claimed relative error bound against
// expNewton run 64 bits deeper, over many arguments and precisions.
func TestExpMPBound(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	precs := []uint{24, 53, 100, 300, 1000, 3000, 10000, 30000}
	n := 40
	if testing.Short() {
		precs = precs[:6]
		n = 20
	}
	var cc Consts
	c := consts{shared: &cc}
	for _, wp := range precs {
		for _, xb := range expArgs(r, wp, n) {
			var x, y, ref xf
			x.setBig(xb)
			k, ok := expMP(&y, &x, wp, &c)
			if !ok {
				t.Fatalf("expMP(%v) not ok", xb)
			}
			kr, _ := expNewton(&ref, &x, wp+64, &c)
			var d xf
			d.sub(&y, &ref, 0)
			if d.sign() == 0 {
				continue
			}
			// |y − ref| < 2^(k + top) must hold with margin for ref's own error.
			if got := d.top() - ref.top() + 1; got > k || kr > k-60 {
				t.Errorf("wp %d x %.20g: relative error 2^%d, bound 2^%d", wp, xb, got, k)
			}
		}
	}
}

// BenchmarkExpPaths times expNewton and expMP alternately on the same
// arguments through a warm cache, for the crossover of expPath.
func BenchmarkExpPaths(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, prec := range []uint{24, 53, 200, 1000, 3000, 10000, 30000, 100000, 200000, 300000, 500000, 700000, 1000000, 1400000, 2000000, 4000000} {
		xb := randFloat(r, prec, 0, 0)
		xb.Quo(xb, big.NewFloat(1.25))
		var x xf
		x.setBig(xb)
		var cc Consts
		c := consts{shared: &cc}
		var y xf
		expNewton(&y, &x, prec+32, &c)
		expMP(&y, &x, prec+32, &c)
		for _, path := range []string{"newton", "mp"} {
			b.Run(fmt.Sprintf("bits=%d/path=%s", prec, path), func(b *testing.B) {
				for b.Loop() {
					if path == "newton" {
						expNewton(&y, &x, prec+32, &c)
					} else {
						expMP(&y, &x, prec+32, &c)
					}
				}
			})
		}
	}
}

// BenchmarkExpMPParams times expMP's reduction reach R and metric at each
// precision (the table of expMPParams; TestExpMPParamsCPU compares them in
// process CPU time).
func BenchmarkExpMPParams(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, prec := range []uint{24, 53, 200, 1000, 3000, 10000, 30000, 100000, 300000} {
		xb := randFloat(r, prec, 0, 0)
		xb.Quo(xb, big.NewFloat(1.25))
		var x xf
		x.setBig(xb)
		var cc Consts
		c := consts{shared: &cc}
		var y xf
		for _, R := range []uint{30, 64, 100, 130, 165, 200, 235} {
			for _, height := range []bool{false, true} {
				expMPWith(&y, &x, prec+32, R, 0, height, &c)
				b.Run(fmt.Sprintf("bits=%d/R=%d/height=%v", prec, R, height), func(b *testing.B) {
					for b.Loop() {
						expMPWith(&y, &x, prec+32, R, 0, height, &c)
					}
				})
			}
		}
	}
}

var expParamsSizes = flag.String("expparams", "", "run TestExpMPParamsCPU at these comma-separated precisions")

// TestExpMPParamsCPU times expMP with each reach R and metric against
// expMPParams' choice, in one process, process CPU time per call over 4
// arguments, medians of 7 rounds (alternated), at the precisions of
// -expparams (e.g. -expparams 2000,3000,6000,1e4,3e4,6e4): the
// measurement behind expMPParams. "h" marks the height metric.
func TestExpMPParamsCPU(t *testing.T) {
	if *expParamsSizes == "" {
		t.Skip("run with -expparams 1e4,3e4")
	}
	type choice struct {
		R      uint
		height bool
	}
	for _, f := range strings.Split(*expParamsSizes, ",") {
		pf, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatal(err)
		}
		prec := uint(pf)
		wp := prec + guard(prec)
		R0, _, h0 := expMPParams(wp)
		cs := []choice{{R0, h0}}
		for _, R := range []uint{64, 100, 130, 150, 200} {
			for _, h := range []bool{false, true} {
				if (choice{R, h}) != cs[0] {
					cs = append(cs, choice{R, h})
				}
			}
		}
		r := rand.New(rand.NewPCG(1, 1))
		var xs []xf
		for range 4 {
			xb := randFloat(r, prec, 0, 0)
			xb.Quo(xb, big.NewFloat(1.25))
			var x xf
			x.setBig(xb)
			xs = append(xs, x)
		}
		var cc Consts
		c := consts{shared: &cc}
		var y xf
		for _, ch := range cs {
			expMPWith(&y, &xs[0], wp, ch.R, 0, ch.height, &c)
		}
		n := max(1, int(2e6/prec))
		ts := make([][]float64, len(cs))
		for range 7 {
			for i, ch := range cs {
				c0 := cputime.Now()
				for k := range n {
					expMPWith(&y, &xs[k%4], wp, ch.R, 0, ch.height, &c)
				}
				ts[i] = append(ts[i], float64(cputime.Now()-c0)/float64(n))
			}
		}
		for i := range ts {
			slices.Sort(ts[i])
		}
		line := fmt.Sprintf("bits %d: chosen R %d height %v %.0f ns;", prec, R0, h0, ts[0][3])
		for i, ch := range cs[1:] {
			h := ""
			if ch.height {
				h = "h"
			}
			line += fmt.Sprintf(" %s%d %.2f", h, ch.R, ts[i+1][3]/ts[0][3])
		}
		t.Log(line)
	}
}

var expPathsSizes = flag.String("exppaths", "", "run TestExpPathsCPU at these comma-separated precisions")

// TestExpPathsCPU times expNewton and expMP alternated in one process,
// process CPU time per call, median of 7 pairs, at the precisions of
// -exppaths (e.g. -exppaths 24,53,200,1000,3000,1e4,1e5,1e6): the
// measurement behind expMPMaxBits and the "never slower" claim.
func TestExpPathsCPU(t *testing.T) {
	if *expPathsSizes == "" {
		t.Skip("run with -exppaths 1e4,1e5")
	}
	r := rand.New(rand.NewPCG(1, 1))
	for _, f := range strings.Split(*expPathsSizes, ",") {
		pf, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatal(err)
		}
		prec := uint(pf)
		xb := randFloat(r, prec, 0, 0)
		xb.Quo(xb, big.NewFloat(1.25))
		var x xf
		x.setBig(xb)
		var cc Consts
		c := consts{shared: &cc}
		var y xf
		wp := prec + guard(prec)
		expNewton(&y, &x, wp, &c)
		expMP(&y, &x, wp, &c)
		// Calls per sample: about 20 ms of work.
		reps := 1
		for {
			c0 := cputime.Now()
			for range reps {
				expNewton(&y, &x, wp, &c)
			}
			if cputime.Now()-c0 > 20*time.Millisecond || reps > 1<<16 {
				break
			}
			reps *= 2
		}
		var tn, tm []float64
		for range 7 {
			c0 := cputime.Now()
			for range reps {
				expNewton(&y, &x, wp, &c)
			}
			c1 := cputime.Now()
			for range reps {
				expMP(&y, &x, wp, &c)
			}
			c2 := cputime.Now()
			tn = append(tn, float64(c1-c0)/float64(reps))
			tm = append(tm, float64(c2-c1)/float64(reps))
		}
		slices.Sort(tn)
		slices.Sort(tm)
		t.Logf("bits %8d: newton %10.0f ns, mp %10.0f ns, mp ÷ newton %.2f", prec, tn[3], tm[3], tm[3]/tn[3])
	}
}
