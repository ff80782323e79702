// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// linalg.reduce with several inputs and inits, and MLIR's short form.

// CHECK-LABEL: func.func @variadic
// CHECK: linalg.reduce ins(%{{.*}}, %{{.*}} : tensor<16x32x64xf32>, tensor<16x32x64xi64>) outs(%{{.*}}, %{{.*}} : tensor<16x64xf32>, tensor<16x64xi64>) dimensions = [1]
// CHECK: linalg.yield %{{.*}}, %{{.*}} : f32, i64
func.func @variadic(%input1: tensor<16x32x64xf32>, %init1: tensor<16x64xf32>, %input2: tensor<16x32x64xi64>, %init2: tensor<16x64xi64>) -> (tensor<16x64xf32>, tensor<16x64xi64>) {
  %reduce, %reduce2 = linalg.reduce
      ins(%input1, %input2 : tensor<16x32x64xf32>, tensor<16x32x64xi64>)
      outs(%init1, %init2 : tensor<16x64xf32>, tensor<16x64xi64>)
      dimensions = [1]
      (%in1: f32, %in2: i64, %out1: f32, %out2: i64) {
        %0 = arith.addf %in1, %out1: f32
        %1 = arith.addi %in2, %out2: i64
        linalg.yield %0, %1: f32, i64
      }
  func.return %reduce, %reduce2 : tensor<16x64xf32>, tensor<16x64xi64>
}

// -----

// CHECK-LABEL: func.func @short_form
// CHECK: linalg.reduce ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4xf32>) dimensions = [1]
// CHECK: arith.addf
func.func @short_form(%a: tensor<4x8xf32>, %i: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf32>) outs(%i : tensor<4xf32>) dimensions = [1]
  func.return %r : tensor<4xf32>
}
