// RUN: fusion-opt %s --split-input-file -p linalg-drop-payload-asserts | filecheck %s

// torch-mlir's reciprocal: the nonzero check inside the payload goes, with the compare only it
// read; the division stays.

// CHECK-LABEL: func.func @reciprocal
// CHECK:       ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NOT:     arith.cmpf
// CHECK-NOT:     cf.assert
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %{{.*}}, %[[X]] : f32
// CHECK-NEXT:    linalg.yield %[[Q]] : f32
func.func @reciprocal(%x: tensor<1x?x1xf32>) -> tensor<1x?x1xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %n = tensor.dim %x, %c1 : tensor<1x?x1xf32>
  %e = tensor.empty(%n) : tensor<1x?x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x?x1xf32>) outs(%e : tensor<1x?x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %nonzero = arith.cmpf one, %in, %zero : f32
    cf.assert %nonzero, "unimplemented: tensor with zero element"
    %q = arith.divf %one, %in : f32
    linalg.yield %q : f32
  } -> tensor<1x?x1xf32>
  return %r : tensor<1x?x1xf32>
}

// -----

// A gather's bounds checks go; the compare the payload also selects with stays.

// CHECK-LABEL: func.func @gather_bounds
// CHECK-NOT:     arith.cmpi sge
// CHECK:         %[[NEG:.*]] = arith.cmpi slt
// CHECK-NOT:     cf.assert
// CHECK:         arith.select %[[NEG]]
// CHECK-NOT:     cf.assert
// CHECK:         linalg.yield
func.func @gather_bounds(%ids: tensor<4xi64>, %table: tensor<16x8xf32>) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : i64
  %c16 = arith.constant 16 : i64
  %c16i = arith.constant 16 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%id: i64, %o: f32):
    %nonneg = arith.cmpi sge, %id, %c0 : i64
    cf.assert %nonneg, "index must be larger or equal to 0"
    %neg = arith.cmpi slt, %id, %c0 : i64
    %wrapped = arith.addi %id, %c16 : i64
    %w = arith.select %neg, %wrapped, %id : i64
    %wi = arith.index_cast %w : i64 to index
    %small = arith.cmpi slt, %wi, %c16i : index
    cf.assert %small, "index must be smaller than dim size"
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%wi, %col] : tensor<16x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Negative: an assert between ops (a shape check) is not in a payload and stays.

// CHECK-LABEL: func.func @shape_check_kept
// CHECK:         %[[SAME:.*]] = arith.cmpi eq
// CHECK-NEXT:    cf.assert %[[SAME]], "mismatched size for broadcast"
func.func @shape_check_kept(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %na = tensor.dim %a, %c0 : tensor<?xf32>
  %nb = tensor.dim %b, %c0 : tensor<?xf32>
  %same = arith.cmpi eq, %na, %nb : index
  cf.assert %same, "mismatched size for broadcast"
  %e = tensor.empty(%na) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A condition that reads one value twice (a NaN check): that value's op, dead once the compare
// goes, is erased once.

// CHECK-LABEL: func.func @condition_reads_a_value_twice
// CHECK:       ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:    linalg.yield %[[IN]] : f32
func.func @condition_reads_a_value_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %sq = arith.mulf %in, %in : f32
    %ordered = arith.cmpf ord, %sq, %sq : f32
    cf.assert %ordered, "value is NaN"
    linalg.yield %in : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
