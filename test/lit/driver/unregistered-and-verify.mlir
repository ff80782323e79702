// --allow-unregistered-dialect accepts unknown ops; --disable-verify skips the verifier.
// RUN: not fusion-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=DEFAULT
// RUN: fusion-opt %s --split-input-file --allow-unregistered-dialect --disable-verify | filecheck %s --check-prefix=LENIENT

// DEFAULT: unregistered-and-verify.mlir:[[# @LINE + 3]]:8: error: dialect 'mydialect' not found for custom op 'mydialect.op'
// LENIENT: "mydialect.op"(%{{.*}}) : (f32) -> f32
func.func @unregistered(%a: f32) -> f32 {
  %0 = "mydialect.op"(%a) : (f32) -> f32
  func.return %0 : f32
}

// -----

// DEFAULT: unregistered-and-verify.mlir:[[# @LINE + 3]]:3: error: 'func.return' op Expected arguments
// LENIENT: func.return %a : f32
func.func @invalid(%a: f32) -> i32 {
  func.return %a : f32
}
