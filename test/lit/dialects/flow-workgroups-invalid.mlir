// RUN: fusion-opt %s --split-input-file --verify-diagnostics

util.func public @missing_output_binding(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the body takes 1 arguments, expected 2 (operands, then one per new result)}}
  %r = flow.dispatch.workgroups(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>) {
    flow.return
  }
  util.return %r : tensor<4xf32>
}

// -----

util.func public @store_into_readonly(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.dispatch.workgroups(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [4], strides = [1]
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
    // expected-error @+1 {{cannot store into a readonly binding}}
    iree_tensor_ext.dispatch.tensor.store %t, %in, offsets = [0], sizes = [4], strides = [1]
        : tensor<4xf32> -> !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>
    flow.return
  }
  util.return %r : tensor<4xf32>
}

// -----

util.func public @sizes_do_not_match(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = flow.dispatch.workgroups(%a) : (tensor<4xf32>) -> tensor<4xf32> =
      (%in: !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>>, %out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<4xf32>>) {
    // expected-error @+1 {{sizes [2] do not match tensor<4xf32>}}
    %t = iree_tensor_ext.dispatch.tensor.load %in, offsets = [0], sizes = [2], strides = [1]
        : !iree_tensor_ext.dispatch.tensor<readonly:tensor<4xf32>> -> tensor<4xf32>
    flow.return
  }
  util.return %r : tensor<4xf32>
}

// -----

util.func public @tie_shape_missing_dims(%out: !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>) {
  // expected-error @+1 {{expected the operand's type with 1 dims}}
  %o = flow.dispatch.tie_shape %out : !iree_tensor_ext.dispatch.tensor<writeonly:tensor<?xf32>>
  util.return
}
