// This file implements the plan: which logit each row's output carries in
// each query, the error bound a host's score can carry, and the decoding of
// the scores into verified labels.

package mutnet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/onnx"
	"github.com/labelinf/labelinf/single"
)

// PlanFormat names the plan file's format.
const PlanFormat = "labelinf-mutnet-plan/1"

// Options configures [NewPlan].
type Options struct {
	// N is the number of test rows (labels), N ≥ 1.
	N int
	// Block is the number of labels one query (one model, one score)
	// decodes; 0 means N (a single query). A block larger than the
	// precision allows returns a *[CapacityError].
	Block int
	// DType is the model's float type: onnx.Double (the default when 0)
	// or onnx.Float. The host's log-loss is computed in the same type
	// (scikit-learn's log_loss keeps float32 predictions in float32).
	DType onnx.DataType
	// Tau bounds the noise the host adds to the mean score, τ ≥ 0.
	Tau float64
	// Sigmoid is true when the model computes θ = σ(x′) in the runtime,
	// as Theorem 9's network does; the batched forms output θ from a
	// stored table instead, exactly (Sigmoid false).
	Sigmoid bool
	// SigmoidULPs bounds the runtime's sigmoid error, absolute, in units
	// of the type's 2^−p (p = 24 or 53); 0 means [DefaultSigmoidULPs].
	SigmoidULPs float64
}

// DefaultSigmoidULPs is the runtime's sigmoid error the plan assumes
// unless told: 4 units of 2^−p, absolute. onnxruntime's CPU sigmoid is
// accurate in absolute, not relative, terms: at x = −19.66 (float64) it
// returns 2.88268253712·10^−9 for 2.88268259294·10^−9, 0.5 units of 2^−53
// absolute but 1.7·10^8 relative (TestRuntimeSigmoidError measures it on
// every plan's logits when the runtime is installed).
const DefaultSigmoidULPs = 4

// Plan is the attack: for each query, the logit every row's output
// carries, and the rows that query decodes. It is what [NewPlan] returns
// and what the plan file holds (JSON), so that [Plan.Decode] can turn the
// host's scores into labels later.
type Plan struct {
	Format string  `json:"format"`
	N      int     `json:"n"`
	DType  string  `json:"dtype"` // "float32" or "float64"
	Tau    float64 `json:"tau"`
	// Sigmoid: the runtime computes θ = σ(x); else θ = the stored
	// probability, x's sigmoid rounded to DType ([Plan.Theta]).
	Sigmoid     bool    `json:"runtime_sigmoid"`
	SigmoidULPs float64 `json:"sigmoid_ulps"`
	Queries     []Query `json:"queries"`
}

// Query is one model's share of the attack: Rows (in increasing weight)
// carry Logits (hexadecimal, exact in the model's type); every other row
// carries logit 0 (θ = ½, whose loss does not depend on its label).
type Query struct {
	Rows   []int    `json:"rows"`
	Logits []string `json:"logits"`
	// Bound is the error bound B (on N·score) the decoding allows.
	Bound float64 `json:"bound"`
}

// CapacityError reports a block too large for the precision: Max is the
// largest block one score of this type holds at this noise (for N's
// host).
type CapacityError struct {
	Block, Max int
	DType      string
}

func (e *CapacityError) Error() string {
	return fmt.Sprintf("mutnet: %d labels do not fit one %s score (at most %d at this noise); use a block of at most %d labels per query (one model per query)", e.Block, e.DType, e.Max, e.Max)
}

// unit returns u = 2^−p and the format's epsilon 2^(1−p) for t.
func unit(t onnx.DataType) (u, eps float64, p int) {
	if t == onnx.Float {
		return 0x1p-24, 0x1p-23, 24
	}
	return 0x1p-53, 0x1p-52, 53
}

// maxLogitMag is the largest |logit| a row may carry: θ = σ(−L) must stay
// above the host's clip ε (scikit-learn clips to [ε, 1−ε], ε the type's
// epsilon) by a margin of e^−½, so that clipping never moves it.
func maxLogitMag(t onnx.DataType) float64 {
	_, eps, _ := unit(t)
	return -math.Log(eps) - 0.5
}

// errModel is what the bound depends on.
type errModel struct {
	t     onnx.DataType
	tau   float64
	sig   bool
	alpha float64
}

func (o *Options) model() errModel {
	a := o.SigmoidULPs
	if a == 0 {
		a = DefaultSigmoidULPs
	}
	return errModel{t: o.DType, tau: o.Tau, sig: o.Sigmoid, alpha: a}
}

func (p *Plan) model() errModel {
	return errModel{t: p.Type(), tau: p.Tau, sig: p.Sigmoid, alpha: p.SigmoidULPs}
}

// bound returns B, the largest |N·score − Σ_i t_i| over labelings, where
// t_i are the exact terms of the θ_i the decoder assumes: the stored
// probability, or σ(x_i) with the runtime's sigmoid off by α·2^−p
// (relative error α·2^−p/θ on θ, /(1−θ) on 1−θ); then the host's
// renormalisation and 1−p (3 roundings), its log (1 ulp), its sum
// (γ_{N−1}, any order), its division by N and its noise τ.
func bound(x []float64, m errModel) float64 {
	u, _, _ := unit(m.t)
	n := float64(len(x))
	var e, mag float64
	for _, xi := range x {
		tm := math.Abs(xi) + math.Ln2 // max(t0, t1) ≤ |x| + ln 2
		e += 1.01*4*u + 2*u*tm
		if m.sig {
			th := 1 / (1 + math.Exp(math.Abs(xi))) // min(θ, 1−θ)
			e += 1.01 * m.alpha * u / th
		}
		mag += tm
	}
	g := (n - 1) * u / (1 - (n-1)*u)
	return 1.05 * (e + (g+2*u)*mag + n*m.tau)
}

// weights returns the block's logits −W·2^i (i < m), rounded to the type,
// and the bound B, with W = 2B(1+⅛) the least fixed point (B grows with
// W when the runtime's sigmoid is in the bound), or a *CapacityError if
// the largest logit passes the clip.
func weights(n, m int, em errModel) ([]float64, float64, error) {
	lmax := maxLogitMag(em.t)
	x := make([]float64, n)
	logits := func(w float64) []float64 {
		for i := range m {
			v := math.Ldexp(w, i)
			if em.t == onnx.Float {
				v = float64(float32(v))
			}
			x[i] = -v
		}
		return x
	}
	w := 2 * bound(logits(0), em) * (1 + 1.0/8)
	for range 10000 {
		if math.Ldexp(w, m-1) > lmax {
			return nil, 0, &CapacityError{Block: m, Max: -1, DType: em.t.String()}
		}
		next := 2 * bound(logits(w), em) * (1 + 1.0/8)
		if next <= w {
			break
		}
		w = next * (1 + 1e-9)
	}
	b := bound(logits(w), em)
	// Check the gaps the decoding relies on, d_i − Σ_{j<i} d_j > 2B, on
	// the weights the decoder will use.
	var sum float64
	for i := range m {
		d, err := weight(x[i], em)
		if err != nil {
			return nil, 0, err
		}
		if d-sum <= 2*b {
			if math.Ldexp(w, m-1) > lmax/2 {
				return nil, 0, &CapacityError{Block: m, Max: -1, DType: em.t.String()}
			}
			return nil, 0, fmt.Errorf("mutnet: weights not separated after rounding to %v", em.t)
		}
		sum += d
	}
	return slices.Clone(x[:m]), b, nil
}

// maxBlock returns the largest block m ≤ min(n, 64) whose weights fit.
func maxBlock(n int, em errModel) int {
	best := 0
	for m := 1; m <= min(n, 64); m++ {
		if _, _, err := weights(n, m, em); err != nil {
			var ce *CapacityError
			if errors.As(err, &ce) {
				break
			}
			continue
		}
		best = m
	}
	return best
}

// MaxBlock returns the largest number of labels one score decodes for a
// host of n rows under opt's type, noise and sigmoid (opt.N and
// opt.Block are ignored).
func MaxBlock(n int, opt Options) int {
	if opt.DType == 0 {
		opt.DType = onnx.Double
	}
	return maxBlock(n, opt.model())
}

// MaxOneQuery returns the largest N whose every label one score recovers
// under opt's type, noise and sigmoid: the largest N with MaxBlock(N) = N.
func MaxOneQuery(opt Options) int {
	if opt.DType == 0 {
		opt.DType = onnx.Double
	}
	em := opt.model()
	// The largest such N comes first from the top. MaxBlock(n) = n needs
	// the block of all n rows to fit: one call rejects most n before
	// maxBlock tries every smaller block.
	for n := 64; n >= 1; n-- {
		if _, _, err := weights(n, n, em); err != nil {
			continue
		}
		if maxBlock(n, em) == n {
			return n
		}
	}
	return 0
}

// NewPlan plans the attack: ⌈N/Block⌉ queries, query q decoding rows
// [q·Block, (q+1)·Block) with logits −W·2^i, every other row at logit 0.
func NewPlan(opt Options) (*Plan, error) {
	if opt.N < 1 || opt.N > 1<<24 {
		return nil, fmt.Errorf("mutnet: N = %d outside [1, 2^24]", opt.N)
	}
	if opt.DType == 0 {
		opt.DType = onnx.Double
	}
	if opt.DType != onnx.Double && opt.DType != onnx.Float {
		return nil, fmt.Errorf("mutnet: type %v; want float32 or float64", opt.DType)
	}
	if !(opt.Tau >= 0) || math.IsInf(opt.Tau, 0) {
		return nil, fmt.Errorf("mutnet: τ = %v; want τ ≥ 0", opt.Tau)
	}
	if opt.SigmoidULPs == 0 {
		opt.SigmoidULPs = DefaultSigmoidULPs
	}
	if !(opt.SigmoidULPs > 0) || math.IsInf(opt.SigmoidULPs, 0) {
		return nil, fmt.Errorf("mutnet: sigmoid error %v ulps; want > 0", opt.SigmoidULPs)
	}
	// [EA, Corollary 4]: the host clips θ to [ε, 1−ε], so no weight
	// exceeds ln((1−ε)/ε), and adding one label moves the mean loss by at
	// most that over N: above half of it no prediction separates.
	_, eps, _ := unit(opt.DType)
	if sup := math.Log((1-eps)/eps) / (2 * float64(opt.N)); opt.Tau > sup {
		return nil, &single.MonotoneError{N: opt.N, Tau: opt.Tau, Bound: sup}
	}
	m := opt.Block
	if m == 0 {
		m = opt.N
	}
	if m < 1 || m > opt.N {
		return nil, fmt.Errorf("mutnet: block %d outside [1, N = %d]", m, opt.N)
	}
	logits, b, err := weights(opt.N, m, opt.model())
	if ce := (*CapacityError)(nil); errors.As(err, &ce) {
		ce.Max = maxBlock(opt.N, opt.model())
	}
	if err != nil {
		return nil, err
	}
	p := &Plan{Format: PlanFormat, N: opt.N, DType: opt.DType.String(), Tau: opt.Tau, Sigmoid: opt.Sigmoid, SigmoidULPs: opt.SigmoidULPs}
	for lo := 0; lo < opt.N; lo += m {
		q := Query{Bound: b}
		for i := lo; i < min(lo+m, opt.N); i++ {
			q.Rows = append(q.Rows, i)
			q.Logits = append(q.Logits, strconv.FormatFloat(logits[i-lo], 'x', -1, 64))
		}
		p.Queries = append(p.Queries, q)
	}
	return p, nil
}

// theta returns σ(x) computed in workPrec bits and rounded to t: the
// probability the table forms store.
func theta(x float64, t onnx.DataType) (float64, error) {
	s, err := sigmoidBig(x)
	if err != nil {
		return 0, err
	}
	if t == onnx.Float {
		f, _ := s.Float32()
		return float64(f), nil
	}
	f, _ := s.Float64()
	return f, nil
}

// sigmoidBig returns σ(x) = 1/(1 + e^−x) in workPrec bits.
func sigmoidBig(x float64) (*big.Float, error) {
	e, err := apa.Exp(new(big.Float).SetPrec(workPrec), new(big.Float).SetPrec(workPrec).SetFloat64(-x))
	if err != nil {
		return nil, err
	}
	e.Add(e, big.NewFloat(1))
	return new(big.Float).SetPrec(workPrec).Quo(big.NewFloat(1), e), nil
}

// terms returns the exact terms t0 = −ln(1−θ), t1 = −ln θ of the θ the
// decoder assumes for logit x: σ(x) with the runtime's sigmoid, else the
// stored probability.
func terms(x float64, em errModel) (t0, t1 *big.Float, err error) {
	var th *big.Float
	if em.sig {
		if th, err = sigmoidBig(x); err != nil {
			return nil, nil, err
		}
	} else {
		v, err := theta(x, em.t)
		if err != nil {
			return nil, nil, err
		}
		if !(v > 0 && v < 1) {
			return nil, nil, fmt.Errorf("mutnet: logit %v rounds to probability %v in %v", x, v, em.t)
		}
		th = new(big.Float).SetPrec(workPrec).SetFloat64(v)
	}
	om := new(big.Float).SetPrec(workPrec).Sub(big.NewFloat(1), th)
	if t0, err = apa.Log(new(big.Float).SetPrec(workPrec), om); err != nil {
		return nil, nil, err
	}
	if t1, err = apa.Log(new(big.Float).SetPrec(workPrec), th); err != nil {
		return nil, nil, err
	}
	return t0.Neg(t0), t1.Neg(t1), nil
}

// weight returns d = t1 − t0 for logit x, in float64 (for the plan's gap
// checks; the decoder keeps it exact).
func weight(x float64, em errModel) (float64, error) {
	t0, t1, err := terms(x, em)
	if err != nil {
		return 0, err
	}
	d, _ := new(big.Float).Sub(t1, t0).Float64()
	return d, nil
}

// Theta returns query q's output for every row, as a table form stores
// it: σ(x_i) rounded to the plan's type.
func (p *Plan) Theta(q int) ([]float64, error) {
	x, err := p.RowLogits(q)
	if err != nil {
		return nil, err
	}
	th := make([]float64, len(x))
	for i, v := range x {
		if th[i], err = theta(v, p.Type()); err != nil {
			return nil, err
		}
	}
	return th, nil
}

// Type returns the plan's float type.
func (p *Plan) Type() onnx.DataType {
	if p.DType == "float32" {
		return onnx.Float
	}
	return onnx.Double
}

// RowLogits returns query q's logit for every row (0 outside its block).
func (p *Plan) RowLogits(q int) ([]float64, error) {
	if q < 0 || q >= len(p.Queries) {
		return nil, fmt.Errorf("mutnet: query %d outside [0, %d)", q, len(p.Queries))
	}
	x := make([]float64, p.N)
	qq := p.Queries[q]
	for i, r := range qq.Rows {
		v, err := strconv.ParseFloat(qq.Logits[i], 64)
		if err != nil {
			return nil, fmt.Errorf("mutnet: plan query %d logit %d: %w", q, i, err)
		}
		x[r] = v
	}
	return x, nil
}

// validate checks a plan read from a file.
func (p *Plan) validate() error {
	if p.Format != PlanFormat {
		return fmt.Errorf("mutnet: plan format %q; want %q", p.Format, PlanFormat)
	}
	if p.N < 1 || p.N > 1<<24 || len(p.Queries) == 0 {
		return fmt.Errorf("mutnet: plan with N = %d and %d queries", p.N, len(p.Queries))
	}
	if p.DType != "float32" && p.DType != "float64" {
		return fmt.Errorf("mutnet: plan type %q", p.DType)
	}
	seen := make([]bool, p.N)
	for q, qq := range p.Queries {
		if len(qq.Rows) != len(qq.Logits) || len(qq.Rows) == 0 || !(qq.Bound > 0) {
			return fmt.Errorf("mutnet: plan query %d is malformed", q)
		}
		for _, r := range qq.Rows {
			if r < 0 || r >= p.N || seen[r] {
				return fmt.Errorf("mutnet: plan query %d: row %d out of range or repeated", q, r)
			}
			seen[r] = true
		}
	}
	return p.checkSeparated()
}

// ReadPlan parses a plan file's JSON.
func ReadPlan(b []byte) (*Plan, error) {
	var p Plan
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("mutnet: plan: %w", err)
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

// Result is the decoded labeling.
type Result struct {
	// Labels holds every row's label.
	Labels []int
	// Queries is the number of scores used.
	Queries int
	// Verified is true: every score lies within its bound of the exact
	// loss of Labels, and the plan's weights are separated by more than
	// twice the bound, so that no other labeling does.
	Verified bool
	// Slack[q] is |N·score_q − Σ t_i(Labels)| / B_q, below 1.
	Slack []float64
}

// ScoreError reports a score no labeling explains within the bound.
type ScoreError struct {
	Query int
	Score string
	Off   float64 // |N·score − Σ t| / B for the nearest labeling
}

func (e *ScoreError) Error() string {
	return fmt.Sprintf("mutnet: query %d: score %s: no labeling explains it within the plan's bound (nearest is %.3g bounds off): the host did not run this model on these rows in this order, or computes differently", e.Query, e.Score, e.Off)
}

// workPrec is the precision of the decoder's exact terms: far below B
// (≥ 2^−60·N), 128 bits.
const workPrec = 128

// Decode turns one score per query (decimal strings as the host printed
// them, e.g. Python's repr) into labels, each verified.
func (p *Plan) Decode(ctx context.Context, scores []string) (*Result, error) {
	if err := p.validate(); err != nil {
		return nil, err
	}
	if len(scores) != len(p.Queries) {
		return nil, fmt.Errorf("mutnet: %d scores for a plan of %d queries", len(scores), len(p.Queries))
	}
	res := &Result{Labels: make([]int, p.N), Queries: len(scores), Verified: true}
	n := new(big.Float).SetPrec(workPrec).SetInt64(int64(p.N))
	for q, s := range scores {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sv, _, err := big.ParseFloat(strings.TrimSpace(s), 10, workPrec, big.ToNearestEven)
		if err != nil || sv.IsInf() || sv.Sign() < 0 {
			return nil, fmt.Errorf("mutnet: score %d %q: not a finite non-negative number", q, s)
		}
		x, err := p.RowLogits(q)
		if err != nil {
			return nil, err
		}
		// r = N·score − Σ_i t0_i; the weights d_i = t1_i − t0_i,
		// superincreasing along the query's rows.
		em := p.model()
		r := new(big.Float).SetPrec(workPrec).Mul(sv, n)
		qq := p.Queries[q]
		inBlock := map[int]int{}
		for i, row := range qq.Rows {
			inBlock[row] = i
		}
		d := make([]*big.Float, len(qq.Rows))
		prefix := new(big.Float).SetPrec(workPrec)
		for row, xi := range x {
			t0, t1, err := terms(xi, em)
			if err != nil {
				return nil, err
			}
			r.Sub(r, t0)
			if i, ok := inBlock[row]; ok {
				d[i] = t1.Sub(t1, t0)
				if d[i].Sign() <= 0 {
					return nil, fmt.Errorf("mutnet: plan query %d row %d: logit %v gives no weight", q, row, xi)
				}
				prefix.Add(prefix, d[i])
			}
		}
		for i := len(d) - 1; i >= 0; i-- {
			prefix.Sub(prefix, d[i]) // Σ_{j<i} d_j
			mid := new(big.Float).SetPrec(workPrec).Add(prefix, d[i])
			two := new(big.Float).SetPrec(workPrec).Mul(r, big.NewFloat(2))
			if two.Cmp(mid) >= 0 {
				res.Labels[qq.Rows[i]] = 1
				r.Sub(r, d[i])
			}
		}
		off, _ := new(big.Float).Abs(r).Float64()
		res.Slack = append(res.Slack, off/qq.Bound)
		if off > qq.Bound {
			return nil, &ScoreError{Query: q, Score: s, Off: off / qq.Bound}
		}
	}
	return res, nil
}

// checkSeparated re-derives the uniqueness argument from the plan's own
// numbers: along each query's rows, d_i − Σ_{j<i} d_j > 2B, and B is at
// least the bound the plan's logits give. A plan file that fails it could
// make Decode's labels ambiguous.
func (p *Plan) checkSeparated() error {
	for q, qq := range p.Queries {
		x, err := p.RowLogits(q)
		if err != nil {
			return err
		}
		ds := make([]float64, len(qq.Rows))
		for i, r := range qq.Rows {
			if ds[i], err = weight(x[r], p.model()); err != nil {
				return err
			}
		}
		// [EA, Theorem 12]: the query's loss is additive and monotone in
		// its rows' labels; the smallest weight bounds the noise.
		if b, j, ok := single.AdditiveMonotoneBound(ds, p.N); ok && p.Tau > b {
			return &single.MonotoneError{N: p.N, Tau: p.Tau, Bound: b, J: qq.Rows[j]}
		}
		if b := bound(x, p.model()); qq.Bound < b*(1-1e-9) {
			return fmt.Errorf("mutnet: plan query %d: bound %g below the %g its logits need", q, qq.Bound, b)
		}
		var sum float64
		for i, r := range qq.Rows {
			d := ds[i]
			if d-sum <= 2*qq.Bound || -x[r] > maxLogitMag(p.Type()) {
				return fmt.Errorf("mutnet: plan query %d: row %d's weight is not separated by 2B or is clipped", q, r)
			}
			sum += d
		}
	}
	return nil
}
