package loss

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestCrossEntropyMatchesFloat64(t *testing.T) {
	// Against the float64 sum of math.Log terms, within a tolerance that
	// covers N float64 roundings (N·2^-52 relative, N = 50).
	r := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{2, 3, 6} {
		n := 50
		p := &Rat{K: k, Num: make([][]*big.Int, n), Den: make([]*big.Int, n)}
		labels := make([]int, n)
		want := 0.0
		for i := range n {
			row := make([]*big.Int, k)
			sum := int64(0)
			for c := range row {
				v := int64(1 + r.IntN(1000))
				row[c] = big.NewInt(v)
				sum += v
			}
			p.Num[i], p.Den[i] = row, big.NewInt(sum)
			labels[i] = r.IntN(k)
			want -= math.Log(float64(row[labels[i]].Int64()) / float64(sum))
		}
		want /= float64(n)
		got, err := CrossEntropy(new(big.Float).SetPrec(200), labels, p)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := got.Float64()
		if r := math.Abs(g-want) / math.Abs(want); !(r <= 1e-13) {
			t.Errorf("K=%d: got %v, want %v (relative error %g)", k, g, want, r)
		}
	}
}

func TestCrossEntropyErrors(t *testing.T) {
	good := &Rat{K: 2, Num: [][]*big.Int{{big.NewInt(1), big.NewInt(2)}}, Den: []*big.Int{big.NewInt(3)}}
	z := new(big.Float).SetPrec(53)
	_, err := CrossEntropy(z, []int{1}, good)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		p      *Rat
		labels []int
	}{
		{"no rows", &Rat{K: 2}, nil},
		{"K=1", &Rat{K: 1, Num: [][]*big.Int{{big.NewInt(1)}}, Den: []*big.Int{big.NewInt(1)}}, []int{0}},
		{"sum not 1", &Rat{K: 2, Num: [][]*big.Int{{big.NewInt(1), big.NewInt(1)}}, Den: []*big.Int{big.NewInt(3)}}, []int{0}},
		{"label out of range", good, []int{2}},
		{"label count", good, []int{0, 1}},
		{"negative", &Rat{K: 2, Num: [][]*big.Int{{big.NewInt(-1), big.NewInt(4)}}, Den: []*big.Int{big.NewInt(3)}}, []int{0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CrossEntropy(z, tt.labels, tt.p)
			if err == nil {
				t.Error("want an error, got nil")
			}
		})
	}
	// Probability 0 on the true class: +Inf.
	zero := &Rat{K: 2, Num: [][]*big.Int{{big.NewInt(0), big.NewInt(3)}}, Den: []*big.Int{big.NewInt(3)}}
	got, err := CrossEntropy(z, []int{0}, zero)
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsInf() {
		t.Error("got.IsInf() is false")
	}
}

func TestBinaryFromFloats(t *testing.T) {
	p, err := BinaryFromFloats([]*big.Float{big.NewFloat(0.25), big.NewFloat(1)})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := new(big.Rat).SetFrac(p.Num[0][1], p.Den[0]).String(); got != "1/4" {
		t.Errorf("got %v, want %v", got, "1/4")
	}
	_, err = BinaryFromFloats([]*big.Float{big.NewFloat(1.5)})
	if err == nil {
		t.Error("want an error, got nil")
	}
}
