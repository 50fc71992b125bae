package bigmul

import (
	"time"

	"fmt"
	"github.com/labelinf/labelinf/internal/cputime"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStageAsm checks forward4Stage and inverse4Stage (the assembly on
// amd64: AVX-512 where the CPU has it, and the scalar kernels) against the
// Go stages word for word, on every stage of transforms from 4 to 2^14
// points, with inputs anywhere in their lazy ranges, including the ends.
func TestStageAsm(t *testing.T) {
	have := useAVX512
	defer func() { useAVX512 = have }()
	for _, v := range []bool{false, true} {
		if v && !have {
			t.Log("no AVX-512 here: only the scalar stages checked")
			continue
		}
		useAVX512 = v
		checkStages(t)
	}
}

func checkStages(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for _, q := range primes3 {
		tab := q.table(1 << 14)
		for lg := 2; lg <= 14; lg++ {
			n := 1 << lg
			for s := 0; s+2 <= lg; s++ {
				blocks, qs := 1<<s, n>>(s+2)
				w, wp := tab.w[blocks:2*blocks], tab.wp[blocks:2*blocks]
				w2, wp2 := tab.w[2*blocks:4*blocks], tab.wp[2*blocks:4*blocks]
				iw, iwp := tab.iw[blocks:2*blocks], tab.iwp[blocks:2*blocks]
				iw2, iwp2 := tab.iw[2*blocks:4*blocks], tab.iwp[2*blocks:4*blocks]
				for _, lim := range []uint64{4 * q.p, 2 * q.p} {
					a := make([]uint64, n)
					for j := range a {
						switch r.IntN(8) {
						case 0:
							a[j] = 0
						case 1:
							a[j] = lim - 1
						default:
							a[j] = r.Uint64N(lim)
						}
					}
					got, want := slices.Clone(a), slices.Clone(a)
					if lim == 4*q.p {
						forward4Stage(got, w, wp, w2, wp2, blocks, qs, q.p)
						forward4StageGo(want, w, wp, w2, wp2, blocks, qs, q.p)
					} else {
						inverse4Stage(got, iw, iwp, iw2, iwp2, blocks, qs, q.p)
						inverse4StageGo(want, iw, iwp, iw2, iwp2, blocks, qs, q.p)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("AVX-512 %v, p=%d n=%d s=%d lim=%d: stage differs from the Go stage", useAVX512, q.p, n, s, lim)
					}
				}
			}
		}
	}
}

// BenchmarkStage times a whole forward transform's radix-4 stages by
// forward4Stage and forward4StageGo, and the inverse's likewise.
func BenchmarkStage(b *testing.B) {
	q := primes3[0]
	for _, lg := range []int{10, 14, 16} {
		n := 1 << lg
		tab := q.table(n)
		a := make([]uint64, n)
		for j := range a {
			a[j] = uint64(j) * 7919 % q.p
		}
		run := func(f func(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64), inv bool) func(b *testing.B) {
			return func(b *testing.B) {
				for b.Loop() {
					for s := lg % 2; s+2 <= lg; s += 2 {
						blocks, qs := 1<<s, n>>(s+2)
						if inv {
							f(a, tab.iw[blocks:2*blocks], tab.iwp[blocks:2*blocks], tab.iw[2*blocks:4*blocks], tab.iwp[2*blocks:4*blocks], blocks, qs, q.p)
						} else {
							f(a, tab.w[blocks:2*blocks], tab.wp[blocks:2*blocks], tab.w[2*blocks:4*blocks], tab.wp[2*blocks:4*blocks], blocks, qs, q.p)
						}
					}
				}
			}
		}
		b.Run(fmt.Sprintf("n=%d/dir=fwd/impl=go", n), run(forward4StageGo, false))
		b.Run(fmt.Sprintf("n=%d/dir=fwd/impl=stage", n), run(forward4Stage, false))
		b.Run(fmt.Sprintf("n=%d/dir=inv/impl=go", n), run(inverse4StageGo, true))
		b.Run(fmt.Sprintf("n=%d/dir=inv/impl=stage", n), run(inverse4Stage, true))
	}
}

// pairRatio runs f and g alternately reps times, each call inner times,
// and returns the median of g's CPU time over f's across the pairs: the
// ratio of neighbouring runs, which a loaded machine disturbs less than
// either time.
func pairRatio(f, g func(), reps, inner int) float64 {
	rs := make([]float64, 0, reps)
	for i := range reps {
		var tf, tg time.Duration
		for k := range 2 {
			c0 := cputime.Now()
			for range inner {
				if (i+k)%2 == 0 {
					f()
				} else {
					g()
				}
			}
			if d := cputime.Now() - c0; (i+k)%2 == 0 {
				tf = d
			} else {
				tg = d
			}
		}
		if tf > 0 {
			rs = append(rs, float64(tg)/float64(tf))
		}
	}
	slices.Sort(rs)
	if len(rs) == 0 {
		return 0
	}
	return rs[len(rs)/2]
}

// TestPointwiseAsm checks pointwise and square with AVX-512 (where the CPU
// has it) against the Go loops word for word, inputs anywhere in [0, 4p),
// lengths not multiples of 8 included.
func TestPointwiseAsm(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 here")
	}
	defer func() { useAVX512 = true }()
	r := rand.New(rand.NewPCG(5, 17))
	for _, q := range primes3 {
		for _, n := range []int{1, 7, 8, 9, 64, 1000} {
			a, b := make([]uint64, n), make([]uint64, n)
			for j := range a {
				a[j], b[j] = r.Uint64N(4*q.p), r.Uint64N(4*q.p)
				if j%5 == 0 {
					a[j], b[j] = 4*q.p-1, q.p
				}
			}
			var got, want [2][]uint64
			for k, avx := range []bool{true, false} {
				useAVX512 = avx
				x := slices.Clone(a)
				q.pointwise(x, b)
				got[k] = x
				x = slices.Clone(a)
				q.square(x)
				want[k] = x
			}
			if !slices.Equal(got[0], got[1]) || !slices.Equal(want[0], want[1]) {
				t.Fatalf("p=%d n=%d: AVX-512 pointwise or square differs from Go", q.p, n)
			}
		}
	}
}

// TestSplitAsm checks splitFold and splitJoin with AVX-512 (where the CPU
// has it) against the Go loops word for word, inputs anywhere in their
// ranges ([0, 4p) into the fold, [0, 2p) into the join).
func TestSplitAsm(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 here")
	}
	defer func() { useAVX512 = true }()
	r := rand.New(rand.NewPCG(8, 21))
	for _, q := range primes3 {
		for _, n := range []int{4, 16, 32, 1024} {
			st := q.newSplitTables(n)
			L := n + n/2
			for _, join := range []bool{false, true} {
				lim := 4 * q.p
				if join {
					lim = 2 * q.p
				}
				a := make([]uint64, L)
				for j := range a {
					a[j] = r.Uint64N(lim)
					if j%7 == 0 {
						a[j] = lim - 1
					}
				}
				var out [2][]uint64
				for k, avx := range []bool{true, false} {
					useAVX512 = avx
					x := slices.Clone(a)
					if join {
						q.splitJoin(x, n, st)
					} else {
						q.splitFold(x, n, st)
					}
					out[k] = x
				}
				if !slices.Equal(out[0], out[1]) {
					t.Fatalf("p=%d n=%d join=%v: AVX-512 differs from Go", q.p, n, join)
				}
			}
		}
	}
}
