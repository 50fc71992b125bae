// This file names onnx.proto's field numbers and enums.

package onnx

import "google.golang.org/protobuf/encoding/protowire"

// Field numbers of onnx.proto, by message.
const (
	// ModelProto
	fModelIRVersion       protowire.Number = 1
	fModelProducerName    protowire.Number = 2
	fModelProducerVersion protowire.Number = 3
	fModelDomain          protowire.Number = 4
	fModelVersion         protowire.Number = 5
	fModelDocString       protowire.Number = 6
	fModelGraph           protowire.Number = 7
	fModelOpsetImport     protowire.Number = 8
	fModelMetadataProps   protowire.Number = 14

	// OperatorSetIdProto
	fOpsetDomain  protowire.Number = 1
	fOpsetVersion protowire.Number = 2

	// StringStringEntryProto
	fEntryKey   protowire.Number = 1
	fEntryValue protowire.Number = 2

	// GraphProto
	fGraphNode        protowire.Number = 1
	fGraphName        protowire.Number = 2
	fGraphInitializer protowire.Number = 5
	fGraphDocString   protowire.Number = 10
	fGraphInput       protowire.Number = 11
	fGraphOutput      protowire.Number = 12
	fGraphValueInfo   protowire.Number = 13

	// NodeProto
	fNodeInput     protowire.Number = 1
	fNodeOutput    protowire.Number = 2
	fNodeName      protowire.Number = 3
	fNodeOpType    protowire.Number = 4
	fNodeAttribute protowire.Number = 5
	fNodeDocString protowire.Number = 6
	fNodeDomain    protowire.Number = 7

	// AttributeProto
	fAttrName   protowire.Number = 1
	fAttrF      protowire.Number = 2
	fAttrI      protowire.Number = 3
	fAttrS      protowire.Number = 4
	fAttrT      protowire.Number = 5
	fAttrG      protowire.Number = 6
	fAttrFloats protowire.Number = 7
	fAttrInts   protowire.Number = 8
	fAttrStrs   protowire.Number = 9
	fAttrType   protowire.Number = 20

	// TensorProto
	fTensorDims         protowire.Number = 1
	fTensorDataType     protowire.Number = 2
	fTensorFloatData    protowire.Number = 4
	fTensorInt32Data    protowire.Number = 5
	fTensorInt64Data    protowire.Number = 7
	fTensorName         protowire.Number = 8
	fTensorRawData      protowire.Number = 9
	fTensorDoubleData   protowire.Number = 10
	fTensorExternalData protowire.Number = 13
	fTensorDataLocation protowire.Number = 14

	// ValueInfoProto
	fValueName protowire.Number = 1
	fValueType protowire.Number = 2

	// TypeProto, TypeProto.Tensor, TensorShapeProto, Dimension
	fTypeTensor     protowire.Number = 1
	fTensorElemType protowire.Number = 1
	fTensorShape    protowire.Number = 2
	fShapeDim       protowire.Number = 1
	fDimValue       protowire.Number = 1
	fDimParam       protowire.Number = 2
)

// DataType is onnx.proto's TensorProto.DataType.
type DataType int32

// The element types this package reads and writes.
const (
	Float  DataType = 1
	Int32  DataType = 6
	Int64  DataType = 7
	Bool   DataType = 9
	Double DataType = 11
)

func (t DataType) String() string {
	switch t {
	case Float:
		return "float32"
	case Int32:
		return "int32"
	case Int64:
		return "int64"
	case Bool:
		return "bool"
	case Double:
		return "float64"
	}
	return "type" + itoa(int64(t))
}

// AttrType is onnx.proto's AttributeProto.AttributeType.
type AttrType int32

// The attribute types this package reads and writes.
const (
	AttrFloat   AttrType = 1
	AttrInt     AttrType = 2
	AttrString  AttrType = 3
	AttrTensor  AttrType = 4
	AttrGraph   AttrType = 5
	AttrFloats  AttrType = 6
	AttrInts    AttrType = 7
	AttrStrings AttrType = 8
)
