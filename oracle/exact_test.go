package oracle

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/loss"
)

func TestExact(t *testing.T) {
	o, err := NewExact([]int{0, 1, 1}, 2, 100)
	if err != nil {
		t.Fatal(err)
	}
	p, err := loss.BinaryFromFloats([]*big.Float{big.NewFloat(0.5), big.NewFloat(0.5), big.NewFloat(0.5)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := o.Score(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	// Every row at ½: the loss is ln 2 whatever the labels.
	want, _ := new(big.Float).SetPrec(100).SetString("0.693147180559945309417232121458176568")
	if got, want := s.Prec(), uint(100); got != want {
		t.Errorf("s.Prec() = %v, want %v", got, want)
	}
	if s.Cmp(want) != 0 {
		t.Errorf("score %v, want ln 2", s)
	}
	if got := o.Queries(); got != 1 {
		t.Errorf("o.Queries() = %v, want %v", got, 1)
	}

	_, err = o.Score(context.Background(), &loss.Rat{K: 2})
	if err == nil {
		t.Error("want an error, got nil")
	}
	if got := o.Queries(); got != 2 {
		t.Errorf("o.Queries() = %v, want %v", got, 2)
	}
}

func TestNewExactErrors(t *testing.T) {
	_, err := NewExact(nil, 2, 53)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = NewExact([]int{0}, 1, 53)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = NewExact([]int{3}, 2, 53)
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = NewExact([]int{0}, 2, 1)
	if err == nil {
		t.Error("want an error, got nil")
	}
}

// TestExactMatchesLoss checks the server's score (products on two
// goroutines, a shared constant cache) against loss.CrossEntropy, bit for
// bit, on random rational predictions with K = 2 and 5, with a zero
// probability on a labelled class (+Inf), at several precisions, and with
// a cache shared between two servers and reused across queries.
func TestExactMatchesLoss(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var cc apa.Consts
	ns, precs := []int{1, 40, 600}, []uint{53, 1000, 8000}
	if testing.Short() {
		ns, precs = []int{1, 40, 150}, []uint{53, 1000, 3000}
	}
	for _, k := range []int{2, 5} {
		for _, n := range ns {
			labels := make([]int, n)
			p := &loss.Rat{K: k, Num: make([][]*big.Int, n), Den: make([]*big.Int, n)}
			for i := range n {
				labels[i] = r.IntN(k)
				d := new(big.Int)
				row := make([]*big.Int, k)
				for c := range row {
					row[c] = new(big.Int).SetUint64(r.Uint64N(1 << 40))
					d.Add(d, row[c])
				}
				p.Num[i], p.Den[i] = row, d
			}
			for _, prec := range precs {
				want, err := loss.CrossEntropy(new(big.Float).SetPrec(prec), labels, p)
				if err != nil {
					t.Fatal(err)
				}
				for _, shared := range []bool{false, true} {
					o, err := NewExact(labels, k, prec)
					if err != nil {
						t.Fatal(err)
					}
					if shared {
						o.UseConsts(&cc)
					}
					got, err := o.Score(context.Background(), p)
					if err != nil {
						t.Fatal(err)
					}
					if got, want := got.Text('p', 0), want.Text('p', 0); got != want {
						t.Fatalf("K=%d N=%d prec=%d shared=%v: got %v, want %v", k, n, prec, shared, got, want)
					}
				}
			}
			// A labelled class with probability 0: +Inf.
			p.Num[0][labels[0]] = new(big.Int)
			p.Den[0].SetInt64(0)
			for _, v := range p.Num[0] {
				p.Den[0].Add(p.Den[0], v)
			}
			if p.Den[0].Sign() == 0 {
				continue
			}
			o, err := NewExact(labels, k, 64)
			if err != nil {
				t.Fatal(err)
			}
			got, err := o.Score(context.Background(), p)
			if err != nil {
				t.Fatal(err)
			}
			if !(got.IsInf() && got.Sign() > 0) {
				t.Errorf("K=%d N=%d: %v, want +Inf", k, n, got)
			}
		}
	}
}
