// RUN: fusion-opt %s --split-input-file --verify-diagnostics

util.func @bitcast_bits(%a: tensor<4xi8>) {
  // expected-error@+1 {{bitcast from tensor<4xi8> to tensor<4xi32> changes the number of bits}}
  %e = flow.tensor.bitcast %a : tensor<4xi8> -> tensor<4xi32>
  util.return
}

// -----

util.func @bitcast_dims(%a: tensor<?xf32>) {
  // expected-error@+1 {{'flow.tensor.bitcast' op 0 source dims for 1 dynamic dimensions of tensor<?xf32>}}
  %e = flow.tensor.bitcast %a : tensor<?xf32> -> tensor<4xi32>
  util.return
}

// -----

func.func @expand_rank0_non_unit(%t: tensor<f32>) {
  // expected-error@+1 {{expanding a 0-d tensor needs a result of unit dimensions, got tensor<1x2xf32>}}
  %e = tensor.expand_shape %t [] output_shape [1, 2] : tensor<f32> into tensor<1x2xf32>
  return
}
