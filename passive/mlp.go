// This file implements a small multi-layer perceptron for binary
// classification, trained by mini-batch Adam.

package passive

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// MLPOptions configures [TrainMLP]. The zero value is usable.
type MLPOptions struct {
	// Hidden lists the widths of the ReLU hidden layers; nil means
	// {64, 32}. One or more layers, each ≥ 1.
	Hidden []int
	// Epochs is the number of passes over the data; 0 means 20.
	Epochs int
	// Batch is the mini-batch size; 0 means 128.
	Batch int
	// LR is Adam's step size; 0 means 1e-3 (with β₁ = 0.9, β₂ = 0.999,
	// ε = 1e-8, the defaults of [KB15]).
	LR float64
	// Decay is an L2 penalty (λ/2)·‖W‖² on the weights, not the biases,
	// added to the mean log-loss; 0 means none. A model meant to show
	// memorization should not be regularized much.
	Decay float64
	// Seed seeds the initialization and the batch order; training is
	// deterministic given it.
	Seed uint64
	// Progress, if not nil, is called after every epoch.
	Progress func(epoch, epochs int)
}

func (o *MLPOptions) validate() error {
	if o.Hidden == nil {
		o.Hidden = []int{64, 32}
	}
	if o.Epochs == 0 {
		o.Epochs = 20
	}
	if o.Batch == 0 {
		o.Batch = 128
	}
	if o.LR == 0 {
		o.LR = 1e-3
	}
	if len(o.Hidden) == 0 {
		return fmt.Errorf("passive: MLP needs at least one hidden layer")
	}
	for _, h := range o.Hidden {
		if h < 1 || h > 1<<16 {
			return fmt.Errorf("passive: MLP hidden width %d outside [1, 65536]", h)
		}
	}
	if o.Epochs < 0 || o.Batch < 1 || !(o.LR > 0) || math.IsInf(o.LR, 0) || !(o.Decay >= 0) || math.IsInf(o.Decay, 0) {
		return fmt.Errorf("passive: MLP options epochs=%d batch=%d lr=%v decay=%v; want epochs ≥ 0, batch ≥ 1, lr > 0, decay ≥ 0", o.Epochs, o.Batch, o.LR, o.Decay)
	}
	return nil
}

// An MLP is a trained fully connected network: ReLU hidden layers and one
// sigmoid output unit giving P(y = 1 | x).
type MLP struct {
	layers []layer
}

// layer is z = a·W + b with W stored row-major as in×out.
type layer struct {
	in, out int
	w, b    []float64
}

// TrainMLP trains an MLP on the rows of x with labels y by minimizing the
// mean log-loss (plus the optional L2 penalty) with Adam [KB15] over
// shuffled mini-batches. Weights start He-uniform [HZRS15] for the ReLU
// layers and Glorot-uniform [GB10] for the output layer, biases at 0. It
// returns an error if the options or labels are invalid, or ctx.Err() if
// ctx is cancelled (checked between batches).
func TrainMLP(ctx context.Context, x *mat.Dense, y []int, opt MLPOptions) (*MLP, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	n, d := x.Dims()
	if err := checkLabels(n, y); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6d6c70)) // "mlp"
	m := &MLP{}
	widths := append(append([]int{d}, opt.Hidden...), 1)
	for l := 0; l+1 < len(widths); l++ {
		in, out := widths[l], widths[l+1]
		ly := layer{in: in, out: out, w: make([]float64, in*out), b: make([]float64, out)}
		lim := math.Sqrt(6 / float64(in)) // He uniform
		if l+2 == len(widths) {
			lim = math.Sqrt(6 / float64(in+out)) // Glorot uniform
		}
		for i := range ly.w {
			ly.w[i] = (2*rng.Float64() - 1) * lim
		}
		m.layers = append(m.layers, ly)
	}
	t := newTrainer(m, min(opt.Batch, n), opt)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	xb := make([]float64, min(opt.Batch, n)*d)
	yb := make([]float64, min(opt.Batch, n))
	for epoch := 1; epoch <= opt.Epochs; epoch++ {
		rng.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		for start := 0; start < n; start += opt.Batch {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			end := min(start+opt.Batch, n)
			bs := end - start
			for r, i := range perm[start:end] {
				copy(xb[r*d:(r+1)*d], x.RawRowView(i))
				yb[r] = float64(y[i])
			}
			t.step(xb[:bs*d], yb[:bs], bs)
		}
		if opt.Progress != nil {
			opt.Progress(epoch, opt.Epochs)
		}
	}
	return m, nil
}

// trainer holds Adam's state and the activations of one batch.
type trainer struct {
	m      *MLP
	opt    MLPOptions
	steps  int
	mw, vw [][]float64 // Adam moments of the weights, per layer
	mb, vb [][]float64 // and of the biases
	gw, gb [][]float64 // gradients
	z, a   [][]float64 // pre-activations and activations, batch×out
	da     [][]float64 // gradient w.r.t. activations
}

func newTrainer(m *MLP, batch int, opt MLPOptions) *trainer {
	t := &trainer{m: m, opt: opt}
	for _, ly := range m.layers {
		t.mw = append(t.mw, make([]float64, len(ly.w)))
		t.vw = append(t.vw, make([]float64, len(ly.w)))
		t.gw = append(t.gw, make([]float64, len(ly.w)))
		t.mb = append(t.mb, make([]float64, ly.out))
		t.vb = append(t.vb, make([]float64, ly.out))
		t.gb = append(t.gb, make([]float64, ly.out))
		t.z = append(t.z, make([]float64, batch*ly.out))
		t.a = append(t.a, make([]float64, batch*ly.out))
		t.da = append(t.da, make([]float64, batch*ly.in))
	}
	return t
}

func general(rows, cols int, data []float64) blas64.General {
	return blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: data[:rows*cols]}
}

// forward computes the activations of a batch of bs rows xb; the last
// layer's z holds the logits. z and a must have room for bs rows.
func forward(layers []layer, xb []float64, bs int, z, a [][]float64) {
	in := xb
	for l, ly := range layers {
		zl := z[l][:bs*ly.out]
		for r := range bs {
			copy(zl[r*ly.out:(r+1)*ly.out], ly.b)
		}
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(bs, ly.in, in), general(ly.in, ly.out, ly.w), 1, general(bs, ly.out, zl))
		al := a[l][:bs*ly.out]
		if l+1 < len(layers) {
			for i, v := range zl {
				al[i] = max(v, 0)
			}
		} else {
			for i, v := range zl {
				al[i] = sigmoid(v)
			}
		}
		in = al
	}
}

// step runs one Adam step on the batch.
func (t *trainer) step(xb, yb []float64, bs int) {
	t.grad(xb, yb, bs)
	t.update()
}

// grad computes the gradient of the batch's mean log-loss (without the L2
// penalty) into gw and gb, by backpropagation.
func (t *trainer) grad(xb, yb []float64, bs int) {
	ls := t.m.layers
	forward(ls, xb, bs, t.z, t.a)
	L := len(ls) - 1
	// d(mean log-loss)/d(logit) = (σ(z) − y)/bs; it overwrites the
	// logits, and each layer's z below is overwritten by its gradient.
	g := t.z[L][:bs]
	for r := range bs {
		g[r] = (t.a[L][r] - yb[r]) / float64(bs)
	}
	for l := L; l >= 0; l-- {
		ly := ls[l]
		gz := t.z[l][:bs*ly.out] // gradient w.r.t. this layer's pre-activation
		var in []float64
		if l == 0 {
			in = xb
		} else {
			in = t.a[l-1][:bs*ly.in]
		}
		// gW = inᵀ·gz, gb = column sums of gz.
		blas64.Gemm(blas.Trans, blas.NoTrans, 1, general(bs, ly.in, in), general(bs, ly.out, gz), 0, general(ly.in, ly.out, t.gw[l]))
		gb := t.gb[l]
		clear(gb)
		for r := range bs {
			for j, v := range gz[r*ly.out : (r+1)*ly.out] {
				gb[j] += v
			}
		}
		if l > 0 {
			// g(in) = gz·Wᵀ, then through the ReLU of layer l−1 into its z.
			gin := t.da[l][:bs*ly.in]
			blas64.Gemm(blas.NoTrans, blas.Trans, 1, general(bs, ly.out, gz), general(ly.in, ly.out, ly.w), 0, general(bs, ly.in, gin))
			zp := t.z[l-1][:bs*ly.in]
			for i, v := range zp {
				if v > 0 {
					zp[i] = gin[i]
				} else {
					zp[i] = 0
				}
			}
		}
	}
}

// update applies the L2 penalty and one Adam step with the gradient in gw
// and gb.
func (t *trainer) update() {
	ls := t.m.layers
	t.steps++
	c1 := 1 - math.Pow(adamB1, float64(t.steps))
	c2 := 1 - math.Pow(adamB2, float64(t.steps))
	lr := t.opt.LR
	for l, ly := range ls {
		if t.opt.Decay > 0 {
			for i, w := range ly.w {
				t.gw[l][i] += t.opt.Decay * w
			}
		}
		adam(ly.w, t.gw[l], t.mw[l], t.vw[l], lr, c1, c2)
		adam(ly.b, t.gb[l], t.mb[l], t.vb[l], lr, c1, c2)
	}
}

// Adam's decay rates and denominator guard, the defaults of [KB15, §2].
const adamB1, adamB2, adamEps = 0.9, 0.999, 1e-8

// adam applies one Adam update [KB15, Algorithm 1] to p with gradient g
// and moments m, v; c1 and c2 are the bias corrections 1 − βᵗ.
func adam(p, g, m, v []float64, lr, c1, c2 float64) {
	for i, gi := range g {
		m[i] = adamB1*m[i] + (1-adamB1)*gi
		v[i] = adamB2*v[i] + (1-adamB2)*gi*gi
		p[i] -= lr * (m[i] / c1) / (math.Sqrt(v[i]/c2) + adamEps)
	}
}

// predictBatch is the number of rows Prob1 pushes through at once.
const predictBatch = 1024

// Prob1 implements [Classifier].
func (m *MLP) Prob1(dst []float64, x *mat.Dense) []float64 {
	n, d := x.Dims()
	if d != m.layers[0].in {
		panic(fmt.Sprintf("passive: MLP.Prob1: %d features, model has %d", d, m.layers[0].in))
	}
	if cap(dst) < n {
		dst = make([]float64, n)
	}
	dst = dst[:n]
	bs := min(predictBatch, n)
	z := make([][]float64, len(m.layers))
	a := make([][]float64, len(m.layers))
	for l, ly := range m.layers {
		z[l] = make([]float64, bs*ly.out)
		a[l] = make([]float64, bs*ly.out)
	}
	xb := make([]float64, bs*d)
	L := len(m.layers) - 1
	for start := 0; start < n; start += bs {
		end := min(start+bs, n)
		for r := start; r < end; r++ {
			copy(xb[(r-start)*d:(r-start+1)*d], x.RawRowView(r))
		}
		forward(m.layers, xb, end-start, z, a)
		copy(dst[start:end], a[L][:end-start])
	}
	return dst
}
