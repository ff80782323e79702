// linalg.matvec / vecmat / dot / batch_matvec / batch_vecmat, a linalg.generic whose attribute dictionary is
// an alias (`#trait`), and linalg.pack on memrefs (no result) load and print back in MLIR's
// syntax; iree-opt re-reads the output.
// RUN: fusion-opt %s | filecheck %s
// RUN: fusion-opt %s | fusion-opt | filecheck %s
// RUN: %if iree %{ fusion-opt %s | iree-opt | filecheck %s --check-prefix=IREE %}

// CHECK-LABEL: func.func @vector_products
// CHECK: linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK: linalg.vecmat ins(
// CHECK: linalg.dot ins(%{{.*}}, %{{.*}} : tensor<8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<f32>) -> tensor<f32>
// CHECK: linalg.batch_matvec ins(
// CHECK: linalg.batch_vecmat ins(%{{.*}}, %{{.*}} : tensor<2x8xf32>, tensor<2x8x4xf32>) outs(%{{.*}} : tensor<2x4xf32>) -> tensor<2x4xf32>
// IREE-LABEL: func.func @vector_products
// IREE: linalg.matvec
// IREE: linalg.vecmat
// IREE: linalg.dot
// IREE: linalg.batch_matvec
// IREE: linalg.batch_vecmat
func.func @vector_products(%a: tensor<4x8xf32>, %x: tensor<8xf32>, %y: tensor<4xf32>, %at: tensor<8x4xf32>,
                           %s: tensor<f32>, %ba: tensor<2x4x8xf32>, %bx: tensor<2x8xf32>, %by: tensor<2x4xf32>,
                           %bat: tensor<2x8x4xf32>)
    -> (tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %0 = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<8xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.vecmat ins(%x, %at : tensor<8xf32>, tensor<8x4xf32>) outs(%y : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.dot ins(%x, %x : tensor<8xf32>, tensor<8xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  %3 = linalg.batch_matvec ins(%ba, %bx : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%by : tensor<2x4xf32>) -> tensor<2x4xf32>
  %4 = linalg.batch_vecmat ins(%bx, %bat : tensor<2x8xf32>, tensor<2x8x4xf32>) outs(%by : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0, %1, %2, %3, %4 : tensor<4xf32>, tensor<4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<2x4xf32>
}

#trait = {
  indexing_maps = [affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>],
  iterator_types = ["parallel", "parallel"],
  library_call = "some_broadcast_external_fn"
}
// CHECK-LABEL: func.func @generic_trait_alias
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], library_call = "some_broadcast_external_fn"} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<3x4xf32>)
// IREE-LABEL: func.func @generic_trait_alias
// IREE: linalg.generic
func.func @generic_trait_alias(%arg0: tensor<f32>, %arg1: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = linalg.generic #trait ins(%arg0 : tensor<f32>) outs(%arg1 : tensor<3x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @pack_memref
// CHECK: linalg.pack %{{.*}} outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %{{.*}} : memref<128x256xf32> -> memref<8x16x8x32xf32>
// CHECK: linalg.unpack %{{.*}} inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %{{.*}} : memref<16x8x8x32xf32> -> memref<128x256xf32>
// IREE-LABEL: func.func @pack_memref
// IREE: linalg.pack
// IREE: linalg.unpack
func.func @pack_memref(%source: memref<128x256xf32>, %dest: memref<8x16x8x32xf32>, %p: memref<16x8x8x32xf32>) {
  linalg.pack %source outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %dest : memref<128x256xf32> -> memref<8x16x8x32xf32>
  linalg.unpack %p inner_dims_pos = [0, 1] inner_tiles = [8, 32] into %source : memref<16x8x8x32xf32> -> memref<128x256xf32>
  return
}
