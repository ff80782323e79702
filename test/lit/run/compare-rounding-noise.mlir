// RUN: fusion-opt %s -p graph-horizontal-fuse-dots -o %t.fused.mlir
// RUN: fusion-run %s --compare %t.fused.mlir --reference f64 --families constant | filecheck %s
// RUN: not fusion-run %s --compare %S/Inputs/two-dots-dropped-term.mlir --reference f64 --families constant | filecheck %s --check-prefix=WRONG
// Two dots over one input, batched into one 4x6 dot by horizontal fusion. On the constant
// family (every input 0.01) the 4x1 dot is exactly 0 in the f64 reference and in this file's
// float32 order, and -2^-30 in the fused dot's order: a reordered sum, within the rounding
// noise this file shows on its inputs one ulp off (criterion "no worse"), where demanding
// exactly 0 would fail. A dot that drops one of its four terms is far beyond that noise.

// CHECK: result0: ok
// CHECK: result1: ok, no worse than the input program's own error vs the f64 reference: max_abs_err=9.313e-10
// WRONG: result1: FAILED

func.func @f(%a: tensor<4x4xf32>) -> (tensor<4x5xf32>, tensor<4x1xf32>) {
  %v = arith.constant dense<-0.25> : tensor<4x5xf32>
  %w = arith.constant dense<[[-1.75], [-1.75], [2.0], [1.5]]> : tensor<4x1xf32>
  %x = graph.dot %a, %v : (tensor<4x4xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  %y = graph.dot %a, %w : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %x, %y : tensor<4x5xf32>, tensor<4x1xf32>
}
