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

// -----

// A value used before its definition in the same block (xDSL 0.74 resolved it and verified the
// result; the passes then crashed on it), and one used inside a region before the op that
// defines it in the enclosing block.
// CHECK: input-errors.mlir:[[# @LINE + 2]]:3: error: operand #1 does not dominate this use
func.func @use_before_def(%a: f32) -> f32 {
  %0 = arith.addf %a, %1 : f32
  %1 = arith.mulf %a, %a : f32
  func.return %0 : f32
}

// -----

// CHECK: input-errors.mlir:[[# @LINE + 5]]:5: error: operand #0 does not dominate this use
func.func @use_in_region_before_def(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<4xf32>) {
  ^bb0(%o: f32):
    %s = arith.addf %c, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c = arith.constant 1.0 : f32
  func.return %r : tensor<4xf32>
}

// -----

// Inputs xDSL 0.74 met with an internal exception, now reported at their place: a block label
// of digits (xDSL cannot name such a block), dense integers wider than 64 bits (xDSL cannot
// store them), and a conv's strides splat over a huge vector (checked before it is expanded).
// CHECK: input-errors.mlir:[[# @LINE + 2]]:9: error: block '^0': names of digits only are not supported, use ^bbN
func.func @digit_block(%a: f32) -> f32 {
  cf.br ^0
^0:
  func.return %a : f32
}

// -----

// CHECK: input-errors.mlir:[[# @LINE + 2]]:28: error: dense elements of i640 are not supported (integers up to 64 bits)
func.func @wide_dense() -> tensor<2xi640> {
  %c = arith.constant dense<1> : tensor<2xi640>
  func.return %c : tensor<2xi640>
}

// -----

// CHECK: input-errors.mlir:[[# @LINE + 2]]:3: error: 'linalg.conv_2d_nchw_fchw' op strides must have 2 elements (one per spatial dimension), got 99999999999999999999
func.func @huge_strides(%x: tensor<1x8x10x10xf32>, %w: tensor<8x8x3x3xf32>, %f: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<99999999999999999999xi64>} ins(%x, %w : tensor<1x8x10x10xf32>, tensor<8x8x3x3xf32>) outs(%f : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  func.return %c : tensor<1x8x8x8xf32>
}

// -----

// A static slice that leaves its tensor (xDSL 0.74 verified it; a pass then crashed reading it).
// CHECK: input-errors.mlir:[[# @LINE + 2]]:3: error: 'tensor.extract_slice' op slice along dimension 1 runs out of bounds: elements 256 to 256 of 2
func.func @slice_out_of_bounds(%t: tensor<4x2xi64>) -> tensor<4x1xi64> {
  %a = tensor.extract_slice %t[0, 256] [4, 1] [1, 1] : tensor<4x2xi64> to tensor<4x1xi64>
  func.return %a : tensor<4x1xi64>
}

// CHECK-NOT: Traceback
