// graph ops are Pure: upstream cse merges duplicates and dce drops unused ones.
// RUN: fusion-opt %s -p cse,dce | filecheck %s

// CHECK-LABEL: func.func @f
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: %[[E:.*]] = graph.exp %{{.*}} : tensor<4xf32>
  // CHECK-NEXT: %[[S:.*]] = graph.add %[[E]], %[[E]] : tensor<4xf32>
  // CHECK-NEXT: func.return %[[S]]
  %0 = graph.exp %a : tensor<4xf32>
  %1 = graph.exp %a : tensor<4xf32>
  %2 = graph.add %0, %1 : tensor<4xf32>
  %3 = graph.sin %a : tensor<4xf32>
  %4 = graph.transpose %3 perm = [0] : tensor<4xf32> -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
