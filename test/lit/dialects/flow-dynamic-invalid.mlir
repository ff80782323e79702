// RUN: fusion-opt %s --split-input-file --verify-diagnostics

util.func @missing_dims(%a: tensor<?xf32>, %n: index) {
  // expected-error@+1 {{0 result dims given for 1 dynamic result dimensions}}
  %0 = "flow.dispatch.region"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    "flow.return"(%a) : (tensor<?xf32>) -> ()
  }, {}) : () -> tensor<?xf32>
  util.return
}

// -----

util.func @constant_type() {
  // expected-error@+1 {{value type tensor<4xf32> differs from result type tensor<8xf32>}}
  %0 = "flow.tensor.constant"() <{value = dense<1.0> : tensor<4xf32>}> : () -> tensor<8xf32>
  util.return
}

// -----

util.func @bitcast_bits(%a: tensor<4xf32>) {
  // expected-error@+1 {{bitcast from tensor<4xf32> to tensor<4xf16> changes the number of bits}}
  %b = iree_tensor_ext.bitcast %a : tensor<4xf32> -> tensor<4xf16>
  util.return
}

// -----

util.func @barrier_dims(%a: tensor<?xf32>) {
  // expected-error@+1 {{0 value dims for 1 dynamic dimensions of tensor<?xf32>}}
  %b = iree_tensor_ext.compute_barrier.start %a : tensor<?xf32> -> tensor<?xf32>
  util.return
}
