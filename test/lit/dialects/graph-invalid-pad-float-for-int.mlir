// The verifier rejects this op through the fusion-opt CLI with a clear message.
// RUN: not fusion-opt %s 2>&1 | filecheck %s

func.func @f(%a: tensor<4xi32>) {
  // CHECK: float pad value 1.5 for integer element type i32
  %0 = graph.pad %a low = [1] high = [0] value = 1.5 : tensor<4xi32> -> tensor<5xi32>
  func.return
}
