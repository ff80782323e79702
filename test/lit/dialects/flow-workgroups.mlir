// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// flow.dispatch.workgroups and the dispatch.tensor bindings of its body, in IREE's syntax.

// CHECK-LABEL: util.func public @workgroups_dynamic
// CHECK: flow.dispatch.workgroups[%{{.*}}](%{{.*}}, %{{.*}}) : (tensor<?x4xf32>{%{{.*}}}, index) -> (tensor<?x4xf32>{%{{.*}}}) =
// CHECK-NEXT: (%{{.*}}: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %{{.*}}: index, %{{.*}}: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>)
// CHECK: iree_tensor_ext.dispatch.tensor.load %{{.*}}, offsets = [0, 0], sizes = [%{{.*}}, 4], strides = [1, 1] : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%{{.*}}} -> tensor<?x4xf32>
// CHECK: iree_tensor_ext.dispatch.tensor.store %{{.*}}, %{{.*}}, offsets = [0, 0], sizes = [%{{.*}}, 4], strides = [1, 1] : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%{{.*}}}
// CHECK: flow.return
// CHECK: count(%{{.*}}: index) -> (index, index, index)
util.func public @workgroups_dynamic(%a: tensor<?x4xf32>, %n: index) -> tensor<?x4xf32> {
  %r = flow.dispatch.workgroups[%n](%a, %n) : (tensor<?x4xf32>{%n}, index) -> tensor<?x4xf32>{%n} =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>, %m: index,
       %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>) {
    %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0, 0], sizes = [%m, 4], strides = [1, 1]
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<?x4xf32>>{%m} -> tensor<?x4xf32>
    iree_tensor_ext.dispatch.tensor.store %t, %out, offsets = [0, 0], sizes = [%m, 4], strides = [1, 1]
        : tensor<?x4xf32> -> !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?x4xf32>>{%m}
    flow.return
  } count(%w: index) -> (index, index, index) {
    %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice(%w)
    flow.return %x, %y, %z : index, index, index
  }
  util.return %r : tensor<?x4xf32>
}

// -----

// A result tied to an operand is printed as that operand; its body binding is readwrite.
// CHECK-LABEL: util.func public @workgroups_tied
// CHECK: flow.dispatch.workgroups(%[[A:.*]]) : (tensor<8xf32>) -> (%[[A]]) attributes {stream.affinity = #hal.device.affinity<@device>} =
// CHECK-NEXT: (%{{.*}}: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>)
util.func public @workgroups_tied(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = flow.dispatch.workgroups(%a) : (tensor<8xf32>) -> %a attributes {stream.affinity = #hal.device.affinity<@device>} =
      (%io: !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>) {
    %t = iree_tensor_ext.dispatch.tensor.load %io, offsets = [0], sizes = [8], strides = [1]
        : !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>> -> tensor<8xf32>
    iree_tensor_ext.dispatch.tensor.store %t, %io, offsets = [0], sizes = [8], strides = [1]
        : tensor<8xf32> -> !iree_tensor_ext.dispatch.tensor<readwrite:tensor<8xf32>>
    flow.return
  }
  util.return %r : tensor<8xf32>
}

// -----

// Inside a dispatch body: the workload ordinal of an index and a binding's tied shape.
// CHECK-LABEL: util.func public @ordinal_tie_shape
// CHECK: %[[K:.*]] = iree_tensor_ext.dispatch.workload.ordinal %{{.*}}, 2 : index
// CHECK: flow.dispatch.tie_shape %{{.*}} : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%[[K]]}
util.func public @ordinal_tie_shape(%n: index, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
  %k = iree_tensor_ext.dispatch.workload.ordinal %n, 2 : index
  %o = flow.dispatch.tie_shape %out : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>{%k}
  util.return
}
