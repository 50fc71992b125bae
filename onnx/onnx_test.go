package onnx

import (
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func sample() *Model {
	return &Model{
		ProducerName: "test", Doc: "doc", Opsets: map[string]int64{"": 13, "ai.onnx.ml": 3},
		Metadata: map[string]string{"k": "v"},
		Graph: Graph{
			Name: "g",
			Nodes: []Node{
				{Name: "mm", Op: "MatMul", In: []string{"X", "W"}, Out: []string{"Y"}},
				{Name: "am", Op: "ArgMax", In: []string{"Y"}, Out: []string{"I"}, Attrs: []Attr{Int("axis", -1), Ints("perm", 1, 0), Float32Attr("alpha", 0.5),
					TensorAttr("value", Tensor{Type: Int64, Dims: []int64{2}, I64: []int64{-3, 1 << 40}}), {Name: "s", Type: AttrString, S: "hi"}}},
			},
			Initializers: []Tensor{
				{Name: "W", Type: Float, Dims: []int64{2, 2}, F32: []float32{1, -2.5, float32(math.Inf(1)), 0}},
				{Name: "D", Type: Double, Dims: []int64{3}, F64: []float64{math.Pi, -0, 1e-300}},
				{Name: "B", Type: Bool, Dims: []int64{2}, I64: []int64{1, 0}},
				{Name: "I32", Type: Int32, Dims: []int64{2}, I64: []int64{-7, 7}},
				{Name: "S", Type: Double, F64: []float64{2}},
			},
			Inputs:  []ValueInfo{{Name: "X", Type: Float, Shape: []Dim{{Param: "batch"}, {Value: 2}}}},
			Outputs: []ValueInfo{{Name: "I", Type: Int64, Shape: []Dim{{Param: "batch"}}}},
		},
	}
}

// TestRoundTrip: what Marshal writes, Unmarshal reads back equal.
func TestRoundTrip(t *testing.T) {
	m := sample()
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	m.IRVersion = IRVersion
	if !reflect.DeepEqual(got, m) {
		t.Errorf("round trip: got %+v, want %+v", got, m)
	}
	// Bad tensors are refused on writing.
	m.Graph.Initializers[0].F32 = m.Graph.Initializers[0].F32[:3]
	_, err = m.Marshal()
	if err == nil {
		t.Error("want an error, got nil")
	}
}

// TestUnmarshalBadInput: every truncation of a valid model, and bytes of
// the wrong shape, give an error or a model, never a panic; a tensor
// whose data disagrees with its dims is an error.
func TestUnmarshalBadInput(t *testing.T) {
	b, err := sample().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		_, _ = Unmarshal(b[:i])
	}
	_, err = Unmarshal(nil)
	if err == nil {
		t.Errorf("no graph: no error")
	}
	_, err = Unmarshal([]byte{0xff, 0xff, 0xff})
	if err == nil {
		t.Error("want an error, got nil")
	}
	// A tensor with 3 floats' raw bytes for dims [2, 2].
	var tb []byte
	tb = protowire.AppendTag(tb, fTensorDims, protowire.VarintType)
	tb = protowire.AppendVarint(tb, 2)
	tb = protowire.AppendTag(tb, fTensorDims, protowire.VarintType)
	tb = protowire.AppendVarint(tb, 2)
	tb = protowire.AppendTag(tb, fTensorDataType, protowire.VarintType)
	tb = protowire.AppendVarint(tb, uint64(Float))
	tb = protowire.AppendTag(tb, fTensorRawData, protowire.BytesType)
	tb = protowire.AppendBytes(tb, make([]byte, 12))
	var g []byte
	g = appendMsg(g, fGraphInitializer, tb)
	var mb []byte
	mb = appendMsg(mb, fModelGraph, g)
	_, err = Unmarshal(mb)
	if err == nil || !strings.Contains(err.Error(), "raw bytes") {
		t.Errorf("error %v, want one containing %q", err, "raw bytes")
	}
	// A huge dimension is refused before allocating.
	var hb []byte
	hb = protowire.AppendTag(hb, fTensorDims, protowire.VarintType)
	hb = protowire.AppendVarint(hb, 1<<40)
	hb = protowire.AppendTag(hb, fTensorDataType, protowire.VarintType)
	hb = protowire.AppendVarint(hb, uint64(Double))
	_, err = Unmarshal(appendMsg(nil, fModelGraph, appendMsg(nil, fGraphInitializer, hb)))
	if err == nil {
		t.Error("want an error, got nil")
	}
}

// FuzzUnmarshal: no input panics.
func FuzzUnmarshal(f *testing.F) {
	b, _ := sample().Marshal()
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) { _, _ = Unmarshal(b) })
}

// TestWireMatchesProto checks the field numbers of wire.go against the
// onnx.proto that Debian's python3-onnx installs (skipped where it is
// absent).
func TestWireMatchesProto(t *testing.T) {
	src, err := os.ReadFile("/usr/lib/python3/dist-packages/onnx/onnx.proto")
	if err != nil {
		t.Skip("onnx.proto not installed (python3-onnx)")
	}
	field := func(msg, name string) protowire.Number {
		// The message's body up to its first nested "message" or its end.
		re := regexp.MustCompile(`(?s)message ` + msg + ` \{(.*?)\n\}`)
		body := re.FindSubmatch(src)
		if body == nil {
			t.Fatalf("message %s: nil", msg)
		}
		f := regexp.MustCompile(`\b` + name + ` = (\d+)`).FindSubmatch(body[1])
		if f == nil {
			t.Fatalf("%s.%s: nil", msg, name)
		}
		v, err := strconv.Atoi(string(f[1]))
		if err != nil {
			t.Fatal(err)
		}
		return protowire.Number(v)
	}
	for _, c := range []struct {
		msg, name string
		want      protowire.Number
	}{
		{"ModelProto", "ir_version", fModelIRVersion}, {"ModelProto", "producer_name", fModelProducerName},
		{"ModelProto", "producer_version", fModelProducerVersion}, {"ModelProto", "doc_string", fModelDocString},
		{"ModelProto", "graph", fModelGraph}, {"ModelProto", "opset_import", fModelOpsetImport},
		{"ModelProto", "metadata_props", fModelMetadataProps},
		{"GraphProto", "node", fGraphNode}, {"GraphProto", "name", fGraphName}, {"GraphProto", "initializer", fGraphInitializer},
		{"GraphProto", "doc_string", fGraphDocString}, {"GraphProto", "input", fGraphInput}, {"GraphProto", "output", fGraphOutput},
		{"NodeProto", "input", fNodeInput}, {"NodeProto", "output", fNodeOutput}, {"NodeProto", "name", fNodeName},
		{"NodeProto", "op_type", fNodeOpType}, {"NodeProto", "attribute", fNodeAttribute}, {"NodeProto", "domain", fNodeDomain},
		{"AttributeProto", "name", fAttrName}, {"AttributeProto", "f", fAttrF}, {"AttributeProto", "i", fAttrI},
		{"AttributeProto", "s", fAttrS}, {"AttributeProto", "t", fAttrT}, {"AttributeProto", "floats", fAttrFloats},
		{"AttributeProto", "ints", fAttrInts}, {"AttributeProto", "strings", fAttrStrs}, {"AttributeProto", "type", fAttrType},
		{"TensorProto", "dims", fTensorDims}, {"TensorProto", "data_type", fTensorDataType}, {"TensorProto", "float_data", fTensorFloatData},
		{"TensorProto", "int32_data", fTensorInt32Data}, {"TensorProto", "int64_data", fTensorInt64Data}, {"TensorProto", "name", fTensorName},
		{"TensorProto", "raw_data", fTensorRawData}, {"TensorProto", "double_data", fTensorDoubleData},
		{"TensorProto", "external_data", fTensorExternalData}, {"TensorProto", "data_location", fTensorDataLocation},
		{"ValueInfoProto", "name", fValueName}, {"ValueInfoProto", "type", fValueType},
		{"OperatorSetIdProto", "domain", fOpsetDomain}, {"OperatorSetIdProto", "version", fOpsetVersion},
		{"StringStringEntryProto", "key", fEntryKey}, {"StringStringEntryProto", "value", fEntryValue},
		{"TensorShapeProto", "dim", fShapeDim}, {"Dimension", "dim_value", fDimValue}, {"Dimension", "dim_param", fDimParam},
	} {
		if c.msg == "Dimension" {
			// Nested in TensorShapeProto.
			re := regexp.MustCompile(`\b` + c.name + ` = (\d+)`).FindSubmatch(src)
			if re == nil {
				t.Fatal("re is nil")
			}
			v, _ := strconv.Atoi(string(re[1]))
			if got := protowire.Number(v); got != c.want {
				t.Errorf("%v: got %v, want %v", c.name, got, c.want)
			}
			continue
		}
		if got := field(c.msg, c.name); got != c.want {
			t.Errorf("%s.%s: got %v, want %v", c.msg, c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		name string
		want DataType
	}{{"FLOAT", Float}, {"INT32", Int32}, {"INT64", Int64}, {"BOOL", Bool}, {"DOUBLE", Double}} {
		f := regexp.MustCompile(`\n\s+` + c.name + ` = (\d+);`).FindSubmatch(src)
		if f == nil {
			t.Fatalf("%v: nil", c.name)
		}
		v, _ := strconv.Atoi(string(f[1]))
		if got := DataType(v); got != c.want {
			t.Errorf("%v: got %v, want %v", c.name, got, c.want)
		}
	}
}
