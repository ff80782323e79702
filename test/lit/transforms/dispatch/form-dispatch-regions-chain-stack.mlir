// A chain of same-row reductions over two loops or more (an InstanceNorm's pixels) is one
// region only while a tile of its rows, whole, fits IREE's 32 KB CPU stack: IREE 3.13's llvm-cpu
// codegen keeps a tile's centred rows between the reductions on the stack, min(8, the power of
// two <= rows / 8) rows a tile (bench/iree_limits_chains.py). Past that the mean and the
// variance are two regions, as in IREE's own build; a chain over one loop is tiled along it.
// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s

// 2 x 16 channels of 56 x 56 pixels (32 rows of 12544 B): 4 rows a tile, 50176 B: two regions.
// CHECK-LABEL: func.func @two_dims_of_12_kb_rows
// CHECK-COUNT-2: flow.dispatch.region
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
func.func @two_dims_of_12_kb_rows(%x: tensor<2x16x56x56xf32>) -> (tensor<2x16x56x56xf32>, tensor<2x16xf32>) {
  %z64 = arith.constant 0.0 : f64
  %e64 = tensor.empty() : tensor<2x16xf64>
  %f64 = linalg.fill ins(%z64 : f64) outs(%e64 : tensor<2x16xf64>) -> tensor<2x16xf64>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<2x16x56x56xf32>) outs(%f64 : tensor<2x16xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %w = arith.extf %in : f32 to f64
    %a = arith.addf %acc, %w : f64
    linalg.yield %a : f64
  } -> tensor<2x16xf64>
  %e2 = tensor.empty() : tensor<2x16x56x56xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s : tensor<2x16x56x56xf32>, tensor<2x16xf64>) outs(%e2 : tensor<2x16x56x56xf32>) {
  ^bb0(%in: f32, %sum: f64, %o: f32):
    %count = arith.constant 3136.0 : f64
    %m = arith.divf %sum, %count : f64
    %m32 = arith.truncf %m : f64 to f32
    %y = arith.subf %in, %m32 : f32
    linalg.yield %y : f32
  } -> tensor<2x16x56x56xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d : tensor<2x16x56x56xf32>) outs(%e2 : tensor<2x16x56x56xf32>) {
  ^bb0(%in: f32, %o: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<2x16x56x56xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sq : tensor<2x16x56x56xf32>) outs(%f : tensor<2x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x16xf32>
  func.return %d, %q : tensor<2x16x56x56xf32>, tensor<2x16xf32>
}

// -----

// 2 x 24 channels of 28 x 28 pixels (48 rows of 3136 B): 4 rows a tile, 12544 B: one region.
// CHECK-LABEL: func.func @two_dims_of_3_kb_rows
// CHECK-COUNT-1: flow.dispatch.region
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
func.func @two_dims_of_3_kb_rows(%x: tensor<2x24x28x28xf32>) -> (tensor<2x24x28x28xf32>, tensor<2x24xf32>) {
  %z64 = arith.constant 0.0 : f64
  %e64 = tensor.empty() : tensor<2x24xf64>
  %f64 = linalg.fill ins(%z64 : f64) outs(%e64 : tensor<2x24xf64>) -> tensor<2x24xf64>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2x24xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<2x24xf32>) -> tensor<2x24xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<2x24x28x28xf32>) outs(%f64 : tensor<2x24xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %w = arith.extf %in : f32 to f64
    %a = arith.addf %acc, %w : f64
    linalg.yield %a : f64
  } -> tensor<2x24xf64>
  %e2 = tensor.empty() : tensor<2x24x28x28xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s : tensor<2x24x28x28xf32>, tensor<2x24xf64>) outs(%e2 : tensor<2x24x28x28xf32>) {
  ^bb0(%in: f32, %sum: f64, %o: f32):
    %count = arith.constant 784.0 : f64
    %m = arith.divf %sum, %count : f64
    %m32 = arith.truncf %m : f64 to f32
    %y = arith.subf %in, %m32 : f32
    linalg.yield %y : f32
  } -> tensor<2x24x28x28xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d : tensor<2x24x28x28xf32>) outs(%e2 : tensor<2x24x28x28xf32>) {
  ^bb0(%in: f32, %o: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<2x24x28x28xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sq : tensor<2x24x28x28xf32>) outs(%f : tensor<2x24xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x24xf32>
  func.return %d, %q : tensor<2x24x28x28xf32>, tensor<2x24xf32>
}

// -----

// 16 rows of 32 x 64 pixels (8192 B): 2 rows a tile, 16384 B: one region.
// CHECK-LABEL: func.func @sixteen_rows_of_8_kb
// CHECK-COUNT-1: flow.dispatch.region
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
func.func @sixteen_rows_of_8_kb(%x: tensor<1x16x32x64xf32>) -> (tensor<1x16x32x64xf32>, tensor<1x16xf32>) {
  %z64 = arith.constant 0.0 : f64
  %e64 = tensor.empty() : tensor<1x16xf64>
  %f64 = linalg.fill ins(%z64 : f64) outs(%e64 : tensor<1x16xf64>) -> tensor<1x16xf64>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<1x16xf32>) -> tensor<1x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<1x16x32x64xf32>) outs(%f64 : tensor<1x16xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %w = arith.extf %in : f32 to f64
    %a = arith.addf %acc, %w : f64
    linalg.yield %a : f64
  } -> tensor<1x16xf64>
  %e2 = tensor.empty() : tensor<1x16x32x64xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s : tensor<1x16x32x64xf32>, tensor<1x16xf64>) outs(%e2 : tensor<1x16x32x64xf32>) {
  ^bb0(%in: f32, %sum: f64, %o: f32):
    %count = arith.constant 2048.0 : f64
    %m = arith.divf %sum, %count : f64
    %m32 = arith.truncf %m : f64 to f32
    %y = arith.subf %in, %m32 : f32
    linalg.yield %y : f32
  } -> tensor<1x16x32x64xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%d : tensor<1x16x32x64xf32>) outs(%e2 : tensor<1x16x32x64xf32>) {
  ^bb0(%in: f32, %o: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<1x16x32x64xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%sq : tensor<1x16x32x64xf32>) outs(%f : tensor<1x16xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x16xf32>
  func.return %d, %q : tensor<1x16x32x64xf32>, tensor<1x16xf32>
}

// -----

// A LayerNorm's chain over one loop (64 rows of 8192 f32): IREE tiles that loop, one region.
// CHECK-LABEL: func.func @one_dim_of_32_kb_rows
// CHECK-COUNT-1: flow.dispatch.region
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
func.func @one_dim_of_32_kb_rows(%x: tensor<64x8192xf32>) -> (tensor<64x8192xf32>, tensor<64xf32>) {
  %z64 = arith.constant 0.0 : f64
  %e64 = tensor.empty() : tensor<64xf64>
  %f64 = linalg.fill ins(%z64 : f64) outs(%e64 : tensor<64xf64>) -> tensor<64xf64>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<64x8192xf32>) outs(%f64 : tensor<64xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %w = arith.extf %in : f32 to f64
    %a = arith.addf %acc, %w : f64
    linalg.yield %a : f64
  } -> tensor<64xf64>
  %e2 = tensor.empty() : tensor<64x8192xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r)>, affine_map<(r, d) -> (r, d)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<64x8192xf32>, tensor<64xf64>) outs(%e2 : tensor<64x8192xf32>) {
  ^bb0(%in: f32, %sum: f64, %o: f32):
    %n = arith.constant 8192.0 : f64
    %m = arith.divf %sum, %n : f64
    %m32 = arith.truncf %m : f64 to f32
    %y = arith.subf %in, %m32 : f32
    linalg.yield %y : f32
  } -> tensor<64x8192xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r, d)>], iterator_types = ["parallel", "parallel"]} ins(%d : tensor<64x8192xf32>) outs(%e2 : tensor<64x8192xf32>) {
  ^bb0(%in: f32, %o: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<64x8192xf32>
  %q = linalg.generic {indexing_maps = [affine_map<(r, d) -> (r, d)>, affine_map<(r, d) -> (r)>], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<64x8192xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  } -> tensor<64xf32>
  func.return %d, %q : tensor<64x8192xf32>, tensor<64xf32>
}
