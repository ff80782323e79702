// RUN: fusion-opt %s --split-input-file --verify-diagnostics

util.func @wrong_return(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant 1 : i32
  // expected-error@+1 {{returns 1 values of types (i32) but the function returns (tensor<4xf32>)}}
  util.return %c : i32
}

// -----

util.func @missing_callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'@nowhere' does not reference a symbol in the module}}
  %b = util.call @nowhere(%a) : (tensor<4xf32>) -> tensor<4xf32>
  util.return %b : tensor<4xf32>
}

// -----

util.func private @g(%a: tensor<4xf32>) -> tensor<4xf32>
util.func @call_types(%a: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{call types do not match the callee's type}}
  %b = util.call @g(%a) : (tensor<8xf32>) -> tensor<4xf32>
  util.return %b : tensor<4xf32>
}

// -----

util.global private @immutable : tensor<4xf32>
util.func @store_immutable(%a: tensor<4xf32>) {
  // expected-error@+1 {{global @immutable is not mutable; only a util.initializer may store it}}
  util.global.store %a, @immutable : tensor<4xf32>
  util.return
}

// -----

util.global private mutable @m : tensor<4xf32>
util.func @load_type() -> tensor<8xf32> {
  // expected-error@+1 {{global @m is tensor<4xf32>, not tensor<8xf32>}}
  %0 = util.global.load @m : tensor<8xf32>
  util.return %0 : tensor<8xf32>
}

// -----

util.func @barrier_types(%a: tensor<4xf32>) {
  // expected-error@+1 {{results must have the operands' types}}
  %0 = "util.optimization_barrier"(%a) : (tensor<4xf32>) -> tensor<8xf32>
  util.return
}
