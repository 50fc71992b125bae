package passive

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"gonum.org/v1/gonum/mat"
)

// synthetic draws n rows of d standard normal features and labels from
// the logistic model with weights w and intercept b.
func synthetic(rng *rand.Rand, n int, w []float64, b float64) (*mat.Dense, []int) {
	d := len(w)
	x := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := range n {
		z := b
		for j := range d {
			v := rng.NormFloat64()
			x.Set(i, j, v)
			z += w[j] * v
		}
		y[i] = b2i(rng.Float64() < sigmoid(z))
	}
	return x, y
}

func TestLogRegOptimality(t *testing.T) {
	rng := testrand.New(t)
	w := []float64{1.5, -2, 0.5, 0}
	x, y := synthetic(rng, 20000, w, -0.5)
	opt := LogRegOptions{Lambda: 1e-3}
	m, err := TrainLogReg(context.Background(), x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	// The generating weights are recovered to within sampling error
	// (standard errors here are about 0.02–0.03).
	for j := range w {
		if dev := math.Abs(w[j] - m.W[j]); !(dev <= 0.15) {
			t.Errorf("w[%d]: got %v, want %v within %v", j, m.W[j], w[j], 0.15)
		}
	}
	if dev := math.Abs((-0.5) - m.B); !(dev <= 0.15) {
		t.Errorf("got %v, want %v within %v", m.B, -0.5, 0.15)
	}
	// Optimality, checked independently of the Newton code: the objective
	// grows in every coordinate direction (central differences ≈ 0).
	obj := func(th []float64) float64 {
		n, d := x.Dims()
		var f float64
		for i := range n {
			z := th[d]
			for j := range d {
				z += th[j] * x.At(i, j)
			}
			f += softplus(z) - float64(y[i])*z
		}
		f /= float64(n)
		for _, v := range th[:d] {
			f += opt.Lambda / 2 * v * v
		}
		return f
	}
	th := append(append([]float64(nil), m.W...), m.B)
	f0 := obj(th)
	for j := range th {
		for _, h := range []float64{-1e-3, 1e-3} {
			th[j] += h
			if !(obj(th) >= f0) {
				t.Errorf("θ[%d] %+g", j, h)
			}
			th[j] -= h
		}
	}
	// Prob1 agrees with the fitted logits.
	p := m.Prob1(nil, x)
	if dev := math.Abs(sigmoid(m.B+m.W[0]*x.At(0, 0)+m.W[1]*x.At(0, 1)+m.W[2]*x.At(0, 2)+m.W[3]*x.At(0, 3)) - p[0]); !(dev <= 1e-15) {
		t.Errorf("got %v, want %v within %v", p[0], sigmoid(m.B+m.W[0]*x.At(0, 0)+m.W[1]*x.At(0, 1)+m.W[2]*x.At(0, 2)+m.W[3]*x.At(0, 3)), 1e-15)
	}
}

func TestLogRegSeparableAndErrors(t *testing.T) {
	// Perfectly separable data: the penalty keeps the optimum finite.
	x := mat.NewDense(4, 1, []float64{-2, -1, 1, 2})
	m, err := TrainLogReg(context.Background(), x, []int{0, 0, 1, 1}, LogRegOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := m.Prob1(nil, x)
	if !(p[1] < 0.5) {
		t.Errorf("p[1] = %v, want < %v", p[1], 0.5)
	}
	if !(p[2] > 0.5) {
		t.Errorf("p[2] = %v, want > %v", p[2], 0.5)
	}

	_, err = TrainLogReg(context.Background(), x, []int{0, 1}, LogRegOptions{})
	if err == nil || !strings.Contains(err.Error(), "4 rows but 2 labels") {
		t.Errorf("error %v, want one containing %q", err, "4 rows but 2 labels")
	}
	_, err = TrainLogReg(context.Background(), x, []int{0, 1, 2, 0}, LogRegOptions{})
	if err == nil || !strings.Contains(err.Error(), "not 0 or 1") {
		t.Errorf("error %v, want one containing %q", err, "not 0 or 1")
	}
	_, err = TrainLogReg(context.Background(), x, []int{0, 0, 1, 1}, LogRegOptions{Lambda: -1})
	if err == nil || !strings.Contains(err.Error(), "λ") {
		t.Errorf("error %v, want one containing %q", err, "λ")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = TrainLogReg(ctx, x, []int{0, 0, 1, 1}, LogRegOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
}

// TestMLPGradient checks backpropagation against central finite
// differences of the batch loss, for every weight and bias of a small
// two-hidden-layer network.
func TestMLPGradient(t *testing.T) {
	rng := testrand.New(t)
	const bs, d = 7, 4
	x := make([]float64, bs*d)
	yb := make([]float64, bs)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for i := range yb {
		yb[i] = float64(rng.IntN(2))
	}
	m := &MLP{}
	for _, sz := range [][2]int{{d, 5}, {5, 3}, {3, 1}} {
		ly := layer{in: sz[0], out: sz[1], w: make([]float64, sz[0]*sz[1]), b: make([]float64, sz[1])}
		for i := range ly.w {
			ly.w[i] = rng.NormFloat64()
		}
		for i := range ly.b {
			ly.b[i] = 0.3 * rng.NormFloat64()
		}
		m.layers = append(m.layers, ly)
	}
	loss := func() float64 {
		z := make([][]float64, len(m.layers))
		a := make([][]float64, len(m.layers))
		for l, ly := range m.layers {
			z[l], a[l] = make([]float64, bs*ly.out), make([]float64, bs*ly.out)
		}
		forward(m.layers, x, bs, z, a)
		var f float64
		for r := range bs {
			f += softplus(z[len(z)-1][r]) - yb[r]*z[len(z)-1][r]
		}
		return f / bs
	}
	tr := newTrainer(m, bs, MLPOptions{})
	tr.grad(x, yb, bs)
	const h = 1e-6
	check := func(what string, p []float64, g []float64) {
		for i := range p {
			old := p[i]
			p[i] = old + h
			fp := loss()
			p[i] = old - h
			fm := loss()
			p[i] = old
			if dev := math.Abs(((fp - fm) / (2 * h)) - g[i]); !(dev <= 1e-6) {
				t.Errorf("%s[%d]: got %v, want %v within %v", what, i, g[i], (fp-fm)/(2*h), 1e-6)
			}
		}
	}
	for l, ly := range m.layers {
		check("W"+string(rune('0'+l)), ly.w, tr.gw[l])
		check("b"+string(rune('0'+l)), ly.b, tr.gb[l])
	}
}

// TestMLPFitsRandomLabels checks that the network can memorize labels that
// carry no signal, the capacity BLIA probes.
func TestMLPFitsRandomLabels(t *testing.T) {
	rng := testrand.New(t)
	const n, d = 200, 10
	x := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64())
		}
		y[i] = rng.IntN(2)
	}
	opt := MLPOptions{Hidden: []int{64}, Epochs: 300, Batch: 32, LR: 1e-2, Seed: 7}
	m, err := TrainMLP(context.Background(), x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !(accuracy(m.Prob1(nil, x), y) >= 0.97) {
		t.Errorf("accuracy(m.Prob1(nil, x), y) = %v, want >= %v", accuracy(m.Prob1(nil, x), y), 0.97)
	}

	// Deterministic under the seed; another seed gives another model.
	m2, err := TrainMLP(context.Background(), x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m2.Prob1(nil, x), m.Prob1(nil, x); !slices.Equal(got, want) {
		t.Errorf("m2.Prob1(nil, x) = %v, want %v", got, want)
	}
	opt.Seed, opt.Epochs = 8, 3
	m3, err := TrainMLP(context.Background(), x, y, opt)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(m.Prob1(nil, x), m3.Prob1(nil, x)) {
		t.Error("another seed gives the same probabilities")
	}
}

func TestMLPErrors(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{0, 1})
	for _, tt := range []struct {
		name string
		opt  MLPOptions
		y    []int
		want string
	}{
		{"width", MLPOptions{Hidden: []int{0}}, []int{0, 1}, "hidden width 0"},
		{"no layers", MLPOptions{Hidden: []int{}}, []int{0, 1}, "at least one hidden layer"},
		{"lr", MLPOptions{LR: math.NaN()}, []int{0, 1}, "lr"},
		{"decay", MLPOptions{Decay: -1}, []int{0, 1}, "decay"},
		{"labels", MLPOptions{}, []int{0, 3}, "not 0 or 1"},
		{"count", MLPOptions{}, []int{0}, "2 rows but 1 labels"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := TrainMLP(context.Background(), x, tt.y, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := TrainMLP(ctx, x, []int{0, 1}, MLPOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want %v", err, context.Canceled)
	}
}
