// RUN: not fusion-run %s 2>&1 | filecheck %s
// RUN: not fusion-run %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not fusion-run %s --int-range 5,1 2>&1 | filecheck %s --check-prefix=RANGE

// A bounds check torch-mlir emits: random integers in [0, 16) exceed 4, so it fails at run time.
// CHECK-NOT: Traceback
// CHECK: errors.mlir:[[# @LINE + 8]]:5: error: runtime assertion failed: index must be smaller than dim size
// MISSING: error: could not open input file
// RANGE: empty range [5, 1)
func.func @main(%ids: tensor<8xi64>) -> tensor<8xi64> {
  %c4 = arith.constant 4 : i64
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ids : tensor<8xi64>) outs(%ids : tensor<8xi64>) {
  ^bb0(%in: i64, %out: i64):
    %ok = arith.cmpi slt, %in, %c4 : i64
    cf.assert %ok, "index must be smaller than dim size"
    linalg.yield %in : i64
  } -> tensor<8xi64>
  return %r : tensor<8xi64>
}
