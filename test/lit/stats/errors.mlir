// RUN: not fusion-stats %s.missing 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not fusion-stats %s 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: printf '\377\376' > %t.binary.mlir
// RUN: not fusion-stats %t.binary.mlir 2>&1 | filecheck %s --check-prefix=BINARY
// RUN: not fusion-stats - < %s 2>&1 | filecheck %s --check-prefix=STDIN

// Same wording and format as fusion-opt: `FILE:LINE:COL: error:`, source line, caret.
// MISSING: {{^}}error: could not open input file '{{.*}}errors.mlir.missing': No such file or directory
// BINARY: {{^}}{{.*}}binary.mlir:1:1: error: invalid UTF-8 (byte 0xff)
// BINARY-NOT: Traceback
// SYNTAX-NOT: Traceback
// SYNTAX: errors.mlir:[[# @LINE + 5]]:23: error: use of undeclared SSA value name '%undefined'
// SYNTAX-NEXT: {{^}}  %x = arith.addf %a, %undefined : tensor<4xf32>
// SYNTAX-NEXT: {{^                      \^$}}
// STDIN: <stdin>:[[# @LINE + 2]]:23: error: use of undeclared SSA value name '%undefined'
func.func @broken(%a: tensor<4xf32>) -> tensor<4xf32> {
  %x = arith.addf %a, %undefined : tensor<4xf32>
  return %x : tensor<4xf32>
}
