// A real gpt2_mini attention fragment (test/data): batch_matmul, transposes, a causal-mask hex
// constant and a multi-result generic round-trip; no shared corpus needed.
// RUN: fusion-opt %data/gpt2_attention_fragment.mlir > %t.mlir
// RUN: fusion-opt %t.mlir | diff %t.mlir -
// RUN: fusion-opt %t.mlir --print-op-generic | fusion-opt | diff %t.mlir -
// RUN: filecheck %s < %t.mlir

// CHECK-LABEL: func.func @attention_fragment
// CHECK: arith.constant dense<"0x00000000FFFF7FFF
// CHECK: linalg.batch_matmul ins
// CHECK: linalg.index 3 : index
// CHECK: } -> (tensor<1x2x64xf32>, tensor<1x2x64xi64>)
// CHECK: linalg.batch_matmul ins
