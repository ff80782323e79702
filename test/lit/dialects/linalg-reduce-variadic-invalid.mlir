// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @init_shape(%a: tensor<4x8xf32>, %b: tensor<4x8xi64>, %i: tensor<4xf32>, %j: tensor<8xi64>) -> (tensor<4xf32>, tensor<8xi64>) {
  // expected-error @+1 {{init #1 tensor<8xi64> must have the input shape without dimensions [1]: [4]}}
  %r, %s = linalg.reduce ins(%a, %b : tensor<4x8xf32>, tensor<4x8xi64>) outs(%i, %j : tensor<4xf32>, tensor<8xi64>) dimensions = [1]
      (%x: f32, %y: i64, %p: f32, %q: i64) {
        linalg.yield %x, %y : f32, i64
      }
  func.return %r, %s : tensor<4xf32>, tensor<8xi64>
}

// -----

func.func @unpaired(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expects as many inits as inputs (at least one), got 2 and 1}}
  %r = linalg.reduce ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
      (%x: f32, %y: f32, %p: f32) {
        linalg.yield %x : f32
      }
  func.return %r : tensor<4xf32>
}
