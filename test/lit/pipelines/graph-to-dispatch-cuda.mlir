// `graph-to-dispatch-cuda`, the ONNX route for IREE's CUDA backend: graph-to-dispatch's graph
// stages, then dispatch-creation-cuda. On bert_mini each layer's attention is one
// iree_linalg_ext.attention region and the projections are split along K (a partial-sum region
// of 4 slices, then their sum with the epilogue), which graph-to-dispatch does neither of; a
// conv stays IREE's NCHW conv named op (graph-to-dispatch makes it channels-last).
// RUN: fusion-translate --import-onnx %data/onnx/bert_mini.args.onnx | fusion-opt -p graph-to-dispatch-cuda | filecheck %s
// RUN: fusion-translate --import-onnx %data/onnx/bert_mini.args.onnx | fusion-opt -p graph-to-dispatch | filecheck %s --check-prefix=GENERIC
// RUN: fusion-translate --import-onnx %data/onnx/conv_bn_relu.onnx | fusion-opt -p graph-to-dispatch-cuda | filecheck %s --check-prefix=CONV
// RUN: fusion-translate --import-onnx %data/onnx/conv_bn_relu.onnx | fusion-opt -p graph-to-dispatch | filecheck %s --check-prefix=CONV-GENERIC

// CHECK-LABEL: func.func @main_graph
// CHECK:         flow.dispatch.region -> (tensor<4x64x128xf32>) {
// CHECK:         flow.dispatch.region -> (tensor<64x2x64xf32>) {
// CHECK:           iree_linalg_ext.attention
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<64x2x64xf32>) {
// CHECK:           iree_linalg_ext.attention
// CHECK:           flow.return
// CHECK-NOT:     iree_linalg_ext.attention
// CHECK:         func.return

// GENERIC-LABEL: func.func @main_graph
// GENERIC-NOT:     iree_linalg_ext.attention
// GENERIC-NOT:     tensor<4x64x128xf32>
// GENERIC:         func.return

// CONV-LABEL: func.func @main_graph
// CONV:         flow.dispatch.region -> (tensor<1x24x16x16xf32>) {
// CONV:           linalg.conv_2d_nchw_fchw
// CONV-NOT:     flow.dispatch.region
// CONV:         func.return

// CONV-GENERIC-LABEL: func.func @main_graph
// CONV-GENERIC:         linalg.conv_2d_nhwc_hwcf
