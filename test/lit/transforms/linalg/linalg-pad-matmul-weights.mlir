// RUN: fusion-opt %s --split-input-file -p linalg-pad-matmul-weights | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-creation-llvm-cpu | filecheck %s --check-prefix=REGIONS
// RUN: fusion-opt %s --split-input-file -p "linalg-pad-matmul-weights{max-slice-bytes=1024}" | filecheck %s --check-prefix=SMALL

// A classifier's head, 1 x 8 . 8 x 200 + bias: 200 columns have no panel divisor, so the
// weight gets 56 zero columns (256, the next multiple of 64, adds over 1/16: the next of 32,
// 224) and the bias 24 zeros; the bias add computes 224 columns and the slice of the first 200
// moves below it. Through the CPU pipeline the padded weight is packed in seven panels of 32 and
// the bias add joins the matmul's region; the slice is a copy of the returned 800 bytes.
// With max-slice-bytes=1024 too (800 bytes).
// CHECK-LABEL: func.func @head
// CHECK:         %[[W:.*]] = arith.constant {{.*}} : tensor<8x224xf32>
// CHECK:         %[[M:.*]] = linalg.matmul ins(%{{.*}}, %[[W]] : tensor<1x8xf32>, tensor<8x224xf32>) outs(%{{.*}} : tensor<1x224xf32>)
// CHECK:         %[[B:.*]] = arith.constant {{.*}} : tensor<224xf32>
// CHECK:         %[[A:.*]] = linalg.generic {{.*}} ins(%[[M]], %[[B]] : tensor<1x224xf32>, tensor<224xf32>)
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[A]][0, 0] [1, 200] [1, 1] : tensor<1x224xf32> to tensor<1x200xf32>
// CHECK:         return %[[S]]
// REGIONS-LABEL: func.func @head
// REGIONS:         %[[R:.*]] = flow.dispatch.region -> (tensor<1x7x32xf32>)
// REGIONS:           linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8xf32>, tensor<7x8x32xf32>)
// REGIONS:           arith.addf
// REGIONS:           flow.return
// REGIONS-NOT:     flow.dispatch.region
// REGIONS:         flow.tensor.slice
// SMALL-LABEL: func.func @head
// SMALL:         tensor<8x224xf32>
func.func @head(%x: tensor<1x8xf32>) -> tensor<1x200xf32> {
  %w = arith.constant dense<0.5> : tensor<8x200xf32>
  %b = arith.constant dense<0.25> : tensor<200xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x200xf32>) -> tensor<1x200xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1x8xf32>, tensor<8x200xf32>) outs(%f : tensor<1x200xf32>) -> tensor<1x200xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<1x200xf32>, tensor<200xf32>) outs(%e : tensor<1x200xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.addf %i, %j : f32
    linalg.yield %s : f32
  } -> tensor<1x200xf32>
  func.return %r : tensor<1x200xf32>
}

// -----

// The head over 1000 classes pads to 1024 (64 adds under 1/16).
// CHECK-LABEL: func.func @thousand
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1x4xf32>, tensor<4x1024xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [1, 1000] [1, 1]
func.func @thousand(%x: tensor<1x4xf32>) -> tensor<1x1000xf32> {
  %w = arith.constant dense<0.5> : tensor<4x1000xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1x4xf32>, tensor<4x1000xf32>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  func.return %m : tensor<1x1000xf32>
}

// -----

// Negative: 64 rows of 200 columns returned (51,200 bytes) pad by default but not with
// max-slice-bytes=1024: no reader absorbs the slice, which would be a copy of that size. A
// weight argument, a panel-divisible N (256) and N = 100 (128 would add over 1/8) stay as they are.
// CHECK-LABEL: func.func @stays
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x8xf32>, tensor<8x224xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0] [64, 200] [1, 1]
// CHECK:         linalg.matmul ins(%{{.*}}, %wa : tensor<64x8xf32>, tensor<8x200xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x8xf32>, tensor<8x256xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x8xf32>, tensor<8x100xf32>)
// SMALL-LABEL: func.func @stays
// SMALL-NOT:     tensor<8x224xf32>
func.func @stays(%x: tensor<64x8xf32>, %wa: tensor<8x200xf32>) -> (tensor<64x200xf32>, tensor<64x200xf32>, tensor<64x256xf32>, tensor<64x100xf32>) {
  %w = arith.constant dense<0.5> : tensor<8x200xf32>
  %w2 = arith.constant dense<0.5> : tensor<8x256xf32>
  %w3 = arith.constant dense<0.5> : tensor<8x100xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x200xf32>) -> tensor<64x200xf32>
  %m = linalg.matmul ins(%x, %w : tensor<64x8xf32>, tensor<8x200xf32>) outs(%f : tensor<64x200xf32>) -> tensor<64x200xf32>
  %ma = linalg.matmul ins(%x, %wa : tensor<64x8xf32>, tensor<8x200xf32>) outs(%f : tensor<64x200xf32>) -> tensor<64x200xf32>
  %e2 = tensor.empty() : tensor<64x256xf32>
  %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %m2 = linalg.matmul ins(%x, %w2 : tensor<64x8xf32>, tensor<8x256xf32>) outs(%f2 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %e3 = tensor.empty() : tensor<64x100xf32>
  %f3 = linalg.fill ins(%z : f32) outs(%e3 : tensor<64x100xf32>) -> tensor<64x100xf32>
  %m3 = linalg.matmul ins(%x, %w3 : tensor<64x8xf32>, tensor<8x100xf32>) outs(%f3 : tensor<64x100xf32>) -> tensor<64x100xf32>
  func.return %m, %ma, %m2, %m3 : tensor<64x200xf32>, tensor<64x200xf32>, tensor<64x256xf32>, tensor<64x100xf32>
}

// -----

// Negative: 1400 rows of 200 columns returned (1,120,000 bytes) are over the default 1 MiB a
// slice copy may take.
// CHECK-LABEL: func.func @large_slice
// CHECK-NOT:     tensor.extract_slice
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1400x8xf32>, tensor<8x200xf32>)
func.func @large_slice(%x: tensor<1400x8xf32>) -> tensor<1400x200xf32> {
  %w = arith.constant dense<0.5> : tensor<8x200xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1400x200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1400x200xf32>) -> tensor<1400x200xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1400x8xf32>, tensor<8x200xf32>) outs(%f : tensor<1400x200xf32>) -> tensor<1400x200xf32>
  func.return %m : tensor<1400x200xf32>
}
