// RUN: fusion-opt %s --split-input-file -p dispatch-matmul-cpu-tiles | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'dispatch-matmul-cpu-tiles{rows=2 columns=32 reduction=8 workgroup=32}' | filecheck %s --check-prefix=OPTS
// RUN: not fusion-opt %s -p 'dispatch-matmul-cpu-tiles{columns=48}' 2>&1 | filecheck %s --check-prefix=BADOPT
// RUN: fusion-opt %s --split-input-file -p 'dispatch-matmul-cpu-tiles{workgroup-rows=8}' | filecheck %s --check-prefix=CAP
// RUN: fusion-opt %s --split-input-file -p 'dispatch-matmul-cpu-tiles{partial-tiles=false}' | filecheck %s --check-prefix=NOPEEL
// RUN: fusion-opt %s --split-input-file -p 'dispatch-matmul-cpu-tiles{column-remainders=false}' | filecheck %s --check-prefix=SPLIT
// RUN: fusion-opt %s --split-input-file -p 'dispatch-matmul-cpu-tiles{column-remainders=false split-rows=false}' | filecheck %s --check-prefix=WHOLE
// BADOPT: error: pass 'dispatch-matmul-cpu-tiles': rows, columns, reduction, workgroup and workgroup-rows must be positive, workgroup a multiple of columns and workgroup-rows at least rows
// The pass's helper modules these cases exercise: dispatch/matmul_regions_to_mmt4d.py (matmul_sizes).

// A batch-1 matmul region over a broadcast [K, N] weight (torch-mlir's form): its loops are
// (b, m, n, k), so the batch loop gets no tile; the bias epilogue is untouched. The config is
// printed where MLIR prints a named op's attributes (after its maps, before `ins`).

// CHECK-LABEL: func.func @batch_one_weight
// CHECK:       linalg.batch_matmul indexing_maps = [{{.*}}] {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [0, 8, 64, 0], vector_common_parallel = [1, 4, 64, 0], vector_reduction = [0, 0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>}
// CHECK-SAME:    ins(%x, %w : tensor<1x8x16xf32>, tensor<16x128xf32>)
// CHECK:       linalg.generic
// CHECK-NOT:   compilation_info
// OPTS-LABEL:  func.func @batch_one_weight
// OPTS:        distribution = [0, 8, 32, 0], vector_common_parallel = [1, 2, 32, 0], vector_reduction = [0, 0, 0, 8]
func.func @batch_one_weight(%x: tensor<1x8x16xf32>, %w: tensor<16x128xf32>, %b: tensor<128xf32>) -> tensor<1x8x128xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<1x8x128xf32>) {
    %e = tensor.empty() : tensor<1x8x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x128xf32>) -> tensor<1x8x128xf32>
    %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x, %w : tensor<1x8x16xf32>, tensor<16x128xf32>) outs(%f : tensor<1x8x128xf32>) -> tensor<1x8x128xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %b : tensor<1x8x128xf32>, tensor<128xf32>) outs(%e : tensor<1x8x128xf32>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %s = arith.addf %a, %c : f32
      linalg.yield %s : f32
    } -> tensor<1x8x128xf32>
    flow.return %y : tensor<1x8x128xf32>
  }
  func.return %r : tensor<1x8x128xf32>
}

// -----

// A 2-D matmul region (gpt2's form), and a [1, K, N] weight (the graph lowering's form).

// CHECK-LABEL: func.func @plain_and_batched_weight
// CHECK:       linalg.matmul {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 64, 0], vector_common_parallel = [4, 64, 0], vector_reduction = [0, 0, 16]>
// CHECK:       linalg.batch_matmul {compilation_info = {{.*}}distribution = [0, 4, 64, 0], vector_common_parallel = [1, 4, 64, 0]
// CHECK-SAME:    tensor<1x16x64xf32>
func.func @plain_and_batched_weight(%x: tensor<4x16xf32>, %w: tensor<16x64xf32>, %x3: tensor<1x4x16xf32>, %w3: tensor<1x16x64xf32>) -> (tensor<4x64xf32>, tensor<1x4x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<4x64xf32>) {
    %e = tensor.empty() : tensor<4x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x64xf32>) -> tensor<4x64xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x64xf32>) outs(%f : tensor<4x64xf32>) -> tensor<4x64xf32>
    flow.return %mm : tensor<4x64xf32>
  }
  %r3 = flow.dispatch.region -> (tensor<1x4x64xf32>) {
    %e = tensor.empty() : tensor<1x4x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
    %mm = linalg.batch_matmul ins(%x3, %w3 : tensor<1x4x16xf32>, tensor<1x16x64xf32>) outs(%f : tensor<1x4x64xf32>) -> tensor<1x4x64xf32>
    flow.return %mm : tensor<1x4x64xf32>
  }
  func.return %r, %r3 : tensor<4x64xf32>, tensor<1x4x64xf32>
}

// -----

// Negative: N narrower than the 64-column tile, M shorter than the 4-row tile (not one whole
// register tile: a classifier's one row), a transposed ("NT") weight, a batch of 12 whose
// tiles all fit (attention's contractions at 8 tokens), f64, and a matmul outside any dispatch
// region: no config on any of them.

// CHECK-LABEL: func.func @untiled
// CHECK-NOT:   compilation_info
// OPTS-LABEL:  func.func @untiled
func.func @untiled(%x: tensor<8x16xf32>, %w48: tensor<16x48xf32>, %x2: tensor<2x16xf32>, %w: tensor<16x64xf32>,
                   %wt: tensor<64x16xf32>, %q: tensor<12x8x16xf32>, %k: tensor<12x16x64xf32>,
                   %xd: tensor<8x16xf64>, %wd: tensor<16x64xf64>) -> (tensor<8x48xf32>, tensor<2x64xf32>, tensor<8x64xf32>, tensor<12x8x64xf32>, tensor<8x64xf64>, tensor<8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %zd = arith.constant 0.0 : f64
  %narrow = flow.dispatch.region -> (tensor<8x48xf32>) {
    %e = tensor.empty() : tensor<8x48xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x48xf32>) -> tensor<8x48xf32>
    %mm = linalg.matmul ins(%x, %w48 : tensor<8x16xf32>, tensor<16x48xf32>) outs(%f : tensor<8x48xf32>) -> tensor<8x48xf32>
    flow.return %mm : tensor<8x48xf32>
  }
  %short = flow.dispatch.region -> (tensor<2x64xf32>) {
    %e = tensor.empty() : tensor<2x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x64xf32>) -> tensor<2x64xf32>
    %mm = linalg.matmul ins(%x2, %w : tensor<2x16xf32>, tensor<16x64xf32>) outs(%f : tensor<2x64xf32>) -> tensor<2x64xf32>
    flow.return %mm : tensor<2x64xf32>
  }
  %nt = flow.dispatch.region -> (tensor<8x64xf32>) {
    %e = tensor.empty() : tensor<8x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
    %mm = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %wt : tensor<8x16xf32>, tensor<64x16xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
    flow.return %mm : tensor<8x64xf32>
  }
  %batched = flow.dispatch.region -> (tensor<12x8x64xf32>) {
    %e = tensor.empty() : tensor<12x8x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x8x64xf32>) -> tensor<12x8x64xf32>
    %mm = linalg.batch_matmul ins(%q, %k : tensor<12x8x16xf32>, tensor<12x16x64xf32>) outs(%f : tensor<12x8x64xf32>) -> tensor<12x8x64xf32>
    flow.return %mm : tensor<12x8x64xf32>
  }
  %double = flow.dispatch.region -> (tensor<8x64xf64>) {
    %e = tensor.empty() : tensor<8x64xf64>
    %f = linalg.fill ins(%zd : f64) outs(%e : tensor<8x64xf64>) -> tensor<8x64xf64>
    %mm = linalg.matmul ins(%xd, %wd : tensor<8x16xf64>, tensor<16x64xf64>) outs(%f : tensor<8x64xf64>) -> tensor<8x64xf64>
    flow.return %mm : tensor<8x64xf64>
  }
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %outside = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  func.return %narrow, %short, %nt, %batched, %double, %outside : tensor<8x48xf32>, tensor<2x64xf32>, tensor<8x64xf32>, tensor<12x8x64xf32>, tensor<8x64xf64>, tensor<8x64xf32>
}

// -----

// Negative: a matmul that already carries a config (IREE's tuner's, or one written by hand)
// keeps it. The config is written after `outs`, where MLIR's parser also takes it.

// CHECK-LABEL: func.func @configured_stays
// CHECK:       linalg.matmul {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [8, 64, 0], vector_common_parallel = [8, 16, 0], vector_reduction = [0, 0, 1]>
// CHECK-NOT:   vector_common_parallel = [4, 64, 0]
func.func @configured_stays(%x: tensor<8x16xf32>, %w: tensor<16x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<8x64xf32>) {
    %e = tensor.empty() : tensor<8x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x64xf32>) outs(%f : tensor<8x64xf32>) {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [8, 64, 0], vector_common_parallel = [8, 16, 0], vector_reduction = [0, 0, 1]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>} -> tensor<8x64xf32>
    flow.return %mm : tensor<8x64xf32>
  }
  func.return %r : tensor<8x64xf32>
}

// -----

// The multi-result contraction of linalg-horizontal-fuse-contractions (Q, K, V): each of the
// three results gets one of the four vectors (4 x 16), so the 12 accumulators fit. A generic's
// own attributes print as MLIR prints them, `attrs = {...}` after `outs`.

// CHECK-LABEL: func.func @horizontal_qkv
// CHECK:       linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wq, %wk, %wv {{.*}} attrs = {{ *}}{compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [0, 8, 64, 0], vector_common_parallel = [1, 4, 16, 0], vector_reduction = [0, 0, 0, 16]>
func.func @horizontal_qkv(%x: tensor<1x8x16xf32>, %wq: tensor<16x64xf32>, %wk: tensor<16x64xf32>, %wv: tensor<16x64xf32>) -> (tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %r:3 = flow.dispatch.region -> (tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>) {
    %e = tensor.empty() : tensor<1x8x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x64xf32>) -> tensor<1x8x64xf32>
    %c:3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %wq, %wk, %wv : tensor<1x8x16xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) outs(%f, %f, %f : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>) {
    ^bb0(%a: f32, %p0: f32, %p1: f32, %p2: f32, %o0: f32, %o1: f32, %o2: f32):
      %m0 = arith.mulf %a, %p0 : f32
      %s0 = arith.addf %o0, %m0 : f32
      %m1 = arith.mulf %a, %p1 : f32
      %s1 = arith.addf %o1, %m1 : f32
      %m2 = arith.mulf %a, %p2 : f32
      %s2 = arith.addf %o2, %m2 : f32
      linalg.yield %s0, %s1, %s2 : f32, f32, f32
    } -> (tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>)
    flow.return %c#0, %c#1, %c#2 : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>
  }
  func.return %r#0, %r#1, %r#2 : tensor<1x8x64xf32>, tensor<1x8x64xf32>, tensor<1x8x64xf32>
}

// -----

// Rows per workgroup: the largest multiple of the register tile's 4 rows that divides M, up
// to workgroup-rows (256): M = 12 -> 12 (64 would leave IREE a partial workgroup, its slow
// path), M = 24 -> 24, or 8 under workgroup-rows=8 (4 with M = 12: no multiple of 4 between
// 5 and 8 divides 12).
// CHECK-LABEL: func.func @rows_dividing_m
// CHECK:       linalg.matmul {compilation_info = {{.*}}distribution = [12, 64, 0], vector_common_parallel = [4, 64, 0]
// CHECK:       linalg.matmul {compilation_info = {{.*}}distribution = [24, 64, 0], vector_common_parallel = [4, 64, 0]
// CAP-LABEL:   func.func @rows_dividing_m
// CAP:         linalg.matmul {compilation_info = {{.*}}distribution = [4, 64, 0]
// CAP:         linalg.matmul {compilation_info = {{.*}}distribution = [8, 64, 0]
func.func @rows_dividing_m(%x: tensor<12x16xf32>, %y: tensor<24x16xf32>, %w: tensor<16x64xf32>) -> (tensor<12x64xf32>, tensor<24x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<12x64xf32>) {
    %e = tensor.empty() : tensor<12x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x64xf32>) -> tensor<12x64xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<12x16xf32>, tensor<16x64xf32>) outs(%f : tensor<12x64xf32>) -> tensor<12x64xf32>
    flow.return %mm : tensor<12x64xf32>
  }
  %q = flow.dispatch.region -> (tensor<24x64xf32>) {
    %e = tensor.empty() : tensor<24x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<24x64xf32>) -> tensor<24x64xf32>
    %mm = linalg.matmul ins(%y, %w : tensor<24x16xf32>, tensor<16x64xf32>) outs(%f : tensor<24x64xf32>) -> tensor<24x64xf32>
    flow.return %mm : tensor<24x64xf32>
  }
  func.return %r, %q : tensor<12x64xf32>, tensor<24x64xf32>
}

// -----

// Partial register tiles (a ViT's 197 tokens): M = 6 is not a multiple of the 4-row tile, N = 80
// not of the 64 columns, and a batch of 3 (attention's scores) leaves both. Each gets the 4 x 64
// tile with IREE's loop peeling, and workgroups with no remainder: all of M where no multiple
// of 4 divides it, 64 columns where they divide N, else all of N, one batch each. The batch-1
// matmul over a broadcast weight keeps its batch loop untiled. Off with partial-tiles=false.
// The 8 x 80 matmul's columns: 64 and a remainder workgroup (column-remainders, below).
// CHECK-LABEL: func.func @partial_tiles
// CHECK:       linalg.matmul {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [6, 64, 0], vector_common_parallel = [4, 64, 0], vector_reduction = [0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling = true}>>}
// CHECK:       linalg.matmul {compilation_info = {{.*}}distribution = [8, 64, 0], vector_common_parallel = [4, 64, 0], vector_reduction = [0, 0, 16]>{{.*}}{enable_loop_peeling = true}
// CHECK:       linalg.batch_matmul {compilation_info = {{.*}}distribution = [1, 6, 70, 0], vector_common_parallel = [1, 4, 64, 0], vector_reduction = [0, 0, 0, 16]>{{.*}}{enable_loop_peeling = true}
// CHECK:       linalg.batch_matmul indexing_maps = [{{.*}}] {compilation_info = {{.*}}distribution = [0, 6, 64, 0], vector_common_parallel = [1, 4, 64, 0]{{.*}}{enable_loop_peeling = true}
// CAP-LABEL:   func.func @partial_tiles
// CAP:         linalg.matmul {compilation_info = {{.*}}distribution = [6, 64, 0]
// CAP:         linalg.matmul {compilation_info = {{.*}}distribution = [8, 64, 0]
// SPLIT-LABEL: func.func @partial_tiles
// SPLIT:       linalg.matmul {compilation_info = {{.*}}distribution = [6, 64, 0]
// SPLIT:       linalg.matmul {compilation_info = {{.*}}distribution = [4, 80, 0]
// WHOLE-LABEL: func.func @partial_tiles
// WHOLE:       linalg.matmul {compilation_info = {{.*}}distribution = [6, 64, 0]
// WHOLE:       linalg.matmul {compilation_info = {{.*}}distribution = [8, 80, 0]
// NOPEEL-LABEL: func.func @partial_tiles
// NOPEEL-NOT:  compilation_info
// NOPEEL-LABEL: func.func @full_tiles_unpeeled
func.func @partial_tiles(%x6: tensor<6x16xf32>, %w: tensor<16x64xf32>, %x: tensor<8x16xf32>, %w80: tensor<16x80xf32>,
                         %q: tensor<3x6x16xf32>, %k: tensor<3x16x70xf32>, %x3: tensor<1x6x16xf32>) -> (tensor<6x64xf32>, tensor<8x80xf32>, tensor<3x6x70xf32>, tensor<1x6x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %rows = flow.dispatch.region -> (tensor<6x64xf32>) {
    %e = tensor.empty() : tensor<6x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6x64xf32>) -> tensor<6x64xf32>
    %mm = linalg.matmul ins(%x6, %w : tensor<6x16xf32>, tensor<16x64xf32>) outs(%f : tensor<6x64xf32>) -> tensor<6x64xf32>
    flow.return %mm : tensor<6x64xf32>
  }
  %columns = flow.dispatch.region -> (tensor<8x80xf32>) {
    %e = tensor.empty() : tensor<8x80xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x80xf32>) -> tensor<8x80xf32>
    %mm = linalg.matmul ins(%x, %w80 : tensor<8x16xf32>, tensor<16x80xf32>) outs(%f : tensor<8x80xf32>) -> tensor<8x80xf32>
    flow.return %mm : tensor<8x80xf32>
  }
  %scores = flow.dispatch.region -> (tensor<3x6x70xf32>) {
    %e = tensor.empty() : tensor<3x6x70xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x6x70xf32>) -> tensor<3x6x70xf32>
    %mm = linalg.batch_matmul ins(%q, %k : tensor<3x6x16xf32>, tensor<3x16x70xf32>) outs(%f : tensor<3x6x70xf32>) -> tensor<3x6x70xf32>
    flow.return %mm : tensor<3x6x70xf32>
  }
  %one = flow.dispatch.region -> (tensor<1x6x64xf32>) {
    %e = tensor.empty() : tensor<1x6x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x64xf32>) -> tensor<1x6x64xf32>
    %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%x3, %w : tensor<1x6x16xf32>, tensor<16x64xf32>) outs(%f : tensor<1x6x64xf32>) -> tensor<1x6x64xf32>
    flow.return %mm : tensor<1x6x64xf32>
  }
  func.return %rows, %columns, %scores, %one : tensor<6x64xf32>, tensor<8x80xf32>, tensor<3x6x70xf32>, tensor<1x6x64xf32>
}

// -----

// Negative: a matmul whose tiles all fit stays unpeeled (its config is the one above, without
// the peeling option), and a batched matmul with a transposed right operand (not linalg's
// batch_matmul maps) or with too few rows for one register tile gets nothing.
// CHECK-LABEL: func.func @full_tiles_unpeeled
// CHECK:       linalg.matmul {compilation_info = {{.*}}translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>}
// CHECK-NOT:   compilation_info
// NOPEEL:      linalg.matmul {compilation_info = {{.*}}pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>}
func.func @full_tiles_unpeeled(%x: tensor<8x16xf32>, %w: tensor<16x64xf32>, %q: tensor<3x6x16xf32>, %kt: tensor<3x70x16xf32>,
                               %q2: tensor<3x2x16xf32>, %k: tensor<3x16x70xf32>) -> (tensor<8x64xf32>, tensor<3x6x70xf32>, tensor<3x2x70xf32>) {
  %zero = arith.constant 0.0 : f32
  %full = flow.dispatch.region -> (tensor<8x64xf32>) {
    %e = tensor.empty() : tensor<8x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x64xf32>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
    flow.return %mm : tensor<8x64xf32>
  }
  %nt = flow.dispatch.region -> (tensor<3x6x70xf32>) {
    %e = tensor.empty() : tensor<3x6x70xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x6x70xf32>) -> tensor<3x6x70xf32>
    %mm = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%q, %kt : tensor<3x6x16xf32>, tensor<3x70x16xf32>) outs(%f : tensor<3x6x70xf32>) -> tensor<3x6x70xf32>
    flow.return %mm : tensor<3x6x70xf32>
  }
  %short = flow.dispatch.region -> (tensor<3x2x70xf32>) {
    %e = tensor.empty() : tensor<3x2x70xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x2x70xf32>) -> tensor<3x2x70xf32>
    %mm = linalg.batch_matmul ins(%q2, %k : tensor<3x2x16xf32>, tensor<3x16x70xf32>) outs(%f : tensor<3x2x70xf32>) -> tensor<3x2x70xf32>
    flow.return %mm : tensor<3x2x70xf32>
  }
  func.return %full, %nt, %short : tensor<8x64xf32>, tensor<3x6x70xf32>, tensor<3x2x70xf32>
}

// -----

// A batched matmul written as a generic (torch's attention probabilities times V, V read in the
// [T, H, d] layout of the Q/K/V projection: the right operand is (k, b, n), n contiguous) with
// partial tiles (M = 6, N = 70) gets the peeled tile like a batch_matmul; its loops are (b, m,
// n, k). The config is printed as MLIR prints a generic's own attributes.
// CHECK-LABEL: func.func @batched_generic
// CHECK:       linalg.generic {{.*}} attrs = {{ *}}{compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 6, 70, 0], vector_common_parallel = [1, 4, 64, 0], vector_reduction = [0, 0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling = true}>>}
// NOPEEL-LABEL: func.func @batched_generic
// NOPEEL-NOT:  compilation_info
func.func @batched_generic(%p: tensor<3x6x9xf32>, %v: tensor<9x3x70xf32>) -> tensor<3x6x70xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<3x6x70xf32>) {
    %e = tensor.empty() : tensor<3x6x70xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x6x70xf32>) -> tensor<3x6x70xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<3x6x9xf32>, tensor<9x3x70xf32>) outs(%f : tensor<3x6x70xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<3x6x70xf32>
    flow.return %c : tensor<3x6x70xf32>
  }
  func.return %r : tensor<3x6x70xf32>
}

// -----

// Negative generics: the right operand's columns not contiguous (read as (b, n, k)), a body that
// is more than out + lhs * rhs (a scaled product), and a batched generic whose tiles all fit
// (M = 8, N = 64: IREE's own choice stays, as for batch_matmul).
// CHECK-LABEL: func.func @batched_generic_untiled
// CHECK-NOT:   compilation_info
func.func @batched_generic_untiled(%p: tensor<3x6x9xf32>, %vt: tensor<3x70x9xf32>, %v: tensor<9x3x70xf32>,
                                   %p8: tensor<3x8x9xf32>, %v64: tensor<9x3x64xf32>) -> (tensor<3x6x70xf32>, tensor<3x6x70xf32>, tensor<3x8x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %strided = flow.dispatch.region -> (tensor<3x6x70xf32>) {
    %e = tensor.empty() : tensor<3x6x70xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x6x70xf32>) -> tensor<3x6x70xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %vt : tensor<3x6x9xf32>, tensor<3x70x9xf32>) outs(%f : tensor<3x6x70xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<3x6x70xf32>
    flow.return %c : tensor<3x6x70xf32>
  }
  %scaled = flow.dispatch.region -> (tensor<3x6x70xf32>) {
    %e = tensor.empty() : tensor<3x6x70xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x6x70xf32>) -> tensor<3x6x70xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<3x6x9xf32>, tensor<9x3x70xf32>) outs(%f : tensor<3x6x70xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %t = arith.mulf %m, %two : f32
      %s = arith.addf %o, %t : f32
      linalg.yield %s : f32
    } -> tensor<3x6x70xf32>
    flow.return %c : tensor<3x6x70xf32>
  }
  %fits = flow.dispatch.region -> (tensor<3x8x64xf32>) {
    %e = tensor.empty() : tensor<3x8x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x8x64xf32>) -> tensor<3x8x64xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p8, %v64 : tensor<3x8x9xf32>, tensor<9x3x64xf32>) outs(%f : tensor<3x8x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<3x8x64xf32>
    flow.return %c : tensor<3x8x64xf32>
  }
  func.return %strided, %scaled, %fits : tensor<3x6x70xf32>, tensor<3x6x70xf32>, tensor<3x8x64xf32>
}

// -----

// column-remainders (default): a peeled 2-D matmul whose N (80) is no multiple of the 64-column
// workgroup gets 64 columns and a remainder workgroup, not all of N in one (a decoder's
// 1000-token LM head would otherwise run every row strip across its whole weight on one thread).
// Without it (SPLIT), split-rows: a peeled matmul that would be one workgroup gets its rows split
// into the largest multiple of 4 dividing M, at most M / 2: M = 16 -> 8, M = 12 -> 4. With both
// off, one workgroup each. Negatives: M = 4 has no two row tiles; N = 128 already makes two workgroups of 64 columns
// (full tiles, unpeeled); a batch of 3 is three workgroups and keeps all of N = 70.
// CHECK-LABEL: func.func @split_rows
// CHECK:       linalg.matmul {compilation_info = {{.*}}distribution = [16, 64, 0], vector_common_parallel = [4, 64, 0]{{.*}}{enable_loop_peeling = true}
// CHECK:       linalg.matmul {compilation_info = {{.*}}distribution = [12, 64, 0], vector_common_parallel = [4, 64, 0]{{.*}}{enable_loop_peeling = true}
// CHECK:       linalg.matmul {compilation_info = {{.*}}distribution = [4, 64, 0], vector_common_parallel = [4, 64, 0]{{.*}}{enable_loop_peeling = true}
// CHECK:       linalg.matmul {compilation_info = {{.*}}distribution = [16, 64, 0], vector_common_parallel = [4, 64, 0]{{.*}}DoubleTilingExpert>>>} ins
// CHECK:       linalg.batch_matmul {compilation_info = {{.*}}distribution = [1, 16, 70, 0]{{.*}}{enable_loop_peeling = true}
// SPLIT-LABEL: func.func @split_rows
// SPLIT:       distribution = [8, 80, 0]
// SPLIT:       distribution = [4, 80, 0]
// SPLIT:       distribution = [4, 80, 0]
// SPLIT:       distribution = [16, 64, 0]
// SPLIT:       distribution = [1, 16, 70, 0]
// WHOLE-LABEL: func.func @split_rows
// WHOLE:       distribution = [16, 80, 0]
// WHOLE:       distribution = [12, 80, 0]
// WHOLE:       distribution = [4, 80, 0]
// WHOLE:       distribution = [16, 64, 0]
// WHOLE:       distribution = [1, 16, 70, 0]
// NOPEEL-LABEL: func.func @split_rows
// NOPEEL-NOT:  enable_loop_peeling
func.func @split_rows(%x16: tensor<16x16xf32>, %x12: tensor<12x16xf32>, %x4: tensor<4x16xf32>, %w80: tensor<16x80xf32>,
                      %w128: tensor<16x128xf32>, %q: tensor<3x16x16xf32>, %k: tensor<3x16x70xf32>) -> (tensor<16x80xf32>, tensor<12x80xf32>, tensor<4x80xf32>, tensor<16x128xf32>, tensor<3x16x70xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = flow.dispatch.region -> (tensor<16x80xf32>) {
    %e = tensor.empty() : tensor<16x80xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x80xf32>) -> tensor<16x80xf32>
    %mm = linalg.matmul ins(%x16, %w80 : tensor<16x16xf32>, tensor<16x80xf32>) outs(%f : tensor<16x80xf32>) -> tensor<16x80xf32>
    flow.return %mm : tensor<16x80xf32>
  }
  %b = flow.dispatch.region -> (tensor<12x80xf32>) {
    %e = tensor.empty() : tensor<12x80xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<12x80xf32>) -> tensor<12x80xf32>
    %mm = linalg.matmul ins(%x12, %w80 : tensor<12x16xf32>, tensor<16x80xf32>) outs(%f : tensor<12x80xf32>) -> tensor<12x80xf32>
    flow.return %mm : tensor<12x80xf32>
  }
  %c = flow.dispatch.region -> (tensor<4x80xf32>) {
    %e = tensor.empty() : tensor<4x80xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x80xf32>) -> tensor<4x80xf32>
    %mm = linalg.matmul ins(%x4, %w80 : tensor<4x16xf32>, tensor<16x80xf32>) outs(%f : tensor<4x80xf32>) -> tensor<4x80xf32>
    flow.return %mm : tensor<4x80xf32>
  }
  %d = flow.dispatch.region -> (tensor<16x128xf32>) {
    %e = tensor.empty() : tensor<16x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
    %mm = linalg.matmul ins(%x16, %w128 : tensor<16x16xf32>, tensor<16x128xf32>) outs(%f : tensor<16x128xf32>) -> tensor<16x128xf32>
    flow.return %mm : tensor<16x128xf32>
  }
  %s = flow.dispatch.region -> (tensor<3x16x70xf32>) {
    %e = tensor.empty() : tensor<3x16x70xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x16x70xf32>) -> tensor<3x16x70xf32>
    %mm = linalg.batch_matmul ins(%q, %k : tensor<3x16x16xf32>, tensor<3x16x70xf32>) outs(%f : tensor<3x16x70xf32>) -> tensor<3x16x70xf32>
    flow.return %mm : tensor<3x16x70xf32>
  }
  func.return %a, %b, %c, %d, %s : tensor<16x80xf32>, tensor<12x80xf32>, tensor<4x80xf32>, tensor<16x128xf32>, tensor<3x16x70xf32>
}

// -----

// Negative: matmuls over a dynamic row count (a decoder at a symbolic sequence length, from
// torch-mlir's linalg) keep IREE's own tile, full or peeled: their sizes are not known here.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-NOT:     compilation_info
// CHECK:         func.return
func.func @dynamic_rows(%x: tensor<?x256xf32>, %w: tensor<256x688xf32>, %x3: tensor<1x?x256xf32>, %w3: tensor<1x256x688xf32>) -> (tensor<?x688xf32>, tensor<1x?x688xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x256xf32>
  %r = flow.dispatch.region -> (tensor<?x688xf32>{%n}) {
    %e = tensor.empty(%n) : tensor<?x688xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x688xf32>) -> tensor<?x688xf32>
    %mm = linalg.matmul ins(%x, %w : tensor<?x256xf32>, tensor<256x688xf32>) outs(%f : tensor<?x688xf32>) -> tensor<?x688xf32>
    flow.return %mm : tensor<?x688xf32>
  }
  %n3 = tensor.dim %x3, %c1 : tensor<1x?x256xf32>
  %r3 = flow.dispatch.region -> (tensor<1x?x688xf32>{%n3}) {
    %e = tensor.empty(%n3) : tensor<1x?x688xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x688xf32>) -> tensor<1x?x688xf32>
    %mm = linalg.batch_matmul ins(%x3, %w3 : tensor<1x?x256xf32>, tensor<1x256x688xf32>) outs(%f : tensor<1x?x688xf32>) -> tensor<1x?x688xf32>
    flow.return %mm : tensor<1x?x688xf32>
  }
  func.return %r, %r3 : tensor<?x688xf32>, tensor<1x?x688xf32>
}

// -----

// A 2-D matmul written as a generic with linalg.matmul's maps (a 1-D conv's im2col contraction,
// filters x patches: wav2vec2's 512 x 1536 . 1536 x 199) gets the matmul's tile, peeled where N
// leaves a partial tile (here 8 x 16 . 16 x 80); a full-tile one the same tile unpeeled. A
// generic with the maps but another body (a scaled product) or fewer columns than one register
// tile gets nothing.
// CHECK-LABEL: func.func @generic_matmul
// CHECK:       linalg.generic {{.*}} attrs = {{ *}}{compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [8, 64, 0], vector_common_parallel = [4, 64, 0], vector_reduction = [0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling = true}>>}
// CHECK:       linalg.generic {{.*}} attrs = {{ *}}{compilation_info = {{.*}}vector_common_parallel = [4, 64, 0]{{.*}}pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>}
// CHECK-NOT:   compilation_info
// NOPEEL-LABEL: func.func @generic_matmul
// NOPEEL:      linalg.generic {{.*}} attrs = {{ *}}{compilation_info = {{.*}}pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>}
// NOPEEL-NOT:  compilation_info
#mm_lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#mm_rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#mm_out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @generic_matmul(%w: tensor<8x16xf32>, %x80: tensor<16x80xf32>, %x64: tensor<16x64xf32>, %x32: tensor<16x32xf32>) -> (tensor<8x80xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %partial = flow.dispatch.region -> (tensor<8x80xf32>) {
    %e = tensor.empty() : tensor<8x80xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x80xf32>) -> tensor<8x80xf32>
    %c = linalg.generic {indexing_maps = [#mm_lhs, #mm_rhs, #mm_out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x80 : tensor<8x16xf32>, tensor<16x80xf32>) outs(%f : tensor<8x80xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x80xf32>
    flow.return %c : tensor<8x80xf32>
  }
  %full = flow.dispatch.region -> (tensor<8x64xf32>) {
    %e = tensor.empty() : tensor<8x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
    %c = linalg.generic {indexing_maps = [#mm_lhs, #mm_rhs, #mm_out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x64 : tensor<8x16xf32>, tensor<16x64xf32>) outs(%f : tensor<8x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x64xf32>
    flow.return %c : tensor<8x64xf32>
  }
  %scaled = flow.dispatch.region -> (tensor<8x64xf32>) {
    %e = tensor.empty() : tensor<8x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
    %c = linalg.generic {indexing_maps = [#mm_lhs, #mm_rhs, #mm_out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x64 : tensor<8x16xf32>, tensor<16x64xf32>) outs(%f : tensor<8x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %t = arith.mulf %m, %two : f32
      %s = arith.addf %o, %t : f32
      linalg.yield %s : f32
    } -> tensor<8x64xf32>
    flow.return %c : tensor<8x64xf32>
  }
  %narrow = flow.dispatch.region -> (tensor<8x32xf32>) {
    %e = tensor.empty() : tensor<8x32xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
    %c = linalg.generic {indexing_maps = [#mm_lhs, #mm_rhs, #mm_out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %x32 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<8x32xf32>
    flow.return %c : tensor<8x32xf32>
  }
  func.return %partial, %full, %scaled, %narrow : tensor<8x80xf32>, tensor<8x64xf32>, tensor<8x64xf32>, tensor<8x32xf32>
}

// -----

// Negative: a generic matmul whose patches an im2col op computes in the same region (IREE's
// im2col form of inception_mini's 5x5 conv under -fewest) keeps IREE's tile: IREE 3.13 fails
// to build that region with ours.
// CHECK-LABEL: func.func @generic_matmul_after_im2col
// CHECK-NOT:   compilation_info
// CHECK:       func.return
func.func @generic_matmul_after_im2col(%x: tensor<8x12x12xf32>, %w: tensor<16x200xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<16x64xf32>) {
    %ep = tensor.empty() : tensor<200x64xf32>
    %e = tensor.empty() : tensor<16x64xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
    %p = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [5, 5] offsets = [0, 0] output_sizes = [[8, 8], [8, 5, 5]] batch_pos = [] m_pos = [1, 2] k_pos = [0] input_k_perm = [0, 1, 2] output_perm = [1, 0] ins(%x : tensor<8x12x12xf32>) outs(%ep : tensor<200x64xf32>) -> tensor<200x64xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %p : tensor<16x200xf32>, tensor<200x64xf32>) outs(%f : tensor<16x64xf32>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      %s = arith.addf %o, %m : f32
      linalg.yield %s : f32
    } -> tensor<16x64xf32>
    flow.return %c : tensor<16x64xf32>
  }
  func.return %r : tensor<16x64xf32>
}

// -----

// Negative: a matmul reading, in its region, a collapse of a slice that is not one linear range
// (LeViT's subsampled queries: every other pixel's channels). IREE expands the matmul's rows
// through the collapse (49 -> 7 x 7), so no config written for its loops fits: none is set, and
// one the linalg stage set (packed weights' panels) is dropped (`config_over_strided_collapse`
// in bench/iree_limits_found.py fails to build).
// CHECK-LABEL: func.func @unconfigured_over_strided_collapse
// CHECK-NOT:     compilation_info
// CHECK:         return
func.func @unconfigured_over_strided_collapse(%x: tensor<1x7x7x2x128xf32>, %w: tensor<128x128xf32>) -> tensor<49x128xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<49x128xf32>) {
    %s = tensor.extract_slice %x[0, 0, 0, 0, 0] [1, 7, 7, 1, 128] [1, 1, 1, 1, 1] : tensor<1x7x7x2x128xf32> to tensor<1x7x7x1x128xf32>
    %c = tensor.collapse_shape %s [[0, 1, 2], [3, 4]] : tensor<1x7x7x1x128xf32> into tensor<49x128xf32>
    %e = tensor.empty() : tensor<49x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<49x128xf32>) -> tensor<49x128xf32>
    %m = linalg.matmul ins(%c, %w : tensor<49x128xf32>, tensor<128x128xf32>) outs(%f : tensor<49x128xf32>) -> tensor<49x128xf32>
    flow.return %m : tensor<49x128xf32>
  }
  return %r : tensor<49x128xf32>
}

// -----

// CHECK-LABEL: func.func @configured_over_strided_collapse
// CHECK-NOT:     compilation_info
// CHECK:         return
func.func @configured_over_strided_collapse(%x: tensor<1x7x7x2x128xf32>, %w: tensor<128x128xf32>) -> tensor<49x128xf32> {
  %zero = arith.constant 0.0 : f32
  %r = flow.dispatch.region -> (tensor<49x128xf32>) {
    %s = tensor.extract_slice %x[0, 0, 0, 0, 0] [1, 7, 7, 1, 128] [1, 1, 1, 1, 1] : tensor<1x7x7x2x128xf32> to tensor<1x7x7x1x128xf32>
    %c = tensor.collapse_shape %s [[0, 1, 2], [3, 4]] : tensor<1x7x7x1x128xf32> into tensor<49x128xf32>
    %e = tensor.empty() : tensor<49x128xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<49x128xf32>) -> tensor<49x128xf32>
    %m = linalg.matmul {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [49, 64, 0], vector_common_parallel = [4, 64, 0], vector_reduction = [0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling = true}>>} ins(%c, %w : tensor<49x128xf32>, tensor<128x128xf32>) outs(%f : tensor<49x128xf32>) -> tensor<49x128xf32>
    flow.return %m : tensor<49x128xf32>
  }
  return %r : tensor<49x128xf32>
}
