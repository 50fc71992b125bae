package defence

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"math/big"
	"testing"
	"time"
)

// floats decodes b as little-endian float64s (a trailing partial word is
// dropped).
func floats(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

// FuzzRelease feeds arbitrary per-row losses (NaN, ±Inf, negative, any
// length) through a chain holding every stage, and arbitrary predictions
// through boards of every metric: errors, never panics, and every
// accepted release is a finite rational on the 10⁻⁵ grid.
func FuzzRelease(f *testing.F) {
	nan := make([]byte, 8*4)
	binary.LittleEndian.PutUint64(nan, math.Float64bits(math.NaN()))
	f.Add(make([]byte, 8*4), []byte("team"))
	f.Add(nan, []byte(""))
	neg := make([]byte, 8*4)
	binary.LittleEndian.PutUint64(neg[8:], math.Float64bits(-1))
	f.Add(neg, []byte("b"))
	f.Add([]byte{1, 2, 3}, []byte("c"))
	f.Fuzz(func(t *testing.T, raw, team []byte) {
		const n = 4
		l := floats(raw)
		sp, err := NewSplit(n, 0.75, [32]byte{}, time.Time{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		lad, _ := NewLadder(LadderOptions{Kind: ParameterFree, PerTeam: true})
		fix, _ := NewLadder(LadderOptions{Kind: FixedStep, Eta: big.NewRat(1, 1000)})
		z, _ := NewNoise(NoiseOptions{Kind: Laplace, Scale: 1e-3, Key: KeyedLosses})
		r, _ := NewRound(5)
		c, err := NewChain(n, sp, lad, fix, z, r)
		if err != nil {
			t.Fatal(err)
		}
		th, _ := NewThresholdout(ThresholdoutOptions{T: 0.01, Sigma: 1e-3, Budget: 3})
		ct, err := NewChain(n, th, r)
		if err != nil {
			t.Fatal(err)
		}
		half := len(l) / 2
		for _, ch := range []*Chain{c, ct} {
			rel, err := ch.Release(Submission{Team: string(team), Losses: l, Train: l[:half]})
			if err != nil {
				continue
			}
			if rel.Score == nil || rel.Decimals != 5 {
				t.Fatalf("release %+v", rel)
			}
		}
		if len(l) != n {
			return
		}
		for _, m := range []Metric{ZeroOne{}, LogLoss{}, LogLoss{Eps: 1e-3}, AUCLoss{}} {
			cb, _ := NewChain(n, r)
			b, err := NewBoard(BoardOptions{Metric: m, Labels: []int{0, 1, 1, 0}, Chain: cb})
			if err != nil {
				t.Fatal(err)
			}
			gotR, err := b.Submit(context.Background(), l)
			var got float64
			if err == nil {
				got, _ = gotR.Float64()
			}
			if err == nil && (math.IsNaN(got) || math.IsInf(got, 0)) {
				t.Fatalf("%v released %v", m, got)
			}
			if err != nil && errors.Is(err, context.Canceled) {
				t.Fatal(err)
			}
		}
	})
}

// FuzzSettings: any JSON either fails to parse or build, or builds a chain
// that releases without panicking.
func FuzzSettings(f *testing.F) {
	f.Add([]byte(`{"ladder": {"kind": "fixed", "eta": "0.01"}, "decimals": 5}`))
	f.Add([]byte(`{"split": {"public": 0.3, "seed": "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"}, "subset": 2}`))
	f.Add([]byte(`{"noise": {"kind": "gaussian", "scale": 1e300, "key": "losses"}, "decimals": 30}`))
	f.Add([]byte(`{"ladder": {"kind": "fixed", "eta": "1/0"}}`))
	f.Add([]byte(`{"thresholdout": {"t": 0.1, "sigma": 0.01, "budget": 2}, "ladder": {"kind": "free"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSettings(data)
		if err != nil {
			return
		}
		c, err := s.Chain(8, nil, nil)
		if err != nil {
			return
		}
		sub := Submission{Pred: data, Losses: []float64{0, 1, 0.5, 2, 0, 0, 1, 3}, Train: []float64{1, 0}}
		for range 3 {
			if _, err := c.Release(sub); err != nil {
				return
			}
		}
	})
}
