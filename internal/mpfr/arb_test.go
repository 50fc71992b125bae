//go:build mpfr && cgo

package mpfr

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/internal/cputime"
)

// arbGuard is the number of guard bits of the rounded Arb evaluation
// (arbrn): the first ball is computed at the target precision plus these.
const arbGuard = 32

// TestArbAgree checks the Arb binding and its rounding loop: Arb's ball
// rounded to nearest by Ziv's strategy (Float.ArbRound) equals MPFR's
// correctly rounded log and exp bit for bit, and so does apa's. With 2
// guard bits the first ball is often too wide to decide the rounding: the
// loop must retry then and still agree, which the retry count shows.
func TestArbAgree(t *testing.T) {
	runtime.LockOSThread() // Arb's and MPFR's caches are per OS thread
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(34, 1))
	precs := []uint{24, 53, 200, 3000, 1e4, 1e5}
	if testing.Short() {
		precs = precs[:5]
	}
	var cache apa.Consts
	for _, guard := range []uint{arbGuard, 2} {
		retries := 0
		for _, prec := range precs {
			for _, scale := range []int{-30, -1, 0, 2, 9} {
				x := randFloat(r, prec)
				x.SetMantExp(x, scale)
				mx := NewFloat(prec).SetBig(x)
				bx := NewBall().SetFloat(mx)
				out, ref := NewFloat(prec), NewFloat(prec)
				for _, fn := range []ArbFunc{ArbLog, ArbExp} {
					name := map[ArbFunc]string{ArbLog: "log", ArbExp: "exp"}[fn]
					got, err := apaAndMPFR(fn, &cache, ref, mx, x, prec)
					require.NoError(t, err)
					n, ok := out.ArbRound(bx, fn, guard)
					require.True(t, ok, "%s at %d bits: Arb's Ziv loop gave up", name, prec)
					retries += n
					want := ref.Big()
					assert.Equal(t, 0, out.Big().Cmp(want), "arb %s at %d bits, 2^%d, guard %d", name, prec, scale, guard)
					assert.Equal(t, 0, got.Cmp(want), "apa %s at %d bits, 2^%d", name, prec, scale)
				}
				mx.Free()
				bx.Free()
				out.Free()
				ref.Free()
			}
		}
		t.Logf("guard %d bits: %d retries in %d roundings", guard, retries, 2*5*len(precs))
		if guard == 2 {
			assert.Positive(t, retries, "with 2 guard bits some ball must be too wide to round")
		}
	}
}

// arbSizes are the precisions of the apa/MPFR/Arb table: the top of the
// range the package-level table serves cheaply, then issue 34's targets.
var arbSizes = []uint{3000, 1e4, 1e5, 1e6}

// logExpCase is one row of the same-run comparison: fn at prec bits on
// one random input, with every implementation's state.
type logExpCase struct {
	fn   string
	prec uint
	x    *big.Float
	mx   *Float
	bx   *Ball
	z    *big.Float
	mz   *Float
	bz   *Ball
	rz   *Float // Arb rounded to nearest
	apac apa.Consts

	retries int // Arb's Ziv retries over the timed runs
	ok      bool
}

func newLogExpCase(r *rand.Rand, fn string, prec uint) *logExpCase {
	c := &logExpCase{fn: fn, prec: prec, x: randFloat(r, prec), ok: true}
	c.mx = NewFloat(prec).SetBig(c.x)
	c.bx = NewBall().SetFloat(c.mx)
	c.z = new(big.Float).SetPrec(prec)
	c.mz, c.rz = NewFloat(prec), NewFloat(prec)
	c.bz = NewBall()
	return c
}

func (c *logExpCase) free() { c.mx.Free(); c.bx.Free(); c.mz.Free(); c.bz.Free(); c.rz.Free() }

func (c *logExpCase) arbFn() ArbFunc {
	if c.fn == "exp" {
		return ArbExp
	}
	return ArbLog
}

// impls returns the implementations under one caching policy. Warm: each
// library's constant cache kept between calls (apa's Consts, MPFR's
// global cache, FLINT/Arb's caches of π, ln 2 and the logarithms of the
// reduction primes). Cold: every call starts from empty caches
// (mpfr_free_cache, flint_cleanup, a fresh apa.Consts); apa's generated
// table of π and ln 2 (consttab.go, up to 2^19 bits) is code, not a
// cache, and serves both policies. "arb" is Arb's ball at the target
// precision (not a rounded result), "arbrn" that ball rounded to nearest
// by Ziv's loop from target + arbGuard bits.
func (c *logExpCase) impls(cold bool) []*impl {
	apaF := c.apac.Log
	mF := c.mz.Log
	bF := c.bz.Log
	if c.fn == "exp" {
		apaF, mF, bF = c.apac.Exp, c.mz.Exp, c.bz.Exp
	}
	if cold {
		apaF = apa.Log
		if c.fn == "exp" {
			apaF = apa.Exp
		}
	}
	flush := func(free func()) {
		if cold {
			free()
		}
	}
	return []*impl{
		{name: "mpfr", run: func() { flush(FreeCache); mF(c.mx) }},
		{name: "apa", run: func() {
			if _, err := apaF(c.z, c.x); err != nil {
				c.ok = false
			}
		}},
		{name: "arb", run: func() { flush(ArbFreeCache); bF(c.bx, c.prec) }},
		{name: "arbrn", run: func() {
			flush(ArbFreeCache)
			n, ok := c.rz.ArbRound(c.bx, c.arbFn(), arbGuard)
			c.retries += n
			c.ok = c.ok && ok
		}},
	}
}

// check reports whether the last results agree bit for bit: apa's and
// Arb's rounded value with MPFR's, and Arb's ball contains MPFR's value.
func (c *logExpCase) check() bool {
	want := c.mz.Big()
	return c.ok && c.z.Cmp(want) == 0 && c.rz.Big().Cmp(want) == 0
}

// sameRun runs every implementation reps times, rotating their order in
// each repetition, and records each one's wall and CPU time per call. A
// repetition calls an implementation inner times in a row (so that one
// measurement spans at least about 20 ms at small precisions).
func sameRun(impls []*impl, reps int) {
	for _, im := range impls { // warm up (fills the warm caches; apa's Consts takes two logarithms to)
		im.run()
		im.run()
	}
	t0 := time.Now()
	impls[0].run()
	inner := max(1, int(20*time.Millisecond/max(time.Since(t0), time.Microsecond)))
	for rep := range reps {
		for j := range impls {
			im := impls[(j+rep)%len(impls)]
			c0, w0 := cputime.Now(), time.Now()
			for range inner {
				im.run()
			}
			im.wall = append(im.wall, time.Since(w0)/time.Duration(inner))
			im.cpu = append(im.cpu, (cputime.Now()-c0)/time.Duration(inner))
		}
	}
}

func byName(impls []*impl) map[string]*impl {
	m := make(map[string]*impl, len(impls))
	for _, im := range impls {
		m[im.name] = im
	}
	return m
}

// BenchmarkLogExpArb times apa, MPFR and Arb on the same input in one
// process, warm and cold (see logExpCase.impls), alternating them in every
// repetition, and reports medians and CPU ratios: apa÷mpfr, apa÷arb
// (against Arb's ball) and apa÷arbrn (against Arb rounded to nearest),
// arbrn÷arb (what correct rounding costs Arb), Arb's Ziv retries, and
// fails if apa, MPFR and rounded Arb disagree in any bit.
func BenchmarkLogExpArb(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(34, 2))
	for _, prec := range arbSizes {
		for _, fn := range []string{"log", "exp"} {
			c := newLogExpCase(r, fn, prec)
			for _, policy := range []string{"warm", "cold"} {
				b.Run(fmt.Sprintf("fn=%s/bits=%d/%s", fn, prec, policy), func(b *testing.B) {
					impls := c.impls(policy == "cold")
					c.retries = 0
					compare(b, impls)
					m := byName(impls)
					for _, d := range []string{"arb", "arbrn"} {
						b.ReportMetric(median(m["apa"].cpu)/median(m[d].cpu), "apa/"+d+"-cpu")
					}
					b.ReportMetric(median(m["arbrn"].cpu)/median(m["arb"].cpu), "arbrn/arb-cpu")
					b.ReportMetric(float64(c.retries), "arb-retries")
					if !c.check() {
						b.Fatalf("%s at %d bits: apa, MPFR and rounded Arb disagree", fn, prec)
					}
				})
			}
			c.free()
		}
	}
}

var logExpReps = flag.Int("logexp.reps", 0, "run TestLogExpTable with this many same-run repetitions per cell (0: skip)")

var logExpFns = flag.String("logexp.fns", "log,exp", "comma-separated functions for TestLogExpTable")

var logExpSizes = flag.String("logexp.sizes", "", "comma-separated precisions for TestLogExpTable (default: arbSizes)")

// logExpPrecs returns the precisions of TestLogExpTable: -logexp.sizes or
// arbSizes.
func logExpPrecs(t *testing.T) []uint {
	if *logExpSizes == "" {
		return arbSizes
	}
	var ps []uint
	for _, f := range strings.Split(*logExpSizes, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		require.NoError(t, err, "-logexp.sizes")
		ps = append(ps, uint(v))
	}
	return ps
}

// TestLogExpTable prints the table of BENCHMARKS.md's "Numeric core
// against MPFR and GMP": for log and exp at each of arbSizes, apa, MPFR,
// Arb's ball and Arb rounded to nearest on the same input, warm and cold,
// alternated in every repetition; median CPU time per call and the
// ratios. Warm rows also time apa's own products: those of one call,
// recorded (RecordMuls) and replayed on bigmul and on GMP's mpn_mul in the
// same rotation, which gives their number, their share of apa's time, the
// cost of bigmul against GMP on exactly that work (a short product,
// bigmul.MulHigh, against GMP's full product: "n short"), and what apa would cost
// against MPFR and Arb if its products cost what GMP's do (apa − bigmul +
// GMP; Arb multiplies with GMP at these sizes, see MulTrace). It runs only when given -logexp.reps (it takes minutes):
//
//	go test -tags mpfr -count=1 -timeout 60m -v -run TestLogExpTable ./internal/mpfr -args -logexp.reps 5
//
// (-logexp.sizes 1e3,3e3,1e4 for other precisions, -logexp.fns exp for
// one function) and fails if apa, MPFR and rounded Arb disagree in any bit.
func TestLogExpTable(t *testing.T) {
	if *logExpReps <= 0 {
		t.Skip("the table takes minutes: run with -args -logexp.reps 5")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(34, 2))
	var sb strings.Builder
	tw := tabwriter.NewWriter(&sb, 0, 0, 1, ' ', tabwriter.Debug)
	fmt.Fprintf(tw, " fn\t bits\t caches\t MPFR ms\t apa÷MPFR\t apa÷Arb\t apa÷Arb rounded\t Arb÷MPFR\t Arb rounded÷Arb\t retries\t products\t share\t bigmul÷GMP\t apa on GMP÷MPFR\t apa on GMP÷Arb\t\n")
	for _, fn := range strings.Split(*logExpFns, ",") {
		for _, prec := range logExpPrecs(t) {
			c := newLogExpCase(r, fn, prec)
			for _, policy := range []string{"warm", "cold"} {
				impls := c.impls(policy == "cold")
				var tr *MulTrace
				if policy == "warm" {
					// apa's products in one warm call, replayed on bigmul
					// and on GMP in the same rotation. Two calls first
					// fill apa's cache: a Consts computes the prime
					// logarithms of Log's and Exp's reductions at the
					// second call that wants them (apa.Consts' doc).
					impls[1].run()
					impls[1].run()
					tr = RecordMuls(impls[1].run)
					impls = append(impls,
						&impl{name: "bigmul", run: tr.ReplayBigmul},
						&impl{name: "gmp", run: tr.ReplayGMP})
				}
				c.retries = 0
				sameRun(impls, *logExpReps)
				require.True(t, c.check(), "%s at %d bits: apa, MPFR and rounded Arb disagree", fn, prec)
				m := byName(impls)
				cpu := func(n string) float64 { return median(m[n].cpu) }
				fmt.Fprintf(tw, " %s\t %d\t %s\t %.3g\t %.2f\t %.2f\t %.2f\t %.2f\t %.3f\t %d\t", fn, prec, policy,
					cpu("mpfr")/1e6, cpu("apa")/cpu("mpfr"), cpu("apa")/cpu("arb"), cpu("apa")/cpu("arbrn"),
					cpu("arb")/cpu("mpfr"), cpu("arbrn")/cpu("arb"), c.retries)
				if tr == nil {
					fmt.Fprintf(tw, " \t \t \t \t \t\n")
					continue
				}
				onGMP := cpu("apa") - cpu("bigmul") + cpu("gmp")
				fmt.Fprintf(tw, " %d (%d short)\t %.2f\t %.2f\t %.2f\t %.2f\t\n", tr.Len(), tr.Shorts(), cpu("bigmul")/cpu("apa"),
					cpu("bigmul")/cpu("gmp"), onGMP/cpu("mpfr"), onGMP/cpu("arb"))
			}
			c.free()
		}
	}
	tw.Flush()
	fmt.Fprintf(os.Stdout, "CPU time per call, median of %d same-run repetitions (order rotated); results bit-identical to MPFR\n%s",
		*logExpReps, sb.String())
}

// TestAgreeLarge checks apa's Log and Exp against MPFR bit for bit at
// random precisions from 2·10^4 to 10^6 bits, where apa's products go
// through bigmul's transform (10^5 and up) and Toom (below), on random
// inputs of random magnitude; Arb's rounded ball must agree too. It takes
// about ten seconds of CPU, so it runs without -short only.
func TestAgreeLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("about ten seconds of CPU")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(34, 3))
	var cache apa.Consts
	for i := range 6 {
		prec := uint(2e4 + r.IntN(98e4))
		if i == 0 {
			prec = 1e6
		}
		x := randFloat(r, prec)
		x.SetMantExp(x, r.IntN(9)-4)
		mx := NewFloat(prec).SetBig(x)
		bx := NewBall().SetFloat(mx)
		ref, out := NewFloat(prec), NewFloat(prec)
		for _, fn := range []ArbFunc{ArbLog, ArbExp} {
			got, err := apaAndMPFR(fn, &cache, ref, mx, x, prec)
			require.NoError(t, err)
			want := ref.Big()
			assert.Equal(t, 0, got.Cmp(want), "apa fn %d at %d bits", fn, prec)
			_, ok := out.ArbRound(bx, fn, arbGuard)
			require.True(t, ok)
			assert.Equal(t, 0, out.Big().Cmp(want), "arb fn %d at %d bits", fn, prec)
		}
		mx.Free()
		bx.Free()
		ref.Free()
		out.Free()
	}
}

// apaAndMPFR sets ref to MPFR's fn of mx and returns apa's fn of x (the
// same value) at prec bits.
func apaAndMPFR(fn ArbFunc, cache *apa.Consts, ref, mx *Float, x *big.Float, prec uint) (*big.Float, error) {
	if fn == ArbLog {
		ref.Log(mx)
		return cache.Log(new(big.Float).SetPrec(prec), x)
	}
	ref.Exp(mx)
	return cache.Exp(new(big.Float).SetPrec(prec), x)
}
