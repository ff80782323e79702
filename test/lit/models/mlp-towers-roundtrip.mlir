// REQUIRES: shared
// The real mlp_towers IR round-trips (custom, and through our generic form), the shared generic-form
// file prints to the same ops, and iree-opt reads our output.
// RUN: fusion-opt %shared/models/mlp_towers/mlp_towers.args.linalg.mlir > %t.custom.mlir
// RUN: fusion-opt %t.custom.mlir --print-op-generic | fusion-opt | diff %t.custom.mlir -
// RUN: fusion-opt %shared/models/mlp_towers/mlp_towers.args.linalg.generic.mlir | filecheck %s
// RUN: fusion-opt %t.custom.mlir | diff %t.custom.mlir -
// RUN: filecheck %s < %t.custom.mlir
// RUN: iree-opt %t.custom.mlir | filecheck %s --check-prefix=IREE

// CHECK-LABEL: func.func @main_graph
// CHECK: linalg.matmul ins(%arg0, %{{.*}} : tensor<1x256xf32>, tensor<256x256xf32>) outs(%{{.*}} : tensor<1x256xf32>) -> tensor<1x256xf32>
// CHECK: tensor.concat dim(1)
// CHECK: func.return %{{.*}} : tensor<1x256xf32>
// IREE-LABEL: func.func @main_graph
// IREE: tensor.concat
