package decode

import (
	"context"
	"testing"

	"github.com/labelinf/labelinf/scorer"
)

// TestFloorMulti checks the floors' order (any code ≤ counting block
// code ≤ separated block code), that they lie below what the block code
// spends (its dry run, PlanMulti, at a smaller N), and the
// float64 score's bit count: 52 fraction bits plus log2 of the binades
// between the smallest and the largest term.
func TestFloorMulti(t *testing.T) {
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
			// block code's dry run is Lean's.
			small.Strategy = Lean
		}
		fs, err := FloorMulti(context.Background(), small)
		if err != nil {
			t.Fatal(err)
		}
		p, err := PlanMulti(context.Background(), small)
		if err != nil {
			t.Fatal(err)
		}
		if fs.Spread > p.Queries || f.Spread < f.AnyCode {
			t.Errorf("%s K=%d: spread floor %d (N=600: %d) outside [any code %d, the block code's dry run %d]", tc.model, tc.k, f.Spread, fs.Spread, f.AnyCode, p.Queries)
		}
		if max(fs.BlockSeparated, fs.BlockBracketed) > p.Queries {
			t.Errorf("%s K=%d N=600: separated block floor %d above the block code's dry run %d", tc.model, tc.k, fs.BlockSeparated, p.Queries)
		}
		t.Logf("%s K=%d N=%d: %.2f bits/score, any code %d, known-or-uniform %d [first %.1f bits], block (count) %d [first %d], block (separated) %d [first %d], bracketed %d [first %d], ours ≥ %d",
			tc.model, tc.k, n, f.ScoreBits, f.AnyCode, f.Spread, f.SpreadBits, f.BlockCount, f.FirstCount, f.BlockSeparated, f.FirstSeparated, f.BlockBracketed, f.FirstBracketed, b.Queries)
		if !(f.AnyCode <= f.BlockCount && f.BlockCount <= f.BlockSeparated) || (f.BlockBracketed > 0 && f.BlockBracketed < f.BlockSeparated) {
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
