// --inputs IN.npz holding bf16 arrays: numpy.savez stores an ml_dtypes bfloat16 array as 2-byte
// voids, read back as bf16 for a bf16 argument; float32 arrays are rounded to bf16 as before.
// 1 + 2^-8 is a bf16 tie: the sum rounds to even (1.0), the product keeps 3 * 2^-8 exactly; in
// the float32 file 1 + 2^-9 rounds to 1.
// RUN: python3 -c "import numpy as n, ml_dtypes as m; n.savez('%t.bf16.npz', arg0=n.array([1.0, 2.0**-8], m.bfloat16), arg1=n.array([2.0**-8, 3.0], m.bfloat16))"
// RUN: python3 -c "import numpy as n; n.savez('%t.f32.npz', arg0=n.array([1.0, 1.0 + 2.0**-9], 'f4'), arg1=n.array([2.0**-8, 3.0], 'f4'))"
// RUN: fusion-run %s --inputs %t.bf16.npz --save %t.out.npz | filecheck %s --check-prefix=BF16
// RUN: python3 -c "import numpy as n; d = n.load('%t.out.npz'); print(d['result0'].dtype, d['result0'].tolist(), d['result1'].tolist())" | filecheck %s --check-prefix=SAVED
// RUN: fusion-run %s --inputs %t.f32.npz | filecheck %s --check-prefix=F32

// BF16: result0: 2 bfloat16 min=1 max=3 mean=2
// BF16-NEXT: result1: 2 bfloat16 min=0.00390625 max=0.0117188 mean=0.0078125
// SAVED: float32 [1.0, 3.0] [0.00390625, 0.01171875]
// F32: result0: 2 bfloat16 min=1 max=4 mean=2.5
// F32-NEXT: result1: 2 bfloat16 min=0.00390625 max=3 mean=1.50195
func.func @main(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> (tensor<2xbf16>, tensor<2xbf16>) {
  %s = arith.addf %a, %b : tensor<2xbf16>
  %p = arith.mulf %a, %b : tensor<2xbf16>
  return %s, %p : tensor<2xbf16>, tensor<2xbf16>
}
