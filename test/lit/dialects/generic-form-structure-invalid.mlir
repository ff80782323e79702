// RUN: fusion-opt %s --split-input-file --verify-diagnostics

// Ops whose verifier fusionopt replaced check their definition first (operand, result and
// property counts), and a `?` size has its value: these crashed the verifier or the printer.

func.func @transpose_without_permutation(%a: tensor<2x3xf32>, %o: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{'linalg.transpose' op property 'permutation' expected}}
  %r = "linalg.transpose"(%a, %o) ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

func.func @expand_shape_without_source() -> tensor<1xf32> {
  // expected-error@+1 {{'tensor.expand_shape' op Expected at least 1 operand, but got 0}}
  %r = "tensor.expand_shape"() <{reassociation = [], static_output_shape = array<i64: 1>}> : () -> tensor<1xf32>
  return %r : tensor<1xf32>
}

// -----

func.func @expand_shape_dynamic_size_without_value(%a: tensor<?xf32>) -> tensor<?x2xf32> {
  // expected-error@+1 {{static_output_shape has 1 dynamic dims while output_shape has 0 values}}
  %r = "tensor.expand_shape"(%a) <{reassociation = [[0, 1]], static_output_shape = array<i64: -9223372036854775808, 2>}> : (tensor<?xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}

// -----

func.func @pad_dynamic_low_without_value(%a: tensor<2xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{static_low has 1 dynamic dims while low has 0 values}}
  %r = "tensor.pad"(%a) <{static_low = array<i64: -9223372036854775808>, static_high = array<i64: 1>, operandSegmentSizes = array<i32: 1, 0, 0>}> ({
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f32
    tensor.yield %c : f32
  }) : (tensor<2xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @fill_without_value(%o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'linalg.fill' op expects 1 input and 1 output, but got 0 inputs and 1 output}}
  %r = "linalg.fill"(%o) <{operandSegmentSizes = array<i32: 0, 1>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @cast_without_operand() -> f32 {
  // expected-error@+1 {{'arith.extf' op requires a single operand}}
  %r = "arith.extf"() : () -> f32
  return %r : f32
}

// -----

func.func @map_of_a_scalar(%a: f32, %o: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'linalg.map' op operand #0 must be a tensor or memref, but got 'f32'}}
  %r = linalg.map { arith.negf } ins(%a : f32) outs(%o : tensor<4xf32>)
  return %r : tensor<4xf32>
}

// -----

func.func @im2col_dynamic_offset_without_value(%a: tensor<2x34x34x640xf32>, %o: tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32> {
  // expected-error@+1 {{static_offsets has 1 dynamic dims while offsets has 0 values}}
  %0 = "iree_linalg_ext.im2col"(%a, %o) <{strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, static_kernel_size = array<i64: 3, 3>, static_offsets = array<i64: -9223372036854775808, 0, 0>, static_output_sizes = [array<i64: 2>, array<i64: 32, 32>, array<i64: 3, 3, 640>], batch_pos = array<i64: 0>, m_pos = array<i64: 1, 2>, k_pos = array<i64: 3>, input_k_perm = array<i64: 0, 1, 2>, output_perm = array<i64: 0, 1, 2>, static_input_pad_low = array<i64>, static_input_pad_high = array<i64>, static_output_pad_low = array<i64>, static_output_pad_high = array<i64>, operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0, 0, 0>}> : (tensor<2x34x34x640xf32>, tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>
  return %0 : tensor<2x1024x5760xf32>
}
