package scorer

import (
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/internal/testrand"
)

var presets = []string{Float64Sklearn, Float32Keras, TorchBCE, Leaderboard}

// randPred returns a prediction mixing the extremes the attacks use (0, 1,
// 1/2, tiny) with random values.
func randPred(r interface {
	Float64() float64
	IntN(int) int
}, n, k int) *Pred {
	w := 1
	if k > 2 {
		w = k
	}
	p := &Pred{K: k, P: make([]float64, n*w)}
	for i := range p.P {
		switch r.IntN(6) {
		case 0:
			p.P[i] = 0
		case 1:
			p.P[i] = 1
		case 2:
			p.P[i] = 0.5
		case 3:
			p.P[i] = math.Exp(-40 * r.Float64())
		default:
			p.P[i] = r.Float64()
		}
	}
	return p
}

// TestNativeMatchesFPA pins the native float64/float32 servers bit for bit
// to fpa.Loss with the same log.
func TestNativeMatchesFPA(t *testing.T) {
	r := testrand.New(t)
	for _, name := range presets {
		m, err := ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		slow := *m
		// The same log, called from the emulated path.
		slow.Loss.LogFunc, slow.Loss.LogLib = m.Loss.LogLib.fpaLog(), LogGo
		for trial := range 30 {
			n := 1 + r.IntN(300)
			if trial == 0 {
				n = 9000 // several chunks
			}
			p := randPred(r, n, 2)
			labels := make([]int, n)
			for i := range labels {
				labels[i] = r.IntN(2)
			}
			a, errA := m.Eval(labels, p)
			b, errB := slow.Eval(labels, p)
			if (errA == nil) != (errB == nil) {
				t.Fatalf("%s: native error %v, fpa error %v", name, errA, errB)
			}
			if errA == nil && a.Cmp(b) != 0 {
				t.Fatalf("%s n=%d: native %v, fpa %v", name, n, a.FloatString(20), b.FloatString(20))
			}
		}
	}
}

// TestBoundHolds checks Model.Bound: the reported score is within the
// budget of the exact terms' sum, on random and extreme predictions.
func TestBoundHolds(t *testing.T) {
	r := testrand.New(t)
	trials := 20
	if testing.Short() {
		trials = 6 // the largest N and five random ones per model
	}
	for _, name := range append(presets, "apa:64", "fpa:e8m10") {
		m, err := ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for trial := range trials {
			n := 1 + r.IntN(2000)
			if trial == 0 {
				n = 2000
			}
			p := randPred(r, n, 2)
			labels := make([]int, n)
			exact := new(big.Float).SetPrec(200)
			b := Budget{N: n}
			dd := m.Depths(n)
			for i := range labels {
				labels[i] = r.IntN(2)
				tt, err := m.Terms([]float64{p.P[i]})
				if err != nil {
					t.Fatal(err)
				}
				if tt[labels[i]].IsInf() {
					p.P[i] = 0.5 // no clip, no clamp: avoid log 0
					tt, _ = m.Terms([]float64{0.5})
				}
				exact.Add(exact, tt[labels[i]])
				f, _ := tt[labels[i]].Float64()
				f = math.Nextafter(f, math.Inf(1))
				b.SumT += f
				b.SumDT += f * float64(dd[i])
				b.Max = max(b.Max, f)
				b.MaxD = max(b.MaxD, dd[i])
			}
			got, err := m.Eval(labels, p)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			bound := m.Bound(b)
			diff := new(big.Float).SetPrec(200).SetRat(new(big.Rat).Mul(got, new(big.Rat).SetInt64(int64(n))))
			diff.Sub(diff, exact)
			df, _ := diff.Abs(diff).Float64()
			if df > bound {
				t.Fatalf("%s n=%d: |N·score − Σt| = %g > bound %g", name, n, df, bound)
			}
			worst = max(worst, df/bound)
		}
		t.Logf("%s: worst error/bound %.3f", name, worst)
	}
}

// TestEmulatorBrackets checks that the server's score lies in the
// emulated bracket of its terms, with the server's log being Go's (not
// correctly rounded).
func TestEmulatorBrackets(t *testing.T) {
	r := testrand.New(t)
	for _, name := range []string{Float64Sklearn, Float32Keras, TorchBCE} {
		m, _ := ParseModel(name)
		e, err := m.NewEmulator()
		if err != nil {
			t.Fatal(err)
		}
		trials, maxN := 20, 20000
		if testing.Short() {
			trials, maxN = 8, 4000
		}
		for range trials {
			n := 1 + r.IntN(maxN)
			p := randPred(r, n, 2)
			labels := make([]int, n)
			lo, hi := e.NewTerms(n), e.NewTerms(n)
			for i := range labels {
				labels[i] = r.IntN(2)
				tt, _ := m.Terms([]float64{p.P[i]})
				if tt[labels[i]].IsInf() {
					p.P[i] = 0.5
					tt, _ = m.Terms([]float64{0.5})
				}
				a, b := e.TermRange(tt[labels[i]])
				lo.Set(i, a)
				hi.Set(i, b)
			}
			got, err := m.Eval(labels, p)
			if err != nil {
				t.Fatal(err)
			}
			rl, _ := e.Report(lo)
			rh, _ := e.Report(hi)
			if got.Cmp(rl) < 0 || got.Cmp(rh) > 0 {
				t.Fatalf("%s n=%d: score %s outside [%s, %s]", name, n, got.FloatString(20), rl.FloatString(20), rh.FloatString(20))
			}
		}
	}
	m, _ := ParseModel(Leaderboard)
	m.Loss.Sum.Order = fpa.Kahan
	if _, err := m.NewEmulator(); err == nil {
		t.Error("Kahan summation accepted by the emulator (not monotone)")
	}
}

func TestParseModelErrors(t *testing.T) {
	for _, s := range []string{"", "sklearn", "apa:3", "apa:x", "fpa:", "fpa:99,99", "apa:"} {
		if _, err := ParseModel(s); err == nil {
			t.Errorf("ParseModel(%q) accepted", s)
		}
	}
	m, err := ParseModel("apa:100")
	if err != nil || !m.Exact || m.Prec != 100 {
		t.Errorf("apa:100 = %+v, %v", m, err)
	}
}

func TestNoise(t *testing.T) {
	for _, c := range []struct {
		kind  string
		tau   float64
		delta float64
	}{{"bounded", -1, 0}, {"multiplicative", 1, 0}, {"gaussian", 1, 2}, {"what", 1, 0}, {"bounded", math.NaN(), 0}} {
		if _, err := ParseNoise(c.kind, c.tau, c.delta); err == nil {
			t.Errorf("ParseNoise(%q, %v, %v) accepted", c.kind, c.tau, c.delta)
		}
	}
	// Gaussian: the half-width holds for all but about δ/Q of draws.
	r := testrand.New(t)
	nz, _ := ParseNoise("gaussian", 1, 0.01)
	h := nz.HalfWidth(0, 1) // per query δ = 0.01
	out := 0
	const trials = 200000
	for range trials {
		if math.Abs(r.NormFloat64()) > h {
			out++
		}
	}
	if float64(out)/trials > 0.01 {
		t.Errorf("Gaussian half-width %g exceeded in %d of %d draws (δ = 0.01)", h, out, trials)
	}
}
