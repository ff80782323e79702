// RUN: fusion-run %s --compare %S/Inputs/variance-textbook.mlir --reference f64 | filecheck %s --check-prefix=RANDOM
// RUN: not fusion-run %s --compare %S/Inputs/variance-textbook.mlir --reference f64 --families random,offset | filecheck %s --check-prefix=OFFSET
// RUN: not fusion-run %s --compare %S/Inputs/variance-textbook.mlir --float64 --families extreme | filecheck %s --check-prefix=EXTREME
// RUN: fusion-run %s --compare %s --reference f64 --families random,constant,offset,zeros,extreme,mask,ids-edge | filecheck %s --check-prefix=SELF
// RUN: fusion-run %s --float64 --inputs offset | filecheck %s --check-prefix=F64
// Layer-norm scale 1/sqrt(var + eps) per row with a two-pass variance (mean, then the mean of
// squared deviations); Inputs/variance-textbook.mlir computes var as E[x^2] - E[x]^2, which
// agrees on N(0,1) inputs but cancels catastrophically at a large common offset (1000.5):
// negative variances, NaN scales; near the f32 limits E[x^2] - E[x]^2 is inf - inf.

// RANDOM: inputs: random (seed 0)
// RANDOM-NEXT: result0: ok, within tolerance of the f64 reference: {{.*}} rtol=1.0e-04 atol={{.*}}

// OFFSET: inputs: random (seed 0)
// OFFSET-NEXT: result0: ok, within tolerance of the f64 reference
// OFFSET: inputs: offset (seed 0)
// OFFSET-NEXT: result0: FAILED: {{.*}}NaN/inf at {{[0-9]+}} position(s) where the input program is finite

// EXTREME: inputs: extreme (seed 0)
// EXTREME-NEXT: result0: FAILED: {{.*}}NaN/inf at

// SELF-COUNT-7: result0: ok,
// SELF-NOT: FAILED

// F64: result0: 4 float64

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#vec = affine_map<(d0) -> (d0)>
func.func @scale(%x: tensor<4x64xf32>) -> tensor<4xf32> {
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf32>) outs(%zero : tensor<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x, %sum : tensor<4x64xf32>, tensor<4xf32>) outs(%zero : tensor<4xf32>) {
  ^bb0(%in: f32, %s: f32, %acc: f32):
    %n = arith.constant 64.0 : f32
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %in, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %d2, %acc : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%sq : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.constant 64.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %var = arith.divf %in, %n : f32
    %v = arith.addf %var, %eps : f32
    %s = math.rsqrt %v : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
