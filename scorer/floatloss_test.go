package scorer

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/testrand"
)

// exactBinary returns the exact mean loss (to 2^−(prec−8)) of what l
// computes, and the largest exact term: clip in the format as the server
// does, then everything exact.
func exactBinary(t *testing.T, l *FloatLoss, labels []int, p []fpa.Float, prec uint) (*big.Float, *big.Float) {
	t.Helper()
	m, maxT := exactBinaryPrec(l, labels, p, prec)
	if m == nil {
		t.Fatal("m is nil")
	}
	return m, maxT
}

func exactBinaryPrec(l *FloatLoss, labels []int, p []fpa.Float, prec uint) (*big.Float, *big.Float) {
	c, err := l.parse()
	if err != nil {
		return nil, nil
	}
	eps, oneMinus, floor := c.eps, c.oneMinus, c.floor
	sum := new(big.Float).SetPrec(prec)
	maxT := new(big.Float)
	for i := range p {
		pc := fpa.New(l.Format).SetMode(l.Mode).Set(&p[i])
		if eps != nil {
			clip(pc, eps, oneMinus)
		}
		q, err := pc.Big(new(big.Float).SetPrec(prec))
		if err != nil {
			return nil, nil
		}
		if labels[i] == 0 {
			q.Sub(new(big.Float).SetPrec(prec).SetInt64(1), q)
		}
		tt := new(big.Float).SetPrec(prec)
		if _, err := apa.Log(tt, q); err != nil {
			return nil, nil
		}
		if floor != nil {
			fb, _ := floor.Big(nil)
			if tt.Cmp(fb) < 0 {
				tt.Set(fb)
			}
		}
		tt.Neg(tt)
		if tt.Cmp(maxT) > 0 {
			maxT.Set(tt)
		}
		sum.Add(sum, tt)
	}
	return sum.Quo(sum, new(big.Float).SetInt64(int64(len(p)))), maxT
}

func randPreds(r *rand.Rand, f fpa.Format, n int) ([]int, []fpa.Float) {
	labels := make([]int, n)
	p := make([]fpa.Float, n)
	for i := range p {
		labels[i] = r.IntN(2)
		p[i] = *fpa.New(f)
		v := r.Float64()
		switch r.IntN(4) {
		case 0: // confident, often wrong: large terms
			v = r.Float64() * 1e-6
		case 1:
			v = 1 - r.Float64()*1e-6
		}
		p[i].SetFloat64(v)
	}
	return labels, p
}

// TestLossBound: on random predictions and labels, for several formats,
// summation orders and library-like settings, the emulated loss is within
// Bound (a priori) and TermBound (a posteriori) of the exact loss; and the
// bound is not vacuous (the worst observed error uses some of it).
func TestLossBound(t *testing.T) {
	r := testrand.New(t)
	losses := []FloatLoss{
		{Loss: fpa.Loss{Format: fpa.Binary64, Renormalize: true, Sum: fpa.SumOptions{Order: fpa.Pairwise, Chunk: 8192}, LogULPs: 1}, Eps: "2.220446049250313e-16"},
		{Loss: fpa.Loss{Format: fpa.Binary32, Sum: fpa.SumOptions{Order: fpa.Pairwise}}, Eps: "1e-7"},
		{Loss: fpa.Loss{Format: fpa.Binary32, Sum: fpa.SumOptions{Order: fpa.Pairwise}}, LogFloor: "-100"},
		{Loss: fpa.Loss{Format: fpa.Binary64}, Eps: "1e-15"},
		{Loss: fpa.Loss{Format: fpa.Binary16, Sum: fpa.SumOptions{Order: fpa.Recursive}}, Eps: "1e-3"},
		{Loss: fpa.Loss{Format: fpa.BFloat16, Sum: fpa.SumOptions{Order: fpa.Pairwise, Block: 16}}, Eps: "1e-2"},
		{Loss: fpa.Loss{Format: fpa.Binary16, Sum: fpa.SumOptions{Order: fpa.Kahan}}, Eps: "1e-3"},
		{Loss: fpa.Loss{Format: fpa.Format{ExpBits: 6, FracBits: 12}, Mode: fpa.ToZero, Sum: fpa.SumOptions{Order: fpa.Pairwise, Chunk: 100}}, Eps: "1e-4"},
		{Loss: fpa.Loss{Format: fpa.Format{ExpBits: 6, FracBits: 12}, Mode: fpa.ToPositiveInf, Renormalize: true}, Eps: "1e-3"},
	}
	trials, maxN := 6, 700
	if testing.Short() {
		trials, maxN = 3, 300
	}
	for _, l := range losses {
		t.Run(l.Format.String()+"/"+l.Sum.Order.String(), func(t *testing.T) {
			worst := 0.0
			for trial := range trials {
				n := 1 + r.IntN(maxN)
				if trial == 0 {
					n = maxN
				}
				labels, p := randPreds(r, l.Format, n)
				got, terms, err := l.Binary(nil, labels, p)
				if err != nil {
					t.Fatal(err)
				}
				exact, maxT := exactBinary(t, &l, labels, p, l.Format.Prec()+80)
				gb, err := got.Big(nil)
				if err != nil {
					t.Fatal(err)
				}
				diff := new(big.Float).SetPrec(exact.Prec()).Sub(gb, exact)
				diff.Abs(diff)
				prior, err := l.Bound(n, maxT)
				if err != nil {
					t.Fatal(err)
				}
				post, err := l.TermBound(terms)
				if err != nil {
					t.Fatal(err)
				}
				if !(diff.Cmp(prior) <= 0) {
					t.Errorf("n=%d: |error| %v above Bound %v", n, diff, prior)
				}
				if !(diff.Cmp(post) <= 0) {
					t.Errorf("n=%d: |error| %v above TermBound %v", n, diff, post)
				}
				ratio, _ := new(big.Float).Quo(diff, post).Float64()
				worst = max(worst, ratio)
			}
			if !(worst > 1e-4) {
				t.Errorf("the bound is vacuous: worst error/bound %.2g", worst)
			}
		})
	}
}

func TestLossErrors(t *testing.T) {
	p := make([]fpa.Float, 2)
	p[0].SetFloat64(0.5)
	p[1].SetFloat64(0.25)
	tests := []struct {
		name   string
		l      FloatLoss
		labels []int
	}{
		{"no format", FloatLoss{}, []int{0, 1}},
		{"bad eps", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64}, Eps: "0.7"}, []int{0, 1}},
		{"eps syntax", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64}, Eps: "abc"}, []int{0, 1}},
		{"floor positive", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64}, LogFloor: "3"}, []int{0, 1}},
		{"label 2", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64}}, []int{0, 2}},
		{"length", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64}}, []int{0}},
		{"eps below resolution", FloatLoss{Loss: fpa.Loss{Format: fpa.BFloat16}, Eps: "1e-3"}, []int{0, 1}},
		{"block", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64, Sum: fpa.SumOptions{Order: fpa.Pairwise, Block: 12}}}, []int{0, 1}},
	}
	for _, tt := range tests {
		_, _, err := tt.l.Binary(nil, tt.labels, p)
		if err == nil {
			t.Errorf("%v: no error", tt.name)
		}
	}
	// A probability of 0 without clipping: an infinite term is an error.
	p[1].SetFloat64(0)
	_, _, err := (&FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64}}).Binary(nil, []int{0, 1}, p)
	if err == nil {
		t.Error("want an error, got nil")
	}
	// With clipping it is fine.
	_, _, err = (&FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64}, Eps: "1e-15"}).Binary(nil, []int{0, 1}, p)
	if err != nil {
		t.Error(err)
	}
}

// BenchmarkLossBoundTightness reports how much of the rigorous bound the
// observed error uses: the largest |emulated − exact| / TermBound over
// random predictions (N = 1,000), for library-like settings.
//
//	go test ./scorer -run '^$' -bench LossBoundTightness -benchtime 1x
func BenchmarkLossBoundTightness(b *testing.B) {
	cases := []struct {
		name string
		l    FloatLoss
	}{
		{"sklearn64", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary64, Renormalize: true, Sum: fpa.SumOptions{Order: fpa.Pairwise, Chunk: 8192}}, Eps: "2.220446049250313e-16"}},
		{"keras32", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary32, Sum: fpa.SumOptions{Order: fpa.Pairwise}}, Eps: "1e-7"}},
		{"recursive32", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary32}, Eps: "1e-7"}},
		{"kahan32", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary32, Sum: fpa.SumOptions{Order: fpa.Kahan}}, Eps: "1e-7"}},
		{"half", FloatLoss{Loss: fpa.Loss{Format: fpa.Binary16}, Eps: "1e-3"}},
	}
	for _, c := range cases {
		b.Run("loss="+c.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(7, 7))
			worst, priorRatio := 0.0, 0.0
			for b.Loop() {
				for range 10 {
					labels, p := randPreds(r, c.l.Format, 1000)
					got, terms, err := c.l.Binary(nil, labels, p)
					if err != nil {
						b.Fatal(err)
					}
					exact, maxT := exactBinaryPrec(&c.l, labels, p, c.l.Format.Prec()+80)
					gb, _ := got.Big(nil)
					diff := new(big.Float).SetPrec(exact.Prec()).Sub(gb, exact)
					diff.Abs(diff)
					post, _ := c.l.TermBound(terms)
					prior, _ := c.l.Bound(1000, maxT)
					ratio, _ := new(big.Float).Quo(diff, post).Float64()
					worst = max(worst, ratio)
					pr, _ := new(big.Float).Quo(post, prior).Float64()
					priorRatio = max(priorRatio, pr)
				}
			}
			b.ReportMetric(worst, "err/termbound")
			b.ReportMetric(priorRatio, "termbound/bound")
		})
	}
}
