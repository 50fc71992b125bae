// This file implements the defender's side: the signatures a MUTNET
// augmentation leaves in a model's graph, found without running it.

package mutnet

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/labelinf/labelinf/onnx"
)

// Finding is one signature found in a model.
type Finding struct {
	// Rule names the signature: see [Inspect].
	Rule string `json:"rule"`
	// Node is the node (or tensor) where it shows.
	Node string `json:"node"`
	// Detail says what was seen, with the numbers.
	Detail string `json:"detail"`
}

// Report is what [Inspect] found.
type Report struct {
	Inputs   int       `json:"inputs"`
	Nodes    int       `json:"nodes"`
	Params   int64     `json:"params"`
	Findings []Finding `json:"findings"`
	// RowsFound counts test rows found verbatim in the model's constants
	// (only when features are given).
	RowsFound int `json:"rows_found"`
	// Flagged is true when any finding was made.
	Flagged bool `json:"flagged"`
}

// The rules [Inspect] applies.
const (
	// RuleLookup: a Gather reads a stored table of at least
	// lookupMin values at indices computed from the input: the output is
	// looked up per row rather than computed.
	RuleLookup = "lookup-by-input"
	// RulePosition: the lookup's indices depend only on the batch's shape:
	// the output reads the row's position in the batch.
	RulePosition = "lookup-by-position"
	// RuleSearch: an ArgMin/ArgMax/ReduceMin/ReduceMax runs over at least
	// lookupMin stored candidates (rows, or hashes of rows) compared with
	// the input: a nearest-row search.
	RuleSearch = "nearest-row-search"
	// RuleStoredRows: test rows found verbatim in the constants.
	RuleStoredRows = "stored-test-rows"
	// RuleDeadReLU: a weight matrix with every entry negative feeds a
	// ReLU straight from the input: on non-negative inputs the ReLU
	// outputs 0 and what follows carries only constants [EA, Theorem 9].
	RuleDeadReLU = "dead-relu-branch"
	// RuleExtremeLogit: a constant reaching a sigmoid or softmax without
	// passing through a weight matrix exceeds extremeLogit in magnitude
	// (or a constant probability reaching an output, read as a logit).
	RuleExtremeLogit = "extreme-logit"
	// RuleSuperincreasing: such constants, sorted by magnitude, form a
	// superincreasing sequence of at least superMin terms: a subset-sum
	// code, the shape of every single-query label-inference attack.
	RuleSuperincreasing = "superincreasing-logits"
	// RuleShapeBranch: a Where chooses between branches on a condition
	// that depends on the batch's shape only.
	RuleShapeBranch = "batch-shape-switch"
)

// Thresholds of the rules. A trained classifier's logits on its own
// scale rarely pass 15 (σ(−15) = 3·10^−7); lookupMin and superMin are
// above the class counts of the classifiers the benign tests build.
const (
	lookupMin    = 16
	extremeLogit = 15.0
	superMin     = 6
)

// tensorInfo is what the analysis knows of a tensor.
type tensorInfo struct {
	valDep   bool      // depends on the input's values
	shapeDep bool      // depends on the input's shape (or values)
	konst    bool      // depends on constants only
	vals     []float64 // a constant's values, if a source or folded
	n        int64     // a constant's element count (estimate), or 0
	shape    []int64   // static shape (−1 unknown), nil if unknown
	srcs     []string  // the constant sources it derives from
}

// Inspect looks for the signatures a MUTNET augmentation leaves in m
// (the rules are the Rule… constants). features, if not nil, are the
// test rows: rows found verbatim in the model's constants are reported.
func Inspect(m *onnx.Model, features [][]float64) (*Report, error) {
	g := &m.Graph
	info := map[string]*tensorInfo{}
	rep := &Report{Nodes: len(g.Nodes)}
	for _, t := range g.Initializers {
		v, ok := t.Floats()
		if !ok {
			continue
		}
		info[t.Name] = &tensorInfo{konst: true, vals: v, n: t.Len(), shape: slices.Clone(t.Dims), srcs: []string{t.Name}}
		rep.Params += t.Len()
	}
	for _, in := range g.Inputs {
		if _, isInit := info[in.Name]; isInit {
			continue
		}
		rep.Inputs++
		sh := make([]int64, len(in.Shape))
		for i, d := range in.Shape {
			sh[i] = d.Value
			if d.Param != "" || d.Value <= 0 {
				sh[i] = -1
			}
		}
		info[in.Name] = &tensorInfo{valDep: true, shapeDep: true, shape: sh}
	}
	if rep.Inputs == 0 {
		return nil, fmt.Errorf("mutnet: model has no input")
	}
	get := func(s string) *tensorInfo {
		if ti := info[s]; ti != nil {
			return ti
		}
		return &tensorInfo{konst: true} // an omitted optional input
	}
	add := func(rule, node, format string, a ...any) {
		rep.Findings = append(rep.Findings, Finding{Rule: rule, Node: node, Detail: fmt.Sprintf(format, a...)})
	}
	for _, n := range g.Nodes {
		ins := make([]*tensorInfo, len(n.In))
		for i, s := range n.In {
			ins[i] = get(s)
		}
		out := &tensorInfo{konst: true}
		for _, ti := range ins {
			out.valDep = out.valDep || ti.valDep
			out.shapeDep = out.shapeDep || ti.shapeDep
			out.konst = out.konst && ti.konst
			if ti.konst {
				out.n = max(out.n, ti.n)
				out.srcs = append(out.srcs, ti.srcs...)
			}
		}
		switch n.Op {
		case "Shape", "Size":
			out.valDep = false
		case "Constant":
			for _, a := range n.Attrs {
				if a.T != nil {
					if v, ok := a.T.Floats(); ok {
						out.vals, out.n, out.shape = v, a.T.Len(), slices.Clone(a.T.Dims)
						out.srcs = []string{n.Out[0]}
						rep.Params += a.T.Len()
					}
				}
			}
		case "Concat":
			var s int64
			for _, ti := range ins {
				s += ti.n
			}
			if out.konst {
				out.n = s
			}
		}
		out.shape = inferShape(n, ins)
		if out.konst && out.vals == nil && n.Op != "Constant" {
			out.vals = foldConst(n, ins)
		}
		name := n.Name
		if name == "" && len(n.Out) > 0 {
			name = n.Out[0]
		}
		switch n.Op {
		case "Gather", "GatherElements", "GatherND":
			if len(ins) >= 2 && ins[0].konst && ins[0].n >= lookupMin {
				switch {
				case ins[1].valDep:
					add(RuleLookup, name, "reads a stored table of %d values at indices computed from the input's values", ins[0].n)
				case ins[1].shapeDep:
					add(RulePosition, name, "reads a stored table of %d values at indices computed from the batch's shape: each row's output is the table entry at its position", ins[0].n)
				}
			}
		case "ArgMin", "ArgMax", "ReduceMin", "ReduceMax":
			if len(ins) >= 1 && ins[0].valDep && len(ins[0].shape) > 0 {
				axis := int64(0)
				keepAxes := false
				for _, a := range n.Attrs {
					switch a.Name {
					case "axis":
						axis = a.I
					case "axes":
						if len(a.Ints) > 0 {
							axis, keepAxes = a.Ints[0], true
						}
					}
				}
				if !keepAxes && (n.Op == "ReduceMin" || n.Op == "ReduceMax") && len(ins) > 1 && len(ins[1].vals) > 0 {
					axis = int64(ins[1].vals[0])
				}
				if axis < 0 {
					axis += int64(len(ins[0].shape))
				}
				if axis >= 0 && axis < int64(len(ins[0].shape)) && ins[0].shape[axis] >= lookupMin && constReach(ins[0]) {
					add(RuleSearch, name, "%s over %d stored candidates compared with the input", n.Op, ins[0].shape[axis])
				}
			}
		case "Relu":
			// ReLU(X·W) or ReLU(X·W + b) with X the graph input and W < 0.
			if len(n.In) == 1 {
				if w, ok := deadWeights(g, n.In[0], info); ok {
					add(RuleDeadReLU, name, "weights %s: all %d entries negative; on non-negative inputs this ReLU is 0 and what follows carries only constants", w, get(w).n)
				}
			}
		case "Where":
			if len(ins) == 3 && !ins[0].valDep && ins[0].shapeDep {
				add(RuleShapeBranch, name, "chooses its output on the batch's shape alone")
			}
		case "Sigmoid", "Softmax", "LogSoftmax":
			for _, src := range logitConsts(g, n.In[0], info) {
				checkLogits(add, src, info[src].vals, n.Op)
			}
		}
		for _, o := range n.Out {
			info[o] = out
		}
	}
	// Probabilities stored as such and reaching an output: read as logits.
	for _, o := range g.Outputs {
		for _, src := range logitConsts(g, o.Name, info) {
			var lg []float64
			for _, p := range info[src].vals {
				if p > 0 && p < 1 {
					lg = append(lg, math.Log(p/(1-p)))
				}
			}
			if len(lg) > 0 && len(lg) >= len(info[src].vals)-1 {
				checkLogits(add, src, lg, "output "+o.Name+" (as probabilities)")
			}
		}
	}
	if features != nil {
		rep.RowsFound = rowsInConstants(g, features)
		if rep.RowsFound > 0 {
			add(RuleStoredRows, "initializers", "%d of the %d test rows are stored verbatim", rep.RowsFound, len(features))
		}
	}
	rep.Findings = dedupe(rep.Findings)
	rep.Flagged = len(rep.Findings) > 0
	return rep, nil
}

// checkLogits applies the extreme-logit and superincreasing rules to the
// logits v of constant src, which reach via.
func checkLogits(add func(rule, node, format string, a ...any), src string, v []float64, via string) {
	mx := 0.0
	for _, x := range v {
		mx = max(mx, math.Abs(x))
	}
	if mx > extremeLogit {
		add(RuleExtremeLogit, src, "a constant logit of magnitude %.4g reaches %s (σ = %.3g)", mx, via, 1/(1+math.Exp(mx)))
	}
	if k := superincreasing(v); k >= superMin {
		add(RuleSuperincreasing, src, "%d of its %d constant logits form a superincreasing sequence (each above the sum of the smaller): a subset-sum code", k, len(v))
	}
}

func dedupe(f []Finding) []Finding {
	seen := map[Finding]bool{}
	var out []Finding
	for _, x := range f {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// constReach reports whether a tensor derives from constants of at least
// lookupMin values as well as from the input.
func constReach(ti *tensorInfo) bool { return ti.n >= lookupMin || len(ti.srcs) > 0 }

// producers maps each tensor to the node that makes it.
func producers(g *onnx.Graph) map[string]*onnx.Node {
	p := map[string]*onnx.Node{}
	for i := range g.Nodes {
		for _, o := range g.Nodes[i].Out {
			p[o] = &g.Nodes[i]
		}
	}
	return p
}

// deadWeights finds W in in = X·W or X·W + b (X a graph input) with
// every entry of W negative.
func deadWeights(g *onnx.Graph, in string, info map[string]*tensorInfo) (string, bool) {
	prod := producers(g)
	n := prod[in]
	if n != nil && n.Op == "Add" {
		for _, s := range n.In {
			if p := prod[s]; p != nil && (p.Op == "MatMul" || p.Op == "Gemm") {
				n = p
			}
		}
	}
	if n == nil || (n.Op != "MatMul" && n.Op != "Gemm") || len(n.In) < 2 {
		return "", false
	}
	isInput := false
	for _, v := range g.Inputs {
		isInput = isInput || v.Name == n.In[0]
	}
	w := info[n.In[1]]
	if !isInput || w == nil || !w.konst || len(w.vals) == 0 {
		return "", false
	}
	for _, x := range w.vals {
		if !(x < 0) {
			return "", false
		}
	}
	return n.In[1], true
}

// logitConsts returns the constant sources that reach tensor s through
// additive or indexing ops only (not as a weight matrix's factor).
func logitConsts(g *onnx.Graph, s string, info map[string]*tensorInfo) []string {
	prod := producers(g)
	var out []string
	seen := map[string]bool{}
	var walk func(s string)
	walk = func(s string) {
		if seen[s] {
			return
		}
		seen[s] = true
		ti := info[s]
		n := prod[s]
		if n == nil || n.Op == "Constant" {
			if ti != nil && ti.konst && len(ti.vals) > 0 {
				out = append(out, s)
			}
			return
		}
		switch n.Op {
		case "Add", "Sub", "Concat", "Identity", "Reshape", "Unsqueeze", "Squeeze", "Flatten", "Cast", "Neg", "Where":
			for _, in := range n.In {
				walk(in)
			}
		case "Gather", "GatherElements", "GatherND":
			walk(n.In[0])
		case "MatMul":
			// The right factor of a one-hot or selection matrix product is
			// a table of logits; a weight matrix is not followed.
			if ti := info[n.In[0]]; ti != nil && !ti.valDep {
				walk(n.In[1])
			}
		case "Gemm":
			if len(n.In) > 2 {
				walk(n.In[2])
			}
		}
	}
	walk(s)
	return out
}

// superincreasing returns the length of the longest run of v's nonzero
// magnitudes, sorted, in which each exceeds the sum of all smaller ones.
func superincreasing(v []float64) int {
	var a []float64
	for _, x := range v {
		if x != 0 && !math.IsNaN(x) {
			a = append(a, math.Abs(x))
		}
	}
	sort.Float64s(a)
	best, run := 0, 0
	var sum float64
	for _, x := range a {
		if x > sum*(1+1e-12) {
			run++
		} else {
			run = 1
		}
		sum += x
		best = max(best, run)
	}
	return best
}

// rowsInConstants counts the test rows whose values appear as a
// contiguous run in some constant, in float64 or after rounding to
// float32.
func rowsInConstants(g *onnx.Graph, features [][]float64) int {
	type key string
	mk := func(v []float64, f32 bool) key {
		b := make([]byte, 0, 8*len(v))
		for _, x := range v {
			if f32 {
				x = float64(float32(x))
			}
			u := math.Float64bits(x)
			for i := range 8 {
				b = append(b, byte(u>>(8*i)))
			}
		}
		return key(b)
	}
	if len(features) == 0 || len(features[0]) == 0 {
		return 0
	}
	d := len(features[0])
	want := map[key]bool{}
	for _, r := range features {
		if len(r) == d {
			want[mk(r, false)] = true
			want[mk(r, true)] = true
		}
	}
	found := map[key]bool{}
	for _, t := range g.Initializers {
		v, ok := t.Floats()
		if !ok || len(v) < d {
			continue
		}
		for i := 0; i+d <= len(v); i++ {
			k := mk(v[i:i+d], false)
			if want[k] {
				found[k] = true
			}
		}
	}
	n := 0
	for _, r := range features {
		if found[mk(r, false)] || found[mk(r, true)] {
			n++
		}
	}
	return n
}
