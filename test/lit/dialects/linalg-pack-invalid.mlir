// Verifiers of linalg.pack / linalg.unpack (MLIR's rules).
// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @packed_shape(%src: tensor<13x15xf32>, %dest: tensor<2x7x8x2xf32>, %pad: f32) {
  // expected-error@+1 {{does not match the tiling: expected shape [2, 8, 8, 2]}}
  %0 = linalg.pack %src padding_value(%pad : f32) inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %dest : tensor<13x15xf32> -> tensor<2x7x8x2xf32>
  func.return
}

// -----

func.func @repeated_pos(%src: tensor<16x16xf32>, %dest: tensor<2x16x8x2xf32>) {
  // expected-error@+1 {{invalid inner_dims_pos vector [0, 0] for rank 2}}
  %0 = linalg.pack %src inner_dims_pos = [0, 0] inner_tiles = [8, 2] into %dest : tensor<16x16xf32> -> tensor<2x16x8x2xf32>
  func.return
}

// -----

func.func @bad_perm(%src: tensor<3x7x5xf32>, %dest: tensor<3x5x7xf32>) {
  // expected-error@+1 {{invalid outer_dims_perm vector [0, 2, 2] for rank 3}}
  %0 = linalg.unpack %src outer_dims_perm = [0, 2, 2] inner_dims_pos = [] inner_tiles = [] into %dest : tensor<3x7x5xf32> -> tensor<3x5x7xf32>
  func.return
}

// -----

func.func @pad_type(%src: tensor<13x15xf32>, %dest: tensor<2x8x8x2xf32>, %pad: f16) {
  // expected-error@+1 {{expected padding_value to have the source element type}}
  %0 = linalg.pack %src padding_value(%pad : f16) inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %dest : tensor<13x15xf32> -> tensor<2x8x8x2xf32>
  func.return
}

// -----

func.func @dynamic_tile_static_dim(%src: tensor<16x16xf32>, %dest: tensor<2x8x8x2xf32>, %t: index) {
  // expected-error@+1 {{mismatch in inner tile sizes specified at index 0: tile ?, packed dimension 8}}
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [%t, 2] into %dest : tensor<16x16xf32> -> tensor<2x8x8x2xf32>
  func.return
}

// -----

func.func @mixed_tensor_memref(%src: tensor<16x16xf32>, %dest: memref<2x8x8x2xf32>) {
  // expected-error@+1 {{source and destination must both be tensors or both memrefs}}
  linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [8, 2] into %dest : tensor<16x16xf32> -> memref<2x8x8x2xf32>
  func.return
}
