// The verifier rejects this op through the fusion-opt CLI with a clear message.
// RUN: not fusion-opt %s 2>&1 | filecheck %s

func.func @f(%t: tensor<16x4xf32>, %i: tensor<3xf32>) {
  // CHECK: indices must have element type i32 or i64, got tensor<3xf32>
  %0 = graph.gather %t, %i axis = 0 : (tensor<16x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  func.return
}
