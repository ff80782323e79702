// A 224x224 image's stem (3 -> 32 filters, 3x3, stride 2, pad 1) with its bias and ReLU6: 112x112
// outputs, a pixel count that is no power of two but a multiple of 64 (im2col_op_form.py).
func.func @stem(%x: tensor<1x3x224x224xf32>, %w: tensor<32x3x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x112x112xf32> {
  %z = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f32
  } : tensor<1x3x224x224xf32> to tensor<1x3x226x226xf32>
  %e = tensor.empty() : tensor<1x32x112x112xf32>
  %bi = linalg.broadcast ins(%b : tensor<32xf32>) outs(%e : tensor<1x32x112x112xf32>) dimensions = [0, 2, 3]
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : tensor<1x3x226x226xf32>, tensor<32x3x3x3xf32>) outs(%bi : tensor<1x32x112x112xf32>) -> tensor<1x32x112x112xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x32x112x112xf32>) outs(%e : tensor<1x32x112x112xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %z : f32
    %n = arith.minimumf %m, %six : f32
    linalg.yield %n : f32
  } -> tensor<1x32x112x112xf32>
  return %r : tensor<1x32x112x112xf32>
}
