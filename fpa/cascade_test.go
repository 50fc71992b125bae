package fpa

import (
	"encoding/binary"
	"math"
	"math/big"
	"testing"
)

// FuzzCascadeSum checks PyTorch's cascade order three ways on arbitrary
// non-negative float32 terms and vector widths: hardware float32 addition
// and fpa's emulated binary32 give the same sum bit for bit, and the sum
// is within Σ γ(dᵢ)·xᵢ of the exact one, dᵢ from Depths (a wrong depth
// shows as a bound that fails). PyTorch itself is the oracle of
// scorer's TestTorchCascadeReal.
func FuzzCascadeSum(f *testing.F) {
	f.Add(byte(8), []byte{0, 0, 128, 63, 0, 0, 0, 64})
	f.Add(byte(16), make([]byte, 4*300))
	seed := make([]byte, 4*1111)
	for i := range 1111 {
		binary.LittleEndian.PutUint32(seed[4*i:], math.Float32bits(float32(i%97)*0.1+1e-30))
	}
	f.Add(byte(4), seed)
	f.Fuzz(func(t *testing.T, lanes byte, data []byte) {
		l := int(lanes%16) + 1
		n := len(data) / 4
		x := make([]float32, n)
		xs := make([]Float, n)
		for i := range x {
			v := math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]) &^ (1 << 31))
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || v > 1e30 {
				v = 1 // finite and far from overflow
			}
			x[i] = v
			xs[i] = *New(Binary32).SetFloat64(float64(v))
		}
		hw := CascadeSum(n, l, func(i int) float32 { return x[i] }, func(a, b float32) float32 { return a + b }, 0)
		z, err := Sum(New(Binary32), xs, SumOptions{Order: Cascade, Lanes: l})
		if err != nil {
			t.Fatal(err)
		}
		emu, _ := z.Float64()
		if math.Float64bits(emu) != math.Float64bits(float64(hw)) {
			t.Fatalf("n=%d lanes=%d: hardware %v, emulated %v", n, l, hw, emu)
		}
		d := Depths(nil, n, SumOptions{Order: Cascade, Lanes: l})
		exact := new(big.Float).SetPrec(2000)
		bound := 0.0
		for i, v := range x {
			exact.Add(exact, new(big.Float).SetFloat64(float64(v)))
			k := float64(d[i]) * 0x1p-24
			bound += k / (1 - k) * float64(v)
		}
		bound = bound*(1+1e-9) + float64(n)*0x1p-149 // subnormal sums are exact; slack anyway
		diff := new(big.Float).Sub(new(big.Float).SetFloat64(float64(hw)), exact)
		if e, _ := diff.Float64(); math.Abs(e) > bound {
			t.Fatalf("n=%d lanes=%d: error %g beyond the depth bound %g", n, l, e, bound)
		}
	})
}
