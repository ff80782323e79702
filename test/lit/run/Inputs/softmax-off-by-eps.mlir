// softmax(x) + 1e-3, as graph ops: differs from compare.mlir by more than the default tolerance.
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = graph.reduce_max %x axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %mb = graph.broadcast %m dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
  %s = graph.sub %x, %mb : tensor<4x8xf32>
  %e = graph.exp %s : tensor<4x8xf32>
  %sum = graph.reduce_sum %e axes = [1] : tensor<4x8xf32> -> tensor<4x1xf32>
  %sb = graph.broadcast %sum dims = [0, 1] : tensor<4x1xf32> -> tensor<4x8xf32>
  %r = graph.div %e, %sb : tensor<4x8xf32>
  %eps = arith.constant dense<1.0e-3> : tensor<4x8xf32>
  %o = graph.add %r, %eps : tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
