// Expected diagnostics in all annotation forms; every chunk meets its expectations.
// RUN: fusion-opt %s --split-input-file --verify-diagnostics -p test-diagnostics

func.func @remarks(%a: f32) -> f32 {
  // expected-remark@+1 {{found arith.addf}}
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %0, %a : f32 // expected-remark {{arith.addf}}
  %2 = arith.addf %1, %a : f32
  // expected-remark@-1 {{found}}
  %3 = arith.addf %2, %a : f32
  // expected-remark@above {{found arith.addf}}
  // expected-remark@below {{found arith.addf}}
  %4 = arith.addf %3, %a : f32
  func.return %4 : f32
}

// -----

func.func @verifier(%a: f32) -> i32 {
  %0 = arith.mulf %a, %a : f32
  // expected-error@+1 {{'func.return' op Expected arguments to have the same types as the function output types}}
  func.return %0 : f32
}

// -----

func.func @undefined(%a: f32) -> f32 {
  // expected-error@+1 {{use of undeclared SSA value name '%b'}}
  %0 = arith.mulf %a, %b : f32
  func.return %0 : f32
}

// -----

func.func @syntax(%a: f32) -> f32 {
  // expected-error@+1 {{dialect 'nope' not found for custom op 'nope.op'}}
  %0 = nope.op %a : f32
  func.return %0 : f32
}

// -----

func.func @type_mismatch(%a: f32) -> f32 {
  // expected-error@+1 {{use of value '%a' expects different type than prior uses: 'f64' vs 'f32'}}
  %0 = arith.mulf %a, %a : f64
  func.return %0 : f32
}

// -----

// Stacked `@below`/`@above` annotations skip each other and all point at the op (MLIR rule);
// two diagnostics on one line need two expectations.
func.func @stacked(%a: f32) -> f32 {
  // expected-remark@below {{found arith.addf}}
  // expected-remark@below {{found}}
  %0 = arith.addf %a, %a : f32  %1 = arith.addf %0, %a : f32
  %2 = arith.addf %1, %a : f32
  // expected-remark@above {{arith.addf}}
  func.return %2 : f32
}

// -----

// `-re`: `{{...}}` groups inside the text are regexes, the rest is literal (`.` below is not).
func.func @regex(%a: f32) -> f32 {
  // expected-remark-re@+1 {{found {{arith\.(add|sub)f}}}}
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %0, %a : f32 // expected-remark-re {{{{^}}found arith.{{[a-z]+$}}}}
  func.return %1 : f32
}
