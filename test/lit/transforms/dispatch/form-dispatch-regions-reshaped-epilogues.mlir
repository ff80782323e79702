// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s

// A reduction's value expanded by a unit dim and written transposed (batch 1 an unread unit
// loop): IREE 3.13 tiles that consumer apart from the reduction and fails to build the region
// ("write affecting operations on global resources are restricted to workgroup distributed
// contexts"; RT-DETR's deformable attention, bench/iree_limits_reshaped.py). The consumer starts
// a dispatch of its own, the expand with it.
// CHECK-LABEL: func.func @unit_expand_then_transposed_write
// CHECK:         %[[SUM:.*]] = flow.dispatch.region -> (tensor<8x32x300xf32>) {
// CHECK:           linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-NEXT:      ^bb0
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<1x300x1x8x32xf32>) {
// CHECK:           tensor.expand_shape %[[SUM]]
// CHECK:           linalg.generic
// CHECK:           flow.return
func.func @unit_expand_then_transposed_write(%a: tensor<8x32x300x12xf32>) -> tensor<1x300x1x8x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32x300xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32x300xf32>) -> tensor<8x32x300xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a : tensor<8x32x300x12xf32>) outs(%f : tensor<8x32x300xf32>) {
  ^bb0(%x: f32, %y: f32):
    %q = arith.addf %y, %x : f32
    linalg.yield %q : f32
  } -> tensor<8x32x300xf32>
  %x1 = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [8, 32, 300, 1] : tensor<8x32x300xf32> into tensor<8x32x300x1xf32>
  %t = tensor.empty() : tensor<1x300x1x8x32xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x1 : tensor<8x32x300x1xf32>) outs(%t : tensor<1x300x1x8x32xf32>) {
  ^bb0(%u: f32, %v: f32):
    linalg.yield %u : f32
  } -> tensor<1x300x1x8x32xf32>
  return %w : tensor<1x300x1x8x32xf32>
}

// -----

// An elementwise op in order behind the expand stays with the reduction; the transposing write
// after it does not.
// CHECK-LABEL: func.func @unit_expand_epilogue_then_transposed_write
// CHECK:         %[[EPI:.*]] = flow.dispatch.region -> (tensor<8x32x300x1xf32>) {
// CHECK:           iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:           tensor.expand_shape
// CHECK:           math.exp
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<300x1x8x32xf32>) {
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%[[EPI]] :
// CHECK:           flow.return
func.func @unit_expand_epilogue_then_transposed_write(%a: tensor<8x32x300x12xf32>) -> tensor<300x1x8x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32x300xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32x300xf32>) -> tensor<8x32x300xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a : tensor<8x32x300x12xf32>) outs(%f : tensor<8x32x300xf32>) {
  ^bb0(%x: f32, %y: f32):
    %q = arith.addf %y, %x : f32
    linalg.yield %q : f32
  } -> tensor<8x32x300xf32>
  %x1 = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [8, 32, 300, 1] : tensor<8x32x300xf32> into tensor<8x32x300x1xf32>
  %g = tensor.empty() : tensor<8x32x300x1xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1 : tensor<8x32x300x1xf32>) outs(%g : tensor<8x32x300x1xf32>) {
  ^bb0(%u: f32, %v: f32):
    %m = math.exp %u : f32
    linalg.yield %m : f32
  } -> tensor<8x32x300x1xf32>
  %t = tensor.empty() : tensor<300x1x8x32xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3, d0, d1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%h : tensor<8x32x300x1xf32>) outs(%t : tensor<300x1x8x32xf32>) {
  ^bb0(%u: f32, %v: f32):
    linalg.yield %u : f32
  } -> tensor<300x1x8x32xf32>
  return %w : tensor<300x1x8x32xf32>
}

// -----

// Negative: behind the expand, read and written one to one (IREE builds it): one region.
// CHECK-LABEL: func.func @unit_expand_then_copy
// CHECK:         flow.dispatch.region -> (tensor<8x32x300x1xf32>) {
// CHECK:           iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:           tensor.expand_shape
// CHECK:           math.exp
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @unit_expand_then_copy(%a: tensor<8x32x300x12xf32>) -> tensor<8x32x300x1xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32x300xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32x300xf32>) -> tensor<8x32x300xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a : tensor<8x32x300x12xf32>) outs(%f : tensor<8x32x300xf32>) {
  ^bb0(%x: f32, %y: f32):
    %q = arith.addf %y, %x : f32
    linalg.yield %q : f32
  } -> tensor<8x32x300xf32>
  %x1 = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [8, 32, 300, 1] : tensor<8x32x300xf32> into tensor<8x32x300x1xf32>
  %g = tensor.empty() : tensor<8x32x300x1xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x1 : tensor<8x32x300x1xf32>) outs(%g : tensor<8x32x300x1xf32>) {
  ^bb0(%u: f32, %v: f32):
    %m = math.exp %u : f32
    linalg.yield %m : f32
  } -> tensor<8x32x300x1xf32>
  return %h : tensor<8x32x300x1xf32>
}

// -----

// Negative: the transposing write on the reduction's value itself, no reshape between (IREE
// builds it): one region.
// CHECK-LABEL: func.func @transposed_write_of_the_sum
// CHECK:         flow.dispatch.region -> (tensor<300x8x32xf32>) {
// CHECK:           iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:           iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @transposed_write_of_the_sum(%a: tensor<8x32x300x12xf32>) -> tensor<300x8x32xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32x300xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x32x300xf32>) -> tensor<8x32x300xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a : tensor<8x32x300x12xf32>) outs(%f : tensor<8x32x300xf32>) {
  ^bb0(%x: f32, %y: f32):
    %q = arith.addf %y, %x : f32
    linalg.yield %q : f32
  } -> tensor<8x32x300xf32>
  %t = tensor.empty() : tensor<300x8x32xf32>
  %w = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0, d1)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x32x300xf32>) outs(%t : tensor<300x8x32xf32>) {
  ^bb0(%u: f32, %v: f32):
    linalg.yield %u : f32
  } -> tensor<300x8x32xf32>
  return %w : tensor<300x8x32xf32>
}
