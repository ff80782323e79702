// Bad input is reported at file:line:col with the source line and a caret, exit 1.
// RUN: not fusion-opt %s --split-input-file 2>&1 | filecheck %s

// CHECK: input-errors.mlir:[[# @LINE + 2]]:23: error: use of undeclared SSA value name '%missing'
func.func @undefined(%a: f32) -> f32 {
  %0 = arith.addf %a, %missing : f32
  func.return %0 : f32
}
// CHECK-NEXT: %0 = arith.addf %a, %missing : f32
// CHECK-NEXT: {{^ {22}\^$}}

// -----

// CHECK: input-errors.mlir:[[# @LINE + 3]]:3: error: 'func.return' op Expected arguments to have the same types as the function output types: expected [i32], got [f32]
// CHECK-NEXT: func.return %a : f32
func.func @verifier(%a: f32) -> i32 {
  func.return %a : f32
}

// -----

// CHECK: input-errors.mlir:[[# @LINE + 2]]:8: error: custom op 'arith.nope' is unknown
func.func @unknown_op(%a: f32) -> f32 {
  %0 = arith.nope %a : f32
  func.return %0 : f32
}

// -----

// CHECK: input-errors.mlir:[[# @LINE + 2]]:26: error: Expected ':'
func.func @syntax(%a: f32) -> f32 {
  %0 = arith.addf %a, %a f32
  func.return %0 : f32
}

// -----

// CHECK: input-errors.mlir:[[# @LINE + 2]]:42: error: attribute expected
func.func @bad_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32, >
  func.return %0 : tensor<4xf32>
}

// -----

// A block defined twice after a forward branch to it (xDSL 0.74 raised a KeyError here).
// CHECK: input-errors.mlir:[[# @LINE + 5]]:1: error: re-declaration of block 'bb1'
func.func @block_twice(%a: f32) -> f32 {
  cf.br ^bb1
^bb1:
  cf.br ^bb1
^bb1:
  func.return %a : f32
}

// CHECK-NOT: Traceback
