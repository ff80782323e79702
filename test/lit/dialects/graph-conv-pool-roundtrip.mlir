// graph.conv and graph.pool print in their custom form, re-parse, and verify (1-D and 2-D,
// grouped and depthwise convs, max / avg pools with ceil_mode and count_include_pad).
// RUN: fusion-opt %s | filecheck %s
// RUN: fusion-opt %s | fusion-opt | filecheck %s
// RUN: fusion-opt %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @conv
func.func @conv(%x: tensor<1x4x9x9xf32>, %w: tensor<8x2x3x3xf32>, %dw: tensor<4x1x3x3xf32>,
                %x1: tensor<2x4x11xf32>, %w1: tensor<6x4x3xf32>)
    -> (tensor<1x8x5x5xf32>, tensor<1x4x5x5xf32>, tensor<2x6x4xf32>) {
  // CHECK: graph.conv %{{.*}}, %{{.*}} strides = [2, 2] dilations = [1, 1] pads = [1, 1, 1, 1] group = 2 : (tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x5x5xf32>
  // GENERIC: "graph.conv"(%{{.*}}, %{{.*}}) <{strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, group = 2 : i64}>
  %0 = graph.conv %x, %w strides = [2, 2] dilations = [1, 1] pads = [1, 1, 1, 1] group = 2 : (tensor<1x4x9x9xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x5x5xf32>
  // CHECK: graph.conv %{{.*}}, %{{.*}} strides = [2, 2] dilations = [2, 1] pads = [2, 0, 2, 2] group = 4
  %1 = graph.conv %x, %dw strides = [2, 2] dilations = [2, 1] pads = [2, 0, 2, 2] group = 4 : (tensor<1x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x5x5xf32>
  // CHECK: graph.conv %{{.*}}, %{{.*}} strides = [2] dilations = [2] pads = [1, 0] group = 1 : (tensor<2x4x11xf32>, tensor<6x4x3xf32>) -> tensor<2x6x4xf32>
  %2 = graph.conv %x1, %w1 strides = [2] dilations = [2] pads = [1, 0] group = 1 : (tensor<2x4x11xf32>, tensor<6x4x3xf32>) -> tensor<2x6x4xf32>
  return %0, %1, %2 : tensor<1x8x5x5xf32>, tensor<1x4x5x5xf32>, tensor<2x6x4xf32>
}

// CHECK-LABEL: func.func @pool
func.func @pool(%x: tensor<1x4x9x9xf32>, %x1: tensor<2x4x11xf16>)
    -> (tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<2x4x6xf16>) {
  // CHECK: graph.pool %{{.*}} kind = "max" kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] ceil_mode = false count_include_pad = false : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  // GENERIC: "graph.pool"(%{{.*}}) <{kind = "max", kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, ceil_mode = false, count_include_pad = false}>
  %0 = graph.pool %x kind = "max" kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1] dilations = [1, 1] ceil_mode = false count_include_pad = false : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  // CHECK: graph.pool %{{.*}} kind = "avg" kernel = [3, 2] strides = [2, 2] pads = [1, 0, 1, 1] dilations = [1, 1] ceil_mode = true count_include_pad = true
  %1 = graph.pool %x kind = "avg" kernel = [3, 2] strides = [2, 2] pads = [1, 0, 1, 1] dilations = [1, 1] ceil_mode = true count_include_pad = true : tensor<1x4x9x9xf32> -> tensor<1x4x5x5xf32>
  // CHECK: graph.pool %{{.*}} kind = "max" kernel = [2] strides = [2] pads = [0, 0] dilations = [1] ceil_mode = true count_include_pad = false : tensor<2x4x11xf16> -> tensor<2x4x6xf16>
  %2 = graph.pool %x1 kind = "max" kernel = [2] strides = [2] pads = [0, 0] dilations = [1] ceil_mode = true count_include_pad = false : tensor<2x4x11xf16> -> tensor<2x4x6xf16>
  return %0, %1, %2 : tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<2x4x6xf16>
}
