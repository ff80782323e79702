// -o writes the result; a failing run leaves an existing output file untouched.
// RUN: rm -rf %t && mkdir -p %t
// RUN: fusion-opt %s -p cse -o %t/out.mlir
// RUN: filecheck %s < %t/out.mlir
// RUN: echo 'func.func @broken(' | not fusion-opt - -o %t/out.mlir
// RUN: filecheck %s < %t/out.mlir
// No temporary files are left behind.
// RUN: ls -A %t | filecheck %s --check-prefix=FILES
// CHECK: func.func @kept
// FILES-NOT: tmp
// FILES: out.mlir
// FILES-NOT: tmp
func.func @kept(%a: f32) -> f32 {
  func.return %a : f32
}
