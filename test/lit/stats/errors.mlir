// RUN: not fusion-stats %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not fusion-stats %s 2>&1 | filecheck %s --check-prefix=SYNTAX

// MISSING: fusion-stats: error: cannot read '{{.*}}errors.mlir.missing'
// SYNTAX-NOT: Traceback
// SYNTAX: error
func.func @broken(%a: tensor<4xf32>) -> tensor<4xf32> {
  %x = arith.addf %a, %undefined : tensor<4xf32>
  return %x : tensor<4xf32>
}
