// RUN: fusion-opt %s --split-input-file -p convert-to-flow | filecheck %s
// The pass's helper modules these cases exercise: dispatch/copy_as_generic.py.

// Top-level slices follow IREE's contiguity rule (TensorToFlow/test/extract_slice.mlir):
// a contiguous range becomes flow.tensor.slice (+ reshape when rank-reducing), anything else
// is a copy dispatch of its own.

// CHECK-LABEL: func.func @contiguous_rank_reducing
// CHECK:         %[[S:.*]] = flow.tensor.slice %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}} for %{{.*}}, %{{.*}}, %{{.*}}] : tensor<5x24x48xf32> -> tensor<1x1x4xf32>
// CHECK:         %[[R:.*]] = flow.tensor.reshape %[[S]] : tensor<1x1x4xf32> -> tensor<4xf32>
// CHECK:         func.return %[[R]]
func.func @contiguous_rank_reducing(%src: tensor<5x24x48xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %src[2, 3, 4] [1, 1, 4] [1, 1, 1] : tensor<5x24x48xf32> to tensor<4xf32>
  func.return %s : tensor<4xf32>
}

// -----

// Inner dim not full and an outer dim > 1: not one byte range, so a copy dispatch, written as
// a gathering generic (a bare extract_slice in a region has no tileable root for IREE).
// CHECK-LABEL: func.func @non_contiguous
// CHECK-SAME:    (%[[SRC:.*]]: tensor<5x24x48xf32>)
// CHECK:         flow.dispatch.region -> (tensor<1x2x24xf32>) {
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x24xf32>)
// CHECK:             %[[I:.*]] = linalg.index 1 : index
// CHECK:             %[[ROW:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:             tensor.extract %[[SRC]][%{{.*}}, %[[ROW]], %{{.*}}] : tensor<5x24x48xf32>
// CHECK-NOT:     flow.tensor.slice
// CHECK-NOT:     tensor.extract_slice
func.func @non_contiguous(%src: tensor<5x24x48xf32>) -> tensor<1x2x24xf32> {
  %s = tensor.extract_slice %src[2, 3, 0] [1, 2, 24] [1, 1, 1] : tensor<5x24x48xf32> to tensor<1x2x24xf32>
  func.return %s : tensor<1x2x24xf32>
}

// -----

// A concat whose pieces are contiguous ranges of the result is free: empty + updates. The
// empty is flow's (a fresh buffer per call): IREE hoists a top-level tensor.empty into a
// global and copies it into the updated buffer on every call.
// CHECK-LABEL: func.func @concat_free
// CHECK-SAME:    (%[[A:.*]]: tensor<1x64xf32>, %[[B:.*]]: tensor<1x64xf32>)
// CHECK-NOT:     tensor.empty()
// CHECK:         %[[E:.*]] = flow.tensor.empty : tensor<1x128xf32>
// CHECK:         %[[U:.*]] = flow.tensor.update %[[A]], %[[E]][%{{.*}}, %{{.*}}] : tensor<1x64xf32> -> %[[E]] as tensor<1x128xf32>
// CHECK:         %[[C:.*]] = flow.tensor.update %[[B]], %[[U]][%{{.*}}, %{{.*}}] : tensor<1x64xf32> -> %[[U]] as tensor<1x128xf32>
// CHECK:         func.return %[[C]]
func.func @concat_free(%a: tensor<1x64xf32>, %b: tensor<1x64xf32>) -> tensor<1x128xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<1x64xf32>, tensor<1x64xf32>) -> tensor<1x128xf32>
  func.return %c : tensor<1x128xf32>
}

// -----

// An insert into a tensor.empty (contiguous: an update) writes into a flow.tensor.empty; an
// empty that something else reads (here a region's init) stays a tensor.empty.
// CHECK-LABEL: func.func @empty_update_target
// CHECK-SAME:    (%[[A:.*]]: tensor<2x16xf32>)
// CHECK:         %[[E:.*]] = flow.tensor.empty : tensor<4x16xf32>
// CHECK:         flow.tensor.update %[[A]], %[[E]][%{{.*}}, %{{.*}}] : tensor<2x16xf32> -> %[[E]] as tensor<4x16xf32>
// CHECK:         %[[KEPT:.*]] = tensor.empty() : tensor<8xf32>
// CHECK:         flow.dispatch.region -> (tensor<8xf32>)
// CHECK-NOT:     flow.tensor.empty
func.func @empty_update_target(%a: tensor<2x16xf32>) -> (tensor<4x16xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %u = tensor.insert_slice %a into %e[2, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<4x16xf32>
  %kept = tensor.empty() : tensor<8xf32>
  %r = flow.dispatch.region -> (tensor<8xf32>) {
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%kept : tensor<8xf32>) -> tensor<8xf32>
    flow.return %f : tensor<8xf32>
  }
  func.return %u, %r : tensor<4x16xf32>, tensor<8xf32>
}

// -----

// A concat whose pieces are not contiguous ranges stays as it is, for IREE to form: IREE 3.13
// cannot build a region holding only a concat (CUDA: "different memory spaces"; llvm-cpu with
// unequal parts: "result type ... does not match inferred shape"). A slice still gets its copy.
// CHECK-LABEL: func.func @concat_copy
// CHECK-NOT:     flow.dispatch.region
// CHECK:         tensor.concat dim(1)
// CHECK-NOT:     flow.dispatch.region
// CHECK:         func.return
func.func @concat_copy(%a: tensor<2x64xf32>, %b: tensor<2x64xf32>) -> tensor<2x128xf32> {
  %c = tensor.concat dim(1) %a, %b : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x128xf32>
  func.return %c : tensor<2x128xf32>
}

// -----

// A concat with a dynamic dim stays a tensor op, contiguous pieces or not (a transformers
// export's positions at a symbolic sequence length: a 0 before the running count):
// flow.tensor.empty would need the result's {dims}; iree-compile converts the tensor op itself.
// CHECK-LABEL: func.func @concat_dynamic
// CHECK-NOT:     flow.tensor.empty
// CHECK:         tensor.concat dim(1)
// CHECK-NOT:     flow.tensor.update
// CHECK:         func.return
func.func @concat_dynamic(%a: tensor<1x1xi64>, %b: tensor<1x?xi64>) -> tensor<1x?xi64> {
  %c = tensor.concat dim(1) %a, %b : (tensor<1x1xi64>, tensor<1x?xi64>) -> tensor<1x?xi64>
  func.return %c : tensor<1x?xi64>
}

// -----

// IREE's dont_fuse_tensor_update_with_fill: the lone fill becomes a splat feeding an update;
// reshapes become flow.tensor.reshape.
// CHECK-LABEL: func.func @splat_update
// CHECK:         %[[F:.*]] = flow.tensor.splat %{{.*}} : tensor<4x16xf32>
// CHECK:         %[[U:.*]] = flow.tensor.update %{{.*}}, %[[F]][%{{.*}}, %{{.*}}] : tensor<2x16xf32> -> %[[F]] as tensor<4x16xf32>
// CHECK:         %[[R:.*]] = flow.tensor.reshape %[[U]] : tensor<4x16xf32> -> tensor<2x2x16xf32>
// CHECK:         flow.tensor.reshape %[[R]] : tensor<2x2x16xf32> -> tensor<4x16xf32>
// CHECK-NOT:     tensor.empty
// CHECK-NOT:     flow.dispatch.region
func.func @splat_update(%a: tensor<2x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %u = tensor.insert_slice %a into %f[2, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<4x16xf32>
  %r = tensor.expand_shape %u [[0, 1], [2]] output_shape [2, 2, 16] : tensor<4x16xf32> into tensor<2x2x16xf32>
  %back = tensor.collapse_shape %r [[0, 1], [2]] : tensor<2x2x16xf32> into tensor<4x16xf32>
  func.return %back : tensor<4x16xf32>
}

// -----

// Slices inside a dispatch region are left alone.
// CHECK-LABEL: func.func @inside_region
// CHECK:         flow.dispatch.region
// CHECK-NEXT:      tensor.extract_slice
func.func @inside_region(%src: tensor<4x8xf32>) -> tensor<2x8xf32> {
  %r = flow.dispatch.region -> (tensor<2x8xf32>) {
    %s = tensor.extract_slice %src[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
    flow.return %s : tensor<2x8xf32>
  }
  func.return %r : tensor<2x8xf32>
}
