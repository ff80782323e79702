// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @unranked_result_static_shape(%t: tensor<4xf32>, %s: tensor<2xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{an unranked result needs a shape operand of dynamic length}}
  %r = tensor.reshape %t(%s) : (tensor<4xf32>, tensor<2xi32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// -----

func.func @element_count(%t: tensor<4xf32>, %s: tensor<2xi32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{source and result tensor should have the same number of elements}}
  %r = tensor.reshape %t(%s) : (tensor<4xf32>, tensor<2xi32>) -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}
