// The verifier rejects this op through the fusion-opt CLI with a clear message.
// RUN: not fusion-opt %s 2>&1 | filecheck %s

func.func @f(%a: tensor<4x8xf32>) {
  // CHECK: perm [0, 0] is not a permutation of 0..1
  %0 = graph.transpose %a perm = [0, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  func.return
}
