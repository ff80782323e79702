// Unmet expectations and unexpected diagnostics fail the run, reported MLIR-style.
// RUN: not fusion-opt %s --split-input-file --verify-diagnostics -p test-diagnostics 2>&1 | filecheck %s

// An expected remark with the wrong text: the real one is unexpected, the expected one missing.
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 2]]:3: error: unexpected remark: found arith.addf
func.func @wrong_text(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32 // expected-remark {{found arith.subf}}
  func.return %0 : f32
}
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE - 3]]:{{[0-9]+}}: error: expected remark "found arith.subf" was not produced

// -----

// An expectation on the wrong line.
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 3]]:3: error: unexpected remark: found arith.addf
func.func @wrong_line(%a: f32) -> f32 {
  // expected-remark@+2 {{found arith.addf}}
  %0 = arith.addf %a, %a : f32
  func.return %0 : f32
}
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE - 4]]:6: error: expected remark "found arith.addf" was not produced

// -----

// An error nobody expected.
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 2]]:8: error: unexpected error: dialect 'nope' not found for custom op 'nope.op'
func.func @unexpected(%a: f32) -> f32 {
  %0 = nope.op %a : f32
  func.return %0 : f32
}

// -----

// Wrong severity: a warning is not a remark.
// CHECK: error: expected warning "found" was not produced
func.func @severity(%a: f32) -> f32 {
  // expected-warning@+1 {{found}}
  %0 = arith.addf %a, %a : f32
  func.return %0 : f32
}

// -----

// A near miss names both severities.
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 3]]:3: error: 'remark' diagnostic emitted when expecting a 'warning': found arith.addf
func.func @near_miss(%a: f32) -> f32 {
  // expected-warning@below {{found arith.addf}}
  %0 = arith.addf %a, %a : f32
  func.return %0 : f32
}

// -----

// Outside `{{...}}` the text of `-re` is literal: `.` does not match `x`, so both mismatch.
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 3]]:3: error: unexpected remark: found arith.addf
func.func @regex_literal(%a: f32) -> f32 {
  // expected-remark-re@+1 {{found{{ }}arith{{x}}addf}}
  %0 = arith.addf %a, %a : f32
  func.return %0 : f32
}
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE - 4]]:6: error: expected remark "found{{[{][{]}} }}arith{{[{][{]}}x}}addf" was not produced

