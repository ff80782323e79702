// A transformers decoder's first steps at a symbolic sequence length, as torch-mlir's linalg
// pipeline writes them (iree-import-onnx of a `seq`-dynamic export): position ids as a
// cumulative sum of the attention mask (`tm_tensor.scan`), RMSNorm with its mean kept as a
// [1, seq, 1] reduction (a constant-0 output map) and its reciprocal asserting a nonzero
// divisor inside the payload, and a projection as a batch_matmul.
func.func @main(%mask: tensor<1x?xi64>, %x: tensor<1x?x64xf32>, %w: tensor<1x64x48xf32>) -> (tensor<1x?xi64>, tensor<1x?x48xf32>) {
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1.000000e+00 : f32
  %count = arith.constant 6.400000e+01 : f32
  %eps = arith.constant 9.99999997E-7 : f32
  %n = tensor.dim %x, %c1 : tensor<1x?x64xf32>
  %eo = tensor.empty(%n) : tensor<1x?xi64>
  %o = linalg.fill ins(%c0_i64 : i64) outs(%eo : tensor<1x?xi64>) -> tensor<1x?xi64>
  %ea = tensor.empty() : tensor<1xi64>
  %a = linalg.fill ins(%c0_i64 : i64) outs(%ea : tensor<1xi64>) -> tensor<1xi64>
  %pos:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%mask : tensor<1x?xi64>) outs(%o, %a : tensor<1x?xi64>, tensor<1xi64>) {
  ^bb0(%run: i64, %v: i64):
    %s = arith.addi %run, %v : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x?xi64>, tensor<1xi64>
  %es = tensor.empty(%n) : tensor<1x?x1xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x?x1xf32>) -> tensor<1x?x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x?x64xf32>) outs(%fs : tensor<1x?x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %t = arith.addf %sq, %acc : f32
    linalg.yield %t : f32
  } -> tensor<1x?x1xf32>
  %ei = tensor.empty(%n) : tensor<1x?x1xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sum : tensor<1x?x1xf32>) outs(%ei : tensor<1x?x1xf32>) {
  ^bb0(%s: f32, %out: f32):
    %m = arith.divf %s, %count : f32
    linalg.yield %m : f32
  } -> tensor<1x?x1xf32>
  %var = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mean : tensor<1x?x1xf32>) outs(%ei : tensor<1x?x1xf32>) {
  ^bb0(%m: f32, %out: f32):
    %v = arith.addf %m, %eps : f32
    linalg.yield %v : f32
  } -> tensor<1x?x1xf32>
  %root = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%var : tensor<1x?x1xf32>) outs(%ei : tensor<1x?x1xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = math.sqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<1x?x1xf32>
  %inv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%root : tensor<1x?x1xf32>) outs(%ei : tensor<1x?x1xf32>) {
  ^bb0(%r: f32, %out: f32):
    %nonzero = arith.cmpf one, %r, %zero : f32
    cf.assert %nonzero, "unimplemented: tensor with zero element"
    %q = arith.divf %one, %r : f32
    linalg.yield %q : f32
  } -> tensor<1x?x1xf32>
  %ex = tensor.empty(%n) : tensor<1x?x64xf32>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %inv : tensor<1x?x64xf32>, tensor<1x?x1xf32>) outs(%ex : tensor<1x?x64xf32>) {
  ^bb0(%in: f32, %q: f32, %out: f32):
    %y = arith.mulf %in, %q : f32
    linalg.yield %y : f32
  } -> tensor<1x?x64xf32>
  %ep = tensor.empty(%n) : tensor<1x?x48xf32>
  %fp = linalg.fill ins(%zero : f32) outs(%ep : tensor<1x?x48xf32>) -> tensor<1x?x48xf32>
  %p = linalg.batch_matmul ins(%h, %w : tensor<1x?x64xf32>, tensor<1x64x48xf32>) outs(%fp : tensor<1x?x48xf32>) -> tensor<1x?x48xf32>
  return %pos#0, %p : tensor<1x?xi64>, tensor<1x?x48xf32>
}
