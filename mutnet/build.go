// This file writes the attack as ONNX models, one per query, in the forms
// a host runs.

package mutnet

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/labelinf/labelinf/onnx"
)

// Form is how a model finds the logit of the row it is run on.
type Form string

// The forms [Build] writes.
const (
	// Theorem9 is [EA, Theorem 9]'s network as stated: one input v,
	// u₂ = ReLU(v·M₁) with M₁ < 0 (zero on v ≥ 0), output
	// sigmoid(u₂·M₂ + x′) with x′ = logit(θ): the whole prediction vector
	// (1×N) for a host that feeds one input and reads it.
	Theorem9 Form = "theorem9"
	// Rows stores the test rows and recognises its row by exact match
	// (the nearest stored row, within rounding of the distance); unknown
	// inputs go to the base model. For hosts whose test features are
	// public.
	Rows Form = "rows"
	// Split is Rows with the stored rows hidden: split across three
	// tensors, each column scaled by a random power of two that the graph
	// undoes (exactly).
	Split Form = "split"
	// Hash stores no row: only k = min(4, d) keyed random projections of
	// each (a linear sketch whose key is in the model), matched the same
	// way.
	Hash Form = "hash"
	// Position reads the row's position in the batch: row i of a batch of
	// exactly N rows gets θ_i; any other batch goes to the base model.
	// For hosts whose test features are hidden (code competitions) and
	// that run the test set as one batch in a fixed order.
	Position Form = "position"
)

// Forms lists the forms, for usage messages and tests.
var Forms = []Form{Theorem9, Rows, Split, Hash, Position}

// ModelOptions configures [Build].
type ModelOptions struct {
	Form Form
	// Features are the N test rows (needed by Rows, Split and Hash).
	Features [][]float64
	// Dim is the input width when Features is nil (Theorem9, Position).
	Dim int
	// Base, if not nil, is the model the batched forms behave as on
	// inputs they do not recognise: one float input [batch, d] of the
	// plan's type, a first output of probabilities [batch], [batch, 1] or
	// [batch, 2]. Without it they carry a small logistic regression with
	// random weights.
	Base *onnx.Model
	// Seed draws the random weights (M₁, M₂, the base, the keys).
	Seed uint64
}

// OutputName is the name of every model's probability output.
const OutputName = "probabilities"

// opset is the ai.onnx operator set the models use (≥ 13: ReduceSum's
// axes as an input, Unsqueeze's axes as an input).
const opset = 13

// Build writes query q of plan p as an ONNX model of the given form.
func Build(p *Plan, q int, opt ModelOptions) (*onnx.Model, error) {
	x, err := p.RowLogits(q)
	if err != nil {
		return nil, err
	}
	d := opt.Dim
	if opt.Features != nil {
		if len(opt.Features) != p.N {
			return nil, fmt.Errorf("mutnet: %d feature rows for a plan of N = %d", len(opt.Features), p.N)
		}
		d = len(opt.Features[0])
		for i, r := range opt.Features {
			if len(r) != d {
				return nil, fmt.Errorf("mutnet: feature row %d has %d values, row 0 has %d", i, len(r), d)
			}
			for _, v := range r {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("mutnet: feature row %d has a value that is not finite", i)
				}
			}
		}
	}
	if d < 1 {
		return nil, fmt.Errorf("mutnet: input width %d", d)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, uint64(q)))
	b := &builder{dtype: p.Type()}
	b.g.Name = "model"
	b.g.Inputs = []onnx.ValueInfo{{Name: "X", Type: b.dtype, Shape: []onnx.Dim{{Param: "batch"}, {Value: int64(d)}}}}
	m := &onnx.Model{ProducerName: "labelinf", Opsets: map[string]int64{"": opset},
		Doc: fmt.Sprintf("labelinf MUTNET label-inference model (security research), form %s, query %d of %d", opt.Form, q+1, len(p.Queries))}
	if opt.Form == Theorem9 {
		if !p.Sigmoid {
			return nil, fmt.Errorf("mutnet: form %s computes σ(x′) in the runtime: plan it with the runtime's sigmoid (Options.Sigmoid, -form theorem9)", opt.Form)
		}
		if opt.Base != nil {
			return nil, fmt.Errorf("mutnet: form %s has no base model (it ignores its input)", opt.Form)
		}
		theorem9(b, x, d, rng)
		b.g.Outputs = []onnx.ValueInfo{{Name: OutputName, Type: b.dtype, Shape: []onnx.Dim{{Param: "batch"}, {Value: int64(p.N)}}}}
		m.Graph = b.g
		return m, nil
	}
	two := false
	var pb string
	if opt.Base != nil {
		if pb, two, err = inlineBase(b, m, opt.Base, d); err != nil {
			return nil, err
		}
	} else {
		w := make([]float64, d)
		for i := range w {
			w[i] = rng.NormFloat64() / math.Sqrt(float64(d))
		}
		z := b.op("MatMul", []string{"X", b.floats("base_coef", []int64{int64(d), 1}, w)})
		pb = b.op("Sigmoid", []string{b.op("Add", []string{z, b.floats("base_intercept", []int64{1}, []float64{rng.NormFloat64() / 4})})})
	}
	// The table forms output θ from a stored table: σ(x) rounded to the
	// type, exact whatever the runtime's sigmoid does.
	th, err := p.Theta(q)
	if err != nil {
		return nil, err
	}
	var hit, pa string
	switch opt.Form {
	case Rows, Split:
		if opt.Features == nil {
			return nil, fmt.Errorf("mutnet: form %s needs the test features", opt.Form)
		}
		hit, pa, err = rowsMatch(b, m, opt.Features, th, opt.Form == Split, rng)
	case Hash:
		if opt.Features == nil {
			return nil, fmt.Errorf("mutnet: form %s needs the test features", opt.Form)
		}
		hit, pa, err = hashMatch(b, m, opt.Features, th, rng)
	case Position:
		hit, pa = position(b, th)
	default:
		return nil, fmt.Errorf("mutnet: unknown form %q (want one of %v)", opt.Form, Forms)
	}
	if err != nil {
		return nil, err
	}
	if two {
		one := b.scalar("one", 1)
		pa = b.op("Concat", []string{b.op("Sub", []string{one, pa}), pa}, onnx.Int("axis", 1))
	}
	out := onnx.Node{Name: "select", Op: "Where", In: []string{hit, pa, pb}, Out: []string{OutputName}}
	b.g.Nodes = append(b.g.Nodes, out)
	cols := int64(1)
	if two {
		cols = 2
	}
	b.g.Outputs = []onnx.ValueInfo{{Name: OutputName, Type: b.dtype, Shape: []onnx.Dim{{Param: "batch"}, {Value: cols}}}}
	m.Graph = b.g
	return m, nil
}

// theorem9 is [EA, (12)]: u₂ = ReLU(v·M₁), out = sigmoid(u₂·M₂ + x′),
// M₁ ∈ [−1, −2^−10]^{d×h}, M₂ ∈ [−1, 1]^{h×N}, h = 16.
func theorem9(b *builder, x []float64, d int, rng *rand.Rand) {
	const h = 16
	m1 := make([]float64, d*h)
	for i := range m1 {
		m1[i] = -(1.0/1024 + (1-1.0/1024)*rng.Float64())
	}
	m2 := make([]float64, h*len(x))
	for i := range m2 {
		m2[i] = 2*rng.Float64() - 1
	}
	u2 := b.op("Relu", []string{b.op("MatMul", []string{"X", b.floats("M1", []int64{int64(d), h}, m1)})})
	z := b.op("Add", []string{b.op("MatMul", []string{u2, b.floats("M2", []int64{h, int64(len(x))}, m2)}), b.floats("x_prime", []int64{int64(len(x))}, x)})
	b.g.Nodes = append(b.g.Nodes, onnx.Node{Name: "output", Op: "Sigmoid", In: []string{z}, Out: []string{OutputName}})
}

// reduce appends a keepdims reduction over axis, in the opset's syntax
// (ReduceSum's axes an input from 13, the others' from 18).
func (b *builder) reduce(m *onnx.Model, op, in string, axis int64, keep int64) string {
	if op == "ReduceSum" || m.Opsets[""] >= 18 {
		return b.op(op, []string{in, b.ints(b.name("axes"), []int64{1}, axis)}, onnx.Int("keepdims", keep))
	}
	return b.op(op, []string{in}, onnx.Ints("axes", axis), onnx.Int("keepdims", keep))
}

// rowsMatch appends the exact-match lookup: dist_j = Σ (x − r_j)² against
// the stored rows r_j (0 exactly when x is r_j, in any float type), the
// nearest row's probability from x (the table), and hit when that
// distance is 0.
func rowsMatch(b *builder, m *onnx.Model, rows [][]float64, x []float64, split bool, rng *rand.Rand) (hit, z string, err error) {
	n, d := len(rows), len(rows[0])
	if err := distinct(rows, b.dtype); err != nil {
		return "", "", err
	}
	var r string
	if !split {
		r = b.floats("test_rows", []int64{int64(n), int64(d)}, slices.Concat(rows...))
	} else {
		// Three chunks of rows, each column stored scaled by 2^s_j (exact
		// in any binary format), scaled back in the graph.
		c := make([]float64, d)
		for j := range c {
			s := rng.IntN(16) - 8
			if s >= 0 {
				s++
			}
			c[j] = math.Ldexp(1, s)
		}
		var parts []string
		for k, lo := 0, 0; k < 3; k++ {
			hi := n * (k + 1) / 3
			if hi == lo {
				continue
			}
			v := make([]float64, 0, (hi-lo)*d)
			for _, row := range rows[lo:hi] {
				for j, e := range row {
					if b.dtype == onnx.Float {
						e = float64(float32(e))
					}
					v = append(v, e/c[j])
				}
			}
			parts = append(parts, b.floats(fmt.Sprintf("w%d", k), []int64{int64(hi - lo), int64(d)}, v))
			lo = hi
		}
		cat := b.op("Concat", parts, onnx.Int("axis", 0))
		r = b.op("Mul", []string{cat, b.floats("gain", []int64{int64(d)}, c)})
	}
	x3 := b.op("Unsqueeze", []string{"X", b.ints("axes1", []int64{1}, 1)}) // [B, 1, d]
	diff := b.op("Sub", []string{x3, r})                                   // [B, N, d]
	dist := b.reduce(m, "ReduceSum", b.op("Mul", []string{diff, diff}), 2, 0)
	idx := b.op("ArgMin", []string{dist}, onnx.Int("axis", 1), onnx.Int("keepdims", 1))
	mind := b.reduce(m, "ReduceMin", dist, 1, 1)
	hit = b.op("Equal", []string{mind, b.scalar("zero", 0)})
	z = b.op("Gather", []string{b.floats("probs", []int64{int64(n)}, x), idx}, onnx.Int("axis", 0))
	return hit, z, nil
}

// hashMatch appends the keyed-projection lookup: h = x·K (K ∈ [−1,1]^{d×k}),
// the stored row whose projections are nearest in L1, hit when within the
// projection's rounding, tol·(‖x‖₁ + 1).
func hashMatch(b *builder, m *onnx.Model, rows [][]float64, x []float64, rng *rand.Rand) (hit, z string, err error) {
	n, d := len(rows), len(rows[0])
	k := min(4, d)
	key := make([]float64, d*k)
	for i := range key {
		key[i] = 2*rng.Float64() - 1
		if b.dtype == onnx.Float {
			key[i] = float64(float32(key[i]))
		}
	}
	// Standardise first, as a scaler would: the projections' rounding is
	// then relative to ‖z‖₁ ≈ d, not to the features' raw scale.
	mu, inv := make([]float64, d), make([]float64, d)
	for j := range d {
		var s, s2 float64
		for _, row := range rows {
			s += row[j]
		}
		mu[j] = s / float64(n)
		for _, row := range rows {
			s2 += (row[j] - mu[j]) * (row[j] - mu[j])
		}
		inv[j] = 1 / math.Sqrt(s2/float64(n)+1e-12)
		if b.dtype == onnx.Float {
			mu[j], inv[j] = float64(float32(mu[j])), float64(float32(inv[j]))
		}
	}
	zs := make([][]float64, n)
	for i, row := range rows {
		zs[i] = make([]float64, d)
		for j, e := range row {
			zs[i][j] = (e - mu[j]) * inv[j]
		}
	}
	h := make([][]float64, n)
	for i, row := range zs {
		h[i] = make([]float64, k)
		for c := range k {
			for j, e := range row {
				h[i][c] += e * key[j*k+c]
			}
			if b.dtype == onnx.Float {
				h[i][c] = float64(float32(h[i][c]))
			}
		}
	}
	u, _, _ := unit(b.dtype)
	tol := 16 * float64(k*(d+4)) * u
	l1 := func(v []float64) float64 {
		var s float64
		for _, e := range v {
			s += math.Abs(e)
		}
		return s
	}
	if err := separated(h, func(i, j int) float64 {
		var s float64
		for c := range k {
			s += math.Abs(h[i][c] - h[j][c])
		}
		return s
	}, func(i int) float64 { return 4 * tol * (l1(zs[i]) + 1) }); err != nil {
		return "", "", err
	}
	zx := b.op("Mul", []string{b.op("Sub", []string{"X", b.floats("mean", []int64{int64(d)}, mu)}), b.floats("inv_scale", []int64{int64(d)}, inv)})
	hx := b.op("MatMul", []string{zx, b.floats("key", []int64{int64(d), int64(k)}, key)})
	hx3 := b.op("Unsqueeze", []string{hx, b.ints("axes1", []int64{1}, 1)})
	diff := b.op("Abs", []string{b.op("Sub", []string{hx3, b.floats("table", []int64{int64(n), int64(k)}, slices.Concat(h...))})})
	a := b.reduce(m, "ReduceSum", diff, 2, 0) // [B, N]
	idx := b.op("ArgMin", []string{a}, onnx.Int("axis", 1), onnx.Int("keepdims", 1))
	mind := b.reduce(m, "ReduceMin", a, 1, 1)
	norm := b.reduce(m, "ReduceSum", b.op("Abs", []string{zx}), 1, 1)
	thr := b.op("Mul", []string{b.scalar("tol", tol), b.op("Add", []string{norm, b.scalar("one_", 1)})})
	hit = b.op("Less", []string{mind, thr})
	z = b.op("Gather", []string{b.floats("probs", []int64{int64(n)}, x), idx}, onnx.Int("axis", 0))
	return hit, z, nil
}

// position appends the batch-position lookup: row i of a batch of N rows
// reads probability i of x (the table); hit is whether the batch has exactly N rows.
func position(b *builder, x []float64) (hit, z string) {
	n := int64(len(x))
	bsz := b.op("Gather", []string{b.op("Shape", []string{"X"}), b.ints("zero_i", nil, 0)}, onnx.Int("axis", 0))
	idx := b.op("Range", []string{b.ints("start", nil, 0), bsz, b.ints("step", nil, 1)})
	idx = b.op("Min", []string{idx, b.ints("last", nil, n-1)})
	g := b.op("Gather", []string{b.floats("probs", []int64{n}, x), idx}, onnx.Int("axis", 0))
	z = b.op("Unsqueeze", []string{g, b.ints("axes1", []int64{1}, 1)})
	hit = b.op("Equal", []string{bsz, b.ints("n_rows", nil, n)})
	return hit, z
}

// distinct checks that no two rows are equal in type t.
func distinct(rows [][]float64, t onnx.DataType) error {
	seen := map[string]int{}
	for i, r := range rows {
		k := make([]byte, 0, 8*len(r))
		for _, v := range r {
			if t == onnx.Float {
				v = float64(float32(v))
			}
			k = fmt.Appendf(k, "%x,", math.Float64bits(v))
		}
		if j, ok := seen[string(k)]; ok {
			return fmt.Errorf("mutnet: test rows %d and %d are equal in %v: no model output can tell them apart (the attack recovers at most their sum; drop duplicates or use form position)", j, i, t)
		}
		seen[string(k)] = i
	}
	return nil
}

// separated checks that every pair of rows is farther apart than the
// match tolerance: otherwise two rows would read the same logit.
func separated(rows [][]float64, dist func(i, j int) float64, need func(i int) float64) error {
	for i := range rows {
		ni := need(i)
		for j := i + 1; j < len(rows); j++ {
			if dist(i, j) <= max(ni, need(j)) {
				return fmt.Errorf("mutnet: test rows %d and %d are equal or within the match tolerance: no model output can tell them apart (the attack recovers at most their sum; drop duplicates or use form position)", i, j)
			}
		}
	}
	return nil
}

// inlineBase copies base's graph into b, its input renamed X, and returns
// its probability output as [B, 1] or [B, 2] (two true).
func inlineBase(b *builder, m *onnx.Model, base *onnx.Model, d int) (string, bool, error) {
	g := &base.Graph
	init := map[string]bool{}
	for _, t := range g.Initializers {
		init[t.Name] = true
	}
	var in []onnx.ValueInfo
	for _, v := range g.Inputs {
		if !init[v.Name] {
			in = append(in, v)
		}
	}
	if len(in) != 1 || len(in[0].Shape) != 2 || in[0].Type != b.dtype || (in[0].Shape[1].Param == "" && in[0].Shape[1].Value != int64(d)) {
		return "", false, fmt.Errorf("mutnet: base model must take one %v input [batch, %d]", b.dtype, d)
	}
	var out *onnx.ValueInfo
	for i := range g.Outputs {
		if g.Outputs[i].Type == b.dtype {
			out = &g.Outputs[i]
			break
		}
	}
	if out == nil {
		return "", false, fmt.Errorf("mutnet: base model has no %v output", b.dtype)
	}
	two := len(out.Shape) == 2 && out.Shape[1].Param == "" && out.Shape[1].Value == 2
	if !two && len(out.Shape) == 2 && out.Shape[1].Param == "" && out.Shape[1].Value != 1 {
		return "", false, fmt.Errorf("mutnet: base output %q is not [batch], [batch, 1] or [batch, 2]", out.Name)
	}
	rename := func(s string) string {
		switch s {
		case "":
			return ""
		case in[0].Name:
			return "X"
		}
		return "base/" + s
	}
	for _, t := range g.Initializers {
		t.Name = rename(t.Name)
		b.g.Initializers = append(b.g.Initializers, t)
	}
	for _, n := range g.Nodes {
		n.Name = fmt.Sprintf("base/%d/%s", len(b.g.Nodes), n.Name)
		n.In = slices.Clone(n.In)
		n.Out = slices.Clone(n.Out)
		for i := range n.In {
			n.In[i] = rename(n.In[i])
		}
		for i := range n.Out {
			n.Out[i] = rename(n.Out[i])
		}
		if n.Op == "Constant" || n.Op == "If" || n.Op == "Loop" || n.Op == "Scan" {
			for _, a := range n.Attrs {
				if a.Type == onnx.AttrGraph {
					return "", false, fmt.Errorf("mutnet: base model has subgraphs (%s), not supported", n.Op)
				}
			}
		}
		b.g.Nodes = append(b.g.Nodes, n)
	}
	for dom, v := range base.Opsets {
		if v > m.Opsets[dom] {
			m.Opsets[dom] = v
		}
	}
	pb := rename(out.Name)
	if len(out.Shape) == 1 {
		pb = b.op("Unsqueeze", []string{pb, b.ints("axes1b", []int64{1}, 1)})
	}
	return pb, two, nil
}
