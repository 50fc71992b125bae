package decode

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"os"
)

var klDbg = os.Getenv("KLDEBUG") != ""

func init() {
	if v := os.Getenv("KLENDQ"); v != "" {
		fmt.Sscan(v, &klEndQueries)
	}
}

// klBits returns log2 of the labelings left: the list (Σ over entries of
// Π |vals|) times Π |M_i| over unknown non-carried points.
func (st *klState) klBits() (float64, float64, [7]int) {
	a := st.a
	var free float64
	var comp [7]int
	for i := 0; i < a.n; i++ {
		if a.labels[i] >= 0 || st.lb.inD[i] {
			continue
		}
		c := bits.OnesCount64(a.mask[i])
		free += math.Log2(float64(c))
		if c < 7 {
			comp[c]++
		}
	}
	s := 0.0
	for _, e := range st.vals {
		p := 1.0
		for _, v := range e {
			p *= float64(bits.OnesCount64(v))
		}
		s += p
	}
	return free, math.Log2(s), comp
}

var dbgUlp, dbgEst, dbgF float64

func (st *klState) klDebug(q *klQuery, got int, score *big.Rat) {
	if !klDbg {
		return
	}
	free, lst, comp := st.klBits()
	nt := len(q.tIdx)
	var tb float64
	if score != nil {
		f, _ := score.Float64()
		tb = math.Log2(st.a.emu.Spacing(f) * float64(st.a.n) / dbgUlp)
		fmt.Fprintf(os.Stderr, "SUM %d %.1f %.1f %.2f\n", st.a.queries, f*float64(st.a.n), dbgEst, dbgF)
	}
	fmt.Fprintf(os.Stderr, "KLQ %d %.3f %.3f %d %d %d %d %d %d %d %d %d %d %d %.2f\n", st.a.queries, free, lst, q.nd, q.k, nt, len(st.vals), st.a.nUnk, comp[6], comp[3], comp[2], comp[4]+comp[5], got, len(st.lb.cD), tb)
}

