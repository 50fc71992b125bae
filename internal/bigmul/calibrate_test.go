//go:build linux

package bigmul

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/labelinf/labelinf/internal/cputime"

	"github.com/remyoudompheng/bigfft"
)

// TestCalibrate prints, for a sweep of sizes, the median CPU time (process,
// alternated repetitions) of big.Int.Mul, bigfft.Mul, a
// math/big square, the transform's product and its square. Run with
// -calibrate; the cost model of choose is fitted to its output.
func TestCalibrate(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(3, 4))
	for _, words := range []int{1200, 2500, 3500, 5000, 8000, 16000, 160000} {
		x, y := randInt(r, words), randInt(r, words)
		fs := []func(){
			func() { new(big.Int).Mul(x, y) },
			func() { bigfft.Mul(x, y) },
			func() { new(big.Int).Mul(x, x) },
			func() { nttMul(x.Bits(), y.Bits()) },
			func() { nttMul(x.Bits(), nil) },
			func() { toomMul(nil, x.Bits(), y.Bits(), false) },
			func() { toomMul(nil, x.Bits(), x.Bits(), true) },
		}
		reps := 7
		inner := max(1, 400000/words)
		if words > 16000 {
			fs[5], fs[6] = func() {}, func() {} // Toom never runs there
		}
		med := rotatedMedians(fs, reps, inner)
		fmt.Printf("words=%6d big=%9.0fus fft=%9.0fus bigsqr=%9.0fus ntt=%9.0fus nttsqr=%9.0fus toom=%9.0fus toomsqr=%9.0fus\n", words, med[0], med[1], med[2], med[3], med[4], med[5], med[6])
	}
}

// TestCalibrateChunks prints math/big's time against Mul's (the chunked
// transform where choose picks it) for unbalanced products. Run with
// -calibrate.
func TestCalibrateChunks(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(3, 5))
	for _, sz := range [][2]int{{3000, 200}, {10000, 300}, {30000, 300}, {20000, 1000}, {100000, 2000}} {
		x, y := randInt(r, sz[0]), randInt(r, sz[1])
		fs := []func(){
			func() { new(big.Int).Mul(x, y) },
			func() { Mul(new(big.Int), x, y) },
		}
		inner := max(1, 200000/sz[0])
		med := rotatedMedians(fs, 7, inner)
		st, _, _ := choose(sz[0], sz[1], false)
		fmt.Printf("words=%d×%d big=%9.0fus bigmul=%9.0fus strategy=%d\n", sz[0], sz[1], med[0], med[1], st)
	}
}

// TestCalibrateToom prints, for mid-size balanced operands, the median
// CPU time (alternated repetitions) of math/big, of toomMul with Toom-3
// only and with Toom-4 over Toom-3, and of the transform, for products
// and squares. Run with -calibrate; toom3Words, toom4Words and the cost
// model of choose are fitted to its output.
func TestCalibrateToom(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(3, 6))
	for _, words := range []int{100, 150, 200, 300, 450, 700, 1000, 1600, 2500, 3500, 5000} {
		x, y := randInt(r, words), randInt(r, words)
		for _, sq := range []bool{false, true} {
			yy, ys := y, y.Bits()
			if sq {
				yy, ys = x, nil
			}
			fs := []func(){
				func() { new(big.Int).Mul(x, yy) },
				func() { withToomThresholds(toom3Words, 1<<30, func() { toomMul(nil, x.Bits(), yy.Bits(), sq) }) },
				func() { toomMul(nil, x.Bits(), yy.Bits(), sq) },
				func() { nttMul(x.Bits(), ys) },
			}
			inner := max(1, 100000/words)
			med := rotatedMedians(fs, 7, inner)
			b := med[0]
			fmt.Printf("words=%5d sq=%-5v big=%8.1fus toom3=%8.1fus (%.2f) toom4=%8.1fus (%.2f) ntt=%8.1fus (%.2f)\n",
				words, sq, b, med[1], med[1]/b, med[2], med[2]/b, med[3], med[3]/b)
		}
	}
}

// TestCalibrateBase prints the median CPU time of math/big against the
// word-level Karatsuba (kmul, ksqr) over the assembly rows, for small
// balanced operands. Run with -calibrate; karaWords, karaSqrWords and
// sqrRowsWords are fitted to its output.
func TestCalibrateBase(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(3, 7))
	s := getArena(toomScratchWords(400))
	for _, words := range []int{8, 16, 24, 32, 48, 64, 100, 150, 250, 400} {
		x, y := randInt(r, words), randInt(r, words)
		z := new(big.Int).Mul(x, y)
		zw := make([]big.Word, 2*words)
		fs := []func(){
			func() { z.Mul(x, y) },
			func() { s.off = 0; s.kmul(zw, x.Bits(), y.Bits()) },
			func() { z.Mul(x, x) },
			func() { s.off = 0; s.ksqr(zw, x.Bits()) },
		}
		for _, kw := range []int{16, 32, 48} {
			fs = append(fs, func() {
				o := karaWords
				karaWords = kw
				s.off = 0
				s.kmul(zw, x.Bits(), y.Bits())
				karaWords = o
			})
		}
		for _, kw := range []int{24, 64, 100} {
			fs = append(fs, func() {
				o := karaSqrWords
				karaSqrWords = kw
				s.off = 0
				s.ksqr(zw, x.Bits())
				karaSqrWords = o
			})
		}
		inner := max(1, 200000/(words*words))
		med := rotatedMedians(fs, 9, inner)
		fmt.Printf("words=%4d big=%8.2fus kmul=%8.2fus (%.2f; kara 16/32/48: %.2f %.2f %.2f) bigsqr=%8.2fus ksqr=%8.2fus (%.2f; kara 24/64/100: %.2f %.2f %.2f)\n",
			words, med[0], med[1], med[1]/med[0], med[4]/med[0], med[5]/med[0], med[6]/med[0],
			med[2], med[3], med[3]/med[2], med[7]/med[2], med[8]/med[2], med[9]/med[2])
	}
}

// TestCalibrateToomSweep prints toomMul's median CPU time relative to
// math/big for a grid of thresholds (toom3Words, toom4Words, the leaf:
// math/big or the word-level Karatsuba; for squares, toom3SqrWords and
// toom4SqrWords). Run with -calibrate.
func TestCalibrateToomSweep(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(3, 9))
	o3, o4, ol := toom3Words, toom4Words, leafWords
	s3, s4 := toom3SqrWords, toom4SqrWords
	defer func() { toom3Words, toom4Words, leafWords, toom3SqrWords, toom4SqrWords = o3, o4, ol, s3, s4 }()
	type cfg struct {
		t3, t4 int
		leaf   bool
	}
	var cfgs []cfg
	for _, t3 := range []int{100, 150, 200, 250, 300, 1 << 30} {
		for _, t4 := range []int{250, 350, 500, 800, 1 << 30} {
			for _, leaf := range []bool{useADX} {
				cfgs = append(cfgs, cfg{t3, t4, leaf})
			}
		}
	}
	for _, words := range []int{157, 200, 300, 450, 700, 1000, 1600, 2500} {
		x, y := randInt(r, words), randInt(r, words)
		buf := make([]big.Word, 2*words) // the product's words, reused
		for _, sq := range []bool{false, true} {
			yy := y
			if sq {
				yy = x
			}
			fs := []func(){func() { new(big.Int).Mul(x, yy) }}
			for _, c := range cfgs {
				fs = append(fs, func() {
					toom3Words, toom4Words, leafWords = c.t3, c.t4, c.leaf
					toom3SqrWords, toom4SqrWords = c.t3, c.t4
					toomMul(buf, x.Bits(), yy.Bits(), sq)
				})
			}
			inner := max(1, 20000/words)
			med := rotatedMedians(fs, 5, inner)
			b := med[0]
			type res struct {
				c cfg
				r float64
			}
			var rs []res
			for i, c := range cfgs {
				rs = append(rs, res{c, med[i+1] / b})
			}
			slices.SortFunc(rs, func(a, b res) int {
				if a.r < b.r {
					return -1
				}
				return 1
			})
			fmt.Printf("words=%d sq=%v big=%.1fus best:", words, sq, b)
			for _, r := range rs[:5] {
				fmt.Printf(" %d/%d:%.2f", r.c.t3, r.c.t4, r.r)
			}
			fmt.Println()
		}
	}
}

// rotatedMedians runs each of fs inner times per repetition, reps
// repetitions in rotating order (so that drift of the machine's speed
// falls on all alike), and returns each one's median thread CPU time per
// call, in µs.
func rotatedMedians(fs []func(), reps, inner int) []float64 {
	ds := make([][]time.Duration, len(fs))
	for rep := range reps {
		for j := range fs {
			k := (j + rep) % len(fs)
			c := cputime.Now()
			for range inner {
				fs[k]()
			}
			ds[k] = append(ds[k], (cputime.Now()-c)/time.Duration(inner))
		}
	}
	med := make([]float64, len(fs))
	for k, d := range ds {
		s := slices.Clone(d)
		slices.Sort(s)
		med[k] = float64(s[len(s)/2]) / 1e3
	}
	return med
}

// TestCalibrateSplit prints, for a sweep of balanced products, the
// median CPU time of the split plan of length n/2 + n/4 against the
// plain plan of length n that planFor weighs at the same size (both
// where both hold the product), products and squares, with AVX-512 on
// and off where the CPU has it. The three primes run on one thread so
// that thread CPU time is the whole cost. Run with -calibrate;
// splitCosts is fitted to its output.
func TestCalibrateSplit(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(9, 11))
	o, op := useAVX512, nttParallelLen
	nttParallelLen = 1 << 30
	defer func() { useAVX512, nttParallelLen = o, op }()
	for _, bits := range []int{3e4, 4.5e4, 6e4, 1.1e5, 1.3e5, 1.8e5, 2.4e5, 4.8e5, 1e6, 2e6, 4e6} {
		x, y := randBitsD(r, bits, false), randBitsD(r, bits, false)
		pp, sp, ok := planPair(uint(bits), uint(bits), 0)
		if !ok {
			continue
		}
		for _, avx := range []bool{true, false} {
			if avx && !o {
				continue
			}
			fs := []func(){
				func() { useAVX512 = avx; nttMulPlan(x.Bits(), y.Bits(), pp) },
				func() { useAVX512 = avx; nttMulPlan(x.Bits(), y.Bits(), sp) },
				func() { useAVX512 = avx; nttMulPlan(x.Bits(), nil, pp) },
				func() { useAVX512 = avx; nttMulPlan(x.Bits(), nil, sp) },
			}
			med := threadMedians(fs, 15, max(1, 3000000/bits))
			fmt.Printf("bits=%8d avx512=%-5v plain n=%6d %9.1fus split %9.1fus split/plain=%.3f squares %.3f\n",
				bits, avx, pp.n, med[0], med[1], med[1]/med[0], med[3]/med[2])
		}
	}
}

// threadMedians is rotatedMedians on the calling thread's CPU time
// (clock_gettime of CLOCK_THREAD_CPUTIME_ID), for code that runs on one
// thread: other threads' work (the runtime's, another test's) is left out.
func threadMedians(fs []func(), reps, inner int) []float64 {
	ds := make([][]time.Duration, len(fs))
	for rep := range reps {
		for j := range fs {
			k := (j + rep) % len(fs)
			c := threadNow()
			for range inner {
				fs[k]()
			}
			ds[k] = append(ds[k], (threadNow()-c)/time.Duration(inner))
		}
	}
	med := make([]float64, len(fs))
	for k, d := range ds {
		s := slices.Clone(d)
		slices.Sort(s)
		med[k] = float64(s[len(s)/2]) / 1e3
	}
	return med
}

// threadNow returns the calling thread's CPU time.
func threadNow() time.Duration {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// TestCalibrateToomWords prints Mul's median CPU time with the Toom-3
// and Toom-4,2 of toomw.go against toom.go's Toom-3 on big.Int values
// and balanced pieces (toomOnWords off), for balanced and unbalanced
// products and squares, and toomMul's time for a sweep of toom42Words
// on unbalanced shapes. Run with -calibrate; toomOnWords and
// toom42Words come from its output.
func TestCalibrateToomWords(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := rand.New(rand.NewPCG(3, 7))
	o42, ow := toom42Words, toomOnWords
	defer func() { toom42Words, toomOnWords = o42, ow }()
	for _, w := range [][2]int{{157, 157}, {200, 200}, {300, 300}, {400, 400}, {300, 150}, {700, 350}, {1000, 400}, {600, 150}, {700, 175}, {800, 100}, {1000, 125}} {
		x, y := randInt(r, w[0]), randInt(r, w[1])
		var z big.Int
		fs := []func(){
			func() { toomOnWords = false; Mul(&z, x, y) },
			func() { toomOnWords = true; Mul(&z, x, y) },
			func() { toomOnWords = false; Mul(&z, x, x) },
			func() { toomOnWords = true; Mul(&z, x, x) },
		}
		med := threadMedians(fs, 15, max(1, 3000000/(w[0]*w[1])))
		fmt.Printf("%d×%d words: on÷off product %.3f, square of the first %.3f\n", w[0], w[1], med[1]/med[0], med[3]/med[2])
	}
	toomOnWords = true
	ts := []int{150, 60, 80, 100, 120, 200, 1 << 30}
	for _, sh := range [][2]int{{160, 80}, {200, 100}, {240, 120}, {300, 150}, {400, 200}, {600, 300}} {
		x, y := randInt(r, sh[0]), randInt(r, sh[1])
		buf := make([]big.Word, sh[0]+sh[1])
		var fs []func()
		for _, t42 := range ts {
			fs = append(fs, func() { toom42Words = t42; toomMul(buf, x.Bits(), y.Bits(), false) })
		}
		med := threadMedians(fs, 11, max(1, 2000000/(sh[0]*sh[1])))
		fmt.Printf("%d×%d words, time ÷ toom42Words=150's:", sh[0], sh[1])
		for i, t42 := range ts[1:] {
			fmt.Printf(" %d: %.2f", t42, med[i+1]/med[0])
		}
		fmt.Println()
	}
}

// TestCalibrateShort prints MulHigh's median thread CPU time over that of
// Mul and the shift, for balanced top halves (products and squares) and
// a sweep of shortBaseWords and shortSplit (for squares, 40 and 24
// fixed), rotated in every repetition. Run with -calibrate; the shipped
// values come from its output (for squares, with the same sweep applied
// to shortSqrBaseWords and shortSqrSplit).
func TestCalibrateShort(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer forceShort(shortBaseWords, shortSplit)()
	shortSqrBaseWords, shortSqrSplit = 40, 24 // the squares' own
	r := rand.New(rand.NewPCG(34, 5))
	type cfg struct{ base, split int }
	var cfgs []cfg
	for _, base := range []int{40, 56, 80, 110} {
		for _, split := range []int{16, 20, 24, 28} {
			cfgs = append(cfgs, cfg{base, split})
		}
	}
	for _, n := range []int{60, 100, 157, 250, 350, 470} {
		for _, sq := range []bool{false, true} {
			x, y := randInt(r, n), randInt(r, n)
			if sq {
				y = x
			}
			sh := uint(n) * 64
			var z big.Int
			fs := []func(){func() { Mul(&z, x, y); z.Rsh(&z, sh) }}
			for _, c := range cfgs {
				fs = append(fs, func() {
					shortBaseWords, shortSplit = c.base, c.split
					MulHigh(&z, x, y, sh)
				})
			}
			med := threadMedians(fs, 7, max(1, 1000000/(n*n)))
			line := fmt.Sprintf("n=%3d sq=%-5v", n, sq)
			best := 0
			for i, c := range cfgs {
				line += fmt.Sprintf(" %d/%d:%.3f", c.base, c.split, med[i+1]/med[0])
				if med[i+1] < med[best+1] {
					best = i
				}
			}
			fmt.Printf("%s best %v\n", line, cfgs[best])
		}
	}
}

// TestCalibrateRecip prints Recip's median thread CPU time for a sweep of
// directRecipBits relative to the shipped value, at precisions whose
// Newton ladders end at different sizes, rotated in every repetition.
// Run with -calibrate; directRecipBits comes from its output.
func TestCalibrateRecip(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	old := directRecipBits
	defer func() { directRecipBits = old }()
	r := rand.New(rand.NewPCG(34, 6))
	ds := []uint{1024, 2048, 3000, 4096, old}
	for _, n := range []uint{3000, 3800, 5000, 7508, 10000, 15000, 30000} {
		x := randBits(r, int(n)+8)
		var fs []func()
		for _, d := range ds {
			fs = append(fs, func() { directRecipBits = d; Recip(x, n) })
		}
		med := threadMedians(fs, 11, 20)
		line := fmt.Sprintf("n=%5d (%.1fus at %d):", n, med[len(ds)-1], old)
		for i, d := range ds[:len(ds)-1] {
			line += fmt.Sprintf(" %d:%.3f", d, med[i]/med[len(ds)-1])
		}
		fmt.Println(line)
	}
}
