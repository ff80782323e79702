// --save widens bf16 results to float32 (exact) so plain numpy can read them; f16 stays f16.
// RUN: fusion-run %s --save %t.npz
// RUN: python3 -c "import numpy as n; d = n.load('%t.npz'); print(d['result0'].dtype, d['result0'].tolist(), d['result1'].dtype)" | filecheck %s
// CHECK: float32 [2.0, 0.0078125] float16
func.func @main() -> (tensor<2xbf16>, tensor<2xf16>) {
  %b = arith.constant dense<[1.0, 0.00390625]> : tensor<2xbf16>
  %b2 = arith.addf %b, %b : tensor<2xbf16>
  %h = arith.constant dense<[1.0, 2.0]> : tensor<2xf16>
  return %b2, %h : tensor<2xbf16>, tensor<2xf16>
}
