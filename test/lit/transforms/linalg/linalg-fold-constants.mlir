// RUN: fusion-opt %s --split-input-file -p linalg-fold-constants | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-fold-constants{max-growth=1}" | filecheck %s --check-prefix=GROWTH

// A depthwise filter transposed to (kh, kw, c) by a copying generic: the constant comes out
// transposed, the generic, its empty init and the original constant go.

// CHECK-LABEL: func.func @depthwise_filter
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]]> : tensor<1x2x2xf32>
// CHECK-NEXT:    return %[[W]] : tensor<1x2x2xf32>
func.func @depthwise_filter() -> tensor<1x2x2xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>
  %e = tensor.empty() : tensor<1x2x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, 0, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<2x1x1x2xf32>) outs(%e : tensor<1x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x2xf32>
  return %t : tensor<1x2x2xf32>
}

// -----

// A chain folds in block order: the slice of a table, then its reshape. The table has another
// reader, so it stays.

// CHECK-LABEL: func.func @slice_then_reshape
// CHECK-DAG:     %[[TABLE:.*]] = arith.constant dense<{{\[\[}}1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
// CHECK-DAG:     %[[ROW:.*]] = arith.constant dense<{{\[\[\[}}4, 5, 6]]]> : tensor<1x1x3xi64>
// CHECK-NOT:     tensor.extract_slice
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return %[[ROW]], %[[TABLE]]
func.func @slice_then_reshape() -> (tensor<1x1x3xi64>, tensor<2x3xi64>) {
  %table = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %row = tensor.extract_slice %table[1, 0] [1, 3] [1, 1] : tensor<2x3xi64> to tensor<3xi64>
  %r = tensor.expand_shape %row [[0, 1, 2]] output_shape [1, 1, 3] : tensor<3xi64> into tensor<1x1x3xi64>
  return %r, %table : tensor<1x1x3xi64>, tensor<2x3xi64>
}

// -----

// A filter padded to whole vectors with a constant: the padding value is read inside the pad's
// region. With max-growth=1 the padded filter (twice the bytes) stays a pad.

// CHECK-LABEL: func.func @padded_filter
// CHECK-NEXT:    %[[P:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<4xf32>
// CHECK-NEXT:    return %[[P]]
// GROWTH-LABEL: func.func @padded_filter
// GROWTH:         tensor.pad
func.func @padded_filter() -> tensor<4xf32> {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %w low[0] high[2] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<2xf32> to tensor<4xf32>
  return %p : tensor<4xf32>
}

// -----

// NaN, infinities and -0.0 are copied as they are (a transpose moves bits).

// CHECK-LABEL: func.func @special_values
// CHECK-NEXT:    %[[T:.*]] = arith.constant dense<{{\[\[}}0x7fc00000, -0.000000e+00], [0x7f800000, 0xff800000]]> : tensor<2x2xf32>
// CHECK-NEXT:    return %[[T]]
func.func @special_values() -> tensor<2x2xf32> {
  %w = arith.constant dense<[[0x7FC00000, 0x7F800000], [-0.0, 0xFF800000]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %t = linalg.transpose ins(%w : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) permutation = [1, 0]
  return %t : tensor<2x2xf32>
}

// -----

// Negative: arithmetic on a constant stays (IREE's kernel rounds it, not numpy), and so does a
// generic with a function argument among its inputs.

// CHECK-LABEL: func.func @computes
// CHECK:         %[[W:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]>
// CHECK:         linalg.generic
// CHECK:           arith.mulf
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[W]], %{{.*}} : tensor<2xf32>, tensor<2xf32>)
func.func @computes(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %w = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%w : tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %pick = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%w, %x : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<2xf32>
  return %sq, %pick : tensor<2xf32>, tensor<2xf32>
}

// -----

// Negative: a bias broadcast over an image multiplies its bytes (a view its consumer fuses), and
// a generic that reads its init is not a copy of its inputs.

// CHECK-LABEL: func.func @grows_or_reads_init
// CHECK:         linalg.broadcast
// CHECK:         linalg.generic
// CHECK:           linalg.yield %{{.*}}, %[[OUT:.*]] : f32, f32
func.func @grows_or_reads_init(%acc: tensor<2xf32>) -> (tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>) {
  %b = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x8xf32>
  %wide = linalg.broadcast ins(%b : tensor<2xf32>) outs(%e : tensor<2x8xf32>) dimensions = [1]
  %two:2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : tensor<2xf32>) outs(%acc, %acc : tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%in: f32, %o1: f32, %o2: f32):
    linalg.yield %in, %o2 : f32, f32
  } -> (tensor<2xf32>, tensor<2xf32>)
  return %wide, %two#0, %two#1 : tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Negative: a result of dynamic shape stays, even when its sizes are constants (a constant's
// type is static).

// CHECK-LABEL: func.func @dynamic_result
// CHECK:         tensor.extract_slice
func.func @dynamic_result() -> tensor<?xf32> {
  %table = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %n = arith.constant 2 : index
  %s = tensor.extract_slice %table[0] [%n] [1] : tensor<4xf32> to tensor<?xf32>
  return %s : tensor<?xf32>
}
