// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file -p dispatch-creation-llvm-cpu | filecheck %s --check-prefix=PIPE

// torch-mlir's cumulative sum as its linalg pipeline writes a transformers export's position ids
// at a symbolic sequence length (the attention mask's running count): read and printed as is,
// and left outside regions by the pipelines (IREE converts it to iree_linalg_ext.scan).
// CHECK-LABEL: func.func @positions
// CHECK: = tm_tensor.scan dimension(1) inclusive(true) ins(%{{.*}} : tensor<1x?xi64>) outs(%{{.*}}, %{{.*}} : tensor<1x?xi64>, tensor<1xi64>) {
// CHECK: tm_tensor.yield %{{.*}} : i64
// CHECK: } -> tensor<1x?xi64>, tensor<1xi64>
// PIPE-LABEL: func.func @positions
// PIPE:         tm_tensor.scan dimension(1) inclusive(true)
func.func @positions(%mask: tensor<1x?xi64>) -> tensor<1x?xi64> {
  %c1 = arith.constant 1 : index
  %c0_i64 = arith.constant 0 : i64
  %n = tensor.dim %mask, %c1 : tensor<1x?xi64>
  %e = tensor.empty(%n) : tensor<1x?xi64>
  %o = linalg.fill ins(%c0_i64 : i64) outs(%e : tensor<1x?xi64>) -> tensor<1x?xi64>
  %ea = tensor.empty() : tensor<1xi64>
  %a = linalg.fill ins(%c0_i64 : i64) outs(%ea : tensor<1xi64>) -> tensor<1xi64>
  %r:2 = tm_tensor.scan dimension(1) inclusive(true) ins(%mask : tensor<1x?xi64>) outs(%o, %a : tensor<1x?xi64>, tensor<1xi64>) {
  ^bb0(%run: i64, %x: i64):
    %s = arith.addi %run, %x : i64
    tm_tensor.yield %s : i64
  } -> tensor<1x?xi64>, tensor<1xi64>
  return %r#0 : tensor<1x?xi64>
}
