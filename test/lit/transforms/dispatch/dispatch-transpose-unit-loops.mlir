// RUN: fusion-opt %s --split-input-file -p dispatch-transpose-unit-loops | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-transpose-unit-loops | fusion-opt - --split-input-file -o %t.mlir
// RUN: fusion-opt %s --split-input-file -p dispatch-transpose-unit-loops --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS

// Attention's K, scaled and written [1, heads, dim, keys] from [keys, heads, dim] (a ViT's
// 197 x 6 x 64, in small): the unit loop d0 the input does not read goes, the generic reads its
// input through a full permutation (IREE's transpose) and the region expands the result back.
// STATS:         (transposing generics without their unread unit loops) : 1
// CHECK-LABEL: func.func @scaled_keys
// CHECK:         flow.dispatch.region -> (tensor<1x2x4x8xf32>)
// CHECK-NOT:       tensor.empty() : tensor<1x2x4x8xf32>
// CHECK:           %[[E:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK:           %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<8x2x4xf32>) outs(%[[E]] : tensor<2x4x8xf32>)
// CHECK:             arith.mulf
// CHECK:           %[[X:.*]] = tensor.expand_shape %[[T]] {{\[}}[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf32> into tensor<1x2x4x8xf32>
// CHECK:           flow.return %[[X]] : tensor<1x2x4x8xf32>
func.func @scaled_keys(%k: tensor<8x2x4xf32>) -> tensor<1x2x4x8xf32> {
  %r = flow.dispatch.region -> (tensor<1x2x4x8xf32>) {
    %e = tensor.empty() : tensor<1x2x4x8xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<8x2x4xf32>) outs(%e : tensor<1x2x4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.constant 0.5 : f32
      %m = arith.mulf %a, %s : f32
      linalg.yield %m : f32
    } -> tensor<1x2x4x8xf32>
    flow.return %t : tensor<1x2x4x8xf32>
  }
  func.return %r : tensor<1x2x4x8xf32>
}

// -----

// Left alone: a transpose that reads its unit loop (NCHW -> NHWC at batch 1, already a full
// permutation), a broadcast that does not transpose, a transposing generic sharing its region
// with another structured op, and one outside any region.
// STATS:         (transposing generics without their unread unit loops) : 0
// CHECK-LABEL: func.func @left_alone
// CHECK:         affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK:         affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK:         linalg.fill
// CHECK:         affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK:         affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-NOT:     tensor.expand_shape
func.func @left_alone(%x: tensor<1x8x4x4xf32>, %k: tensor<8x2x4xf32>, %b: tensor<2x4x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) {
  %r0 = flow.dispatch.region -> (tensor<1x4x4x8xf32>) {
    %e = tensor.empty() : tensor<1x4x4x8xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x4x4xf32>) outs(%e : tensor<1x4x4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %a, %z : f32
      linalg.yield %m : f32
    } -> tensor<1x4x4x8xf32>
    flow.return %t : tensor<1x4x4x8xf32>
  }
  %r1 = flow.dispatch.region -> (tensor<1x2x4x8xf32>) {
    %e = tensor.empty() : tensor<1x2x4x8xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<2x4x8xf32>) outs(%e : tensor<1x2x4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<1x2x4x8xf32>
    flow.return %t : tensor<1x2x4x8xf32>
  }
  %r2 = flow.dispatch.region -> (tensor<1x2x4x8xf32>) {
    %z = arith.constant 1.0 : f32
    %e0 = tensor.empty() : tensor<8x2x4xf32>
    %f = linalg.fill ins(%z : f32) outs(%e0 : tensor<8x2x4xf32>) -> tensor<8x2x4xf32>
    %e = tensor.empty() : tensor<1x2x4x8xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%f : tensor<8x2x4xf32>) outs(%e : tensor<1x2x4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<1x2x4x8xf32>
    flow.return %t : tensor<1x2x4x8xf32>
  }
  %e3 = tensor.empty() : tensor<1x2x4x8xf32>
  %r3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<8x2x4xf32>) outs(%e3 : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x2x4x8xf32>
  func.return %r0, %r1, %r2, %r3 : tensor<1x4x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>
}
