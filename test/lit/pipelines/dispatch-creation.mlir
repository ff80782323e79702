// The named pipeline on a real gpt2_mini attention fragment (test/data): the q/k/v
// extract_slices of the fused QKV projection are non-contiguous, so instead of IREE's slow-copy
// dispatches they are read inside the attention dispatches; the head transposes are folded into
// the attention contractions' indexing maps and never materialised.
// RUN: fusion-opt %data/gpt2_attention_fragment.mlir -p dispatch-creation | filecheck %s
// RUN: fusion-opt %data/gpt2_attention_fragment.mlir -p dispatch-creation | not grep -q "linalg.transpose\|tensor.collapse_shape"

// CHECK-LABEL: func.func @attention_fragment
// CHECK-SAME:    (%[[QKV:.*]]: tensor<1x64x384xf32>)
// QK^T (+ scale/mask), reading q and k as slices of the projection:
// CHECK:         flow.dispatch.region -> (tensor<1x2x64x64xf32>) {
// CHECK-DAG:       tensor.extract_slice %[[QKV]][0, 0, 0] [1, 64, 128]
// CHECK-DAG:       tensor.extract_slice %[[QKV]][0, 0, 128] [1, 64, 128]
// CHECK:           linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:           flow.return
// softmax: max (multi-result with argmax), then sum:
// CHECK:         flow.dispatch.region
// CHECK:           arith.maximumf
// CHECK:         flow.dispatch.region
// CHECK:           arith.divf
// AV, reading v as a slice:
// CHECK:         flow.dispatch.region -> (tensor<2x64x64xf32>) {
// CHECK:           tensor.extract_slice %[[QKV]][0, 0, 256] [1, 64, 128]
// CHECK:           iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK-NOT:     flow.dispatch.region
// CHECK-NOT:     linalg.transpose
// CHECK:         func.return
