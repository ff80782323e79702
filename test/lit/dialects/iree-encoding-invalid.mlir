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
