// RUN: fusion-opt %s --split-input-file -p linalg-fold-transpose-into-matmul | filecheck %s
// RUN: fusion-opt %s --split-input-file -p "linalg-fold-transpose-into-matmul{row-major-activations=true}" | filecheck %s --check-prefix=ROWMAJOR

// torch-mlir's Linear: transpose of the weight + matmul => matmul with a transposed RHS map.
// CHECK-LABEL: func.func @linear
// CHECK-SAME:    (%[[X:.*]]: tensor<1x256xf32>, %[[W:.*]]: tensor<64x256xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%[[X]], %[[W]] :
func.func @linear(%x: tensor<1x256xf32>, %w: tensor<64x256xf32>) -> tensor<1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<256x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x256xf32>) outs(%et : tensor<256x64xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<1x256xf32>, tensor<256x64xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %m : tensor<1x64xf32>
}

// -----

// A 2-D weight broadcast over the batch => batch_matmul with a broadcast RHS map.
// CHECK-LABEL: func.func @broadcast_weight
// CHECK-SAME:    (%[[X:.*]]: tensor<1x64x128xf32>, %[[W:.*]]: tensor<128x32xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%[[X]], %[[W]] :
func.func @broadcast_weight(%x: tensor<1x64x128xf32>, %w: tensor<128x32xf32>) -> tensor<1x64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<1x128x32xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<128x32xf32>) outs(%eb : tensor<1x128x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x128x32xf32>
  %e = tensor.empty() : tensor<1x64x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x32xf32>) -> tensor<1x64x32xf32>
  %m = linalg.batch_matmul ins(%x, %wb : tensor<1x64x128xf32>, tensor<1x128x32xf32>) outs(%f : tensor<1x64x32xf32>) -> tensor<1x64x32xf32>
  func.return %m : tensor<1x64x32xf32>
}

// -----

// A transposed 2-D weight broadcast over the batch (Mamba's x_proj: the [64, 16] weight read as
// [16, 64] under a batch of one): a batch_matmul RHS map (d2, d3) is a broadcast MLIR rejects
// ("Invalid broadcast requested"), so the op becomes a contraction generic reading the weight.
// CHECK-LABEL: func.func @broadcast_transposed_weight
// CHECK-SAME:    (%[[X:.*]]: tensor<1x512x16xf32>, %[[W:.*]]: tensor<64x16xf32>)
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
// CHECK-SAME:      ins(%[[X]], %[[W]] :
// CHECK-NOT:     linalg.batch_matmul
func.func @broadcast_transposed_weight(%x: tensor<1x512x16xf32>, %w: tensor<64x16xf32>) -> tensor<1x512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %eb = tensor.empty() : tensor<1x16x64xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%w : tensor<64x16xf32>) outs(%eb : tensor<1x16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x64xf32>
  %e = tensor.empty() : tensor<1x512x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
  %m = linalg.batch_matmul ins(%x, %wb : tensor<1x512x16xf32>, tensor<1x16x64xf32>) outs(%f : tensor<1x512x64xf32>) -> tensor<1x512x64xf32>
  func.return %m : tensor<1x512x64xf32>
}

// -----

// Attention heads: transpose + unit-dim collapse on both operands => a contraction generic
// reading the untransposed heads. The collapsed unit dim is dropped by a collapse_shape of the
// heads, never as a constant-0 map result (not a projected permutation: IREE would not see a
// matmul). The batch dim is not first in the operands, so batch_matmul's verifier rejects the
// maps and the op becomes a generic.
// CHECK-LABEL: func.func @heads
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x8x2x4xf32>, %[[K:.*]]: tensor<1x8x2x4xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[QC:.*]] = tensor.collapse_shape %[[Q]] {{\[}}[0, 1], [2], [3]] : tensor<1x8x2x4xf32> into tensor<8x2x4xf32>
// CHECK:         %[[KC:.*]] = tensor.collapse_shape %[[K]] {{\[}}[0, 1], [2], [3]] : tensor<1x8x2x4xf32> into tensor<8x2x4xf32>
// CHECK-NOT:     affine_map<{{.*}}> -> (0,
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[QC]], %[[KC]] :
// CHECK:           arith.mulf
// CHECK:           arith.addf
func.func @heads(%q: tensor<1x8x2x4xf32>, %k: tensor<1x8x2x4xf32>) -> tensor<2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x8x4xf32>
  %qt = linalg.transpose ins(%q : tensor<1x8x2x4xf32>) outs(%e : tensor<1x2x8x4xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<1x8x2x4xf32>) outs(%ek : tensor<1x2x4x8xf32>) permutation = [0, 2, 3, 1]
  %qc = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %kc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %eo = tensor.empty() : tensor<2x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%qc, %kc : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%f : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  func.return %s : tensor<2x8x8xf32>
}

// -----

// The transpose has another user: the matmul still reads the weight directly, the transpose stays.
// CHECK-LABEL: func.func @transpose_kept_for_other_user
// CHECK:         %[[WT:.*]] = linalg.transpose
// CHECK:         linalg.matmul indexing_maps
// CHECK:         func.return %{{.*}}, %[[WT]]
func.func @transpose_kept_for_other_user(%x: tensor<1x256xf32>, %w: tensor<64x256xf32>) -> (tensor<1x64xf32>, tensor<256x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<256x64xf32>
  %wt = linalg.transpose ins(%w : tensor<64x256xf32>) outs(%et : tensor<256x64xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<1x256xf32>, tensor<256x64xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %m, %wt : tensor<1x64xf32>, tensor<256x64xf32>
}

// -----

// Negative: a producer that computes (not a pure copy) is not folded.
// CHECK-LABEL: func.func @not_data_movement
// CHECK:         %[[N:.*]] = linalg.generic
// CHECK:         linalg.matmul ins(%{{.*}}, %[[N]] :
func.func @not_data_movement(%x: tensor<1x256xf32>, %w: tensor<256x64xf32>) -> tensor<1x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ew = tensor.empty() : tensor<256x64xf32>
  %wn = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<256x64xf32>) outs(%ew : tensor<256x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<256x64xf32>
  %e = tensor.empty() : tensor<1x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %m = linalg.matmul ins(%x, %wn : tensor<1x256xf32>, tensor<256x64xf32>) outs(%f : tensor<1x64xf32>) -> tensor<1x64xf32>
  func.return %m : tensor<1x64xf32>
}

// -----

// gpt2's Conv1D projection: a unit-dim collapse of the activation feeds the matmul. The
// matmul keeps reading that collapse (a constant 0 map result would hide the matmul from
// IREE); the weight transpose still folds, and the op stays a named matmul.
// CHECK-LABEL: func.func @unit_collapse_operand
// CHECK-SAME:    (%[[X:.*]]: tensor<1x64x128xf32>, %[[W:.*]]: tensor<512x128xf32>)
// CHECK:         %[[XC:.*]] = tensor.collapse_shape %[[X]]
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%[[XC]], %[[W]] :
func.func @unit_collapse_operand(%x: tensor<1x64x128xf32>, %w: tensor<512x128xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %xc = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x64x128xf32> into tensor<64x128xf32>
  %et = tensor.empty() : tensor<128x512xf32>
  %wt = linalg.transpose ins(%w : tensor<512x128xf32>) outs(%et : tensor<128x512xf32>) permutation = [1, 0]
  %eo = tensor.empty() : tensor<64x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<64x512xf32>) -> tensor<64x512xf32>
  %m = linalg.matmul ins(%xc, %wt : tensor<64x128xf32>, tensor<128x512xf32>) outs(%f : tensor<64x512xf32>) -> tensor<64x512xf32>
  func.return %m : tensor<64x512xf32>
}

// -----

// Heads split out of a fused QKV projection (slice -> expand -> transpose -> unit collapse):
// the unit dim is dropped at the slice (rank-reducing) and the expand_shape rebuilt on it, so
// region formation can still clone slice + expand into the consuming dispatch.
// CHECK-LABEL: func.func @heads_from_slice
// CHECK-SAME:    (%[[QKV:.*]]: tensor<1x8x24xf32>)
// CHECK-NOT:     tensor<1x8x8xf32>
// CHECK:         %[[QS:.*]] = tensor.extract_slice %[[QKV]][0, 0, 0] [1, 8, 8] [1, 1, 1] : tensor<1x8x24xf32> to tensor<8x8xf32>
// CHECK:         %[[Q:.*]] = tensor.expand_shape %[[QS]] {{\[}}[0], [1, 2]] output_shape [8, 2, 4] : tensor<8x8xf32> into tensor<8x2x4xf32>
// CHECK:         %[[KS:.*]] = tensor.extract_slice %[[QKV]][0, 0, 8] [1, 8, 8] [1, 1, 1] : tensor<1x8x24xf32> to tensor<8x8xf32>
// CHECK:         %[[K:.*]] = tensor.expand_shape %[[KS]]
// CHECK-NOT:     tensor.collapse_shape
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]{{.*}} ins(%[[Q]], %[[K]] :
func.func @heads_from_slice(%qkv: tensor<1x8x24xf32>) -> tensor<2x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %qs = tensor.extract_slice %qkv[0, 0, 0] [1, 8, 8] [1, 1, 1] : tensor<1x8x24xf32> to tensor<1x8x8xf32>
  %ks = tensor.extract_slice %qkv[0, 0, 8] [1, 8, 8] [1, 1, 1] : tensor<1x8x24xf32> to tensor<1x8x8xf32>
  %q = tensor.expand_shape %qs [[0], [1], [2, 3]] output_shape [1, 8, 2, 4] : tensor<1x8x8xf32> into tensor<1x8x2x4xf32>
  %k = tensor.expand_shape %ks [[0], [1], [2, 3]] output_shape [1, 8, 2, 4] : tensor<1x8x8xf32> into tensor<1x8x2x4xf32>
  %e = tensor.empty() : tensor<1x2x8x4xf32>
  %qt = linalg.transpose ins(%q : tensor<1x8x2x4xf32>) outs(%e : tensor<1x2x8x4xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<1x2x4x8xf32>
  %kt = linalg.transpose ins(%k : tensor<1x8x2x4xf32>) outs(%ek : tensor<1x2x4x8xf32>) permutation = [0, 2, 3, 1]
  %qc = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<1x2x8x4xf32> into tensor<2x8x4xf32>
  %kc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %eo = tensor.empty() : tensor<2x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %r = linalg.batch_matmul ins(%qc, %kc : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%f : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  func.return %r : tensor<2x8x8xf32>
}

// -----

// Negative: both operands are unit-dim expansions of rank-1 data. Reading the data directly
// would leave the k loop (a unit dim) in no operand map, and no shape would give its extent
// (MLIR and xDSL reject such maps), so the batch_matmul keeps reading the expansions.
// CHECK-LABEL: func.func @unit_dims_only
// CHECK:         %[[E:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0{{.*}}2{{.*}}]] output_shape [2, 1, 1]
// CHECK:         linalg.batch_matmul ins(%[[E]], %[[E]] : tensor<2x1x1xf32>, tensor<2x1x1xf32>)
func.func @unit_dims_only(%v: tensor<2xf32>) -> tensor<2x1x1xf32> {
  %e = tensor.expand_shape %v [[0, 1, 2]] output_shape [2, 1, 1] : tensor<2xf32> into tensor<2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<2x1x1xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%init : tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %r = linalg.batch_matmul ins(%e, %e : tensor<2x1x1xf32>, tensor<2x1x1xf32>) outs(%fill : tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  func.return %r : tensor<2x1x1xf32>
}

// -----

// An attention tail (MIGraphX #2818): all heads of a QKV projection are transposed and the V
// heads cut out of the transpose for P.V. The slice moves in front of the transpose (only the
// V heads are cut, then transposed: slice_before_transpose.py), and that transpose folds into
// P.V's map: the contraction reads the V heads of the projection in place, no transpose left.
// CHECK-LABEL: func.func @v_heads_of_transposed_qkv
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[V:.*]] = tensor.extract_slice %heads[0, 0, 4, 0] [1, 6, 2, 3] [1, 1, 1, 1] : tensor<1x6x6x3xf32> to tensor<6x2x3xf32>
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%pc, %[[V]] :
// CHECK-NOT:     linalg.transpose
func.func @v_heads_of_transposed_qkv(%qkv: tensor<6x18xf32>, %p: tensor<1x2x6x6xf32>) -> tensor<2x6x3xf32> {
  %zero = arith.constant 0.0 : f32
  %heads = tensor.expand_shape %qkv [[0, 1], [2, 3]] output_shape [1, 6, 6, 3] : tensor<6x18xf32> into tensor<1x6x6x3xf32>
  %e = tensor.empty() : tensor<1x6x6x3xf32>
  %t = linalg.transpose ins(%heads : tensor<1x6x6x3xf32>) outs(%e : tensor<1x6x6x3xf32>) permutation = [0, 2, 1, 3]
  %v = tensor.extract_slice %t[0, 4, 0, 0] [1, 2, 6, 3] [1, 1, 1, 1] : tensor<1x6x6x3xf32> to tensor<1x2x6x3xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x3xf32> into tensor<2x6x3xf32>
  %oe = tensor.empty() : tensor<2x6x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
  %pv = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x3xf32>) outs(%f : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
  func.return %pv : tensor<2x6x3xf32>
}

// -----

// Negative: the transpose is read whole too (returned), so the slice stays behind it (moving
// it would transpose the V heads twice), and the contraction reads the slice as it is.
// CHECK-LABEL: func.func @transpose_read_whole
// CHECK:         %[[T:.*]] = linalg.transpose
// CHECK:         %[[V:.*]] = tensor.extract_slice %[[T]][0, 4, 0, 0] [1, 2, 6, 3]
// CHECK:         %[[VC:.*]] = tensor.collapse_shape %[[V]]
// CHECK:         linalg.batch_matmul ins(%pc, %[[VC]] :
// CHECK:         return %{{.*}}, %[[T]]
func.func @transpose_read_whole(%qkv: tensor<6x18xf32>, %p: tensor<1x2x6x6xf32>) -> (tensor<2x6x3xf32>, tensor<1x6x6x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %heads = tensor.expand_shape %qkv [[0, 1], [2, 3]] output_shape [1, 6, 6, 3] : tensor<6x18xf32> into tensor<1x6x6x3xf32>
  %e = tensor.empty() : tensor<1x6x6x3xf32>
  %t = linalg.transpose ins(%heads : tensor<1x6x6x3xf32>) outs(%e : tensor<1x6x6x3xf32>) permutation = [0, 2, 1, 3]
  %v = tensor.extract_slice %t[0, 4, 0, 0] [1, 2, 6, 3] [1, 1, 1, 1] : tensor<1x6x6x3xf32> to tensor<1x2x6x3xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x6x6xf32> into tensor<2x6x6xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x6x3xf32> into tensor<2x6x3xf32>
  %oe = tensor.empty() : tensor<2x6x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%oe : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
  %pv = linalg.batch_matmul ins(%pc, %vc : tensor<2x6x6xf32>, tensor<2x6x3xf32>) outs(%f : tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
  func.return %pv, %t : tensor<2x6x3xf32>, tensor<1x6x6x3xf32>
}

// -----

// Negative: a contraction over a dynamic row count (torch-mlir's projection at a symbolic
// sequence length: the activation's unit batch dim added by an expand_shape) stays as it is:
// the reshapes the fold rebuilds would need the dynamic size.
// CHECK-LABEL: func.func @dynamic_rows_kept
// CHECK:         %[[X:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [1, %{{.*}}, 256] : tensor<?x256xf32> into tensor<1x?x256xf32>
// CHECK:         linalg.batch_matmul ins(%[[X]], %{{.*}} : tensor<1x?x256xf32>, tensor<1x256x96xf32>)
func.func @dynamic_rows_kept(%x: tensor<?x256xf32>, %w: tensor<1x256x96xf32>) -> tensor<1x?x96xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x256xf32>
  %x3 = tensor.expand_shape %x [[0, 1], [2]] output_shape [1, %n, 256] : tensor<?x256xf32> into tensor<1x?x256xf32>
  %e = tensor.empty(%n) : tensor<1x?x96xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x96xf32>) -> tensor<1x?x96xf32>
  %r = linalg.batch_matmul ins(%x3, %w : tensor<1x?x256xf32>, tensor<1x256x96xf32>) outs(%f : tensor<1x?x96xf32>) -> tensor<1x?x96xf32>
  func.return %r : tensor<1x?x96xf32>
}

// -----

// An activation transposed into a matmul over a constant weight (EnCodec's LSTM input: a conv's
// channels-first [1, C, T] output as [T, C]). Folded by default: a K-major LHS read. With
// row-major-activations (the llvm-cpu pipelines: IREE's CPU matmul reads such an LHS slowly)
// the transpose stays a copy and the matmul reads it row-major; the weight's transpose folds.
// CHECK-LABEL: func.func @activation_transposed_for_a_constant_weight
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%{{.*}}, %{{.*}} : tensor<8x6xf32>, tensor<4x8xf32>)
// ROWMAJOR-LABEL: func.func @activation_transposed_for_a_constant_weight
// ROWMAJOR-SAME:    (%[[X:.*]]: tensor<1x8x6xf32>)
// ROWMAJOR:         %[[XT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// ROWMAJOR:         %[[A:.*]] = tensor.collapse_shape %[[XT]] {{\[\[}}0], [1, 2]] : tensor<6x1x8xf32> into tensor<6x8xf32>
// ROWMAJOR:         linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%[[A]], %{{.*}} : tensor<6x8xf32>, tensor<4x8xf32>)
func.func @activation_transposed_for_a_constant_weight(%x: tensor<1x8x6xf32>) -> tensor<6x4xf32> {
  %w = arith.constant dense<[[0.5, -0.25, 1.0, 0.75, 0.5, -1.5, 0.25, 2.0], [1.0, 0.5, -0.5, 0.25, -0.75, 1.25, 0.5, -1.0], [0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0], [-1.0, 1.0, -1.0, 1.0, -1.0, 1.0, -1.0, 1.0]]> : tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %ep = tensor.empty() : tensor<6x1x8xf32>
  %xt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x6xf32>) outs(%ep : tensor<6x1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<6x1x8xf32>
  %a = tensor.collapse_shape %xt [[0], [1, 2]] : tensor<6x1x8xf32> into tensor<6x8xf32>
  %et = tensor.empty() : tensor<8x4xf32>
  %wt = linalg.transpose ins(%w : tensor<4x8xf32>) outs(%et : tensor<8x4xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<6x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %m = linalg.matmul ins(%a, %wt : tensor<6x8xf32>, tensor<8x4xf32>) outs(%f : tensor<6x4xf32>) -> tensor<6x4xf32>
  func.return %m : tensor<6x4xf32>
}

// -----

// The same activation into a matmul over a weight that is an argument: folded with the option too.
// CHECK-LABEL: func.func @activation_transposed_for_an_argument_weight
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%{{.*}}, %{{.*}} : tensor<8x6xf32>, tensor<8x4xf32>)
// ROWMAJOR-LABEL: func.func @activation_transposed_for_an_argument_weight
// ROWMAJOR-NOT:     linalg.generic
// ROWMAJOR:         linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
func.func @activation_transposed_for_an_argument_weight(%x: tensor<1x8x6xf32>, %w: tensor<8x4xf32>) -> tensor<6x4xf32> {
  %zero = arith.constant 0.0 : f32
  %ep = tensor.empty() : tensor<6x1x8xf32>
  %xt = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x8x6xf32>) outs(%ep : tensor<6x1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<6x1x8xf32>
  %a = tensor.collapse_shape %xt [[0], [1, 2]] : tensor<6x1x8xf32> into tensor<6x8xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %m = linalg.matmul ins(%a, %w : tensor<6x8xf32>, tensor<8x4xf32>) outs(%f : tensor<6x4xf32>) -> tensor<6x4xf32>
  func.return %m : tensor<6x4xf32>
}
