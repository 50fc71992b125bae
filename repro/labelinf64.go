// This file implements Algorithm LABELINF [EA, Appendix A] run in
// binary64, as the EA paper's experiments ran it: the attacker submits
// the prediction of [EA, Theorem 3] (or [EA, Theorem 14], or their
// softmax and sigmoid forms) as float64 numbers, the server computes the
// loss in float64 and adds noise, and the attacker returns the labeling
// whose float64 loss is nearest to the score.

package repro

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// construction is a prediction of the EA paper together with the formula
// the server evaluates on it; each gives a table of per-row, per-class
// float64 terms.
type construction int

const (
	// thm3CE: the K-ary cross-entropy −ln θ_{n,σ_n} on the probabilities
	// θ_{n,k} = ϑ_{n,k}/Σ_j ϑ_{n,j}, ϑ_{n,k} = 3^(2^((n−1)K+k)·N·τ)
	// [EA, Theorem 3], each submitted as a float64 (computed in log space,
	// the nearest float64 the attacker can form).
	thm3CE construction = iota
	// icmlCE: Titanic** of [EA, Figure 1]: one probability per row,
	// θ_n = 3^(2^n·N·τ)/(1 + 3^(2^n·N·τ)) [EA, Theorem 14; AKXFT21,
	// Algorithm 2], and the binary cross-entropy −ln θ_n (label 1) or
	// −ln(1 − θ_n) (label 0), 1 − θ_n computed by the server in float64.
	icmlCE
	// softmaxNaive: logits z_{n,k} = ln ϑ_{n,k} (SOFTMAX(z) = Theorem 3's
	// θ [EA, §2.1]) and the textbook −ln(exp(z_k)/Σ_j exp(z_j)), which is
	// Inf/Inf = NaN once a logit passes 709.78: "wherever computable".
	softmaxNaive
	// softmaxStable: the same logits and the log-softmax of deep-learning
	// libraries, (m − z_k) + ln Σ_j exp(z_j − m), m = max_j z_j.
	softmaxStable
	// sigmoidNaive: K = 2, logit x_n = ln(θ_{n,1}/θ_{n,2}) =
	// −2^(2n−1)·N·τ·ln 3 [EA, (4)]; label 1 scores −ln s, label 0
	// −ln(1 − s), s = 1/(1 + exp(−x)), as (4) is written.
	sigmoidNaive
	// sigmoidStable: the same logits and TensorFlow's
	// sigmoid_cross_entropy_with_logits, max(x, 0) − x·y + ln(1 + e^−|x|).
	sigmoidStable
)

var constructionNames = [...]string{
	"cross-entropy, Thm 3", "cross-entropy, ICML Alg 2",
	"softmax CE, textbook formula", "softmax CE, log-softmax",
	"sigmoid CE, textbook formula (4)", "sigmoid CE, stable (TensorFlow)"}

func (c construction) String() string { return constructionNames[c] }

// binary reports whether c is defined for two classes only.
func (c construction) binary() bool {
	return c == icmlCE || c == sigmoidNaive || c == sigmoidStable
}

// terms returns t[n][k], the float64 term the server adds for row n with
// label k, for n rows, k classes and noise bound τ. A term may be +Inf
// (a probability that rounded to 0) or NaN (not computable).
func (c construction) terms(n, k int, tau float64) [][]float64 {
	ln3 := math.Log(3)
	t := make([][]float64, n)
	for i := range n {
		t[i] = make([]float64, k)
		// z[j] = ln ϑ_{i+1, j+1} = 2^(iK+j+1)·N·τ·ln 3 (Theorem 3's exponent).
		z := make([]float64, k)
		for j := range k {
			z[j] = math.Ldexp(float64(n)*tau, i*k+j+1) * ln3
		}
		switch c {
		case thm3CE:
			m := z[k-1] // the largest
			var s float64
			for j := range k {
				s += math.Exp(z[j] - m)
			}
			lse := m + math.Log(s)
			for j := range k {
				theta := math.Exp(z[j] - lse) // the submitted probability
				t[i][j] = -math.Log(theta)
			}
		case icmlCE:
			// θ_n = 1/(1 + 3^(−2^n·N·τ)), n counted from 1.
			e := math.Ldexp(float64(n)*tau, i+1) * ln3
			theta := 1 / (1 + math.Exp(-e))
			t[i][1] = -math.Log(theta)
			t[i][0] = -math.Log(1 - theta)
		case softmaxNaive:
			var s float64
			for j := range k {
				s += math.Exp(z[j])
			}
			for j := range k {
				t[i][j] = -math.Log(math.Exp(z[j]) / s)
			}
		case softmaxStable:
			m := z[k-1]
			var s float64
			for j := range k {
				s += math.Exp(z[j] - m)
			}
			for j := range k {
				t[i][j] = (m - z[j]) + math.Log(s)
			}
		case sigmoidNaive, sigmoidStable:
			x := z[0] - z[1] // ln(θ_{n,1}/θ_{n,2}) < 0
			if c == sigmoidNaive {
				s := 1 / (1 + math.Exp(-x))
				t[i][1] = -math.Log(s)
				t[i][0] = -math.Log(1 - s)
			} else {
				for y := range 2 {
					t[i][y] = max(x, 0) - x*float64(y) + math.Log1p(math.Exp(-math.Abs(x)))
				}
			}
		default:
			panic(fmt.Sprintf("repro: construction %d", c))
		}
	}
	return t
}

// maxLabelings caps the K^N labelings LABELINF enumerates per table:
// 2^18 keeps a table to 3 MB and the three EA items to a few seconds of
// CPU in all (so CI runs them whole), and is above every float64 limit
// of cross-entropy measured (Titanic N = 14 of 18, Iris 6 of 11,
// Satellite 3 of 6); only the stable softmax and sigmoid reach it.
const maxLabelings = 1 << 18

// fitN returns the largest N with K^N ≤ maxLabelings.
func fitN(k int) int {
	n, p := 0, 1
	for p*k <= maxLabelings {
		n, p = n+1, p*k
	}
	return n
}

// labelInf is LABELINF's lookup table for one prediction: the float64
// loss of every labeling, sorted.
type labelInf struct {
	n, k   int
	terms  [][]float64
	vals   []float64 // sorted float64 losses (NaN left out)
	idx    []int32   // the labeling of vals[i] (index Σ σ_n·K^n)
	runMin []int32   // the least labeling index among the values equal to vals[i]
}

// newLabelInf enumerates the K^N labelings' float64 losses, summed in row
// order and divided by N exactly as the server does, and sorts them.
func newLabelInf(terms [][]float64, k int) *labelInf {
	n := len(terms)
	total := 1
	for range n {
		total *= k
	}
	li := &labelInf{n: n, k: k, terms: terms}
	vals := make([]float64, total)
	// Depth-first over rows 0..N−1 keeps the server's summation order:
	// ((t_0 + t_1) + t_2) + ….
	var walk func(row, index, stride int, sum float64)
	walk = func(row, index, stride int, sum float64) {
		if row == n {
			vals[index] = sum / float64(n)
			return
		}
		for c := range k {
			s := terms[row][c]
			if row > 0 {
				s = sum + terms[row][c]
			}
			walk(row+1, index+c*stride, stride*k, s)
		}
	}
	walk(0, 0, 1, 0)
	order := make([]int32, 0, total)
	for i, v := range vals {
		if !math.IsNaN(v) {
			order = append(order, int32(i))
		}
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := compareF(vals[a], vals[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	li.idx = order
	li.vals = make([]float64, len(order))
	li.runMin = make([]int32, len(order))
	for i, j := range order {
		li.vals[i] = vals[j]
		li.runMin[i] = j
		if i > 0 && li.vals[i] == li.vals[i-1] {
			li.runMin[i] = li.runMin[i-1]
		}
	}
	return li
}

func compareF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// score is the server: the float64 loss of labeling y plus the noise u.
func (li *labelInf) score(y []int, u float64) float64 {
	var s float64
	for i, c := range y {
		if i == 0 {
			s = li.terms[0][c]
		} else {
			s += li.terms[i][c]
		}
	}
	return s/float64(li.n) + u
}

// decode is LABELINF's step 3: the labeling whose loss is nearest to
// score, the least labeling index among equal losses, the lower loss
// between two equally near; ok is false when score is NaN or no labeling's
// loss is a number.
func (li *labelInf) decode(dst []int, score float64) ([]int, bool) {
	if math.IsNaN(score) || len(li.vals) == 0 {
		return dst, false
	}
	i, _ := slices.BinarySearch(li.vals, score)
	best := -1
	switch {
	case i < len(li.vals) && li.vals[i] == score:
		best = i
	case i == 0:
		best = 0
	case i == len(li.vals):
		best = i - 1
	default:
		best = i
		if score-li.vals[i-1] <= li.vals[i]-score {
			best = i - 1
		}
	}
	// Equal values are sorted by labeling index, and runMin carries the
	// first (least) index of the run along it.
	code := int(li.runMin[best])
	dst = dst[:0]
	for range li.n {
		dst = append(dst, code%li.k)
		code /= li.k
	}
	return dst, true
}

// trialStats is what a set of trials at one N gave.
type trialStats struct {
	trials, all, half int     // trials, trials at 100%, trials at ≥ 50%
	meanAcc           float64 // mean accuracy
}

// runTrials runs LABELINF on trials random label vectors of length n
// drawn (rows without replacement) from labels, with noise uniform in
// (−τ, τ) added to the float64 loss.
func runTrials(c construction, labels []int, k, n int, tau float64, trials int, rng *rand.Rand) trialStats {
	li := newLabelInf(c.terms(n, k, tau), k)
	y := make([]int, n)
	var got []int
	st := trialStats{trials: trials}
	for range trials {
		for i, r := range sampleRows(rng, len(labels), n) {
			y[i] = labels[r]
		}
		u := (2*rng.Float64() - 1) * tau
		var ok bool
		got, ok = li.decode(got, li.score(y, u))
		acc := 0.0
		if ok {
			acc = accuracy(got, y)
		}
		if acc == 1 {
			st.all++
		}
		if acc >= 0.5 {
			st.half++
		}
		st.meanAcc += acc / float64(trials)
	}
	return st
}

// sampleRows returns n distinct row indices in [0, rows) (partial
// Fisher–Yates on a sparse map, so the cost is O(n)).
func sampleRows(rng *rand.Rand, rows, n int) []int {
	swap := map[int]int{}
	at := func(i int) int {
		if v, ok := swap[i]; ok {
			return v
		}
		return i
	}
	out := make([]int, n)
	for i := range n {
		j := i + rng.IntN(rows-i)
		out[i] = at(j)
		swap[j] = at(i)
	}
	return out
}

// largestN scans N = 1, 2, … up to fitN(k) and returns the largest N up
// to which every trial (all N' ≤ N) recovers all labels, and the same for
// at least half of them; the scan stops after two consecutive N at which
// some trial falls below 50%. capped reports that the scan reached
// fitN(k) still succeeding at 50%; past holds the trials at N = half+1
// (zero when capped).
func largestN(c construction, labels []int, k int, tau float64, trials int, seed uint64) (all, half int, capped bool, past trialStats) {
	rng := rand.New(rand.NewPCG(seed, math.Float64bits(tau)))
	allOK, halfOK := true, true
	fails := 0
	top := fitN(k)
	for n := 1; n <= top; n++ {
		st := runTrials(c, labels, k, n, tau, trials, rng)
		if allOK && st.all == trials {
			all = n
		} else {
			allOK = false
		}
		if halfOK && st.half == trials {
			half = n
		} else if halfOK {
			halfOK, past = false, st
		}
		if st.half < trials {
			fails++
			if fails == 2 {
				return all, half, false, past
			}
		} else {
			fails = 0
		}
	}
	return all, half, halfOK, past
}

// blockAccuracy runs LABELINF on the labels M at a time, in order, one
// query of M points (the last one shorter) with noise uniform in (−τ, τ)
// each, as [EA, Appendix J] describes its multi-query runs, and returns
// the accuracy over all labels.
func blockAccuracy(c construction, labels []int, k, m int, tau float64, seed uint64) float64 {
	rng := rand.New(rand.NewPCG(seed, uint64(m)))
	full := newLabelInf(c.terms(m, k, tau), k)
	var last *labelInf
	if r := len(labels) % m; r > 0 {
		last = newLabelInf(c.terms(r, k, tau), k)
	}
	correct := 0
	var got []int
	for lo := 0; lo < len(labels); lo += m {
		hi := min(lo+m, len(labels))
		li := full
		if hi-lo < m {
			li = last
		}
		y := labels[lo:hi]
		var ok bool
		got, ok = li.decode(got, li.score(y, (2*rng.Float64()-1)*tau))
		if !ok {
			continue
		}
		for i := range y {
			if got[i] == y[i] {
				correct++
			}
		}
	}
	return float64(correct) / float64(len(labels))
}
