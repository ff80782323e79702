// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @shape_mismatch(%ti: tensor<4xi32>) {
  // expected-error@+1 {{'arith.sitofp' op operand type tensor<4xi32> and result type tensor<8xf32> are not cast compatible}}
  %0 = arith.sitofp %ti : tensor<4xi32> to tensor<8xf32>
  return
}

// -----

func.func @tensor_to_scalar(%ti: tensor<4xi32>) {
  // expected-error@+1 {{are not cast compatible}}
  %0 = arith.sitofp %ti : tensor<4xi32> to f32
  return
}

// -----

func.func @wrong_kind(%t: tensor<4xf32>) {
  // expected-error@+1 {{'arith.extsi' op cannot cast tensor<4xf32> to tensor<4xi64>}}
  %0 = arith.extsi %t : tensor<4xf32> to tensor<4xi64>
  return
}

// -----

func.func @not_wider(%t: tensor<4xf32>) {
  // expected-error@+1 {{'arith.extf' op result type f16 must be wider than operand type f32}}
  %0 = arith.extf %t : tensor<4xf32> to tensor<4xf16>
  return
}

// -----

func.func @index_both_sides(%i: index) {
  // expected-error@+1 {{casts between index and an integer type}}
  %0 = arith.index_castui %i : index to index
  return
}

// -----

func.func @compare_result_shape(%a: tensor<4xi32>) {
  // expected-error@+1 {{'arith.cmpi' op result type must be tensor<4xi1>, got i1}}
  %0 = "arith.cmpi"(%a, %a) <{predicate = 2 : i64}> : (tensor<4xi32>, tensor<4xi32>) -> i1
  return
}
