package scorer

import (
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/testrand"
)

// faithfulLog returns log x rounded down and up in binary64 (fpa's
// correctly rounded Log): a faithful log returns one of them.
func faithfulLog(x float64) (lo, hi float64) {
	arg := fpa.New(fpa.Binary64).SetFloat64(x)
	lo, _ = fpa.New(fpa.Binary64).SetMode(big.ToNegativeInf).Log(arg).Float64()
	hi, _ = fpa.New(fpa.Binary64).SetMode(big.ToPositiveInf).Log(arg).Float64()
	return lo, hi
}

// TestLog64Faithful checks goLog against the exact log on subnormal
// arguments, where Go's amd64 math.Log is off by up to 35.4
// (golang/go#56600), and that it is math.Log itself elsewhere.
func TestLog64Faithful(t *testing.T) {
	r := testrand.New(t)
	xs := []float64{0x1p-1074, 0x2p-1074, 0x3p-1074, 0x1p-1023, 0x1p-1022 - 0x1p-1074, 0x1.8p-1030}
	for e := -1074; e < -1022; e++ {
		xs = append(xs, math.Ldexp(1, e), math.Ldexp(1, e)*1.75)
	}
	n := 2000
	if testing.Short() {
		n = 100
	}
	for range n {
		xs = append(xs, math.Float64frombits(r.Uint64()&(1<<52-1)|1))
	}
	for _, x := range xs {
		lo, hi := faithfulLog(x)
		if y := goLog(x); y < lo || y > hi {
			t.Fatalf("goLog(%x) = %x, want in [%x, %x] (math.Log: %x)", x, y, lo, hi, math.Log(x))
		}
	}
	t.Logf("2^-1074: math.Log %v, goLog %v", math.Log(0x1p-1074), goLog(0x1p-1074))
	for _, x := range []float64{0x1p-1022, 1e-300, 0.5, 1, 3, math.MaxFloat64, 0, math.Inf(1), -1, -0x1p-1074} {
		if a, b := goLog(x), math.Log(x); a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
			t.Errorf("goLog(%v) = %v, math.Log %v", x, a, b)
		}
	}
	// The simulated binary64 server on a subnormal prediction: one point
	// of class 1 at 2^−1074 costs −log 2^−1074, faithfully.
	m, err := ParseModel("binary64")
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Eval([]int{1}, &Pred{K: 2, P: []float64{0x1p-1074}})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := faithfulLog(0x1p-1074)
	if f, _ := s.Float64(); f < -hi || f > -lo {
		t.Errorf("binary64 score of p = 2^-1074, class 1: %v, want in [%v, %v]", f, -hi, -lo)
	}
}
