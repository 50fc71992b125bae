package scorer

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// composed are models the presets do not name, one per component value.
var composed = []string{
	"binary64,clip=eps,renorm,dec=5",
	"binary64,clip=1e-15,renorm",
	"float64,clip=eps",
	"binary64,clip=eps,renorm,sum=naive",
	"binary64,clip=eps,sum=fsum",
	"binary32,clip=keras2",
	"float32,clip=1e-7,renorm,sum=fsum",
	"binary32,clip=1e-7,sum=kahan",
	"binary64,clip=eps,reduce=sum",
	"binary32,floor=-100,reduce=sum,dec=4",
	"leaderboard,clip=eps",
	"torch-bce,sum=naive",
	"binary64,clip=eps,renorm,sum=torch-cascade,log=glibc-nofma",
	"binary32,floor=-100,sum=torch-cascade:avx512,log=glibc,reduce=sum",
	"float64-sklearn,log=glibc-nofma",
	"bfloat16,clip=eps",
	"binary16,clip=keras2:1e-3",
	"fpa:8,20,clip=1e-5,renorm,sum=fsum",
}

// TestPresetSpecs checks that each preset written as its components is
// the same model: the same score, bit for bit, on random predictions.
func TestPresetSpecs(t *testing.T) {
	r := testrand.New(t)
	for _, name := range append(presets, "apa:64", "fpa:e8m10") {
		sp, err := ParseSpec(name)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := ParseModel(name)
		b, err := ParseModel(sp.String())
		if err != nil {
			t.Fatalf("%s as %s: %v", name, sp, err)
		}
		if a.Name != name || b.Name != sp.String() {
			t.Errorf("names %q, %q", a.Name, b.Name)
		}
		for range 10 {
			n := 1 + r.IntN(400)
			p := randPred(r, n, 2)
			labels := make([]int, n)
			for i := range labels {
				labels[i] = r.IntN(2)
			}
			x, errX := a.Eval(labels, p)
			y, errY := b.Eval(labels, p)
			if (errX == nil) != (errY == nil) || (errX == nil && x.Cmp(y) != 0) {
				t.Fatalf("%s: preset %v (%v), components %s %v (%v)", name, x, errX, sp, y, errY)
			}
		}
	}
}

func TestSpecRoundTrip(t *testing.T) {
	for _, s := range composed {
		sp, err := ParseSpec(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		sp2, err := ParseSpec(sp.String())
		if err != nil || sp2 != sp {
			t.Errorf("%s → %s → %+v (%v)", s, sp, sp2, err)
		}
		if _, err := sp.Model(); err != nil {
			t.Errorf("%s: %v", s, err)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	for s, want := range map[string]string{
		"":                             "unknown scorer",
		"binary64,clip=x":              "not a number",
		"binary64,clip=eps,clip=none":  "twice",
		"binary64,sum=reverse":         "want pairwise",
		"binary64,dec=-2":              "decimals",
		"binary64,colour=red":          "unknown component",
		"binary64,renorm=yes":          "takes no value",
		"binary64,clip":                "KEY=VALUE",
		"binary64,input=logits":        "not emulated",
		"float128x,clip=eps":           "neither a preset",
		"exact,clip=eps":               "exact server",
		"binary64,clip=keras2,renorm":  "Keras 2",
		"binary64,clip=0.7":            "not in (0, 1/2)",
		"binary64,clip=1e-20":          "resolution",
		"binary64,floor=3":             "not a negative",
		"binary64,log=sloppy":          "faithful",
		"binary64,reduce=max":          "mean or sum",
		"exact:3":                      "BITS",
		"binary16,log=glibc":           "binary64 or binary32 function",
		"exact,log=glibc":              "exact server",
		"bfloat16,sum=torch-cascade":   "float32 and float64",
		"binary64,sum=torch-cascade:9": "want pairwise",
		"binary64,log=musl":            "glibc",
	} {
		_, err := ParseModel(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseModel(%q) = %v, want an error containing %q", s, err, want)
		}
	}
}

// TestComposedNativeMatchesFPA pins the native evaluation of composed
// binary64/binary32 models to the fpa one with the same log.
func TestComposedNativeMatchesFPA(t *testing.T) {
	r := testrand.New(t)
	for _, name := range composed {
		m, err := ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Native() {
			continue
		}
		slow := *m
		// The same log, called from the emulated path.
		slow.Loss.LogFunc, slow.Loss.LogLib = m.Loss.LogLib.fpaLog(), LogGo
		trials := 12
		if testing.Short() {
			trials = 4
		}
		for trial := range trials {
			n := 1 + r.IntN(300)
			if trial == 0 {
				n = 9000
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

// TestComposedBoundHolds checks Model.Bound and the emulator's brackets
// for every composed model: the reported score (per point, as PerPoint
// gives it) lies within the budget of the exact terms and, where the
// model is emulable, inside the emulated bracket.
func TestComposedBoundHolds(t *testing.T) {
	r := testrand.New(t)
	for _, name := range composed {
		m, err := ParseModel(name)
		if err != nil {
			t.Fatal(err)
		}
		e, emuErr := m.NewEmulator()
		maxN, trials := 1500, 8
		if !m.Native() {
			maxN = 150
		}
		if testing.Short() {
			maxN, trials = maxN/3, 3
		}
		for range trials {
			n := 1 + r.IntN(maxN)
			p := randPred(r, n, 2)
			labels := make([]int, n)
			exact := new(big.Float).SetPrec(200)
			b := Budget{N: n}
			dd := m.Depths(n)
			var lo, hi *Terms
			if emuErr == nil {
				lo, hi = e.NewTerms(n), e.NewTerms(n)
			}
			for i := range labels {
				labels[i] = r.IntN(2)
				tt, err := m.Terms([]float64{p.P[i]})
				if err != nil {
					t.Fatal(err)
				}
				if tt[labels[i]].IsInf() {
					p.P[i] = 0.5
					tt, _ = m.Terms([]float64{0.5})
				}
				exact.Add(exact, tt[labels[i]])
				f, _ := tt[labels[i]].Float64()
				f = math.Nextafter(f, math.Inf(1))
				b.SumT += f
				b.SumDT += f * float64(dd[i])
				b.Max = max(b.Max, f)
				b.MaxD = max(b.MaxD, dd[i])
				if emuErr == nil {
					x, y := e.TermRange(tt[labels[i]])
					lo.Set(i, x)
					hi.Set(i, y)
				}
			}
			got, err := m.Eval(labels, p)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if m.Loss.Total {
				got.Quo(got, new(big.Rat).SetInt64(int64(n)))
			}
			diff := new(big.Float).SetPrec(200).SetRat(new(big.Rat).Mul(got, new(big.Rat).SetInt64(int64(n))))
			diff.Sub(diff, exact)
			df, _ := diff.Abs(diff).Float64()
			if bound := m.Bound(b); df > bound {
				t.Fatalf("%s n=%d: |N·score − Σt| = %g > bound %g", name, n, df, bound)
			}
			if emuErr == nil {
				rl, _ := e.Report(lo)
				rh, _ := e.Report(hi)
				if got.Cmp(rl) < 0 || got.Cmp(rh) > 0 {
					t.Fatalf("%s n=%d: score %s outside [%s, %s]", name, n, got.FloatString(20), rl.FloatString(20), rh.FloatString(20))
				}
			}
		}
	}
}

// TestKeras2Terms checks the Keras 2 term by hand: clip to [1e-7, 1−1e-7]
// in float32, then −log(q + 1e-7).
func TestKeras2Terms(t *testing.T) {
	m, err := ParseModel("float32,clip=keras2")
	if err != nil {
		t.Fatal(err)
	}
	tt, err := m.Terms([]float64{0})
	if err != nil {
		t.Fatal(err)
	}
	eps := float32(1e-7)
	want := -math.Log(float64(eps + eps)) // class 1: q = eps, + eps
	got, _ := tt[1].Float64()
	if math.Abs(got-want) > 1e-12*want {
		t.Errorf("term of class 1 at p = 0: %v, want %v", got, want)
	}
}

// TestFsum checks Shewchuk's sum against an exact big.Float sum rounded
// once, on sums built to cancel.
func TestFsum(t *testing.T) {
	r := testrand.New(t)
	for range 2000 {
		n := 1 + r.IntN(40)
		x := make([]float64, n)
		exact := new(big.Float).SetPrec(2200)
		for i := range x {
			x[i] = math.Ldexp(r.Float64()-0.5, r.IntN(200)-100)
			if i > 0 && r.IntN(3) == 0 {
				x[i] = -x[i-1] * (1 + math.Ldexp(r.Float64(), -50))
			}
			exact.Add(exact, new(big.Float).SetFloat64(x[i]))
		}
		want, _ := exact.Float64()
		if got := fsum(x); got != want {
			t.Fatalf("fsum(%v) = %v, want %v", x, got, want)
		}
	}
}
