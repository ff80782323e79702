// The verifier rejects this op through the fusion-opt CLI with a clear message.
// RUN: not fusion-opt %s 2>&1 | filecheck %s

func.func @f(%v: tensor<8xf32>) {
  // CHECK: operand dim 0 has size 8, which must be 1 or equal to result dim 0 (size 4)
  %0 = graph.broadcast %v dims = [0] : tensor<8xf32> -> tensor<4x8xf32>
  func.return
}
