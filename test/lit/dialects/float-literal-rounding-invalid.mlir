// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @decimal_integer_for_a_float() -> f16 {
  // expected-error@+1 {{unexpected decimal integer literal for a floating point value}}
  %0 = arith.constant 99999 : f16
  return %0 : f16
}

// -----

func.func @bits_wider_than_the_type() -> f16 {
  // expected-error@+1 {{hexadecimal constant out of range for type}}
  %0 = arith.constant 0x1FC00 : f16
  return %0 : f16
}

// -----

func.func @complex_bits_wider_than_the_type() -> tensor<complex<f16>> {
  // expected-error@+1 {{hexadecimal float constant out of range for type}}
  %0 = arith.constant dense<(0x10000, 1.0)> : tensor<complex<f16>>
  return %0 : tensor<complex<f16>>
}
