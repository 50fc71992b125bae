package single

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
)

// FuzzSingleQuery: random labels → exact score → decode must give the
// labels back at the planned precision; and decoding an arbitrary score
// must return labels that the oracle confirms, or an error, never a panic.
func FuzzSingleQuery(f *testing.F) {
	f.Add(uint64(1), uint8(10), uint8(2), 0.5)
	f.Add(uint64(2), uint8(1), uint8(5), 3.25)
	f.Add(uint64(3), uint8(200), uint8(3), 1e-9)
	f.Fuzz(func(t *testing.T, seed uint64, n8, k8 uint8, junk float64) {
		n, k := int(n8)%120+1, int(k8)%6+2
		r := rand.New(rand.NewPCG(seed, 0))
		labels := make([]int, n)
		for i := range labels {
			labels[i] = r.IntN(k)
		}
		q, err := NewQuery(n, k)
		if err != nil {
			t.Fatal(err)
		}
		o, err := oracle.NewExact(labels, k, q.Prec())
		if err != nil {
			t.Fatal(err)
		}
		score, err := o.Score(context.Background(), q.Prediction())
		if err != nil {
			t.Fatal(err)
		}
		res, err := q.Decode(score, Options{})
		if err != nil {
			t.Fatalf("N=%d K=%d: %v", n, k, err)
		}
		for i := range labels {
			if res.Labels[i] != labels[i] {
				t.Fatalf("N=%d K=%d: label %d = %d, want %d", n, k, i, res.Labels[i], labels[i])
			}
		}
		// An arbitrary score: an error, or labels whose exact score is it.
		js := new(big.Float).SetPrec(q.Prec()).SetFloat64(junk)
		res, err = q.Decode(js, Options{})
		if err == nil {
			o2, _ := oracle.NewExact(res.Labels, k, q.Prec())
			s2, _ := o2.Score(context.Background(), q.Prediction())
			if s2.Cmp(js) != 0 {
				t.Fatalf("decoded labels score %v, not the given %v", s2, js)
			}
		} else if !errors.Is(err, decode.ErrInconsistent) {
			t.Fatalf("unexpected error kind: %v", err)
		}
	})
}
