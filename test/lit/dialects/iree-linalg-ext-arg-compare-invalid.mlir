// RUN: fusion-opt %s --split-input-file --verify-diagnostics

util.func public @wrong_output_shape(%x: tensor<4x8xf32>, %v: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  // expected-error @+1 {{outputs must have the input shape without dimension 1: [4], got tensor<8xf32>}}
  %r:2 = iree_linalg_ext.arg_compare dimension(1) ins(%x : tensor<4x8xf32>) outs(%v, %i : tensor<8xf32>, tensor<8xi32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %c : i1
  } -> tensor<8xf32>, tensor<8xi32>
  util.return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}

// -----

util.func public @float_index(%x: tensor<4xf32>, %v: tensor<f32>, %i: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // expected-error @+1 {{the output index must be an integer}}
  %r:2 = iree_linalg_ext.arg_compare dimension(0) ins(%x : tensor<4xf32>) outs(%v, %i : tensor<f32>, tensor<f32>) {
    ^bb0(%a: f32, %b: f32):
      %c = arith.cmpf ogt, %a, %b : f32
      iree_linalg_ext.yield %c : i1
  } -> tensor<f32>, tensor<f32>
  util.return %r#0, %r#1 : tensor<f32>, tensor<f32>
}
