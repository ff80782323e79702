// iree_linalg_ext.sort / topk / gather as IREE 3.13 prints them: custom and generic forms
// round-trip and iree-opt re-reads both (sort's generic form carries operandSegmentSizes,
// topk's does not: its last two operands are the outputs).
// RUN: fusion-opt %s | filecheck %s
// RUN: fusion-opt %s | fusion-opt | filecheck %s
// RUN: fusion-opt %s --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: %if iree %{ fusion-opt %s | iree-opt | filecheck %s --check-prefix=IREE %}
// RUN: %if iree %{ fusion-opt %s --print-op-generic | iree-opt | filecheck %s --check-prefix=IREE %}

// CHECK-LABEL: func.func @sort
// CHECK: iree_linalg_ext.sort dimension(1) outs(%{{.*}}, %{{.*}} : tensor<3x4xf32>, tensor<3x4xi32>) {
// CHECK: iree_linalg_ext.yield %{{.*}} : i1
// CHECK: } -> tensor<3x4xf32>, tensor<3x4xi32>
// GEN-LABEL: sym_name = "sort"
// GEN: "iree_linalg_ext.sort"(%{{.*}}, %{{.*}}) <{dimension = 1 : i64, operandSegmentSizes = array<i32: 0, 2>}>
// IREE-LABEL: func.func @sort
// IREE: iree_linalg_ext.sort dimension(1) outs(
func.func @sort(%a: tensor<3x4xf32>, %b: tensor<3x4xi32>) -> (tensor<3x4xf32>, tensor<3x4xi32>) {
  %0:2 = iree_linalg_ext.sort dimension(1) outs(%a, %b : tensor<3x4xf32>, tensor<3x4xi32>) {
  ^bb0(%l0: f32, %r0: f32, %l1: i32, %r1: i32):
    %c = arith.cmpf ogt, %l0, %r0 : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<3x4xf32>, tensor<3x4xi32>
  return %0#0, %0#1 : tensor<3x4xf32>, tensor<3x4xi32>
}

// CHECK-LABEL: func.func @topk
// CHECK: iree_linalg_ext.topk dimension(1) ins(%{{.*}} : tensor<2x10xf32>) outs(%{{.*}}, %{{.*}} : tensor<2x3xf32>, tensor<2x3xi32>) {
// CHECK: } -> tensor<2x3xf32>, tensor<2x3xi32>
// GEN-LABEL: sym_name = "topk"
// GEN: "iree_linalg_ext.topk"(%{{.*}}, %{{.*}}, %{{.*}}) <{dimension = 1 : i64}>
// IREE-LABEL: func.func @topk
// IREE: iree_linalg_ext.topk dimension(1) ins(
func.func @topk(%v: tensor<2x10xf32>, %ov: tensor<2x3xf32>, %oi: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %0:2 = iree_linalg_ext.topk dimension(1) ins(%v : tensor<2x10xf32>) outs(%ov, %oi : tensor<2x3xf32>, tensor<2x3xi32>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    iree_linalg_ext.yield %c : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<2x3xi32>
}

// CHECK-LABEL: func.func @gather
// CHECK: iree_linalg_ext.gather dimension_map = [1, 0] ins(%{{.*}}, %{{.*}} : tensor<10x9x7xf32>, tensor<4x2xi32>) outs(%{{.*}} : tensor<4x7xf32>) -> tensor<4x7xf32>
// GEN-LABEL: sym_name = "gather"
// GEN: "iree_linalg_ext.gather"(%{{.*}}, %{{.*}}, %{{.*}}) <{dimension_map = array<i64: 1, 0>}>
// IREE-LABEL: func.func @gather
// IREE: iree_linalg_ext.gather dimension_map = [1, 0]
func.func @gather(%s: tensor<10x9x7xf32>, %i: tensor<4x2xi32>, %o: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %0 = iree_linalg_ext.gather dimension_map = [1, 0] ins(%s, %i : tensor<10x9x7xf32>, tensor<4x2xi32>) outs(%o : tensor<4x7xf32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}
