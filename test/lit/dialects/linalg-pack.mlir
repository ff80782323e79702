// linalg.pack / linalg.unpack in MLIR's syntax: padding, outer_dims_perm, static and dynamic
// tiles, empty tile lists; the generic form is MLIR's (operandSegmentSizes, static_inner_tiles
// with kDynamic) and iree-opt re-reads both forms.
// RUN: fusion-opt %s | filecheck %s
// RUN: fusion-opt %s | fusion-opt | filecheck %s
// RUN: fusion-opt %s --print-op-generic | filecheck %s --check-prefix=GEN
// RUN: %if iree %{ fusion-opt %s | iree-opt | filecheck %s --check-prefix=IREE %}
// RUN: %if iree %{ fusion-opt %s --print-op-generic | iree-opt | filecheck %s --check-prefix=IREE %}

// CHECK-LABEL: func.func @pack_unpack
// CHECK: %[[P:.*]] = linalg.pack %{{.*}} padding_value(%{{.*}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %{{.*}} : tensor<13x15xf32> -> tensor<8x2x8x2xf32>
// CHECK: linalg.unpack %[[P]] outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %{{.*}} : tensor<8x2x8x2xf32> -> tensor<13x15xf32>
// IREE-LABEL: func.func @pack_unpack
// IREE: linalg.pack {{.*}} padding_value({{.*}} : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2]
// IREE: linalg.unpack
// GEN-LABEL: sym_name = "pack_unpack"
// GEN: "linalg.pack"(%{{.*}}, %{{.*}}, %{{.*}}) <{outer_dims_perm = array<i64: 1, 0>, inner_dims_pos = array<i64: 0, 1>, static_inner_tiles = array<i64: 8, 2>, operandSegmentSizes = array<i32: 1, 1, 1, 0>}>
func.func @pack_unpack(%src: tensor<13x15xf32>, %dest: tensor<8x2x8x2xf32>, %pad: f32) -> tensor<13x15xf32> {
  %0 = linalg.pack %src padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %dest : tensor<13x15xf32> -> tensor<8x2x8x2xf32>
  %1 = tensor.empty() : tensor<13x15xf32>
  %2 = linalg.unpack %0 outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %1 : tensor<8x2x8x2xf32> -> tensor<13x15xf32>
  return %2 : tensor<13x15xf32>
}

// CHECK-LABEL: func.func @dynamic_tiles
// CHECK: linalg.pack %{{.*}} inner_dims_pos = [2, 0] inner_tiles = [%{{.*}}, 2] into %{{.*}} : tensor<20x1x12xf32> -> tensor<10x1x?x?x2xf32>
// CHECK: linalg.unpack %{{.*}} outer_dims_perm = [0, 2, 1] inner_dims_pos = [] inner_tiles = [] into
// IREE-LABEL: func.func @dynamic_tiles
// IREE: linalg.pack
// IREE: linalg.unpack
// GEN-LABEL: sym_name = "dynamic_tiles"
// GEN: static_inner_tiles = array<i64: -9223372036854775808, 2>, operandSegmentSizes = array<i32: 1, 1, 0, 1>
func.func @dynamic_tiles(%src: tensor<20x1x12xf32>, %dest: tensor<10x1x?x?x2xf32>, %t: index, %x: tensor<3x7x5xf32>, %y: tensor<3x5x7xf32>) -> (tensor<10x1x?x?x2xf32>, tensor<3x5x7xf32>) {
  %0 = linalg.pack %src inner_dims_pos = [2, 0] inner_tiles = [%t, 2] into %dest : tensor<20x1x12xf32> -> tensor<10x1x?x?x2xf32>
  %1 = linalg.unpack %x outer_dims_perm = [0, 2, 1] inner_dims_pos = [] inner_tiles = [] into %y : tensor<3x7x5xf32> -> tensor<3x5x7xf32>
  return %0, %1 : tensor<10x1x?x?x2xf32>, tensor<3x5x7xf32>
}
