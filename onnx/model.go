// This file defines the model's representation and writes it.

package onnx

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
)

// IRVersion is the ONNX IR version [Model.Marshal] writes when the
// model's is 0: 8, the IR of ONNX 1.13–1.14 (opsets up to 19), which
// onnx.checker and onnxruntime 1.14+ accept.
const IRVersion = 8

// Model is an ONNX model: one graph and the operator sets it uses.
type Model struct {
	IRVersion       int64
	Opsets          map[string]int64 // domain ("" is ai.onnx) → version
	ProducerName    string
	ProducerVersion string
	Doc             string
	Metadata        map[string]string
	Graph           Graph
}

// Graph is a computation: nodes in topological order over named tensors.
type Graph struct {
	Name         string
	Doc          string
	Nodes        []Node
	Initializers []Tensor
	Inputs       []ValueInfo
	Outputs      []ValueInfo
}

// Node applies operator Op (of Domain, "" for ai.onnx) to the tensors
// named In, naming its results Out. An empty input name is an omitted
// optional input.
type Node struct {
	Name   string
	Op     string
	Domain string
	In     []string
	Out    []string
	Attrs  []Attr
}

// Attr is a node attribute; Type says which value field is used.
type Attr struct {
	Name    string
	Type    AttrType
	F       float32
	I       int64
	S       string
	T       *Tensor
	Floats  []float32
	Ints    []int64
	Strings []string
}

// Int, Ints, Float and TensorAttr build attributes.
func Int(name string, v int64) Attr           { return Attr{Name: name, Type: AttrInt, I: v} }
func Ints(name string, v ...int64) Attr       { return Attr{Name: name, Type: AttrInts, Ints: v} }
func Float32Attr(name string, v float32) Attr { return Attr{Name: name, Type: AttrFloat, F: v} }
func TensorAttr(name string, t Tensor) Attr   { return Attr{Name: name, Type: AttrTensor, T: &t} }

// Tensor is a dense tensor. Exactly one value slice is used, by Type:
// F32 for Float, F64 for Double, I64 for Int64, Int32 and Bool (0 or 1).
type Tensor struct {
	Name string
	Type DataType
	Dims []int64
	F32  []float32
	F64  []float64
	I64  []int64
}

// Len returns the number of elements the dims describe.
func (t *Tensor) Len() int64 {
	n := int64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Floats returns the values as float64 (integers converted), and false
// for a type without numbers.
func (t *Tensor) Floats() ([]float64, bool) {
	switch t.Type {
	case Float:
		v := make([]float64, len(t.F32))
		for i, x := range t.F32 {
			v[i] = float64(x)
		}
		return v, true
	case Double:
		return t.F64, true
	case Int64, Int32, Bool:
		v := make([]float64, len(t.I64))
		for i, x := range t.I64 {
			v[i] = float64(x)
		}
		return v, true
	}
	return nil, false
}

// check reports whether the tensor's values agree with its type and dims.
func (t *Tensor) check() error {
	for _, d := range t.Dims {
		if d < 0 {
			return fmt.Errorf("onnx: tensor %q: dimension %d", t.Name, d)
		}
	}
	n := t.Len()
	var have int
	switch t.Type {
	case Float:
		have = len(t.F32)
	case Double:
		have = len(t.F64)
	case Int64, Int32, Bool:
		have = len(t.I64)
	default:
		return fmt.Errorf("onnx: tensor %q: element type %v not supported", t.Name, t.Type)
	}
	if int64(have) != n {
		return fmt.Errorf("onnx: tensor %q: %d values for dims %v", t.Name, have, t.Dims)
	}
	return nil
}

// Dim is one dimension of a [ValueInfo]'s shape: a fixed size, or (Param
// non-empty) a named size fixed by the caller, such as a batch.
type Dim struct {
	Value int64
	Param string
}

// ValueInfo names a graph input or output with its element type and
// shape.
type ValueInfo struct {
	Name  string
	Type  DataType
	Shape []Dim
}

// Marshal returns the model's ONNX protobuf encoding. It returns an error
// if a tensor's values disagree with its dims or type.
func (m *Model) Marshal() ([]byte, error) {
	var b []byte
	ir := m.IRVersion
	if ir == 0 {
		ir = IRVersion
	}
	b = protowire.AppendTag(b, fModelIRVersion, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(ir))
	b = appendString(b, fModelProducerName, m.ProducerName)
	b = appendString(b, fModelProducerVersion, m.ProducerVersion)
	b = appendString(b, fModelDocString, m.Doc)
	g, err := m.Graph.marshal()
	if err != nil {
		return nil, err
	}
	b = protowire.AppendTag(b, fModelGraph, protowire.BytesType)
	b = protowire.AppendBytes(b, g)
	for _, dom := range sortedKeys(m.Opsets) {
		var o []byte
		o = appendString(o, fOpsetDomain, dom)
		o = protowire.AppendTag(o, fOpsetVersion, protowire.VarintType)
		o = protowire.AppendVarint(o, uint64(m.Opsets[dom]))
		b = protowire.AppendTag(b, fModelOpsetImport, protowire.BytesType)
		b = protowire.AppendBytes(b, o)
	}
	for _, k := range sortedKeys(m.Metadata) {
		var e []byte
		e = appendString(e, fEntryKey, k)
		e = appendString(e, fEntryValue, m.Metadata[k])
		b = protowire.AppendTag(b, fModelMetadataProps, protowire.BytesType)
		b = protowire.AppendBytes(b, e)
	}
	return b, nil
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for s := range m {
		k = append(k, s)
	}
	sort.Strings(k)
	return k
}

func appendString(b []byte, f protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, f, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendMsg(b []byte, f protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, f, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}

func (g *Graph) marshal() ([]byte, error) {
	var b []byte
	for i := range g.Nodes {
		n, err := g.Nodes[i].marshal()
		if err != nil {
			return nil, err
		}
		b = appendMsg(b, fGraphNode, n)
	}
	b = appendString(b, fGraphName, g.Name)
	for i := range g.Initializers {
		t, err := g.Initializers[i].marshal()
		if err != nil {
			return nil, err
		}
		b = appendMsg(b, fGraphInitializer, t)
	}
	b = appendString(b, fGraphDocString, g.Doc)
	for _, v := range g.Inputs {
		b = appendMsg(b, fGraphInput, v.marshal())
	}
	for _, v := range g.Outputs {
		b = appendMsg(b, fGraphOutput, v.marshal())
	}
	return b, nil
}

func (n *Node) marshal() ([]byte, error) {
	var b []byte
	for _, s := range n.In {
		b = protowire.AppendTag(b, fNodeInput, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	for _, s := range n.Out {
		b = protowire.AppendTag(b, fNodeOutput, protowire.BytesType)
		b = protowire.AppendString(b, s)
	}
	b = appendString(b, fNodeName, n.Name)
	b = appendString(b, fNodeOpType, n.Op)
	for i := range n.Attrs {
		a, err := n.Attrs[i].marshal()
		if err != nil {
			return nil, err
		}
		b = appendMsg(b, fNodeAttribute, a)
	}
	b = appendString(b, fNodeDomain, n.Domain)
	return b, nil
}

func (a *Attr) marshal() ([]byte, error) {
	var b []byte
	b = appendString(b, fAttrName, a.Name)
	switch a.Type {
	case AttrFloat:
		b = protowire.AppendTag(b, fAttrF, protowire.Fixed32Type)
		b = protowire.AppendFixed32(b, math.Float32bits(a.F))
	case AttrInt:
		b = protowire.AppendTag(b, fAttrI, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(a.I))
	case AttrString:
		b = protowire.AppendTag(b, fAttrS, protowire.BytesType)
		b = protowire.AppendString(b, a.S)
	case AttrTensor:
		if a.T == nil {
			return nil, fmt.Errorf("onnx: attribute %q: no tensor", a.Name)
		}
		t, err := a.T.marshal()
		if err != nil {
			return nil, err
		}
		b = appendMsg(b, fAttrT, t)
	case AttrFloats:
		for _, f := range a.Floats {
			b = protowire.AppendTag(b, fAttrFloats, protowire.Fixed32Type)
			b = protowire.AppendFixed32(b, math.Float32bits(f))
		}
	case AttrInts:
		for _, v := range a.Ints {
			b = protowire.AppendTag(b, fAttrInts, protowire.VarintType)
			b = protowire.AppendVarint(b, uint64(v))
		}
	case AttrStrings:
		for _, s := range a.Strings {
			b = protowire.AppendTag(b, fAttrStrs, protowire.BytesType)
			b = protowire.AppendString(b, s)
		}
	default:
		return nil, fmt.Errorf("onnx: attribute %q: type %d not supported", a.Name, a.Type)
	}
	b = protowire.AppendTag(b, fAttrType, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(a.Type))
	return b, nil
}

// marshal writes the tensor's values as raw_data, little-endian, as
// onnx.proto prescribes.
func (t *Tensor) marshal() ([]byte, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	var b []byte
	for _, d := range t.Dims {
		b = protowire.AppendTag(b, fTensorDims, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, fTensorDataType, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.Type))
	b = appendString(b, fTensorName, t.Name)
	var raw []byte
	switch t.Type {
	case Float:
		raw = make([]byte, 0, 4*len(t.F32))
		for _, f := range t.F32 {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(f))
		}
	case Double:
		raw = make([]byte, 0, 8*len(t.F64))
		for _, f := range t.F64 {
			raw = binary.LittleEndian.AppendUint64(raw, math.Float64bits(f))
		}
	case Int64:
		raw = make([]byte, 0, 8*len(t.I64))
		for _, v := range t.I64 {
			raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
		}
	case Int32:
		for _, v := range t.I64 {
			raw = binary.LittleEndian.AppendUint32(raw, uint32(int32(v)))
		}
	case Bool:
		for _, v := range t.I64 {
			raw = append(raw, byte(min(max(v, 0), 1)))
		}
	}
	b = protowire.AppendTag(b, fTensorRawData, protowire.BytesType)
	b = protowire.AppendBytes(b, raw)
	return b, nil
}

func (v *ValueInfo) marshal() []byte {
	var shape []byte
	for _, d := range v.Shape {
		var dm []byte
		if d.Param != "" {
			dm = appendString(dm, fDimParam, d.Param)
		} else {
			dm = protowire.AppendTag(dm, fDimValue, protowire.VarintType)
			dm = protowire.AppendVarint(dm, uint64(d.Value))
		}
		shape = appendMsg(shape, fShapeDim, dm)
	}
	var tt []byte
	tt = protowire.AppendTag(tt, fTensorElemType, protowire.VarintType)
	tt = protowire.AppendVarint(tt, uint64(v.Type))
	tt = appendMsg(tt, fTensorShape, shape)
	var typ []byte
	typ = appendMsg(typ, fTypeTensor, tt)
	var b []byte
	b = appendString(b, fValueName, v.Name)
	b = appendMsg(b, fValueType, typ)
	return b
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
