// RUN: fusion-opt %s --split-input-file -p dispatch-conv-1x1-cpu-tiles | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'dispatch-conv-1x1-cpu-tiles{min-channels=64 max-small-prime=30}' | filecheck %s --check-prefix=OPTS

// ShuffleNetV2's 116 -> 116 1x1 conv at 14x14 in its region: the contraction generic over
// (n, oh, ow, f, c) with the 4 x 64 register tile, one image row x 64 filters per workgroup,
// remainders peeled; its ReLU epilogue reads it as before. With max-small-prime=30 (prefix
// OPTS) 116 = 4 x 29 has no larger prime: it stays a conv.
// CHECK-LABEL: func.func @shufflenet_1x1
// CHECK:         %[[C:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (0, 0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : tensor<1x14x14x116xf32>, tensor<1x1x116x116xf32>) outs(%{{.*}} : tensor<1x14x14x116xf32>) attrs = {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [1, 1, 14, 64, 0], vector_common_parallel = [1, 1, 4, 64, 0], vector_reduction = [0, 0, 0, 0, 16]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>, {enable_loop_peeling = true}>>}
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.addf
// CHECK:         linalg.generic {{.*}} ins(%[[C]] : tensor<1x14x14x116xf32>)
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
// OPTS-LABEL: func.func @shufflenet_1x1
// OPTS:         linalg.conv_2d_nhwc_hwcf
func.func @shufflenet_1x1(%x: tensor<1x14x14x116xf32>, %w: tensor<1x1x116x116xf32>) -> tensor<1x14x14x116xf32> {
  %r = flow.dispatch.region -> (tensor<1x14x14x116xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x14x14x116xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x116xf32>) -> tensor<1x14x14x116xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x14x14x116xf32>, tensor<1x1x116x116xf32>) outs(%f : tensor<1x14x14x116xf32>) -> tensor<1x14x14x116xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x14x14x116xf32>) outs(%e : tensor<1x14x14x116xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.maximumf %a, %z : f32
      linalg.yield %m : f32
    } -> tensor<1x14x14x116xf32>
    flow.return %y : tensor<1x14x14x116xf32>
  }
  return %r : tensor<1x14x14x116xf32>
}

// -----

// MobileNetV3's 80 -> 184 conv (184 = 8 x 23) is rewritten; with max-small-prime=30 it stays.
// CHECK-LABEL: func.func @mobilenet_184
// CHECK:         linalg.generic {{.*}} attrs = {compilation_info = {{.*}}distribution = [1, 1, 14, 64, 0]
// OPTS-LABEL: func.func @mobilenet_184
// OPTS:         linalg.conv_2d_nhwc_hwcf
func.func @mobilenet_184(%x: tensor<1x14x14x80xf32>, %w: tensor<1x1x80x184xf32>) -> tensor<1x14x14x184xf32> {
  %r = flow.dispatch.region -> (tensor<1x14x14x184xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x14x14x184xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x14x14x184xf32>) -> tensor<1x14x14x184xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x14x14x80xf32>, tensor<1x1x80x184xf32>) outs(%f : tensor<1x14x14x184xf32>) -> tensor<1x14x14x184xf32>
    flow.return %c : tensor<1x14x14x184xf32>
  }
  return %r : tensor<1x14x14x184xf32>
}

// -----

// Negative: filter counts IREE vectorises itself (120 = 8 x 15: no large prime; 464 = 16 x 29:
// a multiple of 16), 24 input channels (under min-channels), a strided 1x1 conv, a 3x3 conv,
// fewer than 64 filters, and a conv outside any dispatch region all stay convs.
// CHECK-LABEL: func.func @not_rewritten
// CHECK-COUNT-7: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT:     compilation_info
func.func @not_rewritten(%a: tensor<1x28x28x72xf32>, %wa: tensor<1x1x72x120xf32>, %b: tensor<1x7x7x464xf32>, %wb: tensor<1x1x464x464xf32>,
                         %c: tensor<1x28x28x24xf32>, %wc: tensor<1x1x24x116xf32>, %d: tensor<1x28x28x116xf32>, %wd: tensor<1x1x116x116xf32>,
                         %e: tensor<1x9x9x116xf32>, %we: tensor<3x3x116x116xf32>, %wf: tensor<1x1x116x58xf32>)
    -> (tensor<1x28x28x120xf32>, tensor<1x7x7x464xf32>, tensor<1x28x28x116xf32>, tensor<1x14x14x116xf32>, tensor<1x7x7x116xf32>, tensor<1x28x28x58xf32>, tensor<1x28x28x116xf32>) {
  %z = arith.constant 0.0 : f32
  %ra = flow.dispatch.region -> (tensor<1x28x28x120xf32>) {
    %i = tensor.empty() : tensor<1x28x28x120xf32>
    %f = linalg.fill ins(%z : f32) outs(%i : tensor<1x28x28x120xf32>) -> tensor<1x28x28x120xf32>
    %v = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %wa : tensor<1x28x28x72xf32>, tensor<1x1x72x120xf32>) outs(%f : tensor<1x28x28x120xf32>) -> tensor<1x28x28x120xf32>
    flow.return %v : tensor<1x28x28x120xf32>
  }
  %rb = flow.dispatch.region -> (tensor<1x7x7x464xf32>) {
    %i = tensor.empty() : tensor<1x7x7x464xf32>
    %f = linalg.fill ins(%z : f32) outs(%i : tensor<1x7x7x464xf32>) -> tensor<1x7x7x464xf32>
    %v = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %wb : tensor<1x7x7x464xf32>, tensor<1x1x464x464xf32>) outs(%f : tensor<1x7x7x464xf32>) -> tensor<1x7x7x464xf32>
    flow.return %v : tensor<1x7x7x464xf32>
  }
  %rc = flow.dispatch.region -> (tensor<1x28x28x116xf32>) {
    %i = tensor.empty() : tensor<1x28x28x116xf32>
    %f = linalg.fill ins(%z : f32) outs(%i : tensor<1x28x28x116xf32>) -> tensor<1x28x28x116xf32>
    %v = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%c, %wc : tensor<1x28x28x24xf32>, tensor<1x1x24x116xf32>) outs(%f : tensor<1x28x28x116xf32>) -> tensor<1x28x28x116xf32>
    flow.return %v : tensor<1x28x28x116xf32>
  }
  %rd = flow.dispatch.region -> (tensor<1x14x14x116xf32>) {
    %i = tensor.empty() : tensor<1x14x14x116xf32>
    %f = linalg.fill ins(%z : f32) outs(%i : tensor<1x14x14x116xf32>) -> tensor<1x14x14x116xf32>
    %v = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%d, %wd : tensor<1x28x28x116xf32>, tensor<1x1x116x116xf32>) outs(%f : tensor<1x14x14x116xf32>) -> tensor<1x14x14x116xf32>
    flow.return %v : tensor<1x14x14x116xf32>
  }
  %re = flow.dispatch.region -> (tensor<1x7x7x116xf32>) {
    %i = tensor.empty() : tensor<1x7x7x116xf32>
    %f = linalg.fill ins(%z : f32) outs(%i : tensor<1x7x7x116xf32>) -> tensor<1x7x7x116xf32>
    %v = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%e, %we : tensor<1x9x9x116xf32>, tensor<3x3x116x116xf32>) outs(%f : tensor<1x7x7x116xf32>) -> tensor<1x7x7x116xf32>
    flow.return %v : tensor<1x7x7x116xf32>
  }
  %rf = flow.dispatch.region -> (tensor<1x28x28x58xf32>) {
    %i = tensor.empty() : tensor<1x28x28x58xf32>
    %f = linalg.fill ins(%z : f32) outs(%i : tensor<1x28x28x58xf32>) -> tensor<1x28x28x58xf32>
    %v = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %wf : tensor<1x28x28x116xf32>, tensor<1x1x116x58xf32>) outs(%f : tensor<1x28x28x58xf32>) -> tensor<1x28x28x58xf32>
    flow.return %v : tensor<1x28x28x58xf32>
  }
  %i = tensor.empty() : tensor<1x28x28x116xf32>
  %f = linalg.fill ins(%z : f32) outs(%i : tensor<1x28x28x116xf32>) -> tensor<1x28x28x116xf32>
  %outside = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %wd : tensor<1x28x28x116xf32>, tensor<1x1x116x116xf32>) outs(%f : tensor<1x28x28x116xf32>) -> tensor<1x28x28x116xf32>
  return %ra, %rb, %rc, %rd, %re, %rf, %outside : tensor<1x28x28x120xf32>, tensor<1x7x7x464xf32>, tensor<1x28x28x116xf32>, tensor<1x14x14x116xf32>, tensor<1x7x7x116xf32>, tensor<1x28x28x58xf32>, tensor<1x28x28x116xf32>
}

// -----

// MnasNet's 72 -> 24 projection at 56x56 and 120 -> 40 at 28x28 stay IREE's conv with 8-lane
// vectors over 8 (7) pixels, IREE's own workgroups (4 / 2 rows); a 32-filter conv (a multiple
// of 16) and a 24-filter one over 12 channels (no whole 8-lane reduction step) are left as
// they are; narrow-filter-lanes=0 (prefix NONE) leaves them all.
// RUN: fusion-opt %s --split-input-file -p 'dispatch-conv-1x1-cpu-tiles{narrow-filter-lanes=0}' | filecheck %s --check-prefix=NONE
// CHECK-LABEL: func.func @narrow_filters
// CHECK:         linalg.conv_2d_nhwc_hwcf {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [0, 4, 56, 24, 0, 0, 0], vector_common_parallel = [1, 1, 8, 8, 0, 0, 0], vector_reduction = [0, 0, 0, 0, 1, 1, 8]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<ConvTileAndDecomposeExpert>>>
// CHECK-SAME:      tensor<1x1x72x24xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {compilation_info = {{.*}}distribution = [0, 2, 28, 40, 0, 0, 0], vector_common_parallel = [1, 1, 7, 8, 0, 0, 0]
// CHECK-SAME:      tensor<1x1x120x40xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {dilations
// CHECK-SAME:      tensor<1x1x72x32xf32>
// CHECK:         linalg.conv_2d_nhwc_hwcf {dilations
// CHECK-SAME:      tensor<1x1x12x24xf32>
// NONE-LABEL: func.func @narrow_filters
// NONE-NOT:     compilation_info
func.func @narrow_filters(%a: tensor<1x56x56x72xf32>, %wa: tensor<1x1x72x24xf32>, %b: tensor<1x28x28x120xf32>, %wb: tensor<1x1x120x40xf32>,
                          %wc: tensor<1x1x72x32xf32>, %d: tensor<1x56x56x12xf32>, %wd: tensor<1x1x12x24xf32>)
    -> (tensor<1x56x56x24xf32>, tensor<1x28x28x40xf32>, tensor<1x56x56x32xf32>, tensor<1x56x56x24xf32>) {
  %ra = flow.dispatch.region -> (tensor<1x56x56x24xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x24xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x24xf32>) -> tensor<1x56x56x24xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %wa : tensor<1x56x56x72xf32>, tensor<1x1x72x24xf32>) outs(%f : tensor<1x56x56x24xf32>) -> tensor<1x56x56x24xf32>
    flow.return %c : tensor<1x56x56x24xf32>
  }
  %rb = flow.dispatch.region -> (tensor<1x28x28x40xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x28x28x40xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x28x28x40xf32>) -> tensor<1x28x28x40xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%b, %wb : tensor<1x28x28x120xf32>, tensor<1x1x120x40xf32>) outs(%f : tensor<1x28x28x40xf32>) -> tensor<1x28x28x40xf32>
    flow.return %c : tensor<1x28x28x40xf32>
  }
  %rc = flow.dispatch.region -> (tensor<1x56x56x32xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x32xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%a, %wc : tensor<1x56x56x72xf32>, tensor<1x1x72x32xf32>) outs(%f : tensor<1x56x56x32xf32>) -> tensor<1x56x56x32xf32>
    flow.return %c : tensor<1x56x56x32xf32>
  }
  %rd = flow.dispatch.region -> (tensor<1x56x56x24xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<1x56x56x24xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x24xf32>) -> tensor<1x56x56x24xf32>
    %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%d, %wd : tensor<1x56x56x12xf32>, tensor<1x1x12x24xf32>) outs(%f : tensor<1x56x56x24xf32>) -> tensor<1x56x56x24xf32>
    flow.return %c : tensor<1x56x56x24xf32>
  }
  return %ra, %rb, %rc, %rd : tensor<1x56x56x24xf32>, tensor<1x28x28x40xf32>, tensor<1x56x56x32xf32>, tensor<1x56x56x24xf32>
}
