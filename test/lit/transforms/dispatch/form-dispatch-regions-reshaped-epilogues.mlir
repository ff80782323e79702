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

// -----

// Mask2Former's attention mask: an elementwise op over [1, 4, 3, 3] merged to [1, 4, 9] and
// compared over [4, 9], reading the merged value at (0, d0, d1): IREE 3.13 cannot tile the
// comparison with the op before the merge (it stages the whole value: "exceeded stack
// allocation limit"). The comparison starts a dispatch of its own.
// CHECK-LABEL: func.func @merged_then_unit_dim_dropped
// CHECK:         flow.dispatch.region -> (tensor<1x4x3x3xf32>)
// CHECK:           math.exp
// CHECK:         flow.dispatch.region -> (tensor<4x9xi1>)
// CHECK-NOT:       math.exp
// CHECK:           arith.cmpf
func.func @merged_then_unit_dim_dropped(%a: tensor<1x4x3x3xf32>) -> tensor<4x9xi1> {
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x4x3x3xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<1x4x3x3xf32>
  %c = tensor.collapse_shape %s [[0], [1], [2, 3]] : tensor<1x4x3x3xf32> into tensor<1x4x9xf32>
  %m = tensor.empty() : tensor<4x9xi1>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1x4x9xf32>) outs(%m : tensor<4x9xi1>) {
  ^bb0(%x: f32, %o: i1):
    %h = arith.constant 1.5 : f32
    %l = arith.cmpf olt, %x, %h : f32
    linalg.yield %l : i1
  } -> tensor<4x9xi1>
  func.return %b : tensor<4x9xi1>
}

// -----

// The comparison over the merged value with its unit dim (an identity read): one region.
// CHECK-LABEL: func.func @merged_then_unit_dim_kept
// CHECK-COUNT-1: flow.dispatch.region
// CHECK-NOT:     flow.dispatch.region
func.func @merged_then_unit_dim_kept(%a: tensor<1x4x3x3xf32>) -> tensor<1x4x9xi1> {
  %e = tensor.empty() : tensor<1x4x3x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : tensor<1x4x3x3xf32>) outs(%e : tensor<1x4x3x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<1x4x3x3xf32>
  %c = tensor.collapse_shape %s [[0], [1], [2, 3]] : tensor<1x4x3x3xf32> into tensor<1x4x9xf32>
  %m = tensor.empty() : tensor<1x4x9xi1>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : tensor<1x4x9xf32>) outs(%m : tensor<1x4x9xi1>) {
  ^bb0(%x: f32, %o: i1):
    %h = arith.constant 1.5 : f32
    %l = arith.cmpf olt, %x, %h : f32
    linalg.yield %l : i1
  } -> tensor<1x4x9xi1>
  func.return %b : tensor<1x4x9xi1>
}

// -----

// Mask2Former's mask: an i1 comparison read by a masked sum (another region) and widened to
// i64 for a count of masked entries. IREE 3.13 fails on a region that stores the i1 value and
// reads it ("write affecting operations on global resources ..." on the i1 vector.store): the
// comparison's region stores it alone and the widening joins the count's region. Widened only
// (the next case), the comparison and its widening share one region.
// CHECK-LABEL: func.func @i1_stored_and_widened
// CHECK:         flow.dispatch.region -> (tensor<4x9xi1>)
// CHECK-NOT:       arith.extui
// CHECK:         flow.dispatch.region -> (tensor<4xi64>)
// CHECK:           arith.extui
// CHECK:         flow.dispatch.region -> (tensor<4xf32>)
func.func @i1_stored_and_widened(%a: tensor<4x9xf32>) -> (tensor<4xi64>, tensor<4xf32>) {
  %m = tensor.empty() : tensor<4x9xi1>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x9xf32>) outs(%m : tensor<4x9xi1>) {
  ^bb0(%x: f32, %o: i1):
    %h = arith.constant 0.5 : f32
    %l = arith.cmpf olt, %x, %h : f32
    linalg.yield %l : i1
  } -> tensor<4x9xi1>
  %w = tensor.empty() : tensor<4x9xi64>
  %i = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x9xi1>) outs(%w : tensor<4x9xi64>) {
  ^bb0(%x: i1, %o: i64):
    %e = arith.extui %x : i1 to i64
    linalg.yield %e : i64
  } -> tensor<4x9xi64>
  %z = arith.constant 0 : i64
  %e1 = tensor.empty() : tensor<4xi64>
  %f1 = linalg.fill ins(%z : i64) outs(%e1 : tensor<4xi64>) -> tensor<4xi64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%i : tensor<4x9xi64>) outs(%f1 : tensor<4xi64>) {
  ^bb0(%x: i64, %o: i64):
    %t = arith.addi %o, %x : i64
    linalg.yield %t : i64
  } -> tensor<4xi64>
  %zf = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<4xf32>
  %f2 = linalg.fill ins(%zf : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %b : tensor<4x9xf32>, tensor<4x9xi1>) outs(%f2 : tensor<4xf32>) {
  ^bb0(%x: f32, %k: i1, %o: f32):
    %v = arith.select %k, %x, %zf : f32
    %t = arith.addf %o, %v : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  func.return %s, %r : tensor<4xi64>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @i1_widened_only
// CHECK:         flow.dispatch.region -> (tensor<4x9xi64>)
// CHECK-NOT:     flow.dispatch.region
func.func @i1_widened_only(%a: tensor<4x9xf32>) -> tensor<4x9xi64> {
  %m = tensor.empty() : tensor<4x9xi1>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x9xf32>) outs(%m : tensor<4x9xi1>) {
  ^bb0(%x: f32, %o: i1):
    %h = arith.constant 0.5 : f32
    %l = arith.cmpf olt, %x, %h : f32
    linalg.yield %l : i1
  } -> tensor<4x9xi1>
  %w = tensor.empty() : tensor<4x9xi64>
  %i = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x9xi1>) outs(%w : tensor<4x9xi64>) {
  ^bb0(%x: i1, %o: i64):
    %e = arith.extui %x : i1 to i64
    linalg.yield %e : i64
  } -> tensor<4x9xi64>
  func.return %i : tensor<4x9xi64>
}
