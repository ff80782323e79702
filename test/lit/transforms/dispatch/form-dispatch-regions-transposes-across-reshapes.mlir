// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{transposes-across-reshapes=true}" | filecheck %s
// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s --check-prefix=ONE-SIDE
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{transposes-across-reshapes=false}" | filecheck %s --check-prefix=ONE-SIDE

// A window partition (MaxViT's block to grid; MobileViT's unfold into patches): a transpose, a
// reshape that merges and splits dims, another transpose. By default
// (transposes-across-reshapes=false) each transpose gets its own region, the reshape between
// them goes with the second: as one region IREE stages the whole middle tensor, in sm_80's shared
// memory (MaxViT) or on llvm-cpu's 32 KB stack (MobileViT's 144 x 28 x 28 unfold,
// bench/iree_limits_found.py). With transposes-across-reshapes=true, one copy region.
// CHECK-LABEL: func.func @two_transposes_across_a_reshape
// CHECK:         flow.dispatch.region -> (tensor<4x2x3x6xf32>)
// CHECK-COUNT-2:   linalg.generic
// CHECK-NOT:     flow.dispatch.region
// CHECK:         return
// ONE-SIDE-LABEL: func.func @two_transposes_across_a_reshape
// ONE-SIDE:         %[[A:.*]] = flow.dispatch.region -> (tensor<4x2x3x6xf32>)
// ONE-SIDE:           linalg.generic
// ONE-SIDE:           flow.return
// ONE-SIDE:         flow.dispatch.region -> (tensor<4x2x3x6xf32>)
// ONE-SIDE:           tensor.collapse_shape %[[A]]
// ONE-SIDE-NEXT:      tensor.expand_shape
// ONE-SIDE-NEXT:      linalg.generic
// ONE-SIDE:           flow.return
func.func @two_transposes_across_a_reshape(%x: tensor<2x4x3x6xf32>) -> tensor<2x4x3x6xf32> {
  %e1 = tensor.empty() : tensor<4x2x3x6xf32>
  %t1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<2x4x3x6xf32>) outs(%e1 : tensor<4x2x3x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<4x2x3x6xf32>
  %c = tensor.collapse_shape %t1 [[0, 1], [2], [3]] : tensor<4x2x3x6xf32> into tensor<8x3x6xf32>
  %x2 = tensor.expand_shape %c [[0, 1], [2], [3]] output_shape [2, 4, 3, 6] : tensor<8x3x6xf32> into tensor<2x4x3x6xf32>
  %t2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2 : tensor<2x4x3x6xf32>) outs(%e1 : tensor<4x2x3x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  } -> tensor<4x2x3x6xf32>
  %back = tensor.collapse_shape %t2 [[0, 1], [2], [3]] : tensor<4x2x3x6xf32> into tensor<8x3x6xf32>
  %r = tensor.expand_shape %back [[0, 1], [2], [3]] output_shape [2, 4, 3, 6] : tensor<8x3x6xf32> into tensor<2x4x3x6xf32>
  func.return %r : tensor<2x4x3x6xf32>
}

// -----

// Negative: one transpose between reshapes stays one region either way.
// CHECK-LABEL: func.func @one_transpose_between_reshapes
// CHECK-COUNT-1: flow.dispatch.region
// ONE-SIDE-LABEL: func.func @one_transpose_between_reshapes
// ONE-SIDE-COUNT-1: flow.dispatch.region
// ONE-SIDE-NOT:     flow.dispatch.region
func.func @one_transpose_between_reshapes(%x: tensor<8x3x6xf32>) -> tensor<24x6xf32> {
  %x2 = tensor.expand_shape %x [[0, 1], [2], [3]] output_shape [2, 4, 3, 6] : tensor<8x3x6xf32> into tensor<2x4x3x6xf32>
  %e1 = tensor.empty() : tensor<4x2x3x6xf32>
  %t1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x2 : tensor<2x4x3x6xf32>) outs(%e1 : tensor<4x2x3x6xf32>) {
  ^bb0(%i: f32, %o: f32):
    %n = arith.negf %i : f32
    linalg.yield %n : f32
  } -> tensor<4x2x3x6xf32>
  %c = tensor.collapse_shape %t1 [[0, 1, 2], [3]] : tensor<4x2x3x6xf32> into tensor<24x6xf32>
  func.return %c : tensor<24x6xf32>
}
