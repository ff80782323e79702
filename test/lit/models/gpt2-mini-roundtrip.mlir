// REQUIRES: shared
// The real gpt2_mini IR round-trips (custom, and through our generic form), the shared generic-form
// file prints to the same ops, and iree-opt reads our output.
// RUN: fusion-opt %shared/models/gpt2_mini/gpt2_mini.args.linalg.mlir > %t.custom.mlir
// RUN: fusion-opt %t.custom.mlir --print-op-generic | fusion-opt | diff %t.custom.mlir -
// RUN: fusion-opt %shared/models/gpt2_mini/gpt2_mini.args.linalg.generic.mlir | filecheck %s
// RUN: fusion-opt %t.custom.mlir | diff %t.custom.mlir -
// RUN: filecheck %s < %t.custom.mlir
// RUN: iree-opt %t.custom.mlir | filecheck %s --check-prefix=IREE

// CHECK-LABEL: func.func @main_graph
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x128xf32>, tensor<128x384xf32>) outs(%{{.*}} : tensor<64x384xf32>) -> tensor<64x384xf32>
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x64x64xf32>, tensor<2x64x64xf32>) outs(%{{.*}} : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
// CHECK: } -> (tensor<1x2x64xf32>, tensor<1x2x64xi64>)
// CHECK: math.fpowi
// CHECK: func.return %{{.*}} : tensor<1x64x128xf32>
// IREE-LABEL: func.func @main_graph
// IREE: linalg.batch_matmul
