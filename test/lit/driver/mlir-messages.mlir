// Errors worded as MLIR words them, not as xDSL's internals.
// RUN: not fusion-opt %s --split-input-file 2>&1 | filecheck %s
// CHECK-NOT: Unexpected attribute
// CHECK-NOT: in block definition

// CHECK: mlir-messages.mlir:[[# @LINE + 2]]:3: error: 'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'
func.func @addi_on_float(%a: f32) -> f32 {
  %0 = arith.addi %a, %a : f32
  func.return %0 : f32
}

// -----

// CHECK: mlir-messages.mlir:[[# @LINE + 2]]:3: error: 'arith.addf' op operand #0 must be floating-point-like, but got 'i32'
func.func @addf_on_int(%a: i32) -> i32 {
  %0 = arith.addf %a, %a : i32
  func.return %0 : i32
}

// -----

// CHECK: mlir-messages.mlir:[[# @LINE + 2]]:3: error: 'arith.andi' op operand #0 must be signless-integer-like, but got 'tensor<4xf32>'
func.func @andi_on_float_tensor(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.andi %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// Generic form: the verifier's message, reworded the same way.
// CHECK: mlir-messages.mlir:[[# @LINE + 2]]:3: error: 'arith.addi' op operand #0 must be signless-integer-like, but got 'f32'
func.func @generic_addi(%a: f32) -> f32 {
  %0 = "arith.addi"(%a, %a) : (f32, f32) -> f32
  func.return %0 : f32
}

// -----

// A region never closed: reported at the end of the input, with a note at the open brace.
// CHECK: mlir-messages.mlir:[[# @LINE + 4]]:23: error: expected '}' to close the region before the end of the input
// CHECK-NEXT: func.return %a : f32
// CHECK: mlir-messages.mlir:[[# @LINE + 1]]:37: note: this '{' is never closed
func.func @unclosed(%a: f32) -> f32 {
  func.return %a : f32

// -----

// A value used with another type than its definition: MLIR's words, and a note at the definition.
// CHECK: mlir-messages.mlir:[[# @LINE + 4]]:19: error: use of value '%b' expects different type than prior uses: 'i32' vs 'f32'
// CHECK: mlir-messages.mlir:[[# @LINE + 2]]:3: note: prior use here
func.func @type_differs_from_definition(%a: f32) -> i32 {
  %b = arith.addf %a, %a : f32
  %c = arith.addi %b, %b : i32
  func.return %c : i32
}

// -----

// A forward reference used with two types: the note points at the first use.
// CHECK: mlir-messages.mlir:[[# @LINE + 4]]:20: error: use of value '%x' expects different type than prior uses: 'i64' vs 'i32'
// CHECK: mlir-messages.mlir:[[# @LINE + 2]]:20: note: prior use here
func.func @type_differs_from_first_use() {
  %c0 = arith.addi %x, %x : i32
  %c1 = arith.addi %x, %x : i64
  %x = arith.constant 1 : i32
  func.return
}
