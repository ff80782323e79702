// RUN: fusion-opt %s --split-input-file --verify-diagnostics

util.func @accumulator_shape(%x: tensor<8x32xi64>, %o: tensor<8x32xi64>, %a: tensor<32xi64>) {
  // expected-error@+1 {{incompatible input/accumulator shapes: tensor<8x32xi64> and tensor<32xi64> (dimension 1)}}
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<8x32xi64>) outs(%o, %a : tensor<8x32xi64>, tensor<32xi64>) {
  ^bb0(%run: i64, %e: i64):
    %s = arith.addi %run, %e : i64
    iree_linalg_ext.yield %s : i64
  } -> tensor<8x32xi64>, tensor<32xi64>
  util.return
}

// -----

util.func @output_shape(%x: tensor<8x32xi64>, %o: tensor<8x31xi64>, %a: tensor<8xi64>) {
  // expected-error@+1 {{incompatible input/output shapes: tensor<8x32xi64> and tensor<8x31xi64>}}
  %r:2 = iree_linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<8x32xi64>) outs(%o, %a : tensor<8x31xi64>, tensor<8xi64>) {
  ^bb0(%run: i64, %e: i64):
    %s = arith.addi %run, %e : i64
    iree_linalg_ext.yield %s : i64
  } -> tensor<8x31xi64>, tensor<8xi64>
  util.return
}

// -----

util.func @dimension_range(%x: tensor<8x32xi64>, %o: tensor<8x32xi64>, %a: tensor<8xi64>) {
  // expected-error@+1 {{dimension must be within [0, 2)}}
  %r:2 = iree_linalg_ext.scan dimension(2) inclusive(true) ins(%x : tensor<8x32xi64>) outs(%o, %a : tensor<8x32xi64>, tensor<8xi64>) {
  ^bb0(%run: i64, %e: i64):
    %s = arith.addi %run, %e : i64
    iree_linalg_ext.yield %s : i64
  } -> tensor<8x32xi64>, tensor<8xi64>
  util.return
}

// -----

util.func @yield_type(%x: tensor<4xi64>, %o: tensor<4xi64>, %a: tensor<i64>) {
  // expected-error@+1 {{region must yield one i64}}
  %r:2 = iree_linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<4xi64>) outs(%o, %a : tensor<4xi64>, tensor<i64>) {
  ^bb0(%run: i64, %e: i64):
    %c = arith.cmpi slt, %run, %e : i64
    iree_linalg_ext.yield %c : i1
  } -> tensor<4xi64>, tensor<i64>
  util.return
}
