// The verifier rejects this op through the fusion-opt CLI with a clear message.
// RUN: not fusion-opt %s 2>&1 | filecheck %s

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8xf32>) {
  // CHECK: operand and result types must be identical (no implicit broadcasting), got tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %0 = "graph.add"(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  func.return
}
