package apa

import (
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// TestLogSumExp compares LogSumExp with the direct ln(Σ e^(x_k)) computed
// at 64 more bits (no term dropped), on random vectors at several
// precisions: the error must stay below the documented
// 2^(−p)·max(1, |result|).
func TestLogSumExp(t *testing.T) {
	r := testrand.New(t)
	for _, prec := range []uint{53, 100, 300} {
		for trial := range 20 {
			k := 1 + r.IntN(6)
			x := make([]*big.Float, k)
			for i := range x {
				x[i] = new(big.Float).SetFloat64((r.Float64() - 0.5) * 80)
			}
			if trial == 0 {
				// One far above the rest: the others drop out.
				x[0] = new(big.Float).SetFloat64(1e6)
			}
			got, err := LogSumExp(new(big.Float).SetPrec(prec), x)
			if err != nil {
				t.Fatal(err)
			}
			wp := prec + 64
			s := new(big.Float).SetPrec(wp)
			for _, v := range x {
				e, err := Exp(new(big.Float).SetPrec(wp), v)
				if err != nil {
					t.Fatal(err)
				}
				s.Add(s, e)
			}
			want, err := Log(new(big.Float).SetPrec(wp), s)
			if err != nil {
				t.Fatal(err)
			}
			diff := new(big.Float).SetPrec(wp).Sub(got, want)
			diff.Abs(diff)
			tol := new(big.Float).SetPrec(wp).Abs(want)
			if tol.Cmp(big.NewFloat(1)) < 0 {
				tol.SetInt64(1)
			}
			tol.SetMantExp(tol, -int(prec))
			if !(diff.Cmp(tol) <= 0) {
				t.Errorf("prec %d, x = %v: LogSumExp = %s; want %s within %s", prec, x, got.Text('g', 20), want.Text('g', 20), tol.Text('g', 3))
			}
		}
	}
	if _, err := LogSumExp(new(big.Float), nil); err == nil {
		t.Error("LogSumExp of nothing accepted")
	}
	if _, err := LogSumExp(new(big.Float), []*big.Float{new(big.Float).SetInf(false)}); err == nil {
		t.Error("LogSumExp of +Inf accepted")
	}
	if _, err := LogSumExp(new(big.Float), []*big.Float{big.NewFloat(1), nil}); err == nil {
		t.Error("LogSumExp of a nil value accepted")
	}
}
