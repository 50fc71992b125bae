package single

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
)

func TestSingleQueryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct{ n, k int }{{1, 2}, {2, 2}, {10, 2}, {300, 2}, {2000, 2}, {50, 3}, {400, 6}, {7, 10}} {
		q, err := NewQuery(tt.n, tt.k)
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 3; trial++ {
			labels := testrand.Labels(r, tt.n, tt.k)
			o, err := oracle.NewExact(labels, tt.k, q.Prec())
			if err != nil {
				t.Fatal(err)
			}
			res, err := Attack(context.Background(), o, Options{})
			if err != nil {
				t.Fatalf("N=%d K=%d: %v", tt.n, tt.k, err)
			}
			if !slices.Equal(res.Labels, labels) {
				t.Errorf("N=%d K=%d: res.Labels = %v, want %v", tt.n, tt.k, res.Labels, labels)
			}
			if !res.Verified {
				t.Error("res.Verified is false")
			}
			if o.Queries() != 1 {
				t.Errorf("o.Queries() = %v, want %v", o.Queries(), 1)
			}
		}
	}
}

// TestPlannedPrecisionIsTight checks the planner against the worst case it
// must cover, X = X_max (every label K−1): at the planned precision every
// labeling decodes, and a few bits below it a measurable fraction fails.
// The planner is a bound, so random labelings (X far below X_max) still
// decode below it; only near-worst-case labelings show the edge.
func TestPlannedPrecisionIsTight(t *testing.T) {
	bases := []int{40, 200, 1000}
	if testing.Short() {
		bases = bases[:2]
	}
	for _, base := range bases {
		for _, k := range []int{2, 3} {
			const trials = 12
			const below = 5
			fails := 0
			for n := base; n < base+trials; n++ {
				q, err := NewQuery(n, k)
				if err != nil {
					t.Fatal(err)
				}
				labels := make([]int, n)
				for i := range labels {
					labels[i] = k - 1
				}
				o, err := oracle.NewExact(labels, k, q.Prec())
				if err != nil {
					t.Fatal(err)
				}
				res, err := Attack(context.Background(), o, Options{})
				if err != nil {
					t.Fatalf("N=%d K=%d at planned P=%d: %v", n, k, q.Prec(), err)
				}
				if !slices.Equal(res.Labels, labels) {
					t.Errorf("res.Labels = %v, want %v", res.Labels, labels)
				}

				low, err := oracle.NewExact(labels, k, q.Prec()-below)
				if err != nil {
					t.Fatal(err)
				}
				_, err = Attack(context.Background(), low, Options{})
				var pe *PrecisionError
				if !errors.As(err, &pe) {
					t.Error("below plan must be refused by default: errors.As(err, &pe) is false")
				}
				res, err = Attack(context.Background(), low, Options{AllowLowPrecision: true})
				if err != nil || !slices.Equal(res.Labels, labels) {
					fails++
				}
			}
			t.Logf("N≈%d K=%d: %d/%d worst-case labelings fail %d bits below the plan", base, k, fails, trials, below)
			if fails < trials/3 {
				t.Errorf("N≈%d K=%d: %d bits below the plan should fail often: fails = %v, want >= trials/3 = %v", base, k, below, fails, trials/3)
			}
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	q, err := NewQuery(100, 2)
	if err != nil {
		t.Fatal(err)
	}
	labels := testrand.Labels(rand.New(rand.NewPCG(3, 4)), 100, 2)
	o, err := oracle.NewExact(labels, 2, q.Prec())
	if err != nil {
		t.Fatal(err)
	}
	score, err := o.Score(context.Background(), q.Prediction())
	if err != nil {
		t.Fatal(err)
	}

	// One ulp off: no labeling rounds to it.
	off := new(big.Float).SetPrec(q.Prec()).Set(score)
	ulp := new(big.Float).SetMantExp(big.NewFloat(1), score.MantExp(nil)-int(q.Prec()))
	off.Add(off, ulp)
	_, err = q.Decode(off, Options{})
	if !errors.Is(err, decode.ErrInconsistent) {
		t.Errorf("err = %v, want %v", err, decode.ErrInconsistent)
	}

	// A score no labeling explains.
	_, err = q.Decode(new(big.Float).SetPrec(q.Prec()).SetFloat64(0.123456789), Options{})
	if !errors.Is(err, decode.ErrInconsistent) {
		t.Errorf("err = %v, want %v", err, decode.ErrInconsistent)
	}
	for _, bad := range []*big.Float{nil, big.NewFloat(0), big.NewFloat(-1), new(big.Float).SetInf(false)} {
		_, err = q.Decode(bad, Options{})
		if !errors.Is(err, decode.ErrInconsistent) {
			t.Errorf("err = %v, want %v", err, decode.ErrInconsistent)
		}
	}
	// Too few bits.
	_, err = q.Decode(new(big.Float).SetPrec(53).Set(score), Options{})
	var pe *PrecisionError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want a %T", err, err, pe)
	}
	if pe.Need != q.Prec() {
		t.Errorf("pe.Need = %v, want %v", pe.Need, q.Prec())
	}

	_, err = NewQuery(0, 2)
	if err == nil {
		t.Error("err is nil, want an error")
	}
	_, err = NewQuery(10, 1)
	if err == nil {
		t.Error("err is nil, want an error")
	}
}

// TestPrimePrediction checks the slab-allocated prediction against the
// construction written out with one big.Int per entry: Num[i][c] = p_i^c,
// Den[i] = Σ_c p_i^c, for powers below 2^64 (word slab) and above (K = 8
// on primes past 600).
func TestPrimePrediction(t *testing.T) {
	for _, tt := range []struct{ n, k int }{{1, 2}, {50, 2}, {30, 3}, {200, 8}} {
		q, err := NewQuery(tt.n, tt.k)
		if err != nil {
			t.Fatal(err)
		}
		p := q.Prediction()
		if err := p.Validate(); err != nil {
			t.Fatalf("%v", err)
		}
		if p.N() != tt.n {
			t.Fatalf("p.N() = %v, want %v", p.N(), tt.n)
		}
		for i, pr := range q.Primes {
			pb := new(big.Int).SetUint64(pr)
			den := new(big.Int)
			for c := range tt.k {
				want := new(big.Int).Exp(pb, big.NewInt(int64(c)), nil)
				if p.Num[i][c].Cmp(want) != 0 {
					t.Fatalf("N=%d K=%d row %d class %d: p.Num[i][c].Cmp(want) = %v, want %v", tt.n, tt.k, i, c, p.Num[i][c].Cmp(want), 0)
				}
				den.Add(den, want)
			}
			if p.Den[i].Cmp(den) != 0 {
				t.Fatalf("N=%d K=%d row %d: p.Den[i].Cmp(den) = %v, want %v", tt.n, tt.k, i, p.Den[i].Cmp(den), 0)
			}
		}
		// The plan's D is the product of the denominators.
		d := big.NewInt(1)
		for _, v := range p.Den {
			d.Mul(d, v)
		}
		if q.den.Cmp(d) != 0 {
			t.Fatalf("q.den.Cmp(d) = %v, want %v", q.den.Cmp(d), 0)
		}
	}
}
