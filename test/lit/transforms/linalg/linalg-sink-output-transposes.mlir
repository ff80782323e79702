// RUN: fusion-opt %s --split-input-file -p linalg-sink-output-transposes | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-sink-output-transposes --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS

// EfficientNet's squeeze-excitation in small: an elementwise generic over channels-last loops
// writes its result NCHW for a spatial sum (the SE mean) and a per-channel scale that writes it
// channels last again. It now writes in its loop order (1x4x4x8); the sum reads it as
// (n, h, w, c) and the scale through the identity: no transpose left.
// STATS:         (output transposes moved into readers) : 1
// CHECK-LABEL: func.func @se_scale
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x4x4x8xf32>
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], {{.*}} ins(%{{.*}} : tensor<1x4x4x8xf32>) outs(%[[E]] : tensor<1x4x4x8xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], {{.*}} ins(%[[Y]] : tensor<1x4x4x8xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], {{.*}} ins(%{{.*}}, %[[Y]] : tensor<1x8xf32>, tensor<1x4x4x8xf32>)
func.func @se_scale(%x: tensor<1x4x4x8xf32>, %s: tensor<1x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x8x4x4xf32>
  %em = tensor.empty() : tensor<1x8xf32>
  %fm = linalg.fill ins(%z : f32) outs(%em : tensor<1x8xf32>) -> tensor<1x8xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%y : tensor<1x8x4x4xf32>) outs(%fm : tensor<1x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  } -> tensor<1x8xf32>
  %er = tensor.empty() : tensor<1x4x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %y : tensor<1x8xf32>, tensor<1x8x4x4xf32>) outs(%er : tensor<1x4x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.mulf %a, %b : f32
    linalg.yield %t : f32
  } -> tensor<1x4x4x8xf32>
  func.return %r, %m : tensor<1x4x4x8xf32>, tensor<1x8xf32>
}

// -----

// Left alone: a permuted result the function returns (a reader that is not a generic), one whose
// body reads its init (an accumulation into a given tensor), and a generic writing in loop order.
// STATS:         (output transposes moved into readers) : 0
// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
func.func @left_alone(%x: tensor<1x4x4x8xf32>, %i: tensor<1x8x4x4xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %e = tensor.empty() : tensor<1x8x4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x8xf32>) outs(%e : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<1x8x4x4xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x8xf32>) outs(%i : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %o : f32
    linalg.yield %t : f32
  } -> tensor<1x8x4x4xf32>
  %er = tensor.empty() : tensor<1x8x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%w : tensor<1x8x4x4xf32>) outs(%er : tensor<1x8x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    linalg.yield %t : f32
  } -> tensor<1x8x4x4xf32>
  func.return %y, %r : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}
