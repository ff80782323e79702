// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{pads-into-gathers=true}" | filecheck %s
// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s --check-prefix=OFF
// The pass's helper modules these cases exercise: dispatch/padded_gathers.py.

// Off by default (the gather measured slower with the pad in it): every pad stays at top level.
// OFF-LABEL: func.func @pad_into_gather
// OFF:         tensor.pad
// OFF:         flow.dispatch.region -> (tensor<4x3x3x4x4xf32>)
// OFF-NOT:       tensor.pad
// OFF:         flow.dispatch.region -> (tensor<8x16xf32>)

// Opt-in: an im2col patch gather (a copy through a strided window map, as linalg-strided-conv-to-im2col
// writes it) reads its conv's low pad in its own region: no copy dispatch for the pad.
// CHECK-LABEL: func.func @pad_into_gather
// CHECK-NOT:     tensor.pad
// CHECK:         %[[G:.*]] = flow.dispatch.region -> (tensor<4x3x3x4x4xf32>)
// CHECK:           %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:           %[[C:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<1x4x10x10xf32>)
// CHECK:           flow.return %[[C]]
// CHECK:         flow.tensor.reshape %[[G]] : tensor<4x3x3x4x4xf32> -> tensor<36x16xf32>
// CHECK:         flow.dispatch.region -> (tensor<8x16xf32>)
// CHECK-NOT:       tensor.pad
func.func @pad_into_gather(%x: tensor<1x4x8x8xf32>, %w: tensor<8x36xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %e = tensor.empty() : tensor<4x3x3x4x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0, d3 * 2 + d1, d4 * 2 + d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x4x10x10xf32>) outs(%e : tensor<4x3x3x4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4x3x3x4x4xf32>
  %pm = tensor.collapse_shape %g [[0, 1, 2], [3, 4]] : tensor<4x3x3x4x4xf32> into tensor<36x16xf32>
  %oe = tensor.empty() : tensor<8x16xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %pm : tensor<8x36xf32>, tensor<36x16xf32>) outs(%of : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  func.return %r : tensor<8x16xf32>
}

// -----

// The pad has a second reader (returned): it stays at top level, the gather reads it there.
// CHECK-LABEL: func.func @pad_read_twice
// CHECK:         %[[P:.*]] = tensor.pad
// CHECK:         flow.dispatch.region -> (tensor<4x3x3x4x4xf32>)
// CHECK-NOT:       tensor.pad
// CHECK:           linalg.generic {{.*}} ins(%[[P]] : tensor<1x4x10x10xf32>)
func.func @pad_read_twice(%x: tensor<1x4x8x8xf32>) -> (tensor<4x3x3x4x4xf32>, tensor<1x4x10x10xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %e = tensor.empty() : tensor<4x3x3x4x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0, d3 * 2 + d1, d4 * 2 + d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x4x10x10xf32>) outs(%e : tensor<4x3x3x4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4x3x3x4x4xf32>
  func.return %g, %p : tensor<4x3x3x4x4xf32>, tensor<1x4x10x10xf32>
}

// -----

// Not a window gather: an identity-map copy (elementwise) and a strided read that computes
// (not a pure copy) keep the low pad at top level, as before.
// CHECK-LABEL: func.func @not_a_gather
// CHECK:         %[[P:.*]] = tensor.pad
// CHECK:         %[[Q:.*]] = tensor.pad
// CHECK:         flow.dispatch.region -> (tensor<1x4x10x10xf32>)
// CHECK-NOT:       tensor.pad
// CHECK:           ins(%[[P]] : tensor<1x4x10x10xf32>)
// CHECK:         flow.dispatch.region -> (tensor<4x3x3x4x4xf32>)
// CHECK-NOT:       tensor.pad
// CHECK:           ins(%[[Q]] : tensor<1x4x10x10xf32>)
func.func @not_a_gather(%x: tensor<1x4x8x8xf32>) -> (tensor<1x4x10x10xf32>, tensor<4x3x3x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %q = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %e0 = tensor.empty() : tensor<1x4x10x10xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x4x10x10xf32>) outs(%e0 : tensor<1x4x10x10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x10x10xf32>
  %e = tensor.empty() : tensor<4x3x3x4x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0, d3 * 2 + d1, d4 * 2 + d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x4x10x10xf32>) outs(%e : tensor<4x3x3x4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<4x3x3x4x4xf32>
  func.return %c, %g : tensor<1x4x10x10xf32>, tensor<4x3x3x4x4xf32>
}

// -----

// A gather over 3 output columns (not a power of two): IREE 3.13 fails to build the pad in its
// region, so the pad stays at top level.
// CHECK-LABEL: func.func @odd_width
// CHECK:         %[[P:.*]] = tensor.pad
// CHECK:         flow.dispatch.region -> (tensor<4x3x3x3x3xf32>)
// CHECK-NOT:       tensor.pad
// CHECK:           linalg.generic {{.*}} ins(%[[P]] : tensor<1x4x8x8xf32>)
func.func @odd_width(%x: tensor<1x4x6x6xf32>) -> tensor<4x3x3x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<4x3x3x3x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (0, d0, d3 * 2 + d1, d4 * 2 + d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%p : tensor<1x4x8x8xf32>) outs(%e : tensor<4x3x3x3x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<4x3x3x3x3xf32>
  func.return %g : tensor<4x3x3x3x3xf32>
}
