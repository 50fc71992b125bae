// This file implements MUTNET [EA, Appendix G, Theorem 9]: a network that
// ignores its input and outputs a chosen prediction, so that an attack
// can be submitted as a model rather than as a vector. This is the
// network's exact, arbitrary-precision description; package mutnet writes
// it (and the batched forms a host runs) as ONNX models that onnxruntime
// evaluates.

package single

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
)

// MutNet is the two-layer network of [EA, Theorem 9]:
//
//	u₂ = ReLU(v·M₁),   u₃ = sigmoid(u₂·M₂ + x′),
//
// with every entry of M₁ negative, so that for inputs v ∈ (0,1)^d every
// pre-activation v·M₁ is negative and u₂ = 0; the output is then
// sigmoid(x′) = θ whatever the input, and x′ = logit(θ) carries the
// attack. x′ is kept in arbitrary precision: the robust attack's logits
// are doubly exponential in probability space but exact 64-bit floats as
// logits. M₂ is random: it never reaches the output, which makes the
// network look like any other to a server that only runs it.
type MutNet struct {
	M1 [][]float64  // d×h, every entry < 0
	M2 [][]float64  // h×out
	X  []*big.Float // out biases, x′ = logit(θ)
}

// NewMutNet builds a MUTNET with d inputs and h hidden units whose output
// logits are x (one per output), drawing M₁ uniformly from [−1, −2^−10]
// and M₂ from [−1, 1] with rng. It returns an error if d or h is below 1 or
// x is empty.
func NewMutNet(x []*big.Float, d, h int, rng *rand.Rand) (*MutNet, error) {
	if d < 1 || h < 1 || len(x) == 0 {
		return nil, fmt.Errorf("single: MUTNET with %d inputs, %d hidden units, %d outputs", d, h, len(x))
	}
	m := &MutNet{M1: make([][]float64, d), M2: make([][]float64, h), X: make([]*big.Float, len(x))}
	for i := range m.M1 {
		m.M1[i] = make([]float64, h)
		for j := range h {
			m.M1[i][j] = -(1.0/1024 + (1-1.0/1024)*rng.Float64())
		}
	}
	for i := range m.M2 {
		m.M2[i] = make([]float64, len(x))
		for j := range x {
			m.M2[i][j] = 2*rng.Float64() - 1
		}
	}
	for i, v := range x {
		m.X[i] = new(big.Float).Copy(v)
	}
	return m, nil
}

// Logits evaluates the network on v up to the output layer's
// pre-activation (the logits, on which a server computes sigmoid
// cross-entropy), exactly: it returns u₂·M₂ + x′ with u₂ = ReLU(v·M₁)
// computed in big.Float. It returns an error if v has the wrong length or
// an entry is not finite.
func (m *MutNet) Logits(v []float64) ([]*big.Float, error) {
	if len(v) != len(m.M1) {
		return nil, fmt.Errorf("single: MUTNET input has %d entries, want %d", len(v), len(m.M1))
	}
	u := make([]*big.Float, len(m.M2))
	for j := range u {
		s := new(big.Float).SetPrec(256)
		for i, vi := range v {
			if math.IsNaN(vi) || math.IsInf(vi, 0) {
				return nil, errors.New("single: MUTNET input is not finite")
			}
			t := new(big.Float).SetPrec(256).SetFloat64(vi)
			s.Add(s, t.Mul(t, big.NewFloat(m.M1[i][j])))
		}
		if s.Sign() < 0 {
			s.SetInt64(0) // ReLU
		}
		u[j] = s
	}
	out := make([]*big.Float, len(m.X))
	for k, x := range m.X {
		z := new(big.Float).SetPrec(max(x.Prec(), 256) + 64).Set(x)
		for j, uj := range u {
			if uj.Sign() != 0 {
				t := new(big.Float).SetPrec(z.Prec()).SetFloat64(m.M2[j][k])
				z.Add(z, t.Mul(t, uj))
			}
		}
		out[k] = z
	}
	return out, nil
}
