// RUN: fusion-opt %s --split-input-file -p linalg-fuse-elementwise | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-fuse-elementwise | iree-opt --split-input-file > /dev/null
// RUN: fusion-opt %s --split-input-file -p "linalg-fuse-elementwise{aggressive=false}" | filecheck %s --check-prefix=CONSERVATIVE
// RUN: fusion-opt %s --split-input-file -p "linalg-fuse-elementwise{max-operands=4}" | filecheck %s --check-prefix=LIMIT
// The pass's helper modules these cases exercise: linalg/elementwise_fusion_grouping.py,
// linalg/elementwise_fusion_emit.py, linalg/elementwise_fusion_utils.py,
// linalg/elementwise_fusion_index.py, linalg/elementwise_fusion_views.py.

// luminal issue #39: ((exp2(a) - sin(b)).relu() + c.expand() / d) with c a scalar constant.
// The broadcast constant becomes a scalar in the body; one kernel reads a, b, d.
// CHECK-LABEL: func.func @luminal_target(
// CHECK-SAME:    %[[A:.*]]: tensor<10xf32>, %[[B:.*]]: tensor<10xf32>, %[[D:.*]]: tensor<10xf32>)
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[A]], %[[B]], %[[D]] : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK:           math.exp2
// CHECK:           math.sin
// CHECK:           arith.subf
// CHECK:           arith.maximumf
// CHECK:           arith.constant 2.123
// CHECK:           arith.divf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.broadcast
// CHECK:         return %[[R]]
// CONSERVATIVE-LABEL: func.func @luminal_target(
// CONSERVATIVE:       linalg.broadcast
#id1 = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @luminal_target(%a: tensor<10xf32>, %b: tensor<10xf32>, %d: tensor<10xf32>) -> tensor<10xf32> {
  %c = arith.constant dense<2.123> : tensor<f32>
  %e = tensor.empty() : tensor<10xf32>
  %ea = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%a : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp2 %x : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %sb = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%b : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sin %x : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %sub = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%ea, %sb : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.subf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<10xf32>
  %relu = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]} ins(%sub : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %ce = linalg.broadcast ins(%c : tensor<f32>) outs(%e : tensor<10xf32>) dimensions = [0]
  %div = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%ce, %d : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.divf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<10xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]} ins(%relu, %div : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<10xf32>
  return %r : tensor<10xf32>
}

// -----

// b = exp(a); c = b + sin(b): the multi-use intermediate is one body value.
// CHECK-LABEL: func.func @multi_use_intermediate(
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<10xf32>)
// CHECK:           %[[E:.*]] = math.exp
// CHECK-NOT:       math.exp
// CHECK:           %[[S:.*]] = math.sin %[[E]]
// CHECK:           arith.addf %[[E]], %[[S]]
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @multi_use_intermediate(%a: tensor<10xf32>) -> tensor<10xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sin %x : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %c = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%b, %s : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<10xf32>
  return %c : tensor<10xf32>
}

// -----

// sqrt(a).exp() + sqrt(a).sin(): two identical producers collapse to one sqrt.
// CHECK-LABEL: func.func @shared_subexpression(
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<10xf32>)
// CHECK:           %[[S:.*]] = math.sqrt
// CHECK-NOT:       math.sqrt
// CHECK-DAG:       math.exp %[[S]]
// CHECK-DAG:       math.sin %[[S]]
// CHECK-NOT:     linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @shared_subexpression(%a: tensor<10xf32>) -> tensor<10xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %s1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sqrt %x : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %x1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s1 : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %s2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sqrt %x : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%s2 : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.sin %x : f32
    linalg.yield %y : f32
  } -> tensor<10xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x1, %x2 : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<10xf32>
  return %r : tensor<10xf32>
}

// -----

// x[2,5] -> slice rows [0:1] -> cos -> pad back to [2,5] with 0 -> exp2.
// The pad selects its own value *before* exp2: padded row = exp2(0), never exp2(cos(0)).
// The slice and the pad-clamped read fold into the map (0, d1).
// CHECK-LABEL: func.func @slice_cos_pad_exp2(
// CHECK-SAME:    %[[X:.*]]: tensor<2x5xf32>)
// CHECK:         %[[ZERO:.*]] = arith.constant 0.0
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%[[X]] : tensor<2x5xf32>)
// CHECK:           %[[COS:.*]] = math.cos
// CHECK:           %[[ROW:.*]] = linalg.index 0
// CHECK:           %[[VALID:.*]] = arith.cmpi slt, %[[ROW]], %{{.*}} : index
// CHECK:           %[[SEL:.*]] = arith.select %[[VALID]], %[[COS]], %[[ZERO]]
// CHECK:           math.exp2 %[[SEL]]
// CHECK-NOT:     tensor.pad
// CHECK-NOT:     tensor.extract_slice
// Conservative mode (dispatch-creation's) takes the pad and the slice under it too: the
// same single generic, no slice copy, no pad (luminal's slicing_padding).
// CONSERVATIVE-LABEL: func.func @slice_cos_pad_exp2(
// CONSERVATIVE:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CONSERVATIVE:           math.cos
// CONSERVATIVE:           arith.select
// CONSERVATIVE:           math.exp2
// CONSERVATIVE-NOT:     tensor.pad
// CONSERVATIVE-NOT:     tensor.extract_slice
// CONSERVATIVE:         return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @slice_cos_pad_exp2(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %x[0, 0] [1, 5] [1, 1] : tensor<2x5xf32> to tensor<1x5xf32>
  %e1 = tensor.empty() : tensor<1x5xf32>
  %c = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<1x5xf32>) outs(%e1 : tensor<1x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.cos %v : f32
    linalg.yield %y : f32
  } -> tensor<1x5xf32>
  %p = tensor.pad %c low[0, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<1x5xf32> to tensor<2x5xf32>
  %e2 = tensor.empty() : tensor<2x5xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<2x5xf32>) outs(%e2 : tensor<2x5xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.exp2 %v : f32
    linalg.yield %y : f32
  } -> tensor<2x5xf32>
  return %r : tensor<2x5xf32>
}

// -----

// Rotary embedding: reshape to pairs, slice halves, neg, concat, mul by cos/sin, add.
// The concat is a select on the pair position; everything is one kernel.
// CHECK-LABEL: func.func @rotary(
// CHECK:         linalg.generic
// CHECK-SAME:      affine_map<(d0, d1) -> (d0, ((d1 floordiv 2) * 2))>
// CHECK-SAME:      affine_map<(d0, d1) -> (d0, (((d1 floordiv 2) * 2) + 1))>
// CHECK:           arith.negf
// CHECK:           arith.select
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     tensor.concat
// CHECK-NOT:     tensor.expand_shape
// CHECK-NOT:     tensor.collapse_shape
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rotary(%x: tensor<4x8xf32>, %cos: tensor<4x8xf32>, %sin: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %pairs = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 4, 2] : tensor<4x8xf32> into tensor<4x4x2xf32>
  %x1 = tensor.extract_slice %pairs[0, 0, 0] [4, 4, 1] [1, 1, 1] : tensor<4x4x2xf32> to tensor<4x4x1xf32>
  %x2 = tensor.extract_slice %pairs[0, 0, 1] [4, 4, 1] [1, 1, 1] : tensor<4x4x2xf32> to tensor<4x4x1xf32>
  %e1 = tensor.empty() : tensor<4x4x1xf32>
  %n2 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x2 : tensor<4x4x1xf32>) outs(%e1 : tensor<4x4x1xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.negf %v : f32
    linalg.yield %y : f32
  } -> tensor<4x4x1xf32>
  %rot = tensor.concat dim(2) %n2, %x1 : (tensor<4x4x1xf32>, tensor<4x4x1xf32>) -> tensor<4x4x2xf32>
  %rotf = tensor.collapse_shape %rot [[0], [1, 2]] : tensor<4x4x2xf32> into tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %xc = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %cos : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %y = arith.mulf %v, %w : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %rs = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%rotf, %sin : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %y = arith.mulf %v, %w : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%xc, %rs : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %y = arith.addf %v, %w : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// An elementwise chain with a transpose and a broadcast in the middle: one kernel whose
// input maps carry the permutation and the broadcast.
// CHECK-LABEL: func.func @transpose_broadcast_chain(
// CHECK-SAME:    %[[X:.*]]: tensor<4x8xf32>, %[[V:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<8x4xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:      ins(%[[X]], %[[V]], %[[Y]] :
// CHECK:           math.exp
// CHECK:           arith.mulf
// CHECK:           arith.addf
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     linalg.broadcast
// CONSERVATIVE-LABEL: func.func @transpose_broadcast_chain(
// CONSERVATIVE:       linalg.transpose
// CONSERVATIVE:       linalg.broadcast
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @transpose_broadcast_chain(%x: tensor<4x8xf32>, %v: tensor<4xf32>, %y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %e48 = tensor.empty() : tensor<4x8xf32>
  %e84 = tensor.empty() : tensor<8x4xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e48 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %t = linalg.transpose ins(%ex : tensor<4x8xf32>) outs(%e84 : tensor<8x4xf32>) permutation = [1, 0]
  %bv = linalg.broadcast ins(%v : tensor<4xf32>) outs(%e84 : tensor<8x4xf32>) dimensions = [0]
  %m = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%t, %bv : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e84 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  %s = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%m, %y : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e84 : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x4xf32>
  return %s : tensor<8x4xf32>
}

// -----

// Negative: a reduction in the middle is never fused (dispatch formation's job). The
// elementwise ops before it fuse together, the ones after it fuse together.
// CHECK-LABEL: func.func @reduction_in_the_middle(
// CHECK:         %[[PRE:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:           math.exp
// CHECK:           arith.mulf
// CHECK:         %[[RED:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[PRE]] :
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[PRE]], %[[RED]] :
// CHECK:           arith.divf
// CHECK:           math.sqrt
// CHECK-NOT:     linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @reduction_in_the_middle(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%ex : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<4x8xf32>) outs(%init : tensor<4x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %div = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]} ins(%sq, %sum : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %out = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%div : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %out : tensor<4x8xf32>
}

// -----

// Multi-use producer with a user outside the kernel (it is returned): cheap and the kernel
// then reads fewer bytes (x only instead of x and exp(x)), so it is duplicated.
// CHECK-LABEL: func.func @duplicate_cheap_producer(
// CHECK-SAME:    %[[X:.*]]: tensor<10xf32>)
// CHECK:         %[[EXP:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<10xf32>)
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[X]] : tensor<10xf32>)
// CHECK:           %[[E:.*]] = math.exp
// CHECK:           arith.addf %[[E]],
// CHECK:         return %[[EXP]], %[[SUM]]
#id = affine_map<(d0) -> (d0)>
func.func @duplicate_cheap_producer(%x: tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>) {
  %e = tensor.empty() : tensor<10xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%ex, %x : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  return %ex, %s : tensor<10xf32>, tensor<10xf32>
}

// -----

// Negative for the cost rule: the producer reads two tensors the kernel does not read
// otherwise, so recomputing it would read more bytes than its result: kept materialised.
// CHECK-LABEL: func.func @keep_materialised_producer(
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}} : tensor<10xf32>, tensor<10xf32>)
// CHECK:         %[[C:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[P]] : tensor<10xf32>)
// CHECK:         return %[[P]], %[[C]]
#id = affine_map<(d0) -> (d0)>
func.func @keep_materialised_producer(%x: tensor<10xf32>, %y: tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>) {
  %e = tensor.empty() : tensor<10xf32>
  %p = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %y : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p : tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.tanh %a : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  return %p, %c : tensor<10xf32>, tensor<10xf32>
}

// -----

// An integer iota constant (position ids) becomes linalg.index arithmetic.
// CHECK-LABEL: func.func @iota_constant(
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<1x64xi64>)
// CHECK:           %[[I:.*]] = linalg.index 1
// CHECK:           arith.index_cast %[[I]] : index to i64
// CHECK-NOT:     dense<[
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @iota_constant(%x: tensor<1x64xi64>) -> tensor<1x64xi64> {
  %iota = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63]]> : tensor<1x64xi64>
  %e = tensor.empty() : tensor<1x64xi64>
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %iota : tensor<1x64xi64>, tensor<1x64xi64>) outs(%e : tensor<1x64xi64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %s = arith.addi %a, %b : i64
    linalg.yield %s : i64
  } -> tensor<1x64xi64>
  return %r : tensor<1x64xi64>
}

// -----

// Operand limit: ((a + b) + c) + d needs 5 bindings fused; with max-operands=4 it splits
// into two kernels of at most 3 inputs + 1 output. The default (32) makes one kernel.
// CHECK-LABEL: func.func @operand_limit(
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NOT:     linalg.generic
// LIMIT-LABEL: func.func @operand_limit(
// LIMIT-SAME:    %[[A:[a-z0-9]+]]: tensor<10xf32>, %[[B:[a-z0-9]+]]: tensor<10xf32>, %[[C:[a-z0-9]+]]: tensor<10xf32>, %[[D:[a-z0-9]+]]: tensor<10xf32>)
// LIMIT:         %[[AB:.*]] = linalg.generic
// LIMIT-SAME:      ins(%[[A]], %[[B]] :
// LIMIT:         linalg.generic
// LIMIT-SAME:      ins(%[[AB]], %[[C]], %[[D]] :
// LIMIT-NOT:     linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @operand_limit(%a: tensor<10xf32>, %b: tensor<10xf32>, %c: tensor<10xf32>, %d: tensor<10xf32>) -> tensor<10xf32> {
  %e = tensor.empty() : tensor<10xf32>
  %ab = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %b : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  %abc = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%ab, %c : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  %abcd = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%abc, %d : tensor<10xf32>, tensor<10xf32>) outs(%e : tensor<10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  } -> tensor<10xf32>
  return %abcd : tensor<10xf32>
}

// -----

// Negative: a concat of expensive pieces is not turned into a select chain (each piece would
// be computed at every position); it stays a tensor.concat of two fused kernels.
// CHECK-LABEL: func.func @concat_of_expensive_pieces(
// LIMIT-LABEL: func.func @concat_of_expensive_pieces(
// CHECK-COUNT-2: linalg.generic
// CHECK:         tensor.concat
// CHECK-NOT:     linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @concat_of_expensive_pieces(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x8xf32> {
  %e = tensor.empty() : tensor<1x4xf32>
  %sx = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    %p = math.exp %n : f32
    %q = math.log %p : f32
    %r = math.tanh %q : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  %sy = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<1x4xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    %p = math.exp %n : f32
    %q = math.log %p : f32
    %r = math.tanh %q : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  %c = tensor.concat dim(1) %sx, %sy : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
  return %c : tensor<1x8xf32>
}

// -----

// slice -> cos -> pad as the last op (a pad root, luminal slicing_padding without a consumer):
// conservative mode also makes it one generic. The padded dim has source size 1, so the pad's
// clamped read folds to index 0 and the slice offset to the map (1, d1): an affine read.
// CHECK-LABEL: func.func @slice_cos_pad_root(
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (1, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-NOT:     tensor.pad
// CONSERVATIVE-LABEL: func.func @slice_cos_pad_root(
// CONSERVATIVE-SAME:    %[[X:.*]]: tensor<4x6xf32>)
// CONSERVATIVE:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (1, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CONSERVATIVE-SAME:      ins(%[[X]] : tensor<4x6xf32>)
// CONSERVATIVE:           math.cos
// CONSERVATIVE:           arith.select
// CONSERVATIVE-NOT:     tensor.pad
// CONSERVATIVE-NOT:     tensor.extract_slice
// CONSERVATIVE:         return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @slice_cos_pad_root(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %x[1, 0] [1, 6] [1, 1] : tensor<4x6xf32> to tensor<1x6xf32>
  %e1 = tensor.empty() : tensor<1x6xf32>
  %c = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<1x6xf32>) outs(%e1 : tensor<1x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.cos %v : f32
    linalg.yield %y : f32
  } -> tensor<1x6xf32>
  %p = tensor.pad %c low[1, 0] high[2, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<1x6xf32> to tensor<4x6xf32>
  return %p : tensor<4x6xf32>
}

// -----

// Negative for conservative mode: padding a dim of size 2 (and 6) needs a clamped `mod` read,
// which IREE 3.13's CPU codegen cannot tile; slice and pad stay (aggressive mode fuses).
// CHECK-LABEL: func.func @slice_cos_pad_wide_stays(
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ((((d0 + -1) mod 2) + 1), ((d1 + -1) mod 6))>, affine_map<(d0, d1) -> (d0, d1)>]
// CONSERVATIVE-LABEL: func.func @slice_cos_pad_wide_stays(
// CONSERVATIVE:         tensor.extract_slice
// CONSERVATIVE:         math.cos
// CONSERVATIVE:         tensor.pad
// CONSERVATIVE:         return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @slice_cos_pad_wide_stays(%x: tensor<4x6xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %s = tensor.extract_slice %x[1, 0] [2, 6] [1, 1] : tensor<4x6xf32> to tensor<2x6xf32>
  %e1 = tensor.empty() : tensor<2x6xf32>
  %c = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x6xf32>) outs(%e1 : tensor<2x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.cos %v : f32
    linalg.yield %y : f32
  } -> tensor<2x6xf32>
  %p = tensor.pad %c low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x6xf32> to tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

// Negative for conservative mode: the pad's source is a slice of a matmul result. Absorbing
// it would read the matmul through a shifted/clamped map, which stops dispatch formation
// from fusing the chain into the matmul's region; conservative mode keeps slice and pad.
// (Aggressive mode, not used by dispatch-creation, fuses it all.)
// CHECK-LABEL: func.func @matmul_slice_pad_stays(
// CHECK:         linalg.matmul
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (((d0 + -1) mod 3), d1)>
// CONSERVATIVE-LABEL: func.func @matmul_slice_pad_stays(
// CONSERVATIVE:         linalg.matmul
// CONSERVATIVE:         tensor.extract_slice
// CONSERVATIVE:         math.cos
// CONSERVATIVE:         tensor.pad
// CONSERVATIVE:         math.exp2
// CONSERVATIVE:         return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_slice_pad_stays(%a: tensor<4x3xf32>, %b: tensor<3x6xf32>) -> tensor<4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x6xf32>) -> tensor<4x6xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x6xf32>) outs(%f : tensor<4x6xf32>) -> tensor<4x6xf32>
  %s = tensor.extract_slice %m[0, 0] [3, 6] [1, 1] : tensor<4x6xf32> to tensor<3x6xf32>
  %e1 = tensor.empty() : tensor<3x6xf32>
  %c = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<3x6xf32>) outs(%e1 : tensor<3x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.cos %v : f32
    linalg.yield %y : f32
  } -> tensor<3x6xf32>
  %p = tensor.pad %c low[1, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<3x6xf32> to tensor<4x6xf32>
  %e2 = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<4x6xf32>) outs(%e2 : tensor<4x6xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = math.exp2 %v : f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}

// -----

// A fill read as an operand is folded into the payload; the fill, freed when the root goes, is
// erased once (GPT-Neo's dynamic export: a rank-0 i64 fill the root alone read crashed the pass).
// CHECK-LABEL: func.func @fill_operand_rank0
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%{{.*}} : tensor<i64>)
// CHECK:           arith.addi %{{.*}}, %{{.*}} : i64
// CONSERVATIVE-LABEL: func.func @fill_operand_rank0
// CONSERVATIVE-NOT:     linalg.fill
func.func @fill_operand_rank0(%a: tensor<i64>) -> tensor<i64> {
  %e = tensor.empty() : tensor<i64>
  %c = arith.constant 5 : i64
  %f = linalg.fill ins(%c : i64) outs(%e : tensor<i64>) -> tensor<i64>
  %g = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins(%a, %f : tensor<i64>, tensor<i64>) outs(%e : tensor<i64>) {
  ^bb0(%x: i64, %y: i64, %o: i64):
    %s = arith.addi %x, %y : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  func.return %g : tensor<i64>
}
