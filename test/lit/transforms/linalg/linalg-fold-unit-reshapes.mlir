// RUN: fusion-opt %s --split-input-file -p linalg-fold-unit-reshapes | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-fold-unit-reshapes{constants-into-reductions=false}" | filecheck %s --check-prefix=KEEP
// RUN: fusion-opt %s --split-input-file -p "linalg-fold-unit-reshapes{collapses-into-producers=true}" | filecheck %s --check-prefix=PROD

// A unit-dim expand_shape between ops: the consumer reads the source, dropping the unit dim.
// CHECK-LABEL: func.func @expand_consumer
// CHECK-SAME:    (%[[A:.*]]: tensor<2x64x64xf32>)
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]{{.*}} ins(%[[A]] : tensor<2x64x64xf32>)
func.func @expand_consumer(%a: tensor<2x64x64xf32>) -> tensor<1x2x64x64xf32> {
  %x = tensor.expand_shape %a [[0, 1], [2], [3]] output_shape [1, 2, 64, 64] : tensor<2x64x64xf32> into tensor<1x2x64x64xf32>
  %e = tensor.empty() : tensor<1x2x64x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x2x64x64xf32>) outs(%e : tensor<1x2x64x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x2x64x64xf32>
  func.return %g : tensor<1x2x64x64xf32>
}

// -----

// A unit-dim collapse_shape: the consumer reads the source with a constant 0 index.
// CHECK-LABEL: func.func @collapse_consumer
// CHECK-SAME:    (%[[M:.*]]: tensor<1x64x1xf32>)
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]{{.*}} ins(%[[M]] : tensor<1x64x1xf32>)
func.func @collapse_consumer(%m: tensor<1x64x1xf32>) -> tensor<1x64x128xf32> {
  %c = tensor.collapse_shape %m [[0], [1, 2]] : tensor<1x64x1xf32> into tensor<1x64xf32>
  %e = tensor.empty() : tensor<1x64x128xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : tensor<1x64xf32>) outs(%e : tensor<1x64x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x64x128xf32>
  func.return %b : tensor<1x64x128xf32>
}

// -----

// A reduction keeping its reduced dim through a constant-0 output map computes the
// rank-reduced tensor (fresh fill) and re-expands it.
// CHECK-LABEL: func.func @reduction_keepdim
// CHECK-NOT:     linalg.fill {{.*}} tensor<1x64x1xf32>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<1x64xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x64xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}{{.*}} outs(%[[F]] : tensor<1x64xf32>)
// CHECK:         %[[X:.*]] = tensor.expand_shape %[[R]] {{.*}} into tensor<1x64x1xf32>
// CHECK:         func.return %[[X]]
func.func @reduction_keepdim(%x: tensor<1x64x128xf32>) -> tensor<1x64x1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x1xf32>) -> tensor<1x64x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x64x128xf32>) outs(%f : tensor<1x64x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x64x1xf32>
  func.return %r : tensor<1x64x1xf32>
}

// -----

// The same at a dynamic row count (torch-mlir's RMSNorm at a symbolic sequence length; IREE
// 3.13 cannot build the reduction with the constant-0 output map): the fill is collapsed
// rather than rebuilt, and the expand back reads the row count from the old init.
// CHECK-LABEL: func.func @reduction_keepdim_dynamic
// CHECK:         %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<1x?x1xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x?x1xf32>)
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[F]] {{.*}} into tensor<1x?xf32>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}}affine_map<(d0, d1, d2) -> (d0, d1)>{{.*}} outs(%[[C]] : tensor<1x?xf32>)
// CHECK:         %[[I:.*]] = arith.constant 1 : index
// CHECK:         %[[N:.*]] = tensor.dim %[[F]], %[[I]] : tensor<1x?x1xf32>
// CHECK:         %[[X:.*]] = tensor.expand_shape %[[R]] {{\[\[}}0], [1, 2]] output_shape [1, %[[N]], 1] : tensor<1x?xf32> into tensor<1x?x1xf32>
// CHECK:         func.return %[[X]]
func.func @reduction_keepdim_dynamic(%x: tensor<1x?x128xf32>) -> tensor<1x?x1xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?x128xf32>
  %e = tensor.empty(%n) : tensor<1x?x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x1xf32>) -> tensor<1x?x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x?x128xf32>) outs(%f : tensor<1x?x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1x?x1xf32>
  func.return %r : tensor<1x?x1xf32>
}

// -----

// Negative: splitting 128 into 2x64 is a real reshape and stays.
// CHECK-LABEL: func.func @real_reshape_kept
// CHECK:         %[[X:.*]] = tensor.expand_shape
// CHECK:         linalg.generic {{.*}} ins(%[[X]] : tensor<1x64x2x64xf32>)
func.func @real_reshape_kept(%a: tensor<1x64x128xf32>) -> tensor<1x64x2x64xf32> {
  %x = tensor.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 64, 2, 64] : tensor<1x64x128xf32> into tensor<1x64x2x64xf32>
  %e = tensor.empty() : tensor<1x64x2x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x64x2x64xf32>) outs(%e : tensor<1x64x2x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<1x64x2x64xf32>
  func.return %g : tensor<1x64x2x64xf32>
}

// -----

// Negative: a contraction keeps reading a unit-dim collapse_shape. Folding it would give the
// map a constant 0 result (`(d0, d1, d2) -> (0, d0, d2)`), not a projected permutation, and
// IREE would tile the matmul as a plain reduction. (Elementwise consumers still fold, above.)
// CHECK-LABEL: func.func @contraction_keeps_collapse
// CHECK:         %[[C:.*]] = tensor.collapse_shape
// CHECK-NOT:     -> (0,
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]{{.*}} ins(%[[C]], %{{.*}} : tensor<64x128xf32>, tensor<128x512xf32>)
func.func @contraction_keeps_collapse(%x: tensor<1x64x128xf32>, %w: tensor<128x512xf32>, %acc: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x64x128xf32> into tensor<64x128xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%c, %w : tensor<64x128xf32>, tensor<128x512xf32>) outs(%acc : tensor<64x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x512xf32>
  func.return %m : tensor<64x512xf32>
}

// -----

// A reduction (ConvNeXt's head LayerNorm mean, its 1 x 768 x 1 x 1 input read channels last):
// by default it reads the collapse's source with constant-0 indices; with
// constants-into-reductions=false (the CUDA pipelines: IREE's sm_80 codegen fails to distribute
// that) it keeps reading the collapse. An elementwise reader of the same collapse folds either way.
// CHECK-LABEL: func.func @reduction_reads_collapse
// CHECK-SAME:    (%[[X:.*]]: tensor<1x768x1x1xf32>)
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, 0, 0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<1x768x1x1xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, 0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<1x768x1x1xf32>)
// KEEP-LABEL: func.func @reduction_reads_collapse
// KEEP-SAME:    (%[[X:.*]]: tensor<1x768x1x1xf32>)
// KEEP:         %[[C:.*]] = tensor.collapse_shape %[[X]]
// KEEP:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[C]] : tensor<1x768xf32>)
// KEEP:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, 0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<1x768x1x1xf32>)
func.func @reduction_reads_collapse(%x: tensor<1x768x1x1xf32>) -> (tensor<1xf32>, tensor<1x768xf32>) {
  %c = tensor.collapse_shape %x [[0], [1, 2, 3]] : tensor<1x768x1x1xf32> into tensor<1x768xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<1x768xf32>) outs(%f : tensor<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %acc, %in : f32
    linalg.yield %a : f32
  } -> tensor<1xf32>
  %e2 = tensor.empty() : tensor<1x768xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<1x768xf32>) outs(%e2 : tensor<1x768xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.negf %in : f32
    linalg.yield %y : f32
  } -> tensor<1x768xf32>
  func.return %s, %n : tensor<1xf32>, tensor<1x768xf32>
}

// -----

// A contraction whose [1, M] rows only its lhs reads, through a unit-row expand: read as the
// [M, K] source, the unit row loop would be read by no input (only the output), a form IREE
// 3.13 compiles 6.7x slower (a [1, 99, 512] . [1024, 512] packed matmul, one Zen 4 core). The
// expand stays; the elementwise consumer still reads through its unit-row collapse.
// CHECK-LABEL: func.func @contraction_keeps_its_row_loop
// CHECK-SAME:    (%[[A:.*]]: tensor<6x8xf32>, %[[W:.*]]: tensor<8x4xf32>)
// CHECK:         %[[AE:.*]] = tensor.expand_shape %[[A]]
// CHECK:         %[[M:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]{{.*}} ins(%[[AE]], %[[W]] : tensor<1x6x8xf32>, tensor<8x4xf32>)
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]{{.*}} ins(%[[M]] : tensor<1x6x4xf32>)
func.func @contraction_keeps_its_row_loop(%a: tensor<6x8xf32>, %w: tensor<8x4xf32>) -> tensor<6x4xf32> {
  %z = arith.constant 0.0 : f32
  %ae = tensor.expand_shape %a [[0, 1], [2]] output_shape [1, 6, 8] : tensor<6x8xf32> into tensor<1x6x8xf32>
  %e = tensor.empty() : tensor<1x6x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x6x4xf32>) -> tensor<1x6x4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ae, %w : tensor<1x6x8xf32>, tensor<8x4xf32>) outs(%f : tensor<1x6x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x6x4xf32>
  %mc = tensor.collapse_shape %m [[0, 1], [2]] : tensor<1x6x4xf32> into tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mc : tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<6x4xf32>
  func.return %r : tensor<6x4xf32>
}

// -----

// An elementwise result collapsed by its unit dim and split into heads (a quantized ViT's
// head split): with collapses-into-producers the generic computes the collapsed tensor, its
// unit loop gone and its read of that dim a 0; by default the collapse stays.
// CHECK-LABEL: func.func @collapse_then_split
// CHECK:         tensor.collapse_shape
// PROD-LABEL:  func.func @collapse_then_split
// PROD-SAME:     (%[[X:.*]]: tensor<1x197x1x384xf32>)
// PROD-NOT:      tensor.collapse_shape
// PROD:          %[[Q:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d0, 0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<1x197x1x384xf32>) outs(%{{.*}} : tensor<197x384xf32>)
// PROD:            math.roundeven
// PROD:          tensor.expand_shape %[[Q]] {{\[\[}}0], [1, 2]] output_shape [197, 6, 64] : tensor<197x384xf32> into tensor<197x6x64xf32>
func.func @collapse_then_split(%x: tensor<1x197x1x384xf32>) -> tensor<1x6x197x64xf32> {
  %e0 = tensor.empty() : tensor<197x1x384xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x197x1x384xf32>) outs(%e0 : tensor<197x1x384xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.roundeven %a : f32
    linalg.yield %r : f32
  } -> tensor<197x1x384xf32>
  %c = tensor.collapse_shape %q [[0], [1, 2]] : tensor<197x1x384xf32> into tensor<197x384xf32>
  %s = tensor.expand_shape %c [[0], [1, 2]] output_shape [197, 6, 64] : tensor<197x384xf32> into tensor<197x6x64xf32>
  %e1 = tensor.empty() : tensor<1x6x197x64xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<197x6x64xf32>) outs(%e1 : tensor<1x6x197x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<1x6x197x64xf32>
  func.return %t : tensor<1x6x197x64xf32>
}

// -----

// A unit collapse read by a matmul (not split again) stays where it is, as does one of a
// producer whose result has another reader.
// CHECK-LABEL: func.func @collapse_into_matmul_stays
// PROD-LABEL:  func.func @collapse_into_matmul_stays
// PROD:          linalg.generic {{.*}} outs(%{{.*}} : tensor<1x197x384xf32>)
// PROD:          tensor.collapse_shape {{.*}} : tensor<1x197x384xf32> into tensor<197x384xf32>
// PROD:          linalg.matmul
func.func @collapse_into_matmul_stays(%x: tensor<1x197x384xf32>, %w: tensor<384x64xf32>) -> tensor<197x64xf32> {
  %e0 = tensor.empty() : tensor<1x197x384xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x197x384xf32>) outs(%e0 : tensor<1x197x384xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.roundeven %a : f32
    linalg.yield %r : f32
  } -> tensor<1x197x384xf32>
  %c = tensor.collapse_shape %g [[0, 1], [2]] : tensor<1x197x384xf32> into tensor<197x384xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<197x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<197x64xf32>) -> tensor<197x64xf32>
  %m = linalg.matmul ins(%c, %w : tensor<197x384xf32>, tensor<384x64xf32>) outs(%f : tensor<197x64xf32>) -> tensor<197x64xf32>
  func.return %m : tensor<197x64xf32>
}

// -----

// CHECK-LABEL: func.func @collapse_of_shared_result_stays
// PROD-LABEL:  func.func @collapse_of_shared_result_stays
// PROD:          %[[G:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x1x64xf32>)
// PROD:          tensor.collapse_shape %[[G]]
func.func @collapse_of_shared_result_stays(%x: tensor<4x1x64xf32>) -> (tensor<4x8x8xf32>, tensor<4x1x64xf32>) {
  %e0 = tensor.empty() : tensor<4x1x64xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<4x1x64xf32>) outs(%e0 : tensor<4x1x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.roundeven %a : f32
    linalg.yield %r : f32
  } -> tensor<4x1x64xf32>
  %c = tensor.collapse_shape %g [[0], [1, 2]] : tensor<4x1x64xf32> into tensor<4x64xf32>
  %s = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 8, 8] : tensor<4x64xf32> into tensor<4x8x8xf32>
  func.return %s, %g : tensor<4x8x8xf32>, tensor<4x1x64xf32>
}
