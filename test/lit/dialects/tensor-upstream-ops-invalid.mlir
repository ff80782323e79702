// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @pad_static_mismatch(%arg0: tensor<3x4xf32>, %v: f32) {
  // expected-error@+1 {{result dimension 1 is 8, but the padded source gives 9}}
  %0 = tensor.pad %arg0 low[1, 2] high[2, 3] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x4xf32> to tensor<6x8xf32>
  return
}

// -----

func.func @generate_extents(%m : index) {
  // expected-error@+1 {{must have as many index operands as dynamic extents in the result type}}
  %t = tensor.generate %m {
  ^bb0(%i : index, %j : index):
    %e = arith.constant 8.0 : f32
    tensor.yield %e : f32
  } : tensor<?x?xf32>
  return
}

// -----

func.func @gather_shape(%dest : tensor<4x5x6xf32>, %indices: tensor<1x3x2xindex>) {
  // expected-error@+1 {{expected the slices to have shape (1, 3, 4, 1, 1) or rank-reduced (1, 3, 4), got tensor<1x3x4x5xf32>}}
  %g = tensor.gather %dest[%indices] gather_dims([1, 2]) : (tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<1x3x4x5xf32>
  return
}

// -----

func.func @gather_dims_order(%dest : tensor<4x5x6xf32>, %indices: tensor<1x3x2xindex>) {
  // expected-error@+1 {{gather_dims must be strictly increasing dimensions of the source, got [2, 1]}}
  %g = tensor.gather %dest[%indices] gather_dims([2, 1]) : (tensor<4x5x6xf32>, tensor<1x3x2xindex>) -> tensor<1x3x4x1x1xf32>
  return
}

// -----

func.func @fill_tensor_value(%t: tensor<4xf32>, %out: tensor<4xf32>) {
  // expected-error@+1 {{fill value must be a scalar, not tensor<4xf32>}}
  %0 = linalg.fill ins(%t : tensor<4xf32>) outs(%out : tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// A single-block region with a second block (MLIR's SizedRegion<1> message).
func.func @pad_two_blocks(%a: tensor<?x?xf32>, %h: index, %v: f32) -> tensor<2x3xf32> {
  // expected-error@+1 {{'tensor.pad' op region #0 ('region') failed to verify constraint: region with 1 blocks}}
  %0 = tensor.pad %a low[0, 0] high[%h, %h] {
    tensor.yield %v : f32
  ^bb0(%i: index, %j: index):
  } : tensor<?x?xf32> to tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// MLIR's tensor.empty verifier (xDSL 0.74's does not check it): one size per `?`.
func.func @empty_without_its_size() -> tensor<1x?xf32> {
  // expected-error@+1 {{'tensor.empty' op incorrect number of dynamic sizes, has 0, expected 1}}
  %e = tensor.empty() : tensor<1x?xf32>
  return %e : tensor<1x?xf32>
}
