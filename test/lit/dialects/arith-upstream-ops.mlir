// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file --print-op-generic | fusion-opt --split-input-file | filecheck %s

// arith casts on tensors and vectors (xDSL takes scalars only), arith.remf, arith.index_castui.

// CHECK-LABEL: func.func @casts
// CHECK: arith.sitofp %{{.*}} : tensor<4xi32> to tensor<4xf32>
// CHECK: arith.extsi %{{.*}} : vector<4xi8> to vector<4xi32>
// CHECK: arith.index_cast %{{.*}} : tensor<4xi32> to tensor<4xindex>
// CHECK: arith.fptosi %{{.*}} : tensor<4xf32> to tensor<4xi32>
// CHECK: arith.trunci %{{.*}} : tensor<4xi32> to tensor<4xi8>
// CHECK: arith.extf %{{.*}} : f16 to f32
func.func @casts(%t: tensor<4xf32>, %ti: tensor<4xi32>, %vi: vector<4xi8>, %h: f16) {
  %0 = arith.sitofp %ti : tensor<4xi32> to tensor<4xf32>
  %1 = arith.extsi %vi : vector<4xi8> to vector<4xi32>
  %2 = arith.index_cast %ti : tensor<4xi32> to tensor<4xindex>
  %3 = arith.fptosi %t : tensor<4xf32> to tensor<4xi32>
  %4 = arith.trunci %ti : tensor<4xi32> to tensor<4xi8>
  %5 = arith.extf %h : f16 to f32
  return
}

// -----

// CHECK-LABEL: func.func @new_ops
// CHECK: arith.remf %{{.*}}, %{{.*}} : f32
// CHECK: arith.remf %{{.*}}, %{{.*}} : tensor<4xf32>
// CHECK: arith.index_castui %{{.*}} : index to i64
// CHECK: arith.index_castui %{{.*}} : tensor<4xi32> to tensor<4xindex>
func.func @new_ops(%x: f32, %t: tensor<4xf32>, %i: index, %ti: tensor<4xi32>) {
  %0 = arith.remf %x, %x : f32
  %1 = arith.remf %t, %t : tensor<4xf32>
  %2 = arith.index_castui %i : index to i64
  %3 = arith.index_castui %ti : tensor<4xi32> to tensor<4xindex>
  return
}

// -----

// arith.cmpi / arith.cmpf on tensors and vectors: the result is i1 of the operands' shape.
// CHECK-LABEL: func.func @shaped_compares
// CHECK: arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<8x8xi64>
// CHECK: arith.cmpf ult, %{{.*}}, %{{.*}} : vector<[8]xf64>
// CHECK: arith.cmpi ult, %{{.*}}, %{{.*}} : vector<i64>
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}} : tensor<8x8xi1>, vector<[8]xi1>, vector<i1>
func.func @shaped_compares(%a: tensor<8x8xi64>, %f: vector<[8]xf64>, %z: vector<i64>) -> (tensor<8x8xi1>, vector<[8]xi1>, vector<i1>) {
  %0 = arith.cmpi slt, %a, %a : tensor<8x8xi64>
  %1 = arith.cmpf ult, %f, %f : vector<[8]xf64>
  %2 = arith.cmpi ult, %z, %z : vector<i64>
  return %0, %1, %2 : tensor<8x8xi1>, vector<[8]xi1>, vector<i1>
}
