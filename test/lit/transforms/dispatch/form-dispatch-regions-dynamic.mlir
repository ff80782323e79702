// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p graph-to-dispatch | filecheck %s --check-prefix=G2D
// The pass's helper modules these cases exercise: dispatch/region_dims.py.

// Multi-block bodies (IREE's inline_dag tests) form regions block by block, and a region with
// a dynamically shaped result names its sizes outside (`{%d}`), as IREE requires (iree-opt
// reads the output: test/unit/test_iree_dialects_interop.py). A dynamic slice in the entry
// block is read inside the consumer's region in the next block (IREE's inline_dag_2: one
// dispatch, the slice a load at its offsets), not copied out by a dispatch of its own.

// The whole pipeline (graph passes included) walks every block of a util.func too; its
// canonicalize then merges the two blocks.
// G2D-LABEL: util.func public @two_blocks
// G2D: flow.dispatch.region -> (tensor<1x?xf32>{%arg3})
// G2D: tensor.extract_slice
// G2D: linalg.generic
// G2D: flow.return
// G2D-NEXT: }
// G2D-NEXT: util.return %0
// CHECK-LABEL: util.func public @two_blocks
// CHECK-NOT: flow.dispatch.region
// CHECK: cf.br ^bb1
// CHECK: ^bb1:
// CHECK: %[[R1:.*]] = flow.dispatch.region -> (tensor<1x?xf32>{%arg3}) {
// CHECK: tensor.extract_slice
// CHECK: linalg.generic
// CHECK: util.return %[[R1]]
#map0 = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
util.func public @two_blocks(%arg0: tensor<?x?xf32>, %arg1 : tensor<1x?xf32>, %arg2 : tensor<i32>,
                             %arg3 : index) -> tensor<1x?xf32> {
  %0 = tensor.cast %arg0 : tensor<?x?xf32> to tensor<1x?xf32>
  %1 = tensor.extract_slice %0[0, 20] [1, %arg3] [1, 1] : tensor<1x?xf32> to tensor<1x?xf32>
  %2 = tensor.cast %arg1 : tensor<1x?xf32> to tensor<?x?xf32>
  cf.br ^bb1
^bb1:
  %3 = tensor.cast %1 : tensor<1x?xf32> to tensor<?x?xf32>
  %8 = tensor.empty(%arg3) : tensor<1x?xf32>
  %9 = linalg.generic {indexing_maps = [#map0, #map1, #map1, #map1], iterator_types = ["parallel", "parallel"]}
      ins(%arg2, %3, %2 : tensor<i32>, tensor<?x?xf32>, tensor<?x?xf32>) outs(%8 : tensor<1x?xf32>) {
  ^bb0(%a: i32, %b: f32, %c: f32, %o: f32):
    %s = arith.addf %b, %c : f32
    linalg.yield %s : f32
  } -> tensor<1x?xf32>
  util.return %9 : tensor<1x?xf32>
}

// -----

// The size of a result computed from a function argument is a tensor.dim of it.
// CHECK-LABEL: util.func public @dim_of_argument
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[D:.*]] = tensor.dim %arg0, %[[C0]] : tensor<?xf32>
// CHECK: flow.dispatch.region -> (tensor<?xf32>{%[[D]]}) {
// CHECK: linalg.generic
util.func public @dim_of_argument(%arg0: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%arg0 : tensor<?xf32>) outs(%arg0 : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  } -> tensor<?xf32>
  util.return %0 : tensor<?xf32>
}

// -----

// A dynamic reshape outside every region stays a tensor op (flow.tensor.reshape would need
// its {dims}); the two matmuls get a region each, sized by their inits' dims.
// CHECK-LABEL: util.func public @dont_fuse_reshape
// CHECK: %[[E:.*]] = tensor.expand_shape
// CHECK-NOT: flow.tensor.reshape
// CHECK: flow.dispatch.region -> (tensor<?x?xf32>{%{{.*}}, %{{.*}}}) {
// CHECK: linalg.matmul
// CHECK: flow.dispatch.region -> (tensor<?x?xf32>{%{{.*}}, %{{.*}}}) {
// CHECK: linalg.matmul
util.func public @dont_fuse_reshape(%lhs : tensor<?xf32>, %rhs1 : tensor<4x?xf32>, %rhs2 : tensor<4x?xf32>)
  -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %l = tensor.dim %lhs, %c0 : tensor<?xf32>
  %d = arith.divui %l, %c4 : index
  %0 = tensor.expand_shape %lhs [[0, 1]] output_shape [%d, 4] : tensor<?xf32> into tensor<?x4xf32>
  %m = tensor.dim %0, %c0 : tensor<?x4xf32>
  %n1 = tensor.dim %rhs1, %c1 : tensor<4x?xf32>
  %init1 = tensor.empty(%m, %n1) : tensor<?x?xf32>
  %fill1 = linalg.fill ins(%cst : f32) outs(%init1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = linalg.matmul ins(%0, %rhs1 : tensor<?x4xf32>, tensor<4x?xf32>) outs(%fill1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %n2 = tensor.dim %rhs2, %c1 : tensor<4x?xf32>
  %init2 = tensor.empty(%m, %n2) : tensor<?x?xf32>
  %fill2 = linalg.fill ins(%cst : f32) outs(%init2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.matmul ins(%0, %rhs2 : tensor<?x4xf32>, tensor<4x?xf32>) outs(%fill2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  util.return %1, %2 : tensor<?x?xf32>, tensor<?x?xf32>
}
