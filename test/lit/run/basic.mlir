// RUN: fusion-run %s | filecheck %s
// RUN: fusion-run %s --entry with_args --seed 1 --int-range 5,6 | filecheck %s --check-prefix=ARGS
// Constants only, so the printed summary is exact.

// CHECK: result0: 2x2 float32 min=2 max=8 mean=5
// CHECK-NEXT: result1: 2 int32 min=-3 max=3 mean=0
// CHECK-NOT: result2
func.func @main() -> (tensor<2x2xf32>, tensor<2xi32>) {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %r = arith.addf %a, %a : tensor<2x2xf32>
  %n = arith.constant dense<[7, -7]> : tensor<2xi32>
  %d = arith.constant dense<2> : tensor<2xi32>
  %q = arith.divsi %n, %d : tensor<2xi32>
  return %r, %q : tensor<2x2xf32>, tensor<2xi32>
}

// Integer arguments drawn from [5, 6) are all 5: 5 * 3 = 15.
// ARGS: result0: 3 int64 min=15 max=15 mean=15
func.func @with_args(%x: tensor<3xi64>) -> tensor<3xi64> {
  %c = arith.constant dense<3> : tensor<3xi64>
  %r = arith.muli %x, %c : tensor<3xi64>
  return %r : tensor<3xi64>
}
