// The verifier rejects this op through the fusion-opt CLI with a clear message.
// RUN: not fusion-opt %s 2>&1 | filecheck %s

func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  // CHECK: contraction dims must match: lhs has K = 8, rhs has K = 4
  %0 = graph.dot %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return
}
