// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// flow ops in IREE's exact custom syntax; the generic form carries IREE's operand segments
// (empty dynamic-dimension lists) so iree-opt reads it too (see test/unit/test_iree_interop.py).

// CHECK-LABEL: func.func @tensor_ops
// CHECK: %[[S:.*]] = flow.tensor.slice %src[%c0, %c1 for %c2, %c3] : tensor<4x8xf32> -> tensor<2x3xf32>
// CHECK: %[[U:.*]] = flow.tensor.update %[[S]], %src[%c0, %c1] : tensor<2x3xf32> -> %src as tensor<4x8xf32>
// CHECK: %[[R:.*]] = flow.tensor.reshape %[[U]] : tensor<4x8xf32> -> tensor<32xf32>
// CHECK: %[[P:.*]] = flow.tensor.splat %v : tensor<4x8xf32> attributes {note = "x"}
// GENERIC-LABEL: sym_name = "tensor_ops"
// GENERIC: "flow.tensor.slice"(%src, %c0, %c1, %c2, %c3) <{operandSegmentSizes = array<i32: 1, 0, 2, 2, 0>}>
// GENERIC: "flow.tensor.update"(%src, %c0, %c1, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 2, 1, 0>}>
// GENERIC: "flow.tensor.reshape"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0, 0>}>
// GENERIC: "flow.tensor.splat"(%v) {note = "x"} : (f32) -> tensor<4x8xf32>
func.func @tensor_ops(%src: tensor<4x8xf32>, %v: f32) -> (tensor<32xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %0 = flow.tensor.slice %src[%c0, %c1 for %c2, %c3] : tensor<4x8xf32> -> tensor<2x3xf32>
  %1 = flow.tensor.update %0, %src[%c0, %c1] : tensor<2x3xf32> -> %src as tensor<4x8xf32>
  %2 = flow.tensor.reshape %1 : tensor<4x8xf32> -> tensor<32xf32>
  %3 = flow.tensor.splat %v : tensor<4x8xf32> attributes {note = "x"}
  func.return %2, %3 : tensor<32xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @dispatch_regions
// CHECK: %[[D:.*]], %[[E:.*]] = flow.dispatch.region -> (tensor<4x8xf32>, tensor<4x8xf32>) {
// CHECK-NEXT: %[[X:.*]] = arith.addf %a, %b : tensor<4x8xf32>
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[X]], %b : tensor<4x8xf32>
// CHECK-NEXT: flow.return %[[X]], %[[Y]] : tensor<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: }
// CHECK: %[[F:.*]] = flow.dispatch.region -> (tensor<4x8xf32>) attributes {tag = 1 : i64} {
// CHECK-NEXT: flow.return %[[E]] : tensor<4x8xf32>
// GENERIC-LABEL: sym_name = "dispatch_regions"
// GENERIC: "flow.dispatch.region"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
// GENERIC: "flow.return"
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : () -> (tensor<4x8xf32>, tensor<4x8xf32>)
func.func @dispatch_regions(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0:2 = flow.dispatch.region -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %x = arith.addf %a, %b : tensor<4x8xf32>
    %y = arith.mulf %x, %b : tensor<4x8xf32>
    flow.return %x, %y : tensor<4x8xf32>, tensor<4x8xf32>
  }
  %1 = flow.dispatch.region -> (tensor<4x8xf32>) attributes {tag = 1} {
    flow.return %0#1 : tensor<4x8xf32>
  }
  func.return %1 : tensor<4x8xf32>
}
