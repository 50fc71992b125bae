// Package onnx reads and writes ONNX models (the subset of onnx.proto that
// feed-forward classifiers use) in pure Go, on google.golang.org/protobuf's
// wire encoder: no cgo, no generated code.
//
// A [Model] holds one [Graph] of [Node]s over named tensors: graph inputs
// and outputs ([ValueInfo], typed and shaped, a dimension either fixed or
// named), initializers ([Tensor]) and nodes with attributes ([Attr]).
// [Model.Marshal] writes the protobuf bytes onnxruntime and onnx.checker
// read; [Unmarshal] reads them back, including models other tools wrote
// (tensors in raw_data or in the typed repeated fields, Constant nodes).
// Fields this package does not model (training info, functions, sparse
// initializers, external data) are skipped on reading; a tensor kept in
// external data is an error, since its values are not in the file.
//
// The field numbers are those of onnx.proto (ONNX 1.12+, Apache-2.0,
// github.com/onnx/onnx/blob/main/onnx/onnx.proto), written out as named
// constants in wire.go; TestWireMatchesProto checks them against the
// onnx.proto that Debian's python3-onnx installs, when it is present.
//
// Conventions: element types are [DataType] values (onnx.proto's
// TensorProto.DataType); shapes are []int64 as in onnx.proto, a negative
// dimension never appears in a Tensor. Bad input (truncated bytes, a field
// of the wrong wire type, a tensor whose data disagrees with its shape)
// returns an error naming what was wrong; nothing panics.
//
// # References
//
//   - [ONNX] Open Neural Network Exchange, "ONNX: Open standard for machine
//     learning interoperability", onnx.proto and docs/IR.md, version 1.12+.
package onnx
