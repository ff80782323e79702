// The verifier rejects this op through the fusion-opt CLI with a clear message.
// RUN: not fusion-opt %s 2>&1 | filecheck %s

func.func @f(%a: tensor<4x8xf32>) {
  // CHECK: result shape [4] does not match the expected shape [4, 1]
  %0 = graph.reduce_sum %a axes = [1] : tensor<4x8xf32> -> tensor<4xf32>
  func.return
}
