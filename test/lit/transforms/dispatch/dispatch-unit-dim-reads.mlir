// RUN: fusion-opt %s --split-input-file -p dispatch-unit-dim-reads | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-unit-dim-reads | fusion-opt - --split-input-file -o %t.mlir
// RUN: fusion-opt %s --split-input-file -p dispatch-unit-dim-reads --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// STATS:         (unit dims read through constant 0s dropped) : 3
// STATS:         (unit dims read through constant 0s dropped) : 1
// STATS:         (unit dims read through constant 0s dropped) : 1
// STATS:         (unit dims read through constant 0s dropped) : 1
// STATS:         (unit dims read through constant 0s dropped) : 1
// STATS:         (unit dims read through constant 0s dropped) : 1
// STATS-NOT:     unit dims read
// RUN: fusion-opt %s --split-input-file -p "dispatch-unit-dim-reads{windowed-regions-only=true}" | filecheck %s --check-prefix=WINDOWED
// With windowed-regions-only (the CUDA pipeline) the conv's region is rewritten whole; elsewhere
// only the reads of values a region computes (the last two cases): the 1-D conv epilogue's
// region computes no conv, so its constant-0 reads of the conv result and the bias stay.
// WINDOWED-LABEL: func.func @conv1d_epilogue
// WINDOWED-NOT:     flow.tensor.reshape
// WINDOWED:         affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>, affine_map<(d0, d1, d2) -> (d1, 0)>
// WINDOWED-LABEL: func.func @conv_epilogue_in_region
// WINDOWED:         linalg.conv_2d_nhwc_hwcf
// WINDOWED:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]

// A 1-D conv's result computed as the 2-D conv's [1, C, 1, W] and its bias [C, 1], read by the
// GELU epilogue through constant 0s: the conv result (a region result) as a flow.tensor.reshape
// to [1, C, W] before the region, the bias as [C]; the scale, an expand_shape in the region, as
// its source. The generic keeps its loops.
// CHECK-LABEL: func.func @conv1d_epilogue
// CHECK-SAME:    (%[[Y:.*]]: tensor<1x8x1x40xf32>, %[[B:.*]]: tensor<8x1xf32>, %[[S:.*]]: tensor<8x40xf32>)
// CHECK:         %[[Y3:.*]] = flow.tensor.reshape %[[Y]] : tensor<1x8x1x40xf32> -> tensor<1x8x40xf32>
// CHECK:         %[[B1:.*]] = flow.tensor.reshape %[[B]] : tensor<8x1xf32> -> tensor<8xf32>
// CHECK:         flow.dispatch.region
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[Y3]], %[[B1]], %[[S]] : tensor<1x8x40xf32>, tensor<8xf32>, tensor<8x40xf32>)
func.func @conv1d_epilogue(%y: tensor<1x8x1x40xf32>, %b: tensor<8x1xf32>, %s: tensor<8x40xf32>) -> tensor<1x8x40xf32> {
  %r = flow.dispatch.region -> (tensor<1x8x40xf32>) {
    %e = tensor.empty() : tensor<1x8x40xf32>
    %s4 = tensor.expand_shape %s [[0, 1], [2, 3]] output_shape [1, 8, 1, 40] : tensor<8x40xf32> into tensor<1x8x1x40xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>, affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%y, %b, %s4 : tensor<1x8x1x40xf32>, tensor<8x1xf32>, tensor<1x8x1x40xf32>) outs(%e : tensor<1x8x40xf32>) {
    ^bb0(%x: f32, %bias: f32, %scale: f32, %o: f32):
      %t = arith.addf %x, %bias : f32
      %u = arith.mulf %t, %scale : f32
      %v = math.erf %u : f32
      linalg.yield %v : f32
    } -> tensor<1x8x40xf32>
    flow.return %g : tensor<1x8x40xf32>
  }
  func.return %r : tensor<1x8x40xf32>
}

// -----

// A conv's result computed in the region ([1, 1, W, F]), its epilogue reading it through
// (d0, 0, d2, d3) while its own loop d1 has extent 1: read through d1 (no reshape in a region).
// CHECK-LABEL: func.func @conv_epilogue_in_region
// CHECK-NOT:     flow.tensor.reshape
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
func.func @conv_epilogue_in_region(%x: tensor<1x1x42x8xf32>, %w: tensor<1x3x8x16xf32>) -> tensor<1x1x40x16xf32> {
  %r = flow.dispatch.region -> (tensor<1x1x40x16xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x1x40x16xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1x40x16xf32>) -> tensor<1x1x40x16xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x42x8xf32>, tensor<1x3x8x16xf32>) outs(%f : tensor<1x1x40x16xf32>) -> tensor<1x1x40x16xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x1x40x16xf32>) outs(%e : tensor<1x1x40x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = math.erf %a : f32
      linalg.yield %t : f32
    } -> tensor<1x1x40x16xf32>
    flow.return %g : tensor<1x1x40x16xf32>
  }
  func.return %r : tensor<1x1x40x16xf32>
}

// -----

// A one-element operand from outside the region read at (0, ..., 0) (a dynamic quantization's
// scale after a conv) is read at rank 0: IREE's llvm-cpu backend cannot distribute a
// channels-first conv generic whose epilogue reads it through constant 0s.
// CHECK-LABEL: func.func @one_element_read_at_rank_0
// CHECK:         %[[S:.*]] = flow.tensor.reshape %s : tensor<1x1x1x1xf32> -> tensor<f32>
// CHECK:         flow.dispatch.region
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// CHECK-SAME:      ins(%{{.*}}, %[[S]] : tensor<4x6x6xf32>, tensor<f32>)
func.func @one_element_read_at_rank_0(%x: tensor<4x8x8xf32>, %w: tensor<4x3x3xf32>, %s: tensor<1x1x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %r = flow.dispatch.region -> (tensor<1x4x6x6xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<4x6x6xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
    %e4 = tensor.empty() : tensor<1x4x6x6xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d0 + d3, d1 + d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0, d1)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<4x8x8xf32>, tensor<4x3x3xf32>) outs(%f : tensor<4x6x6xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %t = arith.addf %o, %m : f32
      linalg.yield %t : f32
    } -> tensor<4x6x6xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (0, 0, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %s : tensor<4x6x6xf32>, tensor<1x1x1x1xf32>) outs(%e4 : tensor<1x4x6x6xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %p = arith.mulf %a, %b : f32
      linalg.yield %p : f32
    } -> tensor<1x4x6x6xf32>
    flow.return %g : tensor<1x4x6x6xf32>
  }
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// Left: a value computed in the region (no free reshape there, and the loop of extent 1 the read
// could take, d0, is one it reads already), a one-element value computed in the region read at
// (0, 0) (never all of an operand's dims by spare loops), a one-element operand from outside a
// region that computes no conv (a rank-0 read only where IREE needs one), and a generic outside
// any region.
// CHECK-LABEL: func.func @left_as_they_are
// CHECK-NOT:     flow.tensor.reshape
// CHECK:         affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>, affine_map<(d0, d1, d2) -> (0, 0)>, affine_map<(d0, d1, d2) -> (0, 0)>
// CHECK:         affine_map<(d0, d1) -> (0, d0, 0, d1)>
func.func @left_as_they_are(%x: tensor<1x8x1x40xf32>, %c0: tensor<1x1xf32>) -> (tensor<1x8x40xf32>, tensor<8x40xf32>) {
  %r = flow.dispatch.region -> (tensor<1x8x40xf32>) {
    %e4 = tensor.empty() : tensor<1x8x1x40xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x1x40xf32>) outs(%e4 : tensor<1x8x1x40xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.negf %a : f32
      linalg.yield %m : f32
    } -> tensor<1x8x1x40xf32>
    %e1 = tensor.empty() : tensor<1x1xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c0 : tensor<1x1xf32>) outs(%e1 : tensor<1x1xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.negf %a : f32
      linalg.yield %m : f32
    } -> tensor<1x1xf32>
    %e = tensor.empty() : tensor<1x8x40xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0, d2)>, affine_map<(d0, d1, d2) -> (0, 0)>, affine_map<(d0, d1, d2) -> (0, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n, %c, %c0 : tensor<1x8x1x40xf32>, tensor<1x1xf32>, tensor<1x1xf32>) outs(%e : tensor<1x8x40xf32>) {
    ^bb0(%a: f32, %k: f32, %k0: f32, %o: f32):
      %m = arith.mulf %a, %k : f32
      %m2 = arith.mulf %m, %k0 : f32
      linalg.yield %m2 : f32
    } -> tensor<1x8x40xf32>
    flow.return %g : tensor<1x8x40xf32>
  }
  %e2 = tensor.empty() : tensor<8x40xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d0, 0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x8x1x40xf32>) outs(%e2 : tensor<8x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x40xf32>
  func.return %r, %h : tensor<1x8x40xf32>, tensor<8x40xf32>
}

// -----

// A collapse in the region of a value from outside it (a packed matmul's [1, 1, W, 2, 4] result
// read as [1, 1, W, 8] by a residual add + ELU, EnCodec's): the read is a flow.tensor.reshape of
// the outside value to [1, W, 8] before the region, the collapse erased. A collapse of a value
// computed in the region stays, read through its constant 0.
// CHECK-LABEL: func.func @collapse_of_an_outside_value
// CHECK-SAME:    (%[[Y:.*]]: tensor<1x1x40x2x4xf32>, %[[Z:.*]]: tensor<1x1x40x2x4xf32>)
// CHECK:         %[[Y3:.*]] = flow.tensor.reshape %[[Y]] : tensor<1x1x40x2x4xf32> -> tensor<1x40x8xf32>
// CHECK:         flow.dispatch.region
// CHECK-NOT:       tensor.collapse_shape %[[Y]]
// CHECK:           %[[N:.*]] = linalg.generic {{.*}} ins(%[[Z]] : tensor<1x1x40x2x4xf32>)
// CHECK:           %[[NC:.*]] = tensor.collapse_shape %[[N]]
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[Y3]], %[[NC]] : tensor<1x40x8xf32>, tensor<1x1x40x8xf32>)
func.func @collapse_of_an_outside_value(%y: tensor<1x1x40x2x4xf32>, %z: tensor<1x1x40x2x4xf32>) -> tensor<1x40x8xf32> {
  %r = flow.dispatch.region -> (tensor<1x40x8xf32>) {
    %yc = tensor.collapse_shape %y [[0], [1], [2], [3, 4]] : tensor<1x1x40x2x4xf32> into tensor<1x1x40x8xf32>
    %e5 = tensor.empty() : tensor<1x1x40x2x4xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%z : tensor<1x1x40x2x4xf32>) outs(%e5 : tensor<1x1x40x2x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.negf %a : f32
      linalg.yield %m : f32
    } -> tensor<1x1x40x2x4xf32>
    %nc = tensor.collapse_shape %n [[0], [1], [2], [3, 4]] : tensor<1x1x40x2x4xf32> into tensor<1x1x40x8xf32>
    %e = tensor.empty() : tensor<1x40x8xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, 0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%yc, %nc : tensor<1x1x40x8xf32>, tensor<1x1x40x8xf32>) outs(%e : tensor<1x40x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %s = arith.addf %a, %b : f32
      %z0 = arith.constant 0.0 : f32
      %c = arith.cmpf olt, %s, %z0 : f32
      %m = math.expm1 %s : f32
      %v = arith.select %c, %m, %s : f32
      linalg.yield %v : f32
    } -> tensor<1x40x8xf32>
    flow.return %g : tensor<1x40x8xf32>
  }
  func.return %r : tensor<1x40x8xf32>
}

// -----

// An MoE layer's RMSNorm output [1, T, H], computed in the region, repeated for each of a token's
// 2 experts (read at (0, d0, d2) over T x 2 x H): no loop of extent 1 is free, so the read goes
// through a collapse of the value in the region. The same read without the broadcast (every
// loop read) stays, as does a broadcast written transposed.
// CHECK-LABEL: func.func @broadcast_of_a_region_value
// CHECK:         %[[N:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x16xf32>, tensor<1x8xf32>)
// CHECK:         %[[NC:.*]] = tensor.collapse_shape %[[N]] {{\[}}[0, 1], [2]] : tensor<1x8x16xf32> into tensor<8x16xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[NC]] : tensor<8x16xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], {{.*}} ins(%[[N]] : tensor<1x8x16xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], {{.*}} ins(%[[N]] : tensor<1x8x16xf32>)
// CHECK-NOT:     tensor.collapse_shape
// WINDOWED-LABEL: func.func @broadcast_of_a_region_value
// WINDOWED:         tensor.collapse_shape
func.func @broadcast_of_a_region_value(%x: tensor<1x8x16xf32>) -> (tensor<8x2x16xf32>, tensor<2x8x16xf32>, tensor<8x16xf32>) {
  %r:3 = flow.dispatch.region -> (tensor<8x2x16xf32>, tensor<2x8x16xf32>, tensor<8x16xf32>) {
    %z = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<1x8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x8xf32>) -> tensor<1x8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x8x16xf32>) outs(%f : tensor<1x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = arith.addf %o, %a : f32
      linalg.yield %t : f32
    } -> tensor<1x8xf32>
    %e3 = tensor.empty() : tensor<1x8x16xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x8x16xf32>, tensor<1x8xf32>) outs(%e3 : tensor<1x8x16xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<1x8x16xf32>
    %eb = tensor.empty() : tensor<8x2x16xf32>
    %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n : tensor<1x8x16xf32>) outs(%eb : tensor<8x2x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    } -> tensor<8x2x16xf32>
    %et = tensor.empty() : tensor<2x8x16xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n : tensor<1x8x16xf32>) outs(%et : tensor<2x8x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      linalg.yield %a : f32
    } -> tensor<2x8x16xf32>
    %ec = tensor.empty() : tensor<8x16xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n : tensor<1x8x16xf32>) outs(%ec : tensor<8x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.negf %a : f32
      linalg.yield %m : f32
    } -> tensor<8x16xf32>
    flow.return %b, %t, %c : tensor<8x2x16xf32>, tensor<2x8x16xf32>, tensor<8x16xf32>
  }
  func.return %r#0, %r#1, %r#2 : tensor<8x2x16xf32>, tensor<2x8x16xf32>, tensor<8x16xf32>
}

// -----

// Mask2Former's query norm: a layer norm's [4, 1, 8] output, computed in the region, read by a
// second result at (d1, 0, d2) over 1 x 4 x 8. The constant 0 becomes the unit loop d0 (a read
// through a projected permutation), on CUDA too (windowed-regions-only rewrites the reads of
// values a region computes everywhere: sm_80 cannot distribute this region as it was).
// CHECK-LABEL: func.func @region_value_read_through_a_unit_loop
// CHECK:         affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-NOT:     affine_map<(d0, d1, d2) -> (d1, 0, d2)>
// WINDOWED-LABEL: func.func @region_value_read_through_a_unit_loop
// WINDOWED:         affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// WINDOWED-NOT:     affine_map<(d0, d1, d2) -> (d1, 0, d2)>
func.func @region_value_read_through_a_unit_loop(%x: tensor<4x1x8xf32>) -> (tensor<4x1x8xf32>, tensor<1x4x8xf32>) {
  %r:2 = flow.dispatch.region -> (tensor<4x1x8xf32>, tensor<1x4x8xf32>) {
    %z = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<4x1xf32>
    %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x1x8xf32>) outs(%f : tensor<4x1xf32>) {
    ^bb0(%a: f32, %o: f32):
      %t = arith.addf %o, %a : f32
      linalg.yield %t : f32
    } -> tensor<4x1xf32>
    %e3 = tensor.empty() : tensor<4x1x8xf32>
    %n = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %s : tensor<4x1x8xf32>, tensor<4x1xf32>) outs(%e3 : tensor<4x1x8xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.subf %a, %b : f32
      linalg.yield %m : f32
    } -> tensor<4x1x8xf32>
    %et = tensor.empty() : tensor<1x4x8xf32>
    %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, 0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%n : tensor<4x1x8xf32>) outs(%et : tensor<1x4x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.negf %a : f32
      linalg.yield %m : f32
    } -> tensor<1x4x8xf32>
    flow.return %n, %t : tensor<4x1x8xf32>, tensor<1x4x8xf32>
  }
  func.return %r#0, %r#1 : tensor<4x1x8xf32>, tensor<1x4x8xf32>
}
