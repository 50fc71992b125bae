package decode

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/scorer"
)

// TestFloorMulti checks the floors' order (any code ≤ counting block
// code ≤ separated block code), that they lie below what the block code
// spends (its dry run, PlanMulti, at a smaller N), and the
// float64 score's bit count: 52 fraction bits plus log2 of the binades
// between the smallest and the largest term.
func TestFloorMulti(t *testing.T) {
	t.Parallel()
	n := 25000
	if testing.Short() {
		n = 4000
	}
	for _, tc := range []struct {
		model string
		k, n  int // n = 0: N above
	}{{"float64-sklearn", 2, 0}, {"float32-keras", 2, 0}, {"torch-bce", 2, 0}, {"leaderboard", 2, 0}, {"float64-sklearn", 6, 0}, {"leaderboard", 2, 198}} {
		n := n
		if tc.n > 0 {
			n = tc.n
		}
		m, err := scorer.ParseModel(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		opt := MultiOptions{N: n, K: tc.k, Model: m}
		f, err := FloorMulti(context.Background(), opt)
		if err != nil {
			t.Fatalf("%s: %v", tc.model, err)
		}
		b, err := BoundMulti(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		small := MultiOptions{N: 600, K: tc.k, Model: m}
		if tc.k > 2 {
			// Cross's K-ary code is no block code (its units go below
			// the spacing, its dry run decodes every block whole): the
			// block code's dry run is that of its base, the block code
			// with partial decoding.
			small.Strategy = partialBlocks
		}
		fs, err := FloorMulti(context.Background(), small)
		if err != nil {
			t.Fatal(err)
		}
		p, err := PlanMulti(context.Background(), small)
		if err != nil {
			t.Fatal(err)
		}
		if fs.AnyBackground > p.Queries {
			t.Errorf("%s K=%d N=600: background floor %d above the block code's dry run %d", tc.model, tc.k, fs.AnyBackground, p.Queries)
		}
		if fs.BlockSeparated > p.Queries {
			t.Errorf("%s K=%d N=600: separated block floor %d above the block code's dry run %d", tc.model, tc.k, fs.BlockSeparated, p.Queries)
		}
		if f.AnyBackground < f.AnyCode || f.BackgroundBits > f.ScoreBits {
			t.Errorf("%s K=%d: background floor %d (%.2f bits first) below any code %d or above %.2f bits", tc.model, tc.k, f.AnyBackground, f.BackgroundBits, f.AnyCode, f.ScoreBits)
		}
		t.Logf("%s K=%d N=%d: background floor %d [first %.2f bits]", tc.model, tc.k, n, f.AnyBackground, f.BackgroundBits)
		t.Logf("%s K=%d N=%d: %.2f bits/score, any code %d, block (count) %d [first %d], block (separated) %d [first %d], ours ≥ %d",
			tc.model, tc.k, n, f.ScoreBits, f.AnyCode, f.BlockCount, f.FirstCount, f.BlockSeparated, f.FirstSeparated, b.Queries)
		if !(f.AnyCode <= f.BlockCount && f.BlockCount <= f.BlockSeparated) {
			t.Errorf("%s K=%d: floors out of order: any %d, count %d, separated %d",
				tc.model, tc.k, f.AnyCode, f.BlockCount, f.BlockSeparated)
		}
	}
	// float64-sklearn: terms in [−ln(1 − 2^−52), 52·ln 2] ≈ [2.2e−16, 36.04]
	// span binades 2^−53 … 2^5: 59 of them, 52 + log2 59 = 57.88 bits.
	m, _ := scorer.ParseModel("float64-sklearn")
	f, err := FloorMulti(context.Background(), MultiOptions{N: 100, K: 2, Model: m})
	if err != nil {
		t.Fatal(err)
	}
	if f.ScoreBits < 57.8 || f.ScoreBits > 57.9 {
		t.Errorf("float64-sklearn: %.3f bits per score, want 52 + log2 59 ≈ 57.88", f.ScoreBits)
	}
	if _, err := FloorMulti(context.Background(), MultiOptions{N: 100, K: 2, Model: m, Noise: scorer.Noise{Kind: scorer.Bounded, Tau: 1e-9}}); err == nil {
		t.Error("a noisy model got a floor")
	}
}

// For scores rounded to decimals, BlockCount is the variance bound on
// distinct rounding steps (roundedFits; BENCHMARKS.md §23): 16
// labels a query at N = 198 (13 queries), 14 at N = 1,000 (72), 9 at
// N = 25,000 (2,778). The count of reportable scores alone allowed 18,
// 15 and 10 (11, 67 and 2,500 queries).
func TestFloorRounded(t *testing.T) {
	t.Parallel()
	m, err := scorer.ParseModel("leaderboard")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ n, first, count int }{{198, 16, 13}, {1000, 14, 72}, {25000, 9, 2778}}
	if testing.Short() {
		cases = cases[:2] // N = 25,000: 0.06 s
	}
	for _, tt := range cases {
		f, err := FloorMulti(context.Background(), MultiOptions{N: tt.n, K: 2, Model: m})
		if err != nil {
			t.Fatal(err)
		}
		if f.FirstCount != tt.first || f.BlockCount != tt.count {
			t.Errorf("N = %d: any block code %d queries (first block %d), want %d (%d)", tt.n, f.BlockCount, f.FirstCount, tt.count, tt.first)
		}
		if f.BlockCount > f.BlockSeparated {
			t.Errorf("N = %d: any block code %d above the separated floor %d", tt.n, f.BlockCount, f.BlockSeparated)
		}
	}
	// The largest binary block at 5 decimals with the 1e−15 clip: 16
	// labels at N = 198, 9 at N = 25,000; a weight below a cell still
	// decodes one label (the offset puts the two sums on either side of
	// a rounding boundary).
	w := math.Log((1 - 1e-15) / 1e-15)
	for _, tt := range []struct {
		n, k  int
		w, dn float64
	}{{198, 16, w, 1e-5}, {25000, 9, w, 1e-5}, {10, 1, 0.5, 1}} {
		if delta := float64(tt.n) * tt.dn; !roundedFits(tt.k, 2, tt.w, delta) || roundedFits(tt.k+1, 2, tt.w, delta) {
			t.Errorf("N = %d, w = %g: roundedFits does not stop at %d labels", tt.n, tt.w, tt.k)
		}
	}
	// K = 3 at N = 198: 3^k steps; fewer labels than binary.
	if !roundedFits(1, 3, w, 0.00198) || roundedFits(11, 3, w, 0.00198) {
		t.Error("K = 3: roundedFits(1) false or roundedFits(11) true at N = 198")
	}
}

// TestProductMass checks the lemma behind Floor.AnyBackground on every
// labeling of small instances: for rows r_i that are probability vectors,
// at most e^s labelings y have Σ_i −ln r_{i,y_i} ≤ s, since their products
// Π_i r_{i,y_i} ≥ e^(−s) sum to at most Π_i Σ_j r_ij = 1. Rows drawn with
// one dominant class make many sums small, the case the bound is for.
func TestProductMass(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 18))
	trials := 20
	if testing.Short() {
		trials = 6
	}
	for _, tc := range []struct{ n, k int }{{12, 2}, {8, 3}, {6, 6}} {
		for trial := range trials {
			rows := make([][]float64, tc.n)
			for i := range rows {
				rows[i] = make([]float64, tc.k)
				sum := 0.0
				for j := range rows[i] {
					v := rng.Float64()
					if j == trial%tc.k {
						v *= 40 // a dominant class
					}
					rows[i][j] = v
					sum += v
				}
				for j := range rows[i] {
					rows[i][j] /= sum
				}
			}
			logs := make([][]float64, tc.n)
			for i, r := range rows {
				for _, v := range r {
					logs[i] = append(logs[i], math.Log(v))
				}
			}
			var sums []float64
			y := make([]int, tc.n)
			for {
				s := 0.0
				for i, c := range y {
					s -= logs[i][c]
				}
				sums = append(sums, s)
				i := 0
				for i < tc.n && y[i] == tc.k-1 {
					y[i] = 0
					i++
				}
				if i == tc.n {
					break
				}
				y[i]++
			}
			slices.Sort(sums)
			for c, s := range sums {
				// c+1 labelings have a sum ≤ s: the lemma says c+1 ≤ e^s.
				if float64(c+1) > math.Exp(s)*(1+1e-9) {
					t.Fatalf("n=%d K=%d trial %d: %d labelings with sum ≤ %.4f > e^s = %.4f", tc.n, tc.k, trial, c+1, s, math.Exp(s))
				}
			}
		}
	}
}
