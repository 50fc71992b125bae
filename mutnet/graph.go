// This file holds a small graph builder over package onnx.

package mutnet

import (
	"fmt"

	"github.com/labelinf/labelinf/onnx"
)

// builder accumulates nodes and initializers with unique names.
type builder struct {
	g     onnx.Graph
	dtype onnx.DataType
	next  int
}

func (b *builder) name(base string) string {
	b.next++
	return fmt.Sprintf("%s_%d", base, b.next)
}

// op appends a node and returns its (single) output's name.
func (b *builder) op(op string, in []string, attrs ...onnx.Attr) string {
	out := b.name(op)
	b.g.Nodes = append(b.g.Nodes, onnx.Node{Name: out, Op: op, In: in, Out: []string{out}, Attrs: attrs})
	return out
}

// floats adds an initializer of the builder's float type.
func (b *builder) floats(name string, dims []int64, v []float64) string {
	t := onnx.Tensor{Name: name, Type: b.dtype, Dims: dims}
	if b.dtype == onnx.Float {
		t.F32 = make([]float32, len(v))
		for i, x := range v {
			t.F32[i] = float32(x)
		}
	} else {
		t.F64 = append([]float64(nil), v...)
	}
	b.g.Initializers = append(b.g.Initializers, t)
	return name
}

// ints adds an int64 initializer.
func (b *builder) ints(name string, dims []int64, v ...int64) string {
	b.g.Initializers = append(b.g.Initializers, onnx.Tensor{Name: name, Type: onnx.Int64, Dims: dims, I64: v})
	return name
}

// scalar adds a float scalar initializer.
func (b *builder) scalar(name string, v float64) string {
	return b.floats(name, nil, []float64{v})
}
