// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @vector_into_scalars(%v: vector<2x4xf32>, %t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{a vector fill value needs outputs of vector<2x4xf32> elements, got f32}}
  %r = linalg.fill ins(%v : vector<2x4xf32>) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @index_into_floats(%i: index, %t: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{expected fill value type ('index') to match output element type ('f32')}}
  %r = linalg.fill ins(%i : index) outs(%t : tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
