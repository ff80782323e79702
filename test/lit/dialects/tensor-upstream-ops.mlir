// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// Upstream tensor ops xDSL 0.74 lacks, in MLIR's syntax; tensor.pad with MLIR's shape rule
// (dynamic pad amounts may give a static result).

// CHECK-LABEL: func.func @rank
// CHECK: tensor.rank %{{.*}} : tensor<4x4x?xf32>
func.func @rank(%t : tensor<4x4x?xf32>) -> index {
  %0 = tensor.rank %t : tensor<4x4x?xf32>
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @generate
// CHECK: tensor.generate %{{.*}}, %{{.*}} {
// CHECK: ^{{.*}}(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
// CHECK: tensor.yield %{{.*}} : f32
// CHECK: } : tensor<?x3x?xf32>
func.func @generate(%m : index, %n : index) -> tensor<?x3x?xf32> {
  %t = tensor.generate %m, %n {
  ^bb0(%i : index, %j : index, %k : index):
    %e = arith.constant 8.0 : f32
    tensor.yield %e : f32
  } : tensor<?x3x?xf32>
  return %t : tensor<?x3x?xf32>
}

// -----

// CHECK-LABEL: func.func @gather_scatter
// CHECK: tensor.gather %{{.*}}[%{{.*}}] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<1x3x2xi32>) -> tensor<1x3x4x1x1xf32>
// CHECK: tensor.gather %{{.*}}[%{{.*}}] gather_dims([1, 2]) : (tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<1x3x4xf32>
// CHECK: tensor.scatter %{{.*}} into %{{.*}}[%{{.*}}] scatter_dims([1, 2]) unique : (tensor<1x3x4x1x1xf32>, tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<4x5x6xf32>
func.func @gather_scatter(%dest : tensor<4x5x6xf32>, %indices: tensor<1x3x2xindex>, %indices_i32: tensor<1x3x2xi32>) {
  %g = tensor.gather %dest[%indices_i32] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<1x3x2xi32>) -> tensor<1x3x4x1x1xf32>
  %r = tensor.gather %dest[%indices] gather_dims([1, 2]) : (tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<1x3x4xf32>
  %s = tensor.scatter %g into %dest[%indices] scatter_dims([1, 2]) unique : (tensor<1x3x4x1x1xf32>, tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<4x5x6xf32>
  return
}

// -----

// CHECK-LABEL: func.func @pad_to_static_size
// CHECK: tensor.pad %{{.*}} low[0, 0] high[%{{.*}}, %{{.*}}]
// CHECK: : tensor<?x?xf32> to tensor<2x3xf32>
func.func @pad_to_static_size(%arg0: tensor<?x?xf32>, %ub0: index, %ub1: index, %pad_value: f32) -> tensor<2x3xf32> {
  %0 = tensor.pad %arg0 low[0, 0] high[%ub0, %ub1] {
  ^bb0(%arg1: index, %arg2: index):
    tensor.yield %pad_value : f32
  } : tensor<?x?xf32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// linalg.fill takes any scalar, complex included.
// CHECK-LABEL: func.func @fill_complex
// CHECK: linalg.fill ins(%{{.*}} : complex<f32>) outs(%{{.*}} : tensor<4x2xcomplex<f32>>) -> tensor<4x2xcomplex<f32>>
func.func @fill_complex(%c: complex<f32>) -> tensor<4x2xcomplex<f32>> {
  %empty = tensor.empty() : tensor<4x2xcomplex<f32>>
  %0 = linalg.fill ins(%c : complex<f32>) outs(%empty : tensor<4x2xcomplex<f32>>) -> tensor<4x2xcomplex<f32>>
  return %0 : tensor<4x2xcomplex<f32>>
}

// -----

// Reshapes print their groups as MLIR does, bare integers (xDSL alone writes `0 : i64`); the
// generic form keeps the typed array attribute, and both read back.

// CHECK-LABEL: func.func @reshape_groups
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<4x2x3xf32> into tensor<8x3xf32>
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @reshape_groups(%x: tensor<4x6xf32>, %s: tensor<f32>) -> (tensor<8x3xf32>, tensor<1x1xf32>) {
  %0 = tensor.expand_shape %x [[0], [1, 2]] output_shape [4, 2, 3] : tensor<4x6xf32> into tensor<4x2x3xf32>
  %1 = tensor.collapse_shape %0 [[0, 1], [2]] : tensor<4x2x3xf32> into tensor<8x3xf32>
  %2 = tensor.expand_shape %s [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  return %1, %2 : tensor<8x3xf32>, tensor<1x1xf32>
}
