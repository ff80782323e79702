// RUN: fusion-opt %s --split-input-file -p linalg-horizontal-fuse-contractions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'linalg-horizontal-fuse-contractions{max-results=2}' | filecheck %s --check-prefix=TWO
// RUN: fusion-opt %s --split-input-file -p 'linalg-horizontal-fuse-contractions{max-results=4 across-inputs=true}' | filecheck %s --check-prefix=TOWERS
// RUN: fusion-opt %s --split-input-file -p 'linalg-horizontal-fuse-contractions{tiled-only=true}' | filecheck %s --check-prefix=TILED

// Q, K, V projections of one activation over weight arguments (torch-mlir's broadcast-weight
// batch_matmul, each into its own zero fill, each with its bias epilogue in between): one
// three-result generic where the first was; the epilogues read its results.

// CHECK-LABEL: func.func @qkv
// CHECK:       %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<1x8x16xf32>)
// CHECK:       %[[Q:.*]], %[[K:.*]], %[[V:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wq, %wk, %wv : tensor<1x8x4xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) outs(%[[F]], %{{.*}}, %{{.*}} :
// CHECK-NEXT:  ^bb0(%[[A:.*]]: f32, %[[P0:.*]]: f32, %[[P1:.*]]: f32, %[[P2:.*]]: f32, %[[O0:.*]]: f32, %[[O1:.*]]: f32, %[[O2:.*]]: f32):
// CHECK-NEXT:    %[[M0:.*]] = arith.mulf %[[A]], %[[P0]] : f32
// CHECK-NEXT:    %[[S0:.*]] = arith.addf %[[O0]], %[[M0]] : f32
// CHECK-NEXT:    %[[M1:.*]] = arith.mulf %[[A]], %[[P1]] : f32
// CHECK-NEXT:    %[[S1:.*]] = arith.addf %[[O1]], %[[M1]] : f32
// CHECK-NEXT:    %[[M2:.*]] = arith.mulf %[[A]], %[[P2]] : f32
// CHECK-NEXT:    %[[S2:.*]] = arith.addf %[[O2]], %[[M2]] : f32
// CHECK-NEXT:    linalg.yield %[[S0]], %[[S1]], %[[S2]] : f32, f32, f32
// CHECK:       linalg.generic {{.*}} ins(%[[Q]], %bq
// CHECK:       linalg.generic {{.*}} ins(%[[K]], %bk
// CHECK:       linalg.generic {{.*}} ins(%[[V]], %bv
// CHECK-NOT:   linalg.batch_matmul
// TWO-LABEL:   func.func @qkv
// TWO:         linalg.generic {{.*}} ins(%x, %wq, %wk :
// TWO:         linalg.batch_matmul {{.*}} ins(%x, %wv :
// TWO-LABEL:   func.func @two_plain
// TWO-LABEL:   func.func @not_siblings
// TWO-LABEL:   func.func @configured_stays
#bias = affine_map<(d0, d1, d2) -> (d2)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @qkv(%x: tensor<1x8x4xf32>, %wq: tensor<4x16xf32>, %wk: tensor<4x16xf32>, %wv: tensor<4x16xf32>, %bq: tensor<16xf32>, %bk: tensor<16xf32>, %bv: tensor<16xf32>) -> (tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x16xf32>
  %fq = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %q = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %wq : tensor<1x8x4xf32>, tensor<4x16xf32>) outs(%fq : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %qb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q, %bq : tensor<1x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16xf32>
  %fk = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %k = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %wk : tensor<1x8x4xf32>, tensor<4x16xf32>) outs(%fk : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %kb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k, %bk : tensor<1x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16xf32>
  %fv = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %v = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %wv : tensor<1x8x4xf32>, tensor<4x16xf32>) outs(%fv : tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
  %vb = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v, %bv : tensor<1x8x16xf32>, tensor<16xf32>) outs(%e : tensor<1x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x8x16xf32>
  func.return %qb, %kb, %vb : tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>
}

// -----

// Two 2-D matmuls of one activation: one two-result generic.

// CHECK-LABEL: func.func @two_plain
// CHECK:       %[[A:.*]], %[[B:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w0, %w1 : tensor<4x8xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK:       func.return %[[A]], %[[B]]
func.func @two_plain(%x: tensor<4x8xf32>, %w0: tensor<8x16xf32>, %w1: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = linalg.matmul ins(%x, %w0 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %b = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  func.return %a, %b : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Negative: different activations (mlp towers' second layers), different output widths, the
// same weight twice, an init that is not a fill (an accumulation), a weight computed after the
// first matmul (from its result: a chain, not siblings), and integer matmuls. Nothing fuses.

// CHECK-LABEL: func.func @not_siblings
// CHECK-NOT:   linalg.generic
// CHECK-COUNT-8: linalg.matmul
// CHECK-NOT:   linalg.generic
func.func @not_siblings(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>, %w0: tensor<8x16xf32>, %w1: tensor<8x16xf32>, %w2: tensor<8x32xf32>,
                        %acc: tensor<4x16xf32>, %xi: tensor<4x8xi32>, %wi0: tensor<8x16xi32>, %wi1: tensor<8x16xi32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xi32>) {
  %zero = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e32 = tensor.empty() : tensor<4x32xf32>
  %f32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %a = linalg.matmul ins(%x, %w0 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %b = linalg.matmul ins(%y, %w1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c = linalg.matmul ins(%x, %w2 : tensor<4x8xf32>, tensor<8x32xf32>) outs(%f32 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %d = linalg.matmul ins(%y, %w0 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %g = linalg.matmul ins(%x, %w0 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %c1 = tensor.collapse_shape %c [[0, 1]] : tensor<4x32xf32> into tensor<128xf32>
  %w3 = tensor.expand_shape %c1 [[0, 1]] output_shape [8, 16] : tensor<128xf32> into tensor<8x16xf32>
  %h = linalg.matmul ins(%x, %w3 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %ei = tensor.empty() : tensor<4x16xi32>
  %fi = linalg.fill ins(%zi : i32) outs(%ei : tensor<4x16xi32>) -> tensor<4x16xi32>
  %i0 = linalg.matmul ins(%xi, %wi0 : tensor<4x8xi32>, tensor<8x16xi32>) outs(%fi : tensor<4x16xi32>) -> tensor<4x16xi32>
  %i1 = linalg.matmul ins(%xi, %wi1 : tensor<4x8xi32>, tensor<8x16xi32>) outs(%fi : tensor<4x16xi32>) -> tensor<4x16xi32>
  func.return %a, %b, %c, %d, %g, %h, %i0, %i1 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x32xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xi32>, tensor<4x16xi32>
}

// -----

// Negative: a matmul carrying a config of its own (an IREE compilation_info) keeps it, unfused.

// CHECK-LABEL: func.func @configured_stays
// CHECK:       linalg.matmul {compilation_info = #iree_codegen.compilation_info<
// CHECK:       linalg.matmul ins(%x, %w1
// CHECK-NOT:   linalg.generic
func.func @configured_stays(%x: tensor<4x8xf32>, %w0: tensor<8x16xf32>, %w1: tensor<8x16xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %a = linalg.matmul ins(%x, %w0 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 16, 0], vector_common_parallel = [4, 16, 0], vector_reduction = [0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>} -> tensor<4x16xf32>
  %b = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  func.return %a, %b : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// Two towers of two layers, written tower by tower: the first layers share `x` (one generic,
// either way); with across-inputs the second layers, over different activations, become one
// two-result generic too, where the first of them was. What the second tower's layer reads (its
// epilogue, and the constant that epilogue captures) moves in front of it.

// CHECK-LABEL: func.func @towers
// CHECK:       linalg.generic {{.*}} ins(%x, %w0, %w1 :
// CHECK-COUNT-2: linalg.matmul
// TOWERS-LABEL: func.func @towers
// TOWERS:       %[[A0:.*]], %[[A1:.*]] = linalg.generic {{.*}} ins(%x, %w0, %w1 :
// TOWERS:       %[[R0:.*]] = linalg.generic {{.*}} ins(%[[A0]] :
// TOWERS:       %half = arith.constant 5.000000e-01 : f32
// TOWERS:       %[[R1:.*]] = linalg.generic {{.*}} ins(%[[A1]] :
// TOWERS:       %[[B0:.*]], %[[B1:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[R0]], %v0, %[[R1]], %v1 : tensor<1x8xf32>, tensor<8x4xf32>, tensor<1x8xf32>, tensor<8x4xf32>)
// TOWERS-NEXT:  ^bb0(%[[I0:.*]]: f32, %[[P0:.*]]: f32, %[[I1:.*]]: f32, %[[P1:.*]]: f32, %[[O0:.*]]: f32, %[[O1:.*]]: f32):
// TOWERS-NEXT:    %[[M0:.*]] = arith.mulf %[[I0]], %[[P0]] : f32
// TOWERS-NEXT:    %[[S0:.*]] = arith.addf %[[O0]], %[[M0]] : f32
// TOWERS-NEXT:    %[[M1:.*]] = arith.mulf %[[I1]], %[[P1]] : f32
// TOWERS-NEXT:    %[[S1:.*]] = arith.addf %[[O1]], %[[M1]] : f32
// TOWERS-NEXT:    linalg.yield %[[S0]], %[[S1]] : f32, f32
// TOWERS-NOT:   linalg.matmul
// TOWERS:       func.return %[[B0]], %[[B1]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @towers(%x: tensor<1x8xf32>, %w0: tensor<8x8xf32>, %w1: tensor<8x8xf32>, %v0: tensor<8x4xf32>, %v1: tensor<8x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %a0 = linalg.matmul ins(%x, %w0 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r0 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a0 : tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8xf32>
  %e4 = tensor.empty() : tensor<1x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4xf32>) -> tensor<1x4xf32>
  %b0 = linalg.matmul ins(%r0, %v0 : tensor<1x8xf32>, tensor<8x4xf32>) outs(%f4 : tensor<1x4xf32>) -> tensor<1x4xf32>
  %a1 = linalg.matmul ins(%x, %w1 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %half = arith.constant 0.5 : f32
  %r1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a1 : tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %half : f32
    linalg.yield %m : f32
  } -> tensor<1x8xf32>
  %b1 = linalg.matmul ins(%r1, %v1 : tensor<1x8xf32>, tensor<8x4xf32>) outs(%f4 : tensor<1x4xf32>) -> tensor<1x4xf32>
  func.return %b0, %b1 : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// A chain is not a tower: `b` reads `a`'s result (through a ReLU), so with across-inputs `a`
// fuses with the independent `c` over another activation, and `b` stays a matmul reading the
// fused op's first result.

// CHECK-LABEL: func.func @chain_and_tower
// CHECK-NOT:   linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-COUNT-3: linalg.matmul
// TOWERS-LABEL: func.func @chain_and_tower
// TOWERS:       %[[A:.*]], %[[C:.*]] = linalg.generic {{.*}} ins(%x, %w0, %y, %w2 :
// TOWERS:       %[[R:.*]] = linalg.generic {{.*}} ins(%[[A]] :
// TOWERS:       %[[B:.*]] = linalg.matmul ins(%[[R]], %w1 :
// TOWERS:       func.return %[[B]], %[[C]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain_and_tower(%x: tensor<1x8xf32>, %y: tensor<1x8xf32>, %w0: tensor<8x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %a = linalg.matmul ins(%x, %w0 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<1x8xf32>) outs(%e : tensor<1x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x8xf32>
  %b = linalg.matmul ins(%r, %w1 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %c = linalg.matmul ins(%y, %w2 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %b, %c : tensor<1x8xf32>, tensor<1x8xf32>
}

// -----

// Negative (across-inputs): the second layer's activation comes from a call, which is not
// moved in front of the first layer (it may have effects), so the two layers stay apart.

// CHECK-LABEL: func.func @call_producer
// CHECK-COUNT-2: linalg.matmul
// TOWERS-LABEL: func.func @call_producer
// TOWERS-NOT:   linalg.generic
// TOWERS-COUNT-2: linalg.matmul
func.func private @activation(tensor<1x8xf32>) -> tensor<1x8xf32>
func.func @call_producer(%x: tensor<1x8xf32>, %w0: tensor<8x8xf32>, %w1: tensor<8x8xf32>) -> (tensor<1x8xf32>, tensor<1x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %a = linalg.matmul ins(%x, %w0 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = func.call @activation(%x) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %b = linalg.matmul ins(%y, %w1 : tensor<1x8xf32>, tensor<8x8xf32>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  func.return %a, %b : tensor<1x8xf32>, tensor<1x8xf32>
}

// -----

// tiled-only: fused only where dispatch-matmul-cpu-tiles' register tile fits each result (two
// results get 32 columns each, M a multiple of 4). SwiGLU's gate and up projections at N = 688
// (21.5 x 32) stay two matmuls; at N = 256 they fuse. Without the option both pairs fuse.
// CHECK-LABEL: func.func @gate_up
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.matmul
// TILED-LABEL: func.func @gate_up
// TILED-COUNT-2: linalg.matmul ins(%x, %{{.*}} : tensor<64x32xf32>, tensor<32x688xf32>)
// TILED:         linalg.generic {{.*}} ins(%x, %g256, %u256 :
// TILED-NOT:     linalg.matmul
func.func @gate_up(%x: tensor<64x32xf32>, %g: tensor<32x688xf32>, %u: tensor<32x688xf32>, %g256: tensor<32x256xf32>, %u256: tensor<32x256xf32>)
    -> (tensor<64x688xf32>, tensor<64x688xf32>, tensor<64x256xf32>, tensor<64x256xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<64x688xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e : tensor<64x688xf32>) -> tensor<64x688xf32>
  %gate = linalg.matmul ins(%x, %g : tensor<64x32xf32>, tensor<32x688xf32>) outs(%f0 : tensor<64x688xf32>) -> tensor<64x688xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e : tensor<64x688xf32>) -> tensor<64x688xf32>
  %up = linalg.matmul ins(%x, %u : tensor<64x32xf32>, tensor<32x688xf32>) outs(%f1 : tensor<64x688xf32>) -> tensor<64x688xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %gate2 = linalg.matmul ins(%x, %g256 : tensor<64x32xf32>, tensor<32x256xf32>) outs(%f2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %up2 = linalg.matmul ins(%x, %u256 : tensor<64x32xf32>, tensor<32x256xf32>) outs(%f3 : tensor<64x256xf32>) -> tensor<64x256xf32>
  func.return %gate, %up, %gate2, %up2 : tensor<64x688xf32>, tensor<64x688xf32>, tensor<64x256xf32>, tensor<64x256xf32>
}


// -----

// Negative: two projections of one activation with a dynamic row count stay apart (the fused
// result's tensor.empty would need the size).
// CHECK-LABEL: func.func @dynamic_rows_kept
// CHECK-COUNT-2: linalg.matmul
// TILED-LABEL: func.func @dynamic_rows_kept
// TILED-COUNT-2: linalg.matmul
func.func @dynamic_rows_kept(%x: tensor<?x256xf32>, %w1: tensor<256x64xf32>, %w2: tensor<256x64xf32>) -> (tensor<?x64xf32>, tensor<?x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x256xf32>
  %e = tensor.empty(%n) : tensor<?x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %a = linalg.matmul ins(%x, %w1 : tensor<?x256xf32>, tensor<256x64xf32>) outs(%f : tensor<?x64xf32>) -> tensor<?x64xf32>
  %b = linalg.matmul ins(%x, %w2 : tensor<?x256xf32>, tensor<256x64xf32>) outs(%f : tensor<?x64xf32>) -> tensor<?x64xf32>
  func.return %a, %b : tensor<?x64xf32>, tensor<?x64xf32>
}
