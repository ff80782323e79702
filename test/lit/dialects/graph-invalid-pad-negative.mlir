// The verifier rejects this op through the fusion-opt CLI with a clear message.
// RUN: not fusion-opt %s 2>&1 | filecheck %s

func.func @f(%a: tensor<4x8xf32>) {
  // CHECK: padding must be non-negative, got low = [0, -1] high = [1, 0]
  %0 = graph.pad %a low = [0, -1] high = [1, 0] value = 0.0 : tensor<4x8xf32> -> tensor<5x7xf32>
  func.return
}
