// This file implements MUTNET [EA, Appendix G, Theorem 9]: a network that
// ignores its input and outputs a chosen prediction, so that an attack
// can be submitted as a model rather than as a vector. This is the
// network's exact, arbitrary-precision description; package mutnet writes
// it (and the batched forms a host runs) as ONNX models that onnxruntime
// evaluates.

package single

import (
	"encoding/json"
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
	h := len(m.M2)
	u := make([]*big.Float, h)
	for j := range h {
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
		for j := range h {
			if u[j].Sign() != 0 {
				t := new(big.Float).SetPrec(z.Prec()).SetFloat64(m.M2[j][k])
				z.Add(z, t.Mul(t, u[j]))
			}
		}
		out[k] = z
	}
	return out, nil
}

// mutNetJSON is MutNet's JSON form: the biases as exact hexadecimal
// floats ("0x1.8p+03"), which float64 could not hold.
type mutNetJSON struct {
	Arch string      `json:"arch"`
	M1   [][]float64 `json:"m1"`
	M2   [][]float64 `json:"m2"`
	X    []string    `json:"x"`
}

// MarshalJSON implements [json.Marshaler].
func (m *MutNet) MarshalJSON() ([]byte, error) {
	j := mutNetJSON{Arch: "u2 = relu(v·m1); out = sigmoid(u2·m2 + x)", M1: m.M1, M2: m.M2, X: make([]string, len(m.X))}
	for i, x := range m.X {
		j.X[i] = x.Text('p', 0)
	}
	return json.Marshal(j)
}

// UnmarshalJSON implements [json.Unmarshaler]. It returns an error if the
// shapes disagree, an entry of m1 is not negative, or a bias does not
// parse.
func (m *MutNet) UnmarshalJSON(b []byte) error {
	var j mutNetJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	if len(j.M1) == 0 || len(j.M2) == 0 || len(j.X) == 0 {
		return errors.New("single: MUTNET JSON with an empty layer")
	}
	for _, row := range j.M1 {
		if len(row) != len(j.M2) {
			return errors.New("single: MUTNET JSON: m1 rows must have as many entries as m2 has rows")
		}
		for _, v := range row {
			if !(v < 0) {
				return fmt.Errorf("single: MUTNET JSON: m1 entry %v is not negative", v)
			}
		}
	}
	for _, row := range j.M2 {
		if len(row) != len(j.X) {
			return errors.New("single: MUTNET JSON: m2 rows must have one entry per output")
		}
	}
	x := make([]*big.Float, len(j.X))
	for i, s := range j.X {
		v, _, err := big.ParseFloat(s, 0, 4096, big.ToNearestEven)
		if err != nil || v.IsInf() {
			return fmt.Errorf("single: MUTNET JSON: bias %d %q: not a finite number", i, s)
		}
		x[i] = v
	}
	m.M1, m.M2, m.X = j.M1, j.M2, x
	return nil
}
