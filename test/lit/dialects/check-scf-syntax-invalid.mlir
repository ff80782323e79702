// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @types_differ(%a: tensor<3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses}}
  check.expect_eq(%a, %b) : tensor<3xf32>
  return
}

// -----

func.func @unknown_tolerance(%a: tensor<3xf32>) {
  // expected-error @+1 {{expected atol or rtol, got ztol}}
  check.expect_almost_eq(%a, %a, ztol 1.0) : tensor<3xf32>
  return
}
