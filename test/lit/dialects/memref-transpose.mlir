// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @memref_transpose
// CHECK: memref.transpose %{{.*}} (d0, d1, d2) -> (d2, d1, d0) : memref<?x?x?xf32, strided<[?, ?, 1]>> to memref<?x?x?xf32, strided<[1, ?, ?]>>
func.func @memref_transpose(%arg0: memref<?x?x?xf32, strided<[?, ?, 1]>>) {
  %0 = memref.transpose %arg0 (i, j, k) -> (k, j, i) : memref<?x?x?xf32, strided<[?, ?, 1]>> to memref<?x?x?xf32, strided<[1, ?, ?]>>
  return
}
