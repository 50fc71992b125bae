// This file reads a model's protobuf encoding.

package onnx

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// maxElements bounds one tensor's element count on reading (2^31): a
// larger tensor is refused rather than allocated.
const maxElements = 1 << 31

// fields walks the fields of one message, calling f with each field's
// number, wire type and raw value (the varint or fixed value in v, the
// bytes in p). It returns the first error.
func fields(b []byte, what string, f func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("onnx: %s: %w", what, protowire.ParseError(n))
		}
		b = b[n:]
		var v uint64
		var p []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.Fixed32Type:
			var u uint32
			u, n = protowire.ConsumeFixed32(b)
			v = uint64(u)
		case protowire.Fixed64Type:
			v, n = protowire.ConsumeFixed64(b)
		case protowire.BytesType:
			p, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("onnx: %s: field %d: %w", what, num, protowire.ParseError(n))
		}
		b = b[n:]
		if err := f(num, typ, v, p); err != nil {
			return err
		}
	}
	return nil
}

func want(what string, num protowire.Number, typ, w protowire.Type) error {
	if typ != w {
		return fmt.Errorf("onnx: %s: field %d has wire type %d, want %d", what, num, typ, w)
	}
	return nil
}

// Unmarshal reads an ONNX model. It returns an error if b is not a valid
// encoding of the subset this package models (see the package doc).
func Unmarshal(b []byte) (*Model, error) {
	m := &Model{Opsets: map[string]int64{}, Metadata: map[string]string{}}
	seenGraph := false
	err := fields(b, "model", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
		switch num {
		case fModelIRVersion:
			m.IRVersion = int64(v)
		case fModelProducerName:
			m.ProducerName = string(p)
		case fModelProducerVersion:
			m.ProducerVersion = string(p)
		case fModelDocString:
			m.Doc = string(p)
		case fModelGraph:
			if err := want("model", num, typ, protowire.BytesType); err != nil {
				return err
			}
			seenGraph = true
			return m.Graph.unmarshal(p)
		case fModelOpsetImport:
			var dom string
			var ver int64
			if err := fields(p, "opset_import", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
				switch num {
				case fOpsetDomain:
					dom = string(p)
				case fOpsetVersion:
					ver = int64(v)
				}
				return nil
			}); err != nil {
				return err
			}
			m.Opsets[dom] = ver
		case fModelMetadataProps:
			var k, val string
			if err := fields(p, "metadata_props", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
				switch num {
				case fEntryKey:
					k = string(p)
				case fEntryValue:
					val = string(p)
				}
				return nil
			}); err != nil {
				return err
			}
			m.Metadata[k] = val
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !seenGraph {
		return nil, errors.New("onnx: model has no graph")
	}
	return m, nil
}

func (g *Graph) unmarshal(b []byte) error {
	return fields(b, "graph", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
		if num == fGraphName || num == fGraphDocString || num == fGraphNode || num == fGraphInitializer ||
			num == fGraphInput || num == fGraphOutput {
			if err := want("graph", num, typ, protowire.BytesType); err != nil {
				return err
			}
		}
		switch num {
		case fGraphName:
			g.Name = string(p)
		case fGraphDocString:
			g.Doc = string(p)
		case fGraphNode:
			var n Node
			if err := n.unmarshal(p); err != nil {
				return err
			}
			g.Nodes = append(g.Nodes, n)
		case fGraphInitializer:
			var t Tensor
			if err := t.unmarshal(p); err != nil {
				return err
			}
			g.Initializers = append(g.Initializers, t)
		case fGraphInput, fGraphOutput:
			var vi ValueInfo
			if err := vi.unmarshal(p); err != nil {
				return err
			}
			if num == fGraphInput {
				g.Inputs = append(g.Inputs, vi)
			} else {
				g.Outputs = append(g.Outputs, vi)
			}
		}
		return nil
	})
}

func (n *Node) unmarshal(b []byte) error {
	return fields(b, "node", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
		switch num {
		case fNodeInput:
			n.In = append(n.In, string(p))
		case fNodeOutput:
			n.Out = append(n.Out, string(p))
		case fNodeName:
			n.Name = string(p)
		case fNodeOpType:
			n.Op = string(p)
		case fNodeDomain:
			n.Domain = string(p)
		case fNodeAttribute:
			var a Attr
			if err := a.unmarshal(p); err != nil {
				return err
			}
			n.Attrs = append(n.Attrs, a)
		}
		return nil
	})
}

func (a *Attr) unmarshal(b []byte) error {
	return fields(b, "attribute", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
		switch num {
		case fAttrName:
			a.Name = string(p)
		case fAttrType:
			a.Type = AttrType(v)
		case fAttrF:
			a.F = math.Float32frombits(uint32(v))
		case fAttrI:
			a.I = int64(v)
		case fAttrS:
			a.S = string(p)
		case fAttrT:
			a.T = new(Tensor)
			return a.T.unmarshal(p)
		case fAttrFloats:
			if typ == protowire.BytesType { // packed
				for len(p) >= 4 {
					a.Floats = append(a.Floats, math.Float32frombits(binary.LittleEndian.Uint32(p)))
					p = p[4:]
				}
				return nil
			}
			a.Floats = append(a.Floats, math.Float32frombits(uint32(v)))
		case fAttrInts:
			if typ == protowire.BytesType { // packed
				for len(p) > 0 {
					x, n := protowire.ConsumeVarint(p)
					if n < 0 {
						return fmt.Errorf("onnx: attribute %q: %w", a.Name, protowire.ParseError(n))
					}
					a.Ints = append(a.Ints, int64(x))
					p = p[n:]
				}
				return nil
			}
			a.Ints = append(a.Ints, int64(v))
		case fAttrStrs:
			a.Strings = append(a.Strings, string(p))
		}
		return nil
	})
}

func (t *Tensor) unmarshal(b []byte) error {
	var raw []byte
	hasRaw, external := false, false
	err := fields(b, "tensor", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
		switch num {
		case fTensorDims:
			if typ == protowire.BytesType {
				for len(p) > 0 {
					x, n := protowire.ConsumeVarint(p)
					if n < 0 {
						return fmt.Errorf("onnx: tensor dims: %w", protowire.ParseError(n))
					}
					t.Dims = append(t.Dims, int64(x))
					p = p[n:]
				}
				return nil
			}
			t.Dims = append(t.Dims, int64(v))
		case fTensorDataType:
			t.Type = DataType(v)
		case fTensorName:
			t.Name = string(p)
		case fTensorRawData:
			raw, hasRaw = p, true
		case fTensorDataLocation:
			external = v == 1
		case fTensorExternalData:
			external = true
		case fTensorFloatData:
			if typ == protowire.BytesType {
				for len(p) >= 4 {
					t.F32 = append(t.F32, math.Float32frombits(binary.LittleEndian.Uint32(p)))
					p = p[4:]
				}
				return nil
			}
			t.F32 = append(t.F32, math.Float32frombits(uint32(v)))
		case fTensorDoubleData:
			if typ == protowire.BytesType {
				for len(p) >= 8 {
					t.F64 = append(t.F64, math.Float64frombits(binary.LittleEndian.Uint64(p)))
					p = p[8:]
				}
				return nil
			}
			t.F64 = append(t.F64, math.Float64frombits(v))
		case fTensorInt64Data, fTensorInt32Data:
			if typ == protowire.BytesType {
				for len(p) > 0 {
					x, n := protowire.ConsumeVarint(p)
					if n < 0 {
						return fmt.Errorf("onnx: tensor data: %w", protowire.ParseError(n))
					}
					t.I64 = append(t.I64, varintInt(num, x))
					p = p[n:]
				}
				return nil
			}
			t.I64 = append(t.I64, varintInt(num, v))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if external {
		return fmt.Errorf("onnx: tensor %q: values in external data are not read", t.Name)
	}
	for _, d := range t.Dims {
		if d < 0 || d > maxElements {
			return fmt.Errorf("onnx: tensor %q: dimension %d", t.Name, d)
		}
	}
	n := int64(1)
	for _, d := range t.Dims {
		if n *= d; n > maxElements {
			return fmt.Errorf("onnx: tensor %q: dims %v exceed %d elements", t.Name, t.Dims, int64(maxElements))
		}
	}
	if hasRaw {
		size := map[DataType]int64{Float: 4, Double: 8, Int64: 8, Int32: 4, Bool: 1}[t.Type]
		if size == 0 {
			return fmt.Errorf("onnx: tensor %q: element type %v not supported", t.Name, t.Type)
		}
		if int64(len(raw)) != n*size {
			return fmt.Errorf("onnx: tensor %q: %d raw bytes for dims %v", t.Name, len(raw), t.Dims)
		}
		switch t.Type {
		case Float:
			t.F32 = make([]float32, n)
			for i := range t.F32 {
				t.F32[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			}
		case Double:
			t.F64 = make([]float64, n)
			for i := range t.F64 {
				t.F64[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			}
		case Int64:
			t.I64 = make([]int64, n)
			for i := range t.I64 {
				t.I64[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
			}
		case Int32:
			t.I64 = make([]int64, n)
			for i := range t.I64 {
				t.I64[i] = int64(int32(binary.LittleEndian.Uint32(raw[4*i:])))
			}
		case Bool:
			t.I64 = make([]int64, n)
			for i := range t.I64 {
				t.I64[i] = int64(raw[i])
			}
		}
	}
	if t.Type == 0 {
		return fmt.Errorf("onnx: tensor %q has no element type", t.Name)
	}
	return t.check()
}

// varintInt reads an int32_data or int64_data varint as a signed value.
func varintInt(num protowire.Number, x uint64) int64 {
	if num == fTensorInt32Data {
		return int64(int32(x))
	}
	return int64(x)
}

func (vi *ValueInfo) unmarshal(b []byte) error {
	return fields(b, "value_info", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
		switch num {
		case fValueName:
			vi.Name = string(p)
		case fValueType:
			return fields(p, "type", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
				if num != fTypeTensor {
					return nil // sequence, map, …: kept as an untyped value
				}
				return fields(p, "tensor_type", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
					switch num {
					case fTensorElemType:
						vi.Type = DataType(v)
					case fTensorShape:
						vi.Shape = []Dim{}
						return fields(p, "shape", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
							if num != fShapeDim {
								return nil
							}
							var d Dim
							err := fields(p, "dim", func(num protowire.Number, typ protowire.Type, v uint64, p []byte) error {
								switch num {
								case fDimValue:
									d.Value = int64(v)
								case fDimParam:
									d.Param = string(p)
								}
								return nil
							})
							vi.Shape = append(vi.Shape, d)
							return err
						})
					}
					return nil
				})
			})
		}
		return nil
	})
}
