// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// flow.dispatch.region's workload `[...]`, result dims `{%d}` and `count(...)` region, and
// flow.tensor.constant (dense or a parameter), as IREE 3.13 prints them.

// CHECK-LABEL: util.func public @workload
// CHECK: flow.dispatch.region[%{{.*}}, %{{.*}}] -> (tensor<?x?xf32>{%{{.*}}, %{{.*}}}, tensor<4xf32>) {
// CHECK: flow.return
// CHECK: } count(%[[B0:.*]]: index, %[[B1:.*]]: index) -> (index, index, index) {
// CHECK: %[[X:.*]], %[[Y:.*]], %[[Z:.*]] = iree_tensor_ext.dispatch.workgroup_count_from_slice(%[[B0]], %[[B1]])
// CHECK: flow.return %[[X]], %[[Y]], %[[Z]] : index, index, index
util.func public @workload(%a: tensor<?x?xf32>, %b: tensor<4xf32>, %d0: index, %d1: index) -> tensor<?x?xf32> {
  %r:2 = flow.dispatch.region[%d0, %d1] -> (tensor<?x?xf32>{%d0, %d1}, tensor<4xf32>) {
    flow.return %a, %b : tensor<?x?xf32>, tensor<4xf32>
  } count(%b0: index, %b1: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%b0, %b1)
    flow.return %x, %y, %z : index, index, index
  }
  util.return %r#0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: util.func public @empty_workload
// CHECK: flow.dispatch.region -> (tensor<?xf32>{%{{.*}}}) {
util.func public @empty_workload(%n: index) {
  %1 = flow.dispatch.region[] -> (tensor<?xf32>{%n}) {
    %2 = tensor.empty(%n) : tensor<?xf32>
    flow.return %2 : tensor<?xf32>
  }
  util.return
}

// -----

// CHECK-LABEL: util.func public @constants
// CHECK: flow.tensor.constant #flow.parameter.named<"model"::"w"> : tensor<16xf16>
// CHECK: flow.tensor.constant dense<1.000000e+00> : tensor<4xf32>
util.func public @constants() -> (tensor<16xf16>, tensor<4xf32>) {
  %0 = flow.tensor.constant #flow.parameter.named<"model"::"w"> : tensor<16xf16>
  %1 = flow.tensor.constant dense<1.0> : tensor<4xf32>
  util.return %0, %1 : tensor<16xf16>, tensor<4xf32>
}

// -----

// iree_tensor_ext: bitcast and compute barriers, with the dims of dynamic types.
// CHECK-LABEL: util.func public @tensor_ext
// CHECK: %[[B:.*]] = iree_tensor_ext.bitcast %{{.*}} : tensor<?x4xf32>{%[[N:.*]]} -> tensor<?x4xi32>{%[[N]]}
// CHECK: %[[S:.*]] = iree_tensor_ext.compute_barrier.start %[[B]] : tensor<?x4xi32>{%[[N]]} -> tensor<?x4xi32>
// CHECK: iree_tensor_ext.compute_barrier.end %[[S]] : tensor<?x4xi32>{%[[N]]} -> tensor<?x4xi32>
// CHECK: iree_tensor_ext.bitcast %{{.*}} : tensor<2x4xf32> -> tensor<2x8xf16>
util.func public @tensor_ext(%a: tensor<?x4xf32>, %n: index, %s: tensor<2x4xf32>) -> (tensor<?x4xi32>, tensor<2x8xf16>) {
  %b = iree_tensor_ext.bitcast %a : tensor<?x4xf32>{%n} -> tensor<?x4xi32>{%n}
  %c = iree_tensor_ext.compute_barrier.start %b : tensor<?x4xi32>{%n} -> tensor<?x4xi32>
  %e = iree_tensor_ext.compute_barrier.end %c : tensor<?x4xi32>{%n} -> tensor<?x4xi32>
  %h = iree_tensor_ext.bitcast %s : tensor<2x4xf32> -> tensor<2x8xf16>
  util.return %e, %h : tensor<?x4xi32>, tensor<2x8xf16>
}
