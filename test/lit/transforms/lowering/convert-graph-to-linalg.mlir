// RUN: fusion-opt %s --split-input-file -p convert-graph-to-linalg | filecheck %s
// RUN: fusion-opt %s --split-input-file -p convert-graph-to-linalg | iree-opt --split-input-file > /dev/null
// RUN: fusion-opt %s --split-input-file -p convert-graph-to-linalg,linalg-fuse-elementwise | filecheck %s --check-prefix=FUSED
// RUN: fusion-opt %s --split-input-file -p convert-graph-to-linalg,linalg-fuse-elementwise | iree-opt --split-input-file > /dev/null
// RUN: fusion-opt %s --split-input-file -p 'convert-graph-to-linalg{wide-means-from=0}' | filecheck %s --check-prefix=NARROW
// RUN: not fusion-opt %s -p 'convert-graph-to-linalg{wide-means-from=-1}' 2>&1 | filecheck %s --check-prefix=BADOPT
// BADOPT: wide-means-from must be 0 (off) or a value count, not -1
// The pass's helper modules these cases exercise: lowering/graph_to_linalg_builders.py,
// lowering/graph_to_linalg_compute.py, lowering/graph_to_linalg_scalar.py,
// lowering/graph_to_linalg_shape.py, lowering/graph_to_linalg_conv.py.

// Elementwise ops: all-parallel identity-map generics with arith/math bodies.
// CHECK-LABEL: func.func @elementwise(
// CHECK-NOT:     graph.
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK:           math.exp2
// CHECK:         linalg.generic
// CHECK:           math.sin
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]
// CHECK:           arith.subf
// CHECK:         linalg.generic
// CHECK:           arith.maximumf
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>]
// CHECK:         linalg.generic
// CHECK:           arith.divf
// CHECK:         linalg.generic
// CHECK:           arith.addf
// luminal issue #39's target after convert + fuse: exactly one kernel.
// FUSED-LABEL: func.func @elementwise(
// FUSED-COUNT-1: linalg.generic
// FUSED-NOT:     linalg.generic
func.func @elementwise(%a: tensor<10xf32>, %b: tensor<10xf32>, %d: tensor<10xf32>) -> tensor<10xf32> {
  %c = arith.constant dense<2.123> : tensor<f32>
  %0 = graph.exp2 %a : tensor<10xf32>
  %1 = graph.sin %b : tensor<10xf32>
  %2 = graph.sub %0, %1 : tensor<10xf32>
  %3 = graph.relu %2 : tensor<10xf32>
  %4 = graph.broadcast %c dims = [] : tensor<f32> -> tensor<10xf32>
  %5 = graph.div %4, %d : tensor<10xf32>
  %6 = graph.add %3, %5 : tensor<10xf32>
  return %6 : tensor<10xf32>
}

// -----

// f16 computes in f32 and rounds once; integers use arith.*si; compare + where.
// CHECK-LABEL: func.func @types_and_select(
// FUSED-LABEL: func.func @types_and_select(
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         math.exp %{{.*}} : f32
// CHECK:         arith.truncf %{{.*}} : f32 to f16
// CHECK:         arith.divsi %{{.*}} : i32
// CHECK:         arith.cmpf ogt
// CHECK:         arith.select
// CHECK:         arith.fptosi
func.func @types_and_select(%h: tensor<4xf16>, %i: tensor<4xi32>, %j: tensor<4xi32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>) {
  %0 = graph.exp %h : tensor<4xf16>
  %1 = graph.div %i, %j : tensor<4xi32>
  %2 = graph.greater %x, %y : tensor<4xf32> -> tensor<4xi1>
  %3 = graph.where %2, %x, %y : tensor<4xi1>, tensor<4xf32>
  %4 = graph.convert %3 : tensor<4xf32> -> tensor<4xi32>
  return %0, %1, %3, %4 : tensor<4xf16>, tensor<4xi32>, tensor<4xf32>, tensor<4xi32>
}

// -----

// The remainder keeps the dividend's sign: arith.remsi on integers, arith.remf on floats.
// CHECK-LABEL: func.func @remainders(
// FUSED-LABEL: func.func @remainders(
// CHECK:         arith.remsi %{{.*}} : i64
// CHECK:         arith.remf %{{.*}} : f32
// CHECK-NOT:     graph.rem
func.func @remainders(%i: tensor<4xi64>, %j: tensor<4xi64>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi64>, tensor<4xf32>) {
  %0 = graph.rem %i, %j : tensor<4xi64>
  %1 = graph.rem %x, %y : tensor<4xf32>
  return %0, %1 : tensor<4xi64>, tensor<4xf32>
}

// -----

// Broadcast and transpose: copy generics whose input map is the view.
// CHECK-LABEL: func.func @views(
// FUSED-LABEL: func.func @views(
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>]
// Reshape: collapse, expand, and collapse-then-expand when neither groups the other.
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<4x8xf32> into tensor<32xf32>
// CHECK:         tensor.expand_shape %{{.*}} output_shape [4, 2, 4] : tensor<4x8xf32> into tensor<4x2x4xf32>
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<4x8xf32> into tensor<32xf32>
// CHECK-NEXT:    tensor.expand_shape %{{.*}} output_shape [8, 4] : tensor<32xf32> into tensor<8x4xf32>
// CHECK:         tensor.extract_slice %{{.*}}[0, 2] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
// CHECK:         tensor.concat dim(1) %{{.*}}, %{{.*}} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK:         tensor.pad %{{.*}} low[1, 0] high[1, 0]
// CHECK:           arith.constant 2.5
// CHECK:           tensor.yield
func.func @views(%a: tensor<4x8xf32>, %v: tensor<4x1xf32>) -> (tensor<3x4x8xf32>, tensor<8x4xf32>, tensor<32xf32>, tensor<4x2x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>, tensor<4x16xf32>, tensor<6x8xf32>) {
  %0 = graph.broadcast %v dims = [1, 2] : tensor<4x1xf32> -> tensor<3x4x8xf32>
  %1 = graph.transpose %a perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %2 = graph.reshape %a : tensor<4x8xf32> -> tensor<32xf32>
  %3 = graph.reshape %a : tensor<4x8xf32> -> tensor<4x2x4xf32>
  %4 = graph.reshape %a : tensor<4x8xf32> -> tensor<8x4xf32>
  %5 = graph.slice %a axes = [1] starts = [2] ends = [6] : tensor<4x8xf32> -> tensor<4x4xf32>
  %6 = graph.concat %a, %a axis = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %7 = graph.pad %a low = [1, 0] high = [1, 0] value = 2.5 : tensor<4x8xf32> -> tensor<6x8xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3x4x8xf32>, tensor<8x4xf32>, tensor<32xf32>, tensor<4x2x4xf32>, tensor<8x4xf32>, tensor<4x4xf32>, tensor<4x16xf32>, tensor<6x8xf32>
}

// -----

// Dot: matmul / batch_matmul into a zero fill; rank 4 folds its batch dims.
// CHECK-LABEL: func.func @contractions(
// FUSED-LABEL: func.func @contractions(
// CHECK:         %[[Z:.*]] = arith.constant 0.0
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.*}} : tensor<8x5xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<4x5xf32>) outs(%[[F]] : tensor<8x5xf32>)
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x8x4xf32>, tensor<2x4x5xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} : tensor<2x3x8x4xf32> into tensor<6x8x4xf32>
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<6x8x4xf32>, tensor<6x4x5xf32>)
// CHECK:         tensor.expand_shape %{{.*}} : tensor<6x8x5xf32> into tensor<2x3x8x5xf32>
// f16 accumulates in f32, then one truncf generic.
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<8x4xf16>, tensor<4x5xf16>) outs(%{{.*}} : tensor<8x5xf32>)
// CHECK:         arith.truncf %{{.*}} : f32 to f16
func.func @contractions(%a: tensor<8x4xf32>, %b: tensor<4x5xf32>, %m: tensor<2x8x4xf32>, %n: tensor<2x4x5xf32>, %p: tensor<2x3x8x4xf32>, %q: tensor<2x3x4x5xf32>, %h: tensor<8x4xf16>, %k: tensor<4x5xf16>) -> (tensor<8x5xf32>, tensor<2x8x5xf32>, tensor<2x3x8x5xf32>, tensor<8x5xf16>) {
  %0 = graph.dot %a, %b : (tensor<8x4xf32>, tensor<4x5xf32>) -> tensor<8x5xf32>
  %1 = graph.dot %m, %n : (tensor<2x8x4xf32>, tensor<2x4x5xf32>) -> tensor<2x8x5xf32>
  %2 = graph.dot %p, %q : (tensor<2x3x8x4xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x8x5xf32>
  %3 = graph.dot %h, %k : (tensor<8x4xf16>, tensor<4x5xf16>) -> tensor<8x5xf16>
  return %0, %1, %2, %3 : tensor<8x5xf32>, tensor<2x8x5xf32>, tensor<2x3x8x5xf32>, tensor<8x5xf16>
}

// -----

// Reductions: reduction iterators, the kept dim written through a constant-0 output map.
// CHECK-LABEL: func.func @reductions(
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
// CHECK:           arith.addf
// CHECK:         arith.constant 0xff800000 : f32
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK:           arith.maximumf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         arith.constant 8.0
// CHECK:           arith.divf
// Negative: reductions are never fused with the elementwise consumer of the mean.
// FUSED-LABEL: func.func @reductions(
// FUSED:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// FUSED:         linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// FUSED:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// FUSED:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// FUSED-SAME:      ins(%[[SUM]] : tensor<4x1xf32>)
// FUSED:           arith.divf
// FUSED-NOT:     linalg.generic
func.func @reductions(%a: tensor<4x8xf32>) -> (tensor<4x1xf32>, tensor<1x8xf32>, tensor<4x1xf32>) {
  %0 = graph.reduce_sum %a axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %1 = graph.reduce_max %a axes = [0] : tensor<4x8xf32> -> tensor<1x8xf32>
  %2 = graph.reduce_mean %a axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  return %0, %1, %2 : tensor<4x1xf32>, tensor<1x8xf32>, tensor<4x1xf32>
}

// -----

// A float mean over >= 256 elements accumulates in f64 (extf, then divf in f64, then truncf);
// a mean of squares (x * x, x ** 2: a variance, RMSNorm), a shorter mean and an integer mean keep
// their own accumulators.
// CHECK-LABEL: func.func @wide_means
// CHECK-SAME:    %[[X:.*]]: tensor<2x256xf32>
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x256xf32>) outs(%{{.*}} : tensor<2x1xf64>)
// CHECK:           arith.extf %{{.*}} : f32 to f64
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f64
// CHECK:         linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x1xf64>)
// CHECK:           arith.divf %{{.*}}, %{{.*}} : f64
// CHECK:           arith.truncf %{{.*}} : f64 to f32
// CHECK-NOT:     f64
// CHECK:         return
// FUSED-LABEL: func.func @wide_means
// With wide-means-from=0 (the CUDA pipeline) no mean is widened.
// NARROW-LABEL: func.func @wide_means
// NARROW-NOT:     f64
// NARROW:         return
// FUSED:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1xf64>)
func.func @wide_means(%x: tensor<2x256xf32>, %short: tensor<2x255xf32>, %ids: tensor<2x256xi64>) -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xi64>) {
  %m = graph.reduce_mean %x axes = [1] : tensor<2x256xf32> -> tensor<2x1xf32>
  %sq = graph.mul %x, %x : tensor<2x256xf32>
  %v = graph.reduce_mean %sq axes = [1] : tensor<2x256xf32> -> tensor<2x1xf32>
  %two = arith.constant dense<2.0> : tensor<2x256xf32>
  %pw = graph.pow %x, %two : tensor<2x256xf32>
  %ms = graph.reduce_mean %pw axes = [1] : tensor<2x256xf32> -> tensor<2x1xf32>
  %s = graph.reduce_mean %short axes = [1] : tensor<2x255xf32> -> tensor<2x1xf32>
  %i = graph.reduce_mean %ids axes = [1] : tensor<2x256xi64> -> tensor<2x1xi64>
  return %m, %v, %ms, %s, %i : tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xi64>
}

// -----

// Gather: a parallel generic over the result reading the indices, tensor.extract from the table.
// CHECK-LABEL: func.func @gather(
// FUSED-LABEL: func.func @gather(
// CHECK-SAME:    %[[T:.*]]: tensor<16x8xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:      ins(%[[I]] : tensor<2x3xi64>)
// CHECK:           arith.index_cast
// CHECK:           %[[COL:.*]] = linalg.index 2
// CHECK:           tensor.extract %[[T]][%{{.*}}, %[[COL]]] : tensor<16x8xf32>
func.func @gather(%t: tensor<16x8xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x8xf32> {
  %0 = graph.gather %t, %i axis = 0 : (tensor<16x8xf32>, tensor<2x3xi64>) -> tensor<2x3x8xf32>
  return %0 : tensor<2x3x8xf32>
}

// -----

// x[2,5]: slice rows [0:1], cos, pad back with 0, exp2 -> one kernel after fusion, and the
// pad value is selected before exp2 (padded row = exp2(0) = 1).
// FUSED-LABEL: func.func @slice_cos_pad_exp2(
// FUSED:         linalg.generic
// FUSED:           math.cos
// FUSED:           arith.select
// FUSED:           math.exp2
// FUSED-NOT:     linalg.generic
// FUSED-NOT:     tensor.pad
func.func @slice_cos_pad_exp2(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = graph.slice %x axes = [0] starts = [0] ends = [1] : tensor<2x5xf32> -> tensor<1x5xf32>
  %1 = graph.cos %0 : tensor<1x5xf32>
  %2 = graph.pad %1 low = [0, 0] high = [1, 0] value = 0.0 : tensor<1x5xf32> -> tensor<2x5xf32>
  %3 = graph.exp2 %2 : tensor<2x5xf32>
  return %3 : tensor<2x5xf32>
}

// -----

// b = exp(a); c = b + sin(b) and sqrt(a).exp() + sqrt(a).sin(): one kernel each, with one exp
// and one sqrt in the body.
// CHECK-LABEL: func.func @shared_values(
// FUSED-LABEL: func.func @shared_values(
// FUSED:         linalg.generic
// FUSED:           %[[E:.*]] = math.exp
// FUSED-NOT:       math.exp
// FUSED:           math.sin %[[E]]
// FUSED:         linalg.generic
// FUSED:           %[[S:.*]] = math.sqrt
// FUSED-NOT:       math.sqrt
// FUSED:         return
func.func @shared_values(%a: tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>) {
  %b = graph.exp %a : tensor<10xf32>
  %s = graph.sin %b : tensor<10xf32>
  %c = graph.add %b, %s : tensor<10xf32>
  %q1 = graph.sqrt %a : tensor<10xf32>
  %e = graph.exp %q1 : tensor<10xf32>
  %q2 = graph.sqrt %a : tensor<10xf32>
  %n = graph.sin %q2 : tensor<10xf32>
  %r = graph.add %e, %n : tensor<10xf32>
  return %c, %r : tensor<10xf32>, tensor<10xf32>
}

// -----

// Rotary embedding block at the graph level: one kernel after convert + fuse.
// CHECK-LABEL: func.func @rotary(
// CHECK:         tensor.expand_shape
// CHECK:         tensor.concat
// FUSED-LABEL: func.func @rotary(
// FUSED-COUNT-1: linalg.generic
// FUSED-NOT:     linalg.generic
// FUSED-NOT:     tensor.concat
func.func @rotary(%x: tensor<4x8xf32>, %cos: tensor<4x8xf32>, %sin: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = graph.reshape %x : tensor<4x8xf32> -> tensor<4x4x2xf32>
  %x1 = graph.slice %p axes = [2] starts = [0] ends = [1] : tensor<4x4x2xf32> -> tensor<4x4x1xf32>
  %x2 = graph.slice %p axes = [2] starts = [1] ends = [2] : tensor<4x4x2xf32> -> tensor<4x4x1xf32>
  %n2 = graph.neg %x2 : tensor<4x4x1xf32>
  %r = graph.concat %n2, %x1 axis = 2 : (tensor<4x4x1xf32>, tensor<4x4x1xf32>) -> tensor<4x4x2xf32>
  %rf = graph.reshape %r : tensor<4x4x2xf32> -> tensor<4x8xf32>
  %a = graph.mul %x, %cos : tensor<4x8xf32>
  %b = graph.mul %rf, %sin : tensor<4x8xf32>
  %o = graph.add %a, %b : tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// 3-D convs (video models): the input padded, then MLIR's NCDHW named ops as torch-mlir writes
// them; a depthwise one reads its filter as C x kd x kh x kw.
// CHECK-LABEL: func.func @conv_3d(
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 1, 1] high[0, 0, 1, 1, 1]
// CHECK:         linalg.conv_3d_ncdhw_fcdhw {dilations = dense<1> : vector<3xi64>, strides = dense<[1, 2, 2]> : vector<3xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x3x6x10x10xf32>, tensor<8x3x3x3x3xf32>) outs(%{{.*}} : tensor<1x8x4x4x4xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3], [4]] : tensor<8x1x3x3x3xf32> into tensor<8x3x3x3xf32>
// CHECK:         linalg.depthwise_conv_3d_ncdhw_cdhw {dilations = dense<1> : vector<3xi64>, strides = dense<1> : vector<3xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x8x4x4x4xf32>, tensor<8x3x3x3xf32>) outs(%{{.*}} : tensor<1x8x2x2x2xf32>)
func.func @conv_3d(%x: tensor<1x3x4x8x8xf32>, %w: tensor<8x3x3x3x3xf32>, %d: tensor<8x1x3x3x3xf32>) -> tensor<1x8x2x2x2xf32> {
  %c = graph.conv %x, %w strides = [1, 2, 2] dilations = [1, 1, 1] pads = [1, 1, 1, 1, 1, 1] group = 1 : (tensor<1x3x4x8x8xf32>, tensor<8x3x3x3x3xf32>) -> tensor<1x8x4x4x4xf32>
  %g = graph.conv %c, %d strides = [1, 1, 1] dilations = [1, 1, 1] pads = [0, 0, 0, 0, 0, 0] group = 8 : (tensor<1x8x4x4x4xf32>, tensor<8x1x3x3x3xf32>) -> tensor<1x8x2x2x2xf32>
  return %g : tensor<1x8x2x2x2xf32>
}

// -----

// log1p and expm1 (Softplus's tail, the ELUs' negative side) lower to their math ops, which
// iree-opt reads (second RUN line) and IREE compiles.
// CHECK-LABEL: func.func @log1p_expm1
// CHECK:         linalg.generic
// CHECK:           math.log1p %{{.*}} : f32
// CHECK:         linalg.generic
// CHECK:           math.expm1 %{{.*}} : f32
// FUSED-LABEL: func.func @log1p_expm1
// FUSED-COUNT-1: linalg.generic
// FUSED:           math.log1p
// FUSED:           math.expm1
func.func @log1p_expm1(%a: tensor<10xf32>) -> tensor<10xf32> {
  %l = graph.log1p %a : tensor<10xf32>
  %e = graph.expm1 %l : tensor<10xf32>
  func.return %e : tensor<10xf32>
}

// -----

// round is round-half-to-even (ONNX Round, QuantizeLinear): math.roundeven, not math.round
// (half away from zero); floor and ceil lower to their math ops.
// CHECK-LABEL: func.func @round_floor_ceil
// CHECK:         linalg.generic
// CHECK:           math.roundeven %{{.*}} : f32
// CHECK:         linalg.generic
// CHECK:           math.floor %{{.*}} : f32
// CHECK:         linalg.generic
// CHECK:           math.ceil %{{.*}} : f32
// FUSED-LABEL: func.func @round_floor_ceil
// FUSED-COUNT-1: linalg.generic
// FUSED:           math.roundeven
// FUSED:           math.floor
// FUSED:           math.ceil
func.func @round_floor_ceil(%a: tensor<10xf32>) -> tensor<10xf32> {
  %r = graph.round %a : tensor<10xf32>
  %f = graph.floor %r : tensor<10xf32>
  %c = graph.ceil %f : tensor<10xf32>
  func.return %c : tensor<10xf32>
}
