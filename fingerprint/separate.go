package fingerprint

// This file designs the queries that separate the fitting hypotheses:
// predictions under which some of them predict disjoint scores.

import (
	"math"
	"math/rand/v2"

	"github.com/labelinf/labelinf/fpa"
)

// separating returns a prediction of the special rows (labels known) under
// which some fitting hypotheses predict disjoint scores, trying a few
// designs whose terms spread over several binades; false if none does.
func separating(hyp []*hyp0, n, k, off int, labels []int, round int) ([]float64, bool) {
	var mask uint16
	for i, y := range labels {
		if y == 1 {
			mask |= 1 << i
		}
	}
	// Designs: the labels' terms log-uniform in [10^−3, 35], from a
	// generator seeded by the round, so that a rerun sends the same probes.
	rng := rand.New(rand.NewPCG(uint64(round)+1, 0x9e3779b97f4a7c15))
	designs := make([][]float64, 48)
	for j := range designs {
		d := make([]float64, nSpecial)
		for i := range d {
			lo, hi := 1e-3, 35.0
			if j%2 == 1 {
				// small terms: their log's ulp is far below the sum's
				lo, hi = 1e-4, 0.05
			}
			d[i] = math.Exp(math.Log(lo) + rng.Float64()*(math.Log(hi)-math.Log(lo)))
		}
		designs[j] = d
	}
	bestScore, var0 := 0, []float64(nil)
	for j := range designs {
		d := designs[j]
		p := make([]float64, nSpecial)
		for i, t := range d {
			// the label's term is about t: p = e^−t for class 1, 1 − e^−t
			// for class 0 (for K > 2, a label other than 1: the other
			// classes' share (1−p)/(K−1) is e^−t, which needs t > ln(K−1))
			switch labels[i] {
			case -1:
				p[i] = neutralP(k) // label unknown: the same term either way
				if k > 2 {
					p[i] = scaledNeutral
				}
			case 1:
				p[i] = math.Exp(-t)
			default:
				if k > 2 {
					t = max(t, math.Log(float64(k-1))+0.05)
					p[i] = 1 - float64(k-1)*math.Exp(-t)
					break
				}
				p[i] = -math.Expm1(-t)
				if p[i] == 1 {
					p[i] = 1 - 0x1p-53
				}
			}
		}
		var all [][2]float64
		// Owners are candidates, not (candidate, decimals) pairs: no probe
		// is spent on decimals alone, since the coarsest fitting decimals'
		// error budget covers the finer ones (the model returned uses it).
		var owner []int
		pairs := 0
		for _, h := range hyp {
			brs, ok := h.brackets(n, off, p, mask)
			if !ok {
				continue
			}
			for dec, alive := range h.alive {
				for c, b := range brs {
					if !aliveWith(alive, labels, c) {
						continue // that neutral term was ruled out
					}
					if dec >= 0 {
						lo, _ := fpa.RoundDecimal(fpa.New(fpa.Binary64).SetFloat64(b[0]), dec)
						hh, _ := fpa.RoundDecimal(fpa.New(fpa.Binary64).SetFloat64(b[1]), dec)
						x, _ := lo.Float64()
						y, _ := hh.Float64()
						b = [2]float64{x, y}
					}
					all = append(all, b)
					owner = append(owner, pairs)
				}
			}
			pairs++
		}
		// Count pairs of hypotheses whose brackets are all disjoint.
		score := 0
		for a := range pairs {
			for b := a + 1; b < pairs; b++ {
				if disjoint(all, owner, a, b) {
					score++
				}
			}
		}
		if score > bestScore {
			bestScore, var0 = score, p
		}
	}
	return var0, bestScore > 0
}

// aliveWith reports whether some key of alive has neutral choice c and
// the known labels (−1: any).
func aliveWith(alive uint32, labels []int, c int) bool {
	for m := range 1 << nSpecial {
		ok := true
		for i, y := range labels {
			if y >= 0 && m>>i&1 != y {
				ok = false
			}
		}
		if ok && alive&(1<<(m+c<<nSpecial)) != 0 {
			return true
		}
	}
	return false
}

func disjoint(all [][2]float64, owner []int, a, b int) bool {
	na, nb := 0, 0
	for _, o := range owner {
		if o == a {
			na++
		} else if o == b {
			nb++
		}
	}
	if na == 0 || nb == 0 {
		return false
	}
	for i, x := range all {
		if owner[i] != a {
			continue
		}
		for j, y := range all {
			if owner[j] != b {
				continue
			}
			if x[0] <= y[1] && y[0] <= x[1] {
				return false
			}
		}
	}
	return true
}
