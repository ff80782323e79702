// RUN: fusion-opt %s --split-input-file -p linalg-pack-matmul-weights | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-creation-llvm-cpu | filecheck %s --check-prefix=REGIONS
// RUN: fusion-opt %s --split-input-file -p "linalg-pack-matmul-weights{reduction-step=16}" | filecheck %s --check-prefix=STEP16
// RUN: fusion-opt %s --split-input-file -p linalg-pack-matmul-weights --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS

// A matmul over a constant [8, 128] weight reads it as two panels of 64, [2, 8, 64] (panel 1:
// columns 64-127 of every row); the result [32, 2, 64] collapses back. Workgroups of 28 rows
// would not divide 32: the smallest divisor with 28 rows is 32. Through the CPU pipeline the bias
// + ReLU epilogue computes in the packed shape in the matmul's region.
// CHECK-LABEL: func.func @bias_relu
// CHECK:         %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<2x8x64xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[W]] : tensor<32x8xf32>, tensor<2x8x64xf32>) outs(%{{.*}} : tensor<32x2x64xf32>)
// CHECK-SAME:      distribution = [32, 1, 64, 0], vector_common_parallel = [4, 1, 64, 0], vector_reduction = [0, 0, 0, 4]
// CHECK:         %[[C:.*]] = tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2]] : tensor<32x2x64xf32> into tensor<32x128xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<32x128xf32>, tensor<128xf32>)
// Reduction steps of 4 weight rows by default, 16 on request.
// STEP16-LABEL: func.func @bias_relu
// STEP16:         vector_common_parallel = [4, 1, 64, 0], vector_reduction = [0, 0, 0, 16]
// REGIONS-LABEL: func.func @bias_relu
// REGIONS:         %[[R:.*]] = flow.dispatch.region -> (tensor<32x2x64xf32>)
// REGIONS:           compilation_info
// REGIONS:           arith.maximumf
// REGIONS:           flow.return
// REGIONS-NOT:     flow.dispatch.region
// REGIONS:         flow.tensor.reshape %[[R]] : tensor<32x2x64xf32> -> tensor<32x128xf32>
func.func @bias_relu(%a: tensor<32x8xf32>, %b: tensor<128xf32>) -> tensor<32x128xf32> {
  %w = arith.constant dense<0.125> : tensor<8x128xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x128xf32>) -> tensor<32x128xf32>
  %m = linalg.matmul ins(%a, %w : tensor<32x8xf32>, tensor<8x128xf32>) outs(%f : tensor<32x128xf32>) -> tensor<32x128xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<32x128xf32>, tensor<128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    %t = arith.maximumf %s, %z : f32
    linalg.yield %t : f32
  } -> tensor<32x128xf32>
  func.return %r : tensor<32x128xf32>
}

// -----

// A linear layer over an image (ConvNeXt's MLP): the matmul's rows are split to [1, 4, 4] by its
// only reader. The split is folded in: the lhs is read as [1, 4, 4, 8], the result is
// [1, 4, 4, 3, 32] (96 columns: three panels of 32), a packed 1x1 conv, and the epilogue joins it.
// CHECK-LABEL: func.func @rows_split_to_an_image
// CHECK:         %[[A:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] output_shape [1, 4, 4, 8] : tensor<16x8xf32> into tensor<1x4x4x8xf32>
// CHECK:         %[[G:.*]] = linalg.generic {{.*}} ins(%[[A]], %{{.*}} : tensor<1x4x4x8xf32>, tensor<3x8x32xf32>) outs(%{{.*}} : tensor<1x4x4x3x32xf32>)
// CHECK-SAME:      distribution = [1, 4, 4, 1, 32, 0]
// CHECK:         tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x4x4x3x32xf32> into tensor<1x4x4x96xf32>
// CHECK-NOT:     linalg.matmul
// REGIONS-LABEL: func.func @rows_split_to_an_image
// REGIONS:         flow.dispatch.region -> (tensor<1x4x4x3x32xf32>)
// REGIONS:           math.tanh
// REGIONS-NOT:     flow.dispatch.region
func.func @rows_split_to_an_image(%a: tensor<16x8xf32>) -> tensor<1x4x4x96xf32> {
  %w = arith.constant dense<0.25> : tensor<8x96xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x96xf32>) -> tensor<16x96xf32>
  %m = linalg.matmul ins(%a, %w : tensor<16x8xf32>, tensor<8x96xf32>) outs(%f : tensor<16x96xf32>) -> tensor<16x96xf32>
  %x = tensor.expand_shape %m [[0, 1, 2], [3]] output_shape [1, 4, 4, 96] : tensor<16x96xf32> into tensor<1x4x4x96xf32>
  %e2 = tensor.empty() : tensor<1x4x4x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x96xf32>) outs(%e2 : tensor<1x4x4x96xf32>) {
  ^bb0(%i: f32, %o: f32):
    %t = math.tanh %i : f32
    linalg.yield %t : f32
  } -> tensor<1x4x4x96xf32>
  func.return %r : tensor<1x4x4x96xf32>
}

// -----

// A unit dim inserted before the columns ([16, 96] -> [16, 1, 96], as torch-mlir writes a
// projection over [T, 1, C]) is a row split too: rows [16, 1].
// CHECK-LABEL: func.func @unit_dim_before_the_columns
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<16x1x3x32xf32>)
// CHECK:         tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3]] : tensor<16x1x3x32xf32> into tensor<16x1x96xf32>
// REGIONS-LABEL: func.func @unit_dim_before_the_columns
// REGIONS:         flow.dispatch.region -> (tensor<16x1x3x32xf32>)
// REGIONS:           arith.negf
// REGIONS-NOT:     flow.dispatch.region
func.func @unit_dim_before_the_columns(%a: tensor<16x8xf32>) -> tensor<16x1x96xf32> {
  %w = arith.constant dense<0.25> : tensor<8x96xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x96xf32>) -> tensor<16x96xf32>
  %m = linalg.matmul ins(%a, %w : tensor<16x8xf32>, tensor<8x96xf32>) outs(%f : tensor<16x96xf32>) -> tensor<16x96xf32>
  %x = tensor.expand_shape %m [[0], [1, 2]] output_shape [16, 1, 96] : tensor<16x96xf32> into tensor<16x1x96xf32>
  %e2 = tensor.empty() : tensor<16x1x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<16x1x96xf32>) outs(%e2 : tensor<16x1x96xf32>) {
  ^bb0(%i: f32, %o: f32):
    %t = arith.negf %i : f32
    linalg.yield %t : f32
  } -> tensor<16x1x96xf32>
  func.return %r : tensor<16x1x96xf32>
}

// -----

// An epilogue that writes [1, 16, 96] from the matmul's [16, 96] through (d1, d2) (a ViT's bias
// + GELU): its unit loop is not read, and it still moves below the collapse and joins the region.
// REGIONS-LABEL: func.func @epilogue_adds_a_unit_dim
// REGIONS:         flow.dispatch.region -> (tensor<1x16x3x32xf32>)
// REGIONS:           linalg.generic {{.*}} outs(%{{.*}} : tensor<16x3x32xf32>)
// REGIONS:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
// REGIONS:           flow.return
// REGIONS-NOT:     flow.dispatch.region
func.func @epilogue_adds_a_unit_dim(%a: tensor<16x8xf32>, %b: tensor<96xf32>) -> tensor<1x16x96xf32> {
  %w = arith.constant dense<0.25> : tensor<8x96xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x96xf32>) -> tensor<16x96xf32>
  %m = linalg.matmul ins(%a, %w : tensor<16x8xf32>, tensor<8x96xf32>) outs(%f : tensor<16x96xf32>) -> tensor<16x96xf32>
  %e2 = tensor.empty() : tensor<1x16x96xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%m, %b : tensor<16x96xf32>, tensor<96xf32>) outs(%e2 : tensor<1x16x96xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<1x16x96xf32>
  func.return %r : tensor<1x16x96xf32>
}

// -----

// A batch matmul over a constant [2, 8, 128] weight (Winograd's tile products' form) reads each
// batch's weight as two panels of 64, [2, 2, 8, 64]; one batch a workgroup, its 16 rows whole
// (no divisor of 16 holds 28), 4 x 64 register tiles; the result [2, 16, 2, 64] collapses back.
// STATS:         (batch matmul weights packed in panels) : 1
// STATS-NEXT:    linalg-pack-matmul-weights
// STATS-NOT:     packed
// CHECK-LABEL: func.func @batch_matmul_over_a_constant
// CHECK:         %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<2x2x8x64xf32>
// CHECK:         %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[W]] : tensor<2x16x8xf32>, tensor<2x2x8x64xf32>) outs(%{{.*}} : tensor<2x16x2x64xf32>)
// CHECK-SAME:      distribution = [1, 16, 1, 64, 0], vector_common_parallel = [1, 4, 1, 64, 0], vector_reduction = [0, 0, 0, 0, 4]
// CHECK:         tensor.collapse_shape %[[G]] {{\[\[}}0], [1], [2, 3]] : tensor<2x16x2x64xf32> into tensor<2x16x128xf32>
// CHECK-NOT:     linalg.batch_matmul
// REGIONS-LABEL: func.func @batch_matmul_over_a_constant
// REGIONS:         flow.dispatch.region -> (tensor<2x16x2x64xf32>)
// REGIONS:           compilation_info
// REGIONS-NOT:     flow.dispatch.region
func.func @batch_matmul_over_a_constant(%a: tensor<2x16x8xf32>) -> tensor<2x16x128xf32> {
  %w = arith.constant dense<0.125> : tensor<2x8x128xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
  %m = linalg.batch_matmul ins(%a, %w : tensor<2x16x8xf32>, tensor<2x8x128xf32>) outs(%f : tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
  func.return %m : tensor<2x16x128xf32>
}

// -----

// Left alone: an argument weight, one panel's worth of columns (64), a column count no panel
// divides (40); batch matmuls over an argument weight or one panel of columns.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     linalg.generic
// CHECK-COUNT-3: linalg.matmul
// CHECK-COUNT-2: linalg.batch_matmul
// CHECK-NOT:     linalg.generic
// REGIONS-LABEL: func.func @left_alone
func.func @left_alone(%a: tensor<16x8xf32>, %wa: tensor<8x128xf32>, %ba: tensor<2x16x8xf32>, %bw: tensor<2x8x128xf32>) -> (tensor<16x128xf32>, tensor<16x64xf32>, tensor<16x40xf32>, tensor<2x16x128xf32>, tensor<2x16x64xf32>) {
  %w64 = arith.constant dense<0.25> : tensor<8x64xf32>
  %w40 = arith.constant dense<0.25> : tensor<8x40xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x128xf32>) -> tensor<16x128xf32>
  %m = linalg.matmul ins(%a, %wa : tensor<16x8xf32>, tensor<8x128xf32>) outs(%f : tensor<16x128xf32>) -> tensor<16x128xf32>
  %e64 = tensor.empty() : tensor<16x64xf32>
  %f64 = linalg.fill ins(%z : f32) outs(%e64 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %m64 = linalg.matmul ins(%a, %w64 : tensor<16x8xf32>, tensor<8x64xf32>) outs(%f64 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %e40 = tensor.empty() : tensor<16x40xf32>
  %f40 = linalg.fill ins(%z : f32) outs(%e40 : tensor<16x40xf32>) -> tensor<16x40xf32>
  %m40 = linalg.matmul ins(%a, %w40 : tensor<16x8xf32>, tensor<8x40xf32>) outs(%f40 : tensor<16x40xf32>) -> tensor<16x40xf32>
  %bw64 = arith.constant dense<0.25> : tensor<2x8x64xf32>
  %eb = tensor.empty() : tensor<2x16x128xf32>
  %fb = linalg.fill ins(%z : f32) outs(%eb : tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
  %mb = linalg.batch_matmul ins(%ba, %bw : tensor<2x16x8xf32>, tensor<2x8x128xf32>) outs(%fb : tensor<2x16x128xf32>) -> tensor<2x16x128xf32>
  %eb64 = tensor.empty() : tensor<2x16x64xf32>
  %fb64 = linalg.fill ins(%z : f32) outs(%eb64 : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  %mb64 = linalg.batch_matmul ins(%ba, %bw64 : tensor<2x16x8xf32>, tensor<2x8x64xf32>) outs(%fb64 : tensor<2x16x64xf32>) -> tensor<2x16x64xf32>
  func.return %m, %m64, %m40, %mb, %mb64 : tensor<16x128xf32>, tensor<16x64xf32>, tensor<16x40xf32>, tensor<2x16x128xf32>, tensor<2x16x64xf32>
}
