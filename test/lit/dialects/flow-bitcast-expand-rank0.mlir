// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// flow.tensor.bitcast: iree_tensor_ext.bitcast's syntax at flow level, here onto a packed i1 encoding.
// CHECK-LABEL: util.func public @flow_bitcast
// CHECK: flow.tensor.bitcast %{{.*}} : tensor<4xi8> -> tensor<1x1x4x8xi1, #iree_encoding.packed_storage>
// CHECK: flow.tensor.bitcast %{{.*}} : tensor<?x2xf32>{%{{.*}}} -> tensor<?x2xi32>{%{{.*}}}
util.func public @flow_bitcast(%a: tensor<4xi8>, %b: tensor<?x2xf32>, %n: index) -> (tensor<1x1x4x8xi1, #iree_encoding.packed_storage>, tensor<?x2xi32>) {
  %e = flow.tensor.bitcast %a : tensor<4xi8> -> tensor<1x1x4x8xi1, #iree_encoding.packed_storage>
  %f = flow.tensor.bitcast %b : tensor<?x2xf32>{%n} -> tensor<?x2xi32>{%n}
  util.return %e, %f : tensor<1x1x4x8xi1, #iree_encoding.packed_storage>, tensor<?x2xi32>
}

// -----

// A 0-d tensor expands into unit dimensions by the empty reassociation (MLIR's rule).
// CHECK-LABEL: func.func @expand_rank0
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @expand_rank0(%t: tensor<f32>) -> tensor<1x1xf32> {
  %e = tensor.expand_shape %t [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  return %e : tensor<1x1xf32>
}
