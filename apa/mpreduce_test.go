package apa

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// refPrimeLog returns ln p to prec bits by the AGM path of Log, an
// independent algorithm (no atanh series), correctly rounded.
func refPrimeLog(p int64, prec uint) *big.Float {
	z := new(big.Float).SetPrec(prec)
	if _, err := Log(z, new(big.Float).SetInt64(p)); err != nil {
		panic(err)
	}
	return z
}

// TestPrimeLogErr checks the error recursion of computePrimeLogs stays
// below 2^6 units (its comment claims below 40).
func TestPrimeLogErr(t *testing.T) {
	for i, e := range mpPrimeLogErr() {
		if e >= 40 {
			t.Errorf("ε(%d) = %g units, want < 40", mpPrimes[i], e)
		}
	}
}

// TestPrimeLogs compares the cached prime logarithms with Log (the AGM) at
// several precisions, cold and through the cache, against the claimed
// absolute bound 2^-wp.
func TestPrimeLogs(t *testing.T) {
	defer func(v uint) { tableLimit = v }(tableLimit)
	for _, tl := range []uint{tableLimit, 0} {
		tableLimit = tl
		var cc Consts
		c := consts{shared: &cc}
		for _, wp := range []uint{10, 64, 200, 1000, 3000, 20000, 1500} {
			L := c.primeLogs(wp)
			for i, p := range mpPrimes {
				ref := refPrimeLog(p, wp+64)
				got, _ := L[i].float(new(big.Float).SetPrec(0))
				var d big.Float
				d.SetPrec(wp+64).Sub(got, ref)
				if d.Sign() != 0 && d.MantExp(nil) > -int(wp) {
					t.Errorf("table %d wp %d: ln %d off by 2^%d, want < 2^-%d", tl, wp, p, d.MantExp(nil), wp)
				}
				if L[i].e < -int64(wp)-1 {
					t.Errorf("wp %d: ln %d below the grid 2^-(wp+1): e = %d", wp, p, L[i].e)
				}
			}
		}
	}
}

// TestMpReduce checks mpReduce's bounds on random and edge arguments: r
// is compared with v − Σ e_i·ln p_i computed from logarithms 64 bits more
// precise, and the reduction reached is reported.
func TestMpReduce(t *testing.T) {
	for _, height := range []bool{false, true} {
		t.Run(fmt.Sprintf("height=%v", height), func(t *testing.T) { testMpReduce(t, height) })
	}
}

func testMpReduce(t *testing.T, height bool) {
	stages := mpStageAt
	if height {
		stages = mpStageHeightAt
	}
	r := rand.New(rand.NewPCG(3, 4))
	var cc Consts
	c := consts{shared: &cc}
	var vals []*big.Float
	for i := 0; i < 200; i++ {
		vals = append(vals, randFloat(r, 300, -40, 12))
		v := vals[len(vals)-1]
		if i%2 == 1 {
			v.Neg(v)
		}
	}
	for _, s := range []string{"0.6931471805599453094172321214581765680755", "1e-30", "-1e-30", "3.5835189384561100016", "1073741823.5", "-1488522235.25", "2"} {
		v, _ := new(big.Float).SetPrec(300).SetString(s)
		vals = append(vals, v)
	}
	reached := map[uint][]int64{}
	for _, R := range []uint{30, 60, 100, 150, 250} {
		for _, vb := range vals {
			var v xf
			v.setBig(vb)
			for _, wp := range []uint{64, 500} {
				var red mpReduction
				if !mpReduceWith(&red, &v, R, wp, &c, stages) {
					t.Fatalf("mpReduce(%v) failed", vb)
				}
				// Exact check at wp+64.
				L := c.primeLogs(wp + 64)
				var s, u xf
				s.set(&v)
				for i, ei := range red.e {
					u.mulInt64(&L[i], ei, 0)
					s.sub(&s, &u, 0)
				}
				var d xf
				d.sub(&s, &red.r, 0)
				// |d| < 2^errExp + Σ|e|·2^-(wp+64)
				if d.sign() != 0 && d.top() > red.errExp {
					t.Errorf("R %d wp %d v %v: r off by 2^%d, bound 2^%d", R, wp, vb, d.top(), red.errExp)
				}
				if red.r.sign() != 0 && red.r.top() != red.rTop {
					t.Errorf("rTop %d, |r| top %d", red.rTop, red.r.top())
				}
				if wp == 500 {
					reached[R] = append(reached[R], -red.rTop)
				}
			}
		}
	}
	for _, R := range []uint{30, 60, 100, 150, 250} {
		lo := int64(1 << 40)
		for _, x := range reached[R] {
			lo = min(lo, x)
		}
		t.Logf("R = %d: worst reached %d bits", R, lo)
		// Not a bound of the algorithm but its measured quality: a stage
		// lost or a worse lattice would show here.
		// The height stages end near 2^-190 (their generators outgrow
		// int64 sooner): Exp takes them only up to R = 150.
		if lo < int64(R)-4 && !(height && R > 150) {
			t.Errorf("R = %d: worst reduction reached only %d bits", R, lo)
		}
	}
}

// mpHeight returns Σ_{i≥1} |e_i|·log2 p_i, the bits of P·Q.
func mpHeight(e *[mpN]int64) float64 {
	h := 0.0
	for i := 1; i < mpN; i++ {
		h += float64(absInt64(e[i])) * math.Log2(float64(mpPrimes[i]))
	}
	return h
}

// TestMpHeightMetric checks the claim of mpStageHeightAt: at the stages'
// depths the height metric's exponents make P·Q shorter per bit of reach
// than the plain stages' (median over 200 arguments).
func TestMpHeightMetric(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var vs []xf
	for i := 0; i < 200; i++ {
		var v xf
		v.setBig(randFloat(r, 300, -4, 4))
		vs = append(vs, v)
	}
	for _, R := range []uint{60, 100, 140} {
		var per [2][]float64
		for k, stages := range []func(int) *mpStage{mpStageAt, mpStageHeightAt} {
			for _, v := range vs {
				e, reached, ok := mpFindExpsWith(&v, R, stages)
				if !ok {
					t.Fatal("mpFindExpsWith failed")
				}
				per[k] = append(per[k], mpHeight(&e)/float64(max(reached, 1)))
			}
			slices.Sort(per[k])
		}
		plain, height := per[0][100], per[1][100]
		t.Logf("R %d: bits of P·Q per bit of reach, median: plain %.1f, height %.1f", R, plain, height)
		if height > 0.6*plain {
			t.Errorf("R %d: height metric %.1f bits per bit of reach, plain %.1f", R, height, plain)
		}
	}
}

// TestMpPowProd compares mpPowProd with the exact product by big.Int, for
// exponents small enough to be exact and large enough to be truncated.
func TestMpPowProd(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for it := 0; it < 120; it++ {
		var e [mpN]int64
		lim := int64(1) << uint(1+it%14)
		for i := range e {
			e[i] = r.Int64N(2*lim+1) - lim
		}
		for _, sign := range []int{1, -1} {
			want := big.NewInt(1)
			for i, ei := range e {
				if ei*int64(sign) > 0 {
					want.Mul(want, new(big.Int).Exp(big.NewInt(mpPrimes[i]), big.NewInt(absInt64(ei)), nil))
				}
			}
			for _, wp := range []uint{53, 1000, 20000} {
				var z xf
				k, exact := mpPowProd(&z, &e, sign, wp)
				var zi big.Int
				if z.e >= 0 {
					zi.Lsh(&z.m, uint(z.e))
				} else {
					zi.Rsh(&z.m, uint(-z.e))
				}
				if exact {
					if z.e != 0 || z.m.Cmp(want) != 0 {
						t.Fatalf("e %v sign %d wp %d: claimed exact, wrong", e, sign, wp)
					}
					continue
				}
				// |z − want| < 2^k·want
				wf := new(big.Float).SetPrec(uint(want.BitLen()) + 64).SetInt(want)
				zf, _ := z.float(new(big.Float).SetPrec(0))
				d := new(big.Float).SetPrec(wf.Prec()).Sub(zf, wf)
				d.Quo(d, wf)
				if d.Sign() != 0 && d.MantExp(nil) > int(k) {
					t.Errorf("e %v sign %d wp %d: relative error 2^%d, bound 2^%d", e, sign, wp, d.MantExp(nil), k)
				}
			}
		}
	}
}

// TestGenValue checks genValue's word arithmetic against the exact xf sum
// (genValueXf) on random, extreme and cancelling exponents: the same value,
// so the exponent search finds the same exponents.
func TestGenValue(t *testing.T) {
	mpInit()
	r := rand.New(rand.NewPCG(9, 9))
	var cases [][mpN]int64
	cases = append(cases, [mpN]int64{}, [mpN]int64{1}, [mpN]int64{-1})
	var ext, cancel [mpN]int64
	for i := range ext {
		ext[i] = math.MaxInt64
		if i%2 == 1 {
			ext[i] = math.MinInt64
		}
	}
	cancel[0], cancel[1] = 3, -2 // 3·ln 2 − 2·ln 3 < 0
	cases = append(cases, ext, cancel)
	for n := 0; n < 2000; n++ {
		var g [mpN]int64
		sh := r.IntN(63)
		for i := range g {
			if r.IntN(3) > 0 {
				g[i] = r.Int64()>>sh - r.Int64()>>sh
			}
		}
		cases = append(cases, g)
	}
	for _, g := range cases {
		var a, b, d xf
		genValue(&a, &g)
		genValueXf(&b, &g)
		if d.sub(&a, &b, 0); d.sign() != 0 {
			t.Fatalf("g %v: genValue differs from the exact sum by 2^%d", g, d.top())
		}
		if a.top() != b.top() || a.float64() != b.float64() {
			t.Fatalf("g %v: top/float64 differ", g)
		}
	}
}
