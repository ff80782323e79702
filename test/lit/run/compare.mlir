// RUN: fusion-run %s --compare %s | filecheck %s --check-prefix=SAME
// RUN: not fusion-run %s --compare %S/Inputs/softmax-off-by-eps.mlir | filecheck %s --check-prefix=DIFF
// RUN: fusion-run %s --compare %S/Inputs/softmax-off-by-eps.mlir --atol 1e-2 | filecheck %s --check-prefix=LOOSE
// A softmax over rows written as linalg.generic reductions (max, then sum of exp).

// SAME: result0: max_abs_diff=0.000e+00 max_rel_diff=0.000e+00 ok
// DIFF: result0: max_abs_diff={{.*}} MISMATCH
// LOOSE: result0: {{.*}} max_rel_diff=3.954e-02 ok by abs (rtol=1.0e-04 atol=1.0e-02)

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant dense<-3.0e38> : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%ninf : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %s = arith.subf %in, %mx : f32
    %v = math.exp %s : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%zero : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %s: f32, %out: f32):
    %d = arith.divf %in, %s : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
