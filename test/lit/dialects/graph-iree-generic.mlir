// graph is not an IREE dialect: IREE's iree-opt re-reads our generic form (unregistered ops),
// and what it prints back in generic form parses again as graph ops.
// REQUIRES: iree
// RUN: fusion-opt %s --print-op-generic | iree-opt --allow-unregistered-dialect --mlir-print-op-generic | fusion-opt | filecheck %s

// CHECK-LABEL: func.func @model
func.func @model(%x: tensor<2x4x8xf32>, %w: tensor<2x8x4xf32>, %t: tensor<16x4xf32>, %i: tensor<1x3xi64>) -> tensor<2x4x1xf32> {
  // CHECK: graph.dot %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %0 = graph.dot %x, %w : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  // CHECK: graph.transpose %{{.*}} perm = [0, 2, 1]
  %1 = graph.transpose %0 perm = [0, 2, 1] : tensor<2x4x4xf32> -> tensor<2x4x4xf32>
  // CHECK: graph.pad %{{.*}} low = [0, 0, 0] high = [0, 0, 1] value = -2.5 : tensor<2x4x4xf32> -> tensor<2x4x5xf32>
  %2 = graph.pad %1 low = [0, 0, 0] high = [0, 0, 1] value = -2.5 : tensor<2x4x4xf32> -> tensor<2x4x5xf32>
  // CHECK: graph.slice %{{.*}} axes = [2] starts = [1] ends = [5]
  %3 = graph.slice %2 axes = [2] starts = [1] ends = [5] : tensor<2x4x5xf32> -> tensor<2x4x4xf32>
  // CHECK: graph.concat %{{.*}}, %{{.*}} axis = 2 : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x8xf32>
  %4 = graph.concat %3, %1 axis = 2 : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x8xf32>
  // CHECK: graph.reduce_max %{{.*}} axes = [2]
  %5 = graph.reduce_max %4 axes = [2] : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
  // CHECK: graph.gather %{{.*}}, %{{.*}} axis = 0 : (tensor<16x4xf32>, tensor<1x3xi64>) -> tensor<1x3x4xf32>
  %6 = graph.gather %t, %i axis = 0 : (tensor<16x4xf32>, tensor<1x3xi64>) -> tensor<1x3x4xf32>
  // CHECK: graph.broadcast %{{.*}} dims = [0, 1, 2] : tensor<2x4x1xf32> -> tensor<2x4x3xf32>
  %7 = graph.broadcast %5 dims = [0, 1, 2] : tensor<2x4x1xf32> -> tensor<2x4x3xf32>
  // CHECK: graph.sigmoid
  %8 = graph.sigmoid %5 : tensor<2x4x1xf32>
  func.return %8 : tensor<2x4x1xf32>
}
