// RUN: fusion-opt %s --split-input-file --verify-diagnostics

#enc = #iree_encoding.testing<>
util.func @shape_changes(%t: tensor<4xf32>) {
  // expected-error@+1 {{source tensor<4xf32> and result tensor<8xf32, #iree_encoding.testing<>> differ in shape or element type}}
  %e = iree_encoding.set_encoding %t : tensor<4xf32> -> tensor<8xf32, #enc>
  util.return
}

// -----

util.func @no_encoding(%t: tensor<4xf32>) {
  // expected-error@+1 {{result of set_encoding must carry an encoding}}
  %e = iree_encoding.set_encoding %t : tensor<4xf32> -> tensor<4xf32>
  util.return
}

// -----

#enc = #iree_encoding.testing<>
util.func @dims_count(%t: tensor<?x?xf32, #enc>, %d: index) {
  // expected-error@+1 {{1 result dims for 2 dynamic dimensions}}
  %u = iree_encoding.unset_encoding %t : tensor<?x?xf32, #enc> -> tensor<?x?xf32>{%d}
  util.return
}

// -----

#enc = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], iteration_sizes = [?, 64, 64]>
util.func @encoding_dims_count(%t: tensor<?x64xf32>, %m: index) {
  // expected-error@+1 {{'iree_encoding.set_encoding' op encoding expects 1 dynamic encoding dimension(s), but 2 provided}}
  %e = iree_encoding.set_encoding %t encoding_dims{%m, %m} : tensor<?x64xf32> -> tensor<?x64xf32, #enc>
  util.return
}

// -----

#enc = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32]>
util.func @encoding_dims_static(%t: tensor<4x64xf32, #enc>, %m: index) {
  // expected-error@+1 {{'iree_encoding.unset_encoding' op encoding expects 0 dynamic encoding dimension(s), but 1 provided}}
  %u = iree_encoding.unset_encoding %t encoding_dims{%m} : tensor<4x64xf32, #enc> -> tensor<4x64xf32>
  util.return
}

// -----

util.func @buffer_view_dim_negative(%v: !hal.buffer_view) {
  // expected-error@+1 {{'hal.buffer_view.dim' op dimension index -1 is negative}}
  %d = hal.buffer_view.dim<%v : !hal.buffer_view>[-1] : index
  util.return
}

// -----

util.func @buffer_view_dim_of_fence(%f: !hal.fence) {
  // expected-error@+1 {{buffer_view}}
  %d = hal.buffer_view.dim<%f : !hal.fence>[0] : index
  util.return
}
