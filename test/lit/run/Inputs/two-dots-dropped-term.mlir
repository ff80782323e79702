// compare-rounding-noise.mlir's program with the 4x1 dot's last weight 1.5 dropped (0.0).
func.func @f(%a: tensor<4x4xf32>) -> (tensor<4x5xf32>, tensor<4x1xf32>) {
  %v = arith.constant dense<-0.25> : tensor<4x5xf32>
  %w = arith.constant dense<[[-1.75], [-1.75], [2.0], [0.0]]> : tensor<4x1xf32>
  %x = graph.dot %a, %v : (tensor<4x4xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %y = graph.dot %a, %w : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %x, %y : tensor<4x5xf32>, tensor<4x1xf32>
}
