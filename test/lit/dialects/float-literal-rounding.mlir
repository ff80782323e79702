// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// A decimal float past its type's range is +-inf, as MLIR (and iree-opt) read it: the double
// is rounded to the type to nearest even.

// CHECK-LABEL: func.func @scalars
// CHECK: arith.constant 0xfc00 : f16
// CHECK: arith.constant 0x7c00 : f16
// CHECK: arith.constant 6.550400e+04 : f16
// CHECK: arith.constant 0xff80 : bf16
// CHECK: arith.constant 0x7f800000 : f32
// CHECK: arith.constant 0xfff0000000000000 : f64
func.func @scalars() -> (f16, f16, f16, bf16, f32, f64) {
  %0 = arith.constant -3.40282347E+38 : f16
  %1 = arith.constant 65520.0 : f16
  %2 = arith.constant 65519.0 : f16
  %3 = arith.constant -3.40282347E+38 : bf16
  %4 = arith.constant 3.5e38 : f32
  %5 = arith.constant -1.0e999 : f64
  return %0, %1, %2, %3, %4, %5 : f16, f16, f16, bf16, f32, f64
}

// -----

// CHECK-LABEL: func.func @dense
// CHECK: arith.constant dense<0xfc00> : tensor<f16>
// CHECK: arith.constant dense<[1.000000e+00, 0x7c00]> : tensor<2xf16>
// CHECK: arith.constant dense<[1.000000e+00, 0xff800000]> : tensor<2xf32>
// CHECK: arith.constant dense<[(0x7c00,1.000000e+00), (1.000000e+00,0xfc00)]> : tensor<2xcomplex<f16>>
func.func @dense() -> (tensor<f16>, tensor<2xf16>, tensor<2xf32>, tensor<2xcomplex<f16>>) {
  %0 = arith.constant dense<-3.40282347E+38> : tensor<f16>
  %1 = arith.constant dense<[1.0, 7.0e4]> : tensor<2xf16>
  %2 = arith.constant dense<[1.0, -3.5e38]> : tensor<2xf32>
  %3 = arith.constant dense<[(7.0e4, 1.0), (1.0, -3.5e38)]> : tensor<2xcomplex<f16>>
  return %0, %1, %2, %3 : tensor<f16>, tensor<2xf16>, tensor<2xf32>, tensor<2xcomplex<f16>>
}

// -----

// A hex literal is a bit pattern, not rounded; a decimal integer is not a float literal.

// CHECK-LABEL: func.func @kept
// CHECK: arith.constant 0xfc00 : f16
// CHECK: arith.constant dense<(0x7c00,1.000000e+00)> : tensor<complex<f16>>
func.func @kept() -> (f16, tensor<complex<f16>>) {
  %0 = arith.constant 0x0000FC00 : f16
  %1 = arith.constant dense<(0x7C00, 1.0)> : tensor<complex<f16>>
  return %0, %1 : f16, tensor<complex<f16>>
}
