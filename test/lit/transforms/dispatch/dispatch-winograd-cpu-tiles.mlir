// RUN: fusion-opt %s --split-input-file -p dispatch-winograd-cpu-tiles | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-winograd-cpu-tiles --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS

// The pass: fusionopt/transforms/dispatch/winograd_cpu_tiles.py; the transforms it recognises
// are linalg/winograd_transforms.py's (`is_input_transform`, `is_output_transform`).

// A Winograd input transform over 16 channels in its region: register tiles of 4 k x 16
// channels, workgroups of 4 k x 4 tile rows (all 4) x all tile columns x 16 channels.
// CHECK-LABEL: func.func @input_transform
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 4, 4, 16], vector_common_parallel = [4, 1, 1, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
// STATS:       (Winograd input transforms given 4 k x 16 channel register tiles) : 1
func.func @input_transform(%x: tensor<1x10x10x16xf32>, %c0: tensor<16xf32>, %c1: tensor<16xf32>, %c2: tensor<16xf32>, %c3: tensor<16xf32>, %c4: tensor<16xf32>, %c5: tensor<16xf32>, %c6: tensor<16xf32>, %c7: tensor<16xf32>, %c8: tensor<16xf32>, %c9: tensor<16xf32>, %c10: tensor<16xf32>, %c11: tensor<16xf32>, %c12: tensor<16xf32>, %c13: tensor<16xf32>, %c14: tensor<16xf32>, %c15: tensor<16xf32>) -> tensor<16x4x4x16xf32> {
  %r = flow.dispatch.region -> (tensor<16x4x4x16xf32>) {
    %s0 = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s1 = tensor.extract_slice %x[0, 0, 1, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s2 = tensor.extract_slice %x[0, 0, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s3 = tensor.extract_slice %x[0, 0, 3, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s4 = tensor.extract_slice %x[0, 1, 0, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s5 = tensor.extract_slice %x[0, 1, 1, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s6 = tensor.extract_slice %x[0, 1, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s7 = tensor.extract_slice %x[0, 1, 3, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s8 = tensor.extract_slice %x[0, 2, 0, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s9 = tensor.extract_slice %x[0, 2, 1, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s10 = tensor.extract_slice %x[0, 2, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s11 = tensor.extract_slice %x[0, 2, 3, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s12 = tensor.extract_slice %x[0, 3, 0, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s13 = tensor.extract_slice %x[0, 3, 1, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s14 = tensor.extract_slice %x[0, 3, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s15 = tensor.extract_slice %x[0, 3, 3, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %e = tensor.empty() : tensor<16x4x4x16xf32>
    %v = linalg.generic {indexing_maps = [affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k, ty, tx, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9, %s10, %s11, %s12, %s13, %s14, %s15, %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12, %c13, %c14, %c15 : tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16x4x4x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %a15: f32, %a16: f32, %a17: f32, %a18: f32, %a19: f32, %a20: f32, %a21: f32, %a22: f32, %a23: f32, %a24: f32, %a25: f32, %a26: f32, %a27: f32, %a28: f32, %a29: f32, %a30: f32, %a31: f32, %a32: f32):
      %p0 = arith.mulf %a0, %a16 : f32
      %p1 = math.fma %a1, %a17, %p0 : f32
      %p2 = math.fma %a2, %a18, %p1 : f32
      %p3 = math.fma %a3, %a19, %p2 : f32
      %p4 = math.fma %a4, %a20, %p3 : f32
      %p5 = math.fma %a5, %a21, %p4 : f32
      %p6 = math.fma %a6, %a22, %p5 : f32
      %p7 = math.fma %a7, %a23, %p6 : f32
      %p8 = math.fma %a8, %a24, %p7 : f32
      %p9 = math.fma %a9, %a25, %p8 : f32
      %p10 = math.fma %a10, %a26, %p9 : f32
      %p11 = math.fma %a11, %a27, %p10 : f32
      %p12 = math.fma %a12, %a28, %p11 : f32
      %p13 = math.fma %a13, %a29, %p12 : f32
      %p14 = math.fma %a14, %a30, %p13 : f32
      %p15 = math.fma %a15, %a31, %p14 : f32
      linalg.yield %p15 : f32
    } -> tensor<16x4x4x16xf32>
    flow.return %v : tensor<16x4x4x16xf32>
  }
  return %r : tensor<16x4x4x16xf32>
}

// -----

// Negative: 8 channels (no whole vector) keep IREE's config.
// CHECK-LABEL: func.func @eight_channels
// CHECK-NOT:     compilation_info
// STATS-NOT:   Winograd input transforms
func.func @eight_channels(%x: tensor<1x10x10x8xf32>, %c0: tensor<16xf32>, %c1: tensor<16xf32>, %c2: tensor<16xf32>, %c3: tensor<16xf32>, %c4: tensor<16xf32>, %c5: tensor<16xf32>, %c6: tensor<16xf32>, %c7: tensor<16xf32>, %c8: tensor<16xf32>, %c9: tensor<16xf32>, %c10: tensor<16xf32>, %c11: tensor<16xf32>, %c12: tensor<16xf32>, %c13: tensor<16xf32>, %c14: tensor<16xf32>, %c15: tensor<16xf32>) -> tensor<16x4x4x8xf32> {
  %r = flow.dispatch.region -> (tensor<16x4x4x8xf32>) {
    %s0 = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s1 = tensor.extract_slice %x[0, 0, 1, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s2 = tensor.extract_slice %x[0, 0, 2, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s3 = tensor.extract_slice %x[0, 0, 3, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s4 = tensor.extract_slice %x[0, 1, 0, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s5 = tensor.extract_slice %x[0, 1, 1, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s6 = tensor.extract_slice %x[0, 1, 2, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s7 = tensor.extract_slice %x[0, 1, 3, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s8 = tensor.extract_slice %x[0, 2, 0, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s9 = tensor.extract_slice %x[0, 2, 1, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s10 = tensor.extract_slice %x[0, 2, 2, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s11 = tensor.extract_slice %x[0, 2, 3, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s12 = tensor.extract_slice %x[0, 3, 0, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s13 = tensor.extract_slice %x[0, 3, 1, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s14 = tensor.extract_slice %x[0, 3, 2, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %s15 = tensor.extract_slice %x[0, 3, 3, 0] [1, 4, 4, 8] [1, 2, 2, 1] : tensor<1x10x10x8xf32> to tensor<4x4x8xf32>
    %e = tensor.empty() : tensor<16x4x4x8xf32>
    %v = linalg.generic {indexing_maps = [affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k, ty, tx, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9, %s10, %s11, %s12, %s13, %s14, %s15, %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12, %c13, %c14, %c15 : tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16x4x4x8xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %a15: f32, %a16: f32, %a17: f32, %a18: f32, %a19: f32, %a20: f32, %a21: f32, %a22: f32, %a23: f32, %a24: f32, %a25: f32, %a26: f32, %a27: f32, %a28: f32, %a29: f32, %a30: f32, %a31: f32, %a32: f32):
      %p0 = arith.mulf %a0, %a16 : f32
      %p1 = math.fma %a1, %a17, %p0 : f32
      %p2 = math.fma %a2, %a18, %p1 : f32
      %p3 = math.fma %a3, %a19, %p2 : f32
      %p4 = math.fma %a4, %a20, %p3 : f32
      %p5 = math.fma %a5, %a21, %p4 : f32
      %p6 = math.fma %a6, %a22, %p5 : f32
      %p7 = math.fma %a7, %a23, %p6 : f32
      %p8 = math.fma %a8, %a24, %p7 : f32
      %p9 = math.fma %a9, %a25, %p8 : f32
      %p10 = math.fma %a10, %a26, %p9 : f32
      %p11 = math.fma %a11, %a27, %p10 : f32
      %p12 = math.fma %a12, %a28, %p11 : f32
      %p13 = math.fma %a13, %a29, %p12 : f32
      %p14 = math.fma %a14, %a30, %p13 : f32
      %p15 = math.fma %a15, %a31, %p14 : f32
      linalg.yield %p15 : f32
    } -> tensor<16x4x4x8xf32>
    flow.return %v : tensor<16x4x4x8xf32>
  }
  return %r : tensor<16x4x4x8xf32>
}

// -----

// Negative: a generic of another form (15 slices and weights) is not a Winograd transform.
// CHECK-LABEL: func.func @fifteen_taps
// CHECK-NOT:     compilation_info
// STATS-NOT:   Winograd input transforms
func.func @fifteen_taps(%x: tensor<1x10x10x16xf32>, %c0: tensor<16xf32>, %c1: tensor<16xf32>, %c2: tensor<16xf32>, %c3: tensor<16xf32>, %c4: tensor<16xf32>, %c5: tensor<16xf32>, %c6: tensor<16xf32>, %c7: tensor<16xf32>, %c8: tensor<16xf32>, %c9: tensor<16xf32>, %c10: tensor<16xf32>, %c11: tensor<16xf32>, %c12: tensor<16xf32>, %c13: tensor<16xf32>, %c14: tensor<16xf32>) -> tensor<16x4x4x16xf32> {
  %r = flow.dispatch.region -> (tensor<16x4x4x16xf32>) {
    %s0 = tensor.extract_slice %x[0, 0, 0, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s1 = tensor.extract_slice %x[0, 0, 1, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s2 = tensor.extract_slice %x[0, 0, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s3 = tensor.extract_slice %x[0, 0, 3, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s4 = tensor.extract_slice %x[0, 1, 0, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s5 = tensor.extract_slice %x[0, 1, 1, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s6 = tensor.extract_slice %x[0, 1, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s7 = tensor.extract_slice %x[0, 1, 3, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s8 = tensor.extract_slice %x[0, 2, 0, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s9 = tensor.extract_slice %x[0, 2, 1, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s10 = tensor.extract_slice %x[0, 2, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s11 = tensor.extract_slice %x[0, 2, 3, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s12 = tensor.extract_slice %x[0, 3, 0, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s13 = tensor.extract_slice %x[0, 3, 1, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %s14 = tensor.extract_slice %x[0, 3, 2, 0] [1, 4, 4, 16] [1, 2, 2, 1] : tensor<1x10x10x16xf32> to tensor<4x4x16xf32>
    %e = tensor.empty() : tensor<16x4x4x16xf32>
    %v = linalg.generic {indexing_maps = [affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (ty, tx, c)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k)>, affine_map<(k, ty, tx, c) -> (k, ty, tx, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9, %s10, %s11, %s12, %s13, %s14, %c0, %c1, %c2, %c3, %c4, %c5, %c6, %c7, %c8, %c9, %c10, %c11, %c12, %c13, %c14 : tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16x4x4x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %a15: f32, %a16: f32, %a17: f32, %a18: f32, %a19: f32, %a20: f32, %a21: f32, %a22: f32, %a23: f32, %a24: f32, %a25: f32, %a26: f32, %a27: f32, %a28: f32, %a29: f32, %a30: f32):
      %p0 = arith.mulf %a0, %a15 : f32
      %p1 = math.fma %a1, %a16, %p0 : f32
      %p2 = math.fma %a2, %a17, %p1 : f32
      %p3 = math.fma %a3, %a18, %p2 : f32
      %p4 = math.fma %a4, %a19, %p3 : f32
      %p5 = math.fma %a5, %a20, %p4 : f32
      %p6 = math.fma %a6, %a21, %p5 : f32
      %p7 = math.fma %a7, %a22, %p6 : f32
      %p8 = math.fma %a8, %a23, %p7 : f32
      %p9 = math.fma %a9, %a24, %p8 : f32
      %p10 = math.fma %a10, %a25, %p9 : f32
      %p11 = math.fma %a11, %a26, %p10 : f32
      %p12 = math.fma %a12, %a27, %p11 : f32
      %p13 = math.fma %a13, %a28, %p12 : f32
      %p14 = math.fma %a14, %a29, %p13 : f32
      linalg.yield %p14 : f32
    } -> tensor<16x4x4x16xf32>
    flow.return %v : tensor<16x4x4x16xf32>
  }
  return %r : tensor<16x4x4x16xf32>
}

// -----

// A Winograd output transform as its region's root: register tiles of a tile's 2 x 2 outputs x
// 16 filters, workgroups of 4 tile rows (all) x all columns x 16 filters.
// CHECK-LABEL: func.func @output_transform
// CHECK:         linalg.generic
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [4, 2, 4, 2, 16], vector_common_parallel = [1, 2, 1, 2, 16]>
// STATS:       (Winograd output transforms given 2 x 2 output x 16 filter register tiles) : 1
func.func @output_transform(%m: tensor<16x4x4x16xf32>, %b: tensor<16xf32>, %w0: tensor<2x2xf32>, %w1: tensor<2x2xf32>, %w2: tensor<2x2xf32>, %w3: tensor<2x2xf32>, %w4: tensor<2x2xf32>, %w5: tensor<2x2xf32>, %w6: tensor<2x2xf32>, %w7: tensor<2x2xf32>, %w8: tensor<2x2xf32>, %w9: tensor<2x2xf32>, %w10: tensor<2x2xf32>, %w11: tensor<2x2xf32>, %w12: tensor<2x2xf32>, %w13: tensor<2x2xf32>, %w14: tensor<2x2xf32>, %w15: tensor<2x2xf32>) -> tensor<4x2x4x2x16xf32> {
  %r = flow.dispatch.region -> (tensor<4x2x4x2x16xf32>) {
    %s0 = tensor.extract_slice %m[0, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s1 = tensor.extract_slice %m[1, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s2 = tensor.extract_slice %m[2, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s3 = tensor.extract_slice %m[3, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s4 = tensor.extract_slice %m[4, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s5 = tensor.extract_slice %m[5, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s6 = tensor.extract_slice %m[6, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s7 = tensor.extract_slice %m[7, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s8 = tensor.extract_slice %m[8, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s9 = tensor.extract_slice %m[9, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s10 = tensor.extract_slice %m[10, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s11 = tensor.extract_slice %m[11, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s12 = tensor.extract_slice %m[12, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s13 = tensor.extract_slice %m[13, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s14 = tensor.extract_slice %m[14, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s15 = tensor.extract_slice %m[15, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %e = tensor.empty() : tensor<4x2x4x2x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (ty, p, tx, q, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9, %s10, %s11, %s12, %s13, %s14, %s15, %w0, %w1, %w2, %w3, %w4, %w5, %w6, %w7, %w8, %w9, %w10, %w11, %w12, %w13, %w14, %w15 : tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<4x2x4x2x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %a15: f32, %a16: f32, %a17: f32, %a18: f32, %a19: f32, %a20: f32, %a21: f32, %a22: f32, %a23: f32, %a24: f32, %a25: f32, %a26: f32, %a27: f32, %a28: f32, %a29: f32, %a30: f32, %a31: f32, %a32: f32):
      %p0 = arith.mulf %a0, %a16 : f32
      %p1 = math.fma %a1, %a17, %p0 : f32
      %p2 = math.fma %a2, %a18, %p1 : f32
      %p3 = math.fma %a3, %a19, %p2 : f32
      %p4 = math.fma %a4, %a20, %p3 : f32
      %p5 = math.fma %a5, %a21, %p4 : f32
      %p6 = math.fma %a6, %a22, %p5 : f32
      %p7 = math.fma %a7, %a23, %p6 : f32
      %p8 = math.fma %a8, %a24, %p7 : f32
      %p9 = math.fma %a9, %a25, %p8 : f32
      %p10 = math.fma %a10, %a26, %p9 : f32
      %p11 = math.fma %a11, %a27, %p10 : f32
      %p12 = math.fma %a12, %a28, %p11 : f32
      %p13 = math.fma %a13, %a29, %p12 : f32
      %p14 = math.fma %a14, %a30, %p13 : f32
      %p15 = math.fma %a15, %a31, %p14 : f32
      linalg.yield %p15 : f32
    } -> tensor<4x2x4x2x16xf32>
    flow.return %y : tensor<4x2x4x2x16xf32>
  }
  return %r : tensor<4x2x4x2x16xf32>
}

// -----

// Negative: an epilogue that reads the blocks collapsed is the root IREE tiles, in other loops:
// no config on either op.
// CHECK-LABEL: func.func @collapsed_epilogue
// CHECK-NOT:     compilation_info
// STATS-NOT:   Winograd output transforms
func.func @collapsed_epilogue(%m: tensor<16x4x4x16xf32>, %b: tensor<16xf32>, %w0: tensor<2x2xf32>, %w1: tensor<2x2xf32>, %w2: tensor<2x2xf32>, %w3: tensor<2x2xf32>, %w4: tensor<2x2xf32>, %w5: tensor<2x2xf32>, %w6: tensor<2x2xf32>, %w7: tensor<2x2xf32>, %w8: tensor<2x2xf32>, %w9: tensor<2x2xf32>, %w10: tensor<2x2xf32>, %w11: tensor<2x2xf32>, %w12: tensor<2x2xf32>, %w13: tensor<2x2xf32>, %w14: tensor<2x2xf32>, %w15: tensor<2x2xf32>) -> tensor<1x8x8x16xf32> {
  %r = flow.dispatch.region -> (tensor<1x8x8x16xf32>) {
    %s0 = tensor.extract_slice %m[0, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s1 = tensor.extract_slice %m[1, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s2 = tensor.extract_slice %m[2, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s3 = tensor.extract_slice %m[3, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s4 = tensor.extract_slice %m[4, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s5 = tensor.extract_slice %m[5, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s6 = tensor.extract_slice %m[6, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s7 = tensor.extract_slice %m[7, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s8 = tensor.extract_slice %m[8, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s9 = tensor.extract_slice %m[9, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s10 = tensor.extract_slice %m[10, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s11 = tensor.extract_slice %m[11, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s12 = tensor.extract_slice %m[12, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s13 = tensor.extract_slice %m[13, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s14 = tensor.extract_slice %m[14, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %s15 = tensor.extract_slice %m[15, 0, 0, 0] [1, 4, 4, 16] [1, 1, 1, 1] : tensor<16x4x4x16xf32> to tensor<4x4x16xf32>
    %e = tensor.empty() : tensor<4x2x4x2x16xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (ty, tx, f)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (p, q)>, affine_map<(ty, p, tx, q, f) -> (ty, p, tx, q, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%s0, %s1, %s2, %s3, %s4, %s5, %s6, %s7, %s8, %s9, %s10, %s11, %s12, %s13, %s14, %s15, %w0, %w1, %w2, %w3, %w4, %w5, %w6, %w7, %w8, %w9, %w10, %w11, %w12, %w13, %w14, %w15 : tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<4x4x16xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<4x2x4x2x16xf32>) {
    ^bb0(%a0: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %a5: f32, %a6: f32, %a7: f32, %a8: f32, %a9: f32, %a10: f32, %a11: f32, %a12: f32, %a13: f32, %a14: f32, %a15: f32, %a16: f32, %a17: f32, %a18: f32, %a19: f32, %a20: f32, %a21: f32, %a22: f32, %a23: f32, %a24: f32, %a25: f32, %a26: f32, %a27: f32, %a28: f32, %a29: f32, %a30: f32, %a31: f32, %a32: f32):
      %p0 = arith.mulf %a0, %a16 : f32
      %p1 = math.fma %a1, %a17, %p0 : f32
      %p2 = math.fma %a2, %a18, %p1 : f32
      %p3 = math.fma %a3, %a19, %p2 : f32
      %p4 = math.fma %a4, %a20, %p3 : f32
      %p5 = math.fma %a5, %a21, %p4 : f32
      %p6 = math.fma %a6, %a22, %p5 : f32
      %p7 = math.fma %a7, %a23, %p6 : f32
      %p8 = math.fma %a8, %a24, %p7 : f32
      %p9 = math.fma %a9, %a25, %p8 : f32
      %p10 = math.fma %a10, %a26, %p9 : f32
      %p11 = math.fma %a11, %a27, %p10 : f32
      %p12 = math.fma %a12, %a28, %p11 : f32
      %p13 = math.fma %a13, %a29, %p12 : f32
      %p14 = math.fma %a14, %a30, %p13 : f32
      %p15 = math.fma %a15, %a31, %p14 : f32
      linalg.yield %p15 : f32
    } -> tensor<4x2x4x2x16xf32>
    %c = tensor.collapse_shape %y [[0, 1], [2, 3], [4]] : tensor<4x2x4x2x16xf32> into tensor<8x8x16xf32>
    %e2 = tensor.empty() : tensor<1x8x8x16xf32>
    %z = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %b : tensor<8x8x16xf32>, tensor<16xf32>) outs(%e2 : tensor<1x8x8x16xf32>) {
    ^bb0(%x: f32, %bias: f32, %o: f32):
      %s = arith.addf %x, %bias : f32
      linalg.yield %s : f32
    } -> tensor<1x8x8x16xf32>
    flow.return %z : tensor<1x8x8x16xf32>
  }
  return %r : tensor<1x8x8x16xf32>
}
