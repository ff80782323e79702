// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @not_a_permutation(%arg0: memref<2x3xf32>) {
  // expected-error @+1 {{expected a permutation of 2 dimensions}}
  %0 = memref.transpose %arg0 (i, j) -> (i, i) : memref<2x3xf32> to memref<2x2xf32>
  return
}

// -----

func.func @wrong_shape(%arg0: memref<2x3xf32>) {
  // expected-error @+1 {{result dimension 0 must be input dimension 1 (3), got 2}}
  %0 = memref.transpose %arg0 (i, j) -> (j, i) : memref<2x3xf32> to memref<2x3xf32>
  return
}
