// This file implements Inspect's view of constants: a few ops folded on
// constant values and the shapes of the graph's tensors inferred, without
// running the model.

package mutnet

import (
	"slices"
	"sort"

	"github.com/labelinf/labelinf/onnx"
)

// foldConst computes a few ops on constants (Add, Sub, Mul, Neg,
// Identity, Concat of 1-D values) so that tables split across tensors are
// seen whole; other ops give nil.
func foldConst(n onnx.Node, ins []*tensorInfo) []float64 {
	switch n.Op {
	case "Identity", "Reshape", "Unsqueeze", "Squeeze", "Flatten", "Cast":
		if len(ins) > 0 {
			return ins[0].vals
		}
	case "Neg":
		if len(ins) == 1 && ins[0].vals != nil {
			v := slices.Clone(ins[0].vals)
			for i := range v {
				v[i] = -v[i]
			}
			return v
		}
	case "Concat":
		var v []float64
		for _, ti := range ins {
			if ti.vals == nil {
				return nil
			}
			v = append(v, ti.vals...)
		}
		return v
	}
	return nil
}

// inferShape returns n's output shape where the op and the input shapes
// make it plain, −1 for an unknown dimension, nil when unknown.
func inferShape(n onnx.Node, ins []*tensorInfo) []int64 {
	attr := func(name string) *onnx.Attr {
		for i := range n.Attrs {
			if n.Attrs[i].Name == name {
				return &n.Attrs[i]
			}
		}
		return nil
	}
	in := func(i int) []int64 {
		if i < len(ins) {
			return ins[i].shape
		}
		return nil
	}
	switch n.Op {
	case "Relu", "Sigmoid", "Tanh", "Abs", "Neg", "Exp", "Log", "Softmax", "LogSoftmax", "Identity", "Cast", "Not", "Sqrt":
		return slices.Clone(in(0))
	case "Add", "Sub", "Mul", "Div", "Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Min", "Max", "Pow", "Where":
		var out []int64
		for i := range ins {
			s := in(i)
			if s == nil {
				return nil
			}
			out = broadcast(out, s)
		}
		return out
	case "MatMul":
		a, b := in(0), in(1)
		if len(a) == 2 && len(b) == 2 {
			return []int64{a[0], b[1]}
		}
	case "Gemm":
		a, b := in(0), in(1)
		if len(a) == 2 && len(b) == 2 {
			r, c := a[0], b[1]
			if t := attr("transA"); t != nil && t.I == 1 {
				r = a[1]
			}
			if t := attr("transB"); t != nil && t.I == 1 {
				c = b[0]
			}
			return []int64{r, c}
		}
	case "Transpose":
		a := in(0)
		if a == nil {
			return nil
		}
		p := attr("perm")
		out := make([]int64, len(a))
		for i := range a {
			j := len(a) - 1 - i
			if p != nil && i < len(p.Ints) {
				j = int(p.Ints[i])
			}
			if j < 0 || j >= len(a) {
				return nil
			}
			out[i] = a[j]
		}
		return out
	case "Unsqueeze":
		a := in(0)
		var axes []int64
		if at := attr("axes"); at != nil {
			axes = at.Ints
		} else if len(ins) > 1 {
			for _, v := range ins[1].vals {
				axes = append(axes, int64(v))
			}
		}
		if a == nil || axes == nil {
			return nil
		}
		out := slices.Clone(a)
		sort.Slice(axes, func(i, j int) bool { return axes[i] < axes[j] })
		for _, ax := range axes {
			if ax < 0 {
				ax += int64(len(out) + 1)
			}
			if ax < 0 || ax > int64(len(out)) {
				return nil
			}
			out = slices.Insert(out, int(ax), 1)
		}
		return out
	case "ReduceSum", "ReduceMin", "ReduceMax", "ReduceMean", "ArgMin", "ArgMax":
		a := in(0)
		if a == nil {
			return nil
		}
		keep := int64(1)
		if k := attr("keepdims"); k != nil {
			keep = k.I
		}
		var axes []int64
		if at := attr("axes"); at != nil {
			axes = at.Ints
		} else if at := attr("axis"); at != nil {
			axes = []int64{at.I}
		} else if n.Op == "ArgMin" || n.Op == "ArgMax" {
			axes = []int64{0}
		} else if len(ins) > 1 {
			for _, v := range ins[1].vals {
				axes = append(axes, int64(v))
			}
		}
		out := slices.Clone(a)
		for _, ax := range axes {
			if ax < 0 {
				ax += int64(len(a))
			}
			if ax < 0 || ax >= int64(len(a)) {
				return nil
			}
			out[ax] = -2 // reduced
		}
		var r []int64
		for _, d := range out {
			switch {
			case d != -2:
				r = append(r, d)
			case keep == 1:
				r = append(r, 1)
			}
		}
		return r
	case "Concat":
		ax := attr("axis")
		var out []int64
		for i := range ins {
			s := in(i)
			if s == nil || ax == nil {
				return nil
			}
			a := ax.I
			if a < 0 {
				a += int64(len(s))
			}
			if out == nil {
				out = slices.Clone(s)
				continue
			}
			if len(s) != len(out) || a < 0 || a >= int64(len(s)) {
				return nil
			}
			if out[a] < 0 || s[a] < 0 {
				out[a] = -1
			} else {
				out[a] += s[a]
			}
		}
		return out
	case "Gather":
		a, idx := in(0), in(1)
		if a == nil || idx == nil {
			return nil
		}
		ax := int64(0)
		if at := attr("axis"); at != nil {
			ax = at.I
		}
		if ax < 0 {
			ax += int64(len(a))
		}
		if ax < 0 || ax >= int64(len(a)) {
			return nil
		}
		return slices.Concat(a[:ax], idx, a[ax+1:])
	case "Shape":
		if a := in(0); a != nil {
			return []int64{int64(len(a))}
		}
	case "Range":
		return []int64{-1}
	}
	return nil
}

// broadcast returns numpy's broadcast of shapes a and b (−1 unknown).
func broadcast(a, b []int64) []int64 {
	if a == nil {
		return slices.Clone(b)
	}
	n := max(len(a), len(b))
	out := make([]int64, n)
	for i := range n {
		x, y := int64(1), int64(1)
		if j := i - (n - len(a)); j >= 0 {
			x = a[j]
		}
		if j := i - (n - len(b)); j >= 0 {
			y = b[j]
		}
		switch {
		case x == 1:
			out[i] = y
		case y == 1:
			out[i] = x
		case x == -1 || y == -1:
			out[i] = max(x, y)
		default:
			out[i] = x
		}
	}
	return out
}
