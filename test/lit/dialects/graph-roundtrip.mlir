// Every graph op in its custom form: print, reprint, and the generic form re-reads to the same IR.
// RUN: fusion-opt %s | fusion-opt | filecheck %s
// RUN: fusion-opt %s --print-op-generic | fusion-opt | filecheck %s
// RUN: fusion-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @elementwise
// GENERIC-LABEL: "func.func"
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> tensor<4x8xf32> {
  // CHECK: %{{.*}} = graph.add %{{.*}}, %{{.*}} : tensor<4x8xf32>
  // GENERIC: "graph.add"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = graph.add %a, %b : tensor<4x8xf32>
  // CHECK: graph.sub %{{.*}}, %{{.*}} : tensor<4x8xf32>
  %1 = graph.sub %0, %b : tensor<4x8xf32>
  // CHECK: graph.mul
  %2 = graph.mul %1, %0 : tensor<4x8xf32>
  // CHECK: graph.div
  %3 = graph.div %2, %a : tensor<4x8xf32>
  // CHECK: graph.max
  %4 = graph.max %3, %a : tensor<4x8xf32>
  // CHECK: graph.min
  %5 = graph.min %4, %a : tensor<4x8xf32>
  // CHECK: graph.pow
  %6 = graph.pow %5, %a : tensor<4x8xf32>
  // CHECK: graph.div %{{.*}}, %{{.*}} : tensor<4x8xi32>
  %idiv = graph.div %i, %i : tensor<4x8xi32>
  // CHECK: graph.rem %{{.*}}, %{{.*}} : tensor<4x8xi32>
  %irem = graph.rem %idiv, %i : tensor<4x8xi32>
  // CHECK: graph.rem %{{.*}}, %{{.*}} : tensor<4x8xf32>
  %frem = graph.rem %6, %a : tensor<4x8xf32>
  // CHECK: graph.neg %{{.*}} : tensor<4x8xf32>
  %u0 = graph.neg %6 : tensor<4x8xf32>
  // CHECK: graph.abs
  %u1 = graph.abs %u0 : tensor<4x8xf32>
  // CHECK: graph.exp
  %u2 = graph.exp %u1 : tensor<4x8xf32>
  // CHECK: graph.exp2
  %u3 = graph.exp2 %u2 : tensor<4x8xf32>
  // CHECK: graph.log
  %u4 = graph.log %u3 : tensor<4x8xf32>
  // CHECK: graph.sqrt
  %u5 = graph.sqrt %u4 : tensor<4x8xf32>
  // CHECK: graph.rsqrt
  %u6 = graph.rsqrt %u5 : tensor<4x8xf32>
  // CHECK: graph.recip
  %u7 = graph.recip %u6 : tensor<4x8xf32>
  // CHECK: graph.sin
  %u8 = graph.sin %u7 : tensor<4x8xf32>
  // CHECK: graph.cos
  %u9 = graph.cos %u8 : tensor<4x8xf32>
  // CHECK: graph.tanh
  %u10 = graph.tanh %u9 : tensor<4x8xf32>
  // CHECK: graph.sigmoid
  %u11 = graph.sigmoid %u10 : tensor<4x8xf32>
  // CHECK: graph.relu
  %u12 = graph.relu %u11 : tensor<4x8xf32>
  // CHECK: graph.erf %{{.*}} : tensor<4x8xf32>
  %u14 = graph.erf %u12 : tensor<4x8xf32>
  // CHECK: graph.log1p %{{.*}} : tensor<4x8xf32>
  %u15 = graph.log1p %u14 : tensor<4x8xf32>
  // CHECK: graph.expm1 %{{.*}} : tensor<4x8xf32>
  %u16 = graph.expm1 %u15 : tensor<4x8xf32>
  // CHECK: graph.round %{{.*}} : tensor<4x8xf32>
  %u17 = graph.round %u16 : tensor<4x8xf32>
  // CHECK: graph.floor %{{.*}} : tensor<4x8xf32>
  %u18 = graph.floor %u17 : tensor<4x8xf32>
  // CHECK: graph.ceil %{{.*}} : tensor<4x8xf32>
  %u13 = graph.ceil %u18 : tensor<4x8xf32>
  // CHECK: graph.greater %{{.*}}, %{{.*}} : tensor<4x8xf32> -> tensor<4x8xi1>
  // GENERIC: "graph.greater"(%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %m0 = graph.greater %u13, %a : tensor<4x8xf32> -> tensor<4x8xi1>
  // CHECK: graph.equal %{{.*}}, %{{.*}} : tensor<4x8xi32> -> tensor<4x8xi1>
  %m1 = graph.equal %i, %idiv : tensor<4x8xi32> -> tensor<4x8xi1>
  // CHECK: graph.less
  %m2 = graph.less %u13, %b : tensor<4x8xf32> -> tensor<4x8xi1>
  // CHECK: graph.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x8xi1>, tensor<4x8xf32>
  %w = graph.where %m0, %u13, %a : tensor<4x8xi1>, tensor<4x8xf32>
  // CHECK: graph.convert %{{.*}} : tensor<4x8xf32> -> tensor<4x8xbf16>
  %c = graph.convert %w : tensor<4x8xf32> -> tensor<4x8xbf16>
  func.return %w : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%a: tensor<8xf32>, %b: tensor<4x8xf32>, %p: tensor<1x5xf32>, %q: tensor<3xi32>) -> tensor<4x8xf32> {
  // CHECK: graph.broadcast %{{.*}} dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
  // GENERIC: "graph.broadcast"(%{{.*}}) <{dims = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4x8xf32>
  %0 = graph.broadcast %a dims = [1] : tensor<8xf32> -> tensor<4x8xf32>
  // CHECK: graph.reshape %{{.*}} : tensor<4x8xf32> -> tensor<32xf32>
  %1 = graph.reshape %0 : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: graph.transpose %{{.*}} perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %2 = graph.transpose %b perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK: graph.slice %{{.*}} axes = [1] starts = [0] ends = [4] : tensor<4x8xf32> -> tensor<4x4xf32>
  %3 = graph.slice %b axes = [1] starts = [0] ends = [4] : tensor<4x8xf32> -> tensor<4x4xf32>
  // CHECK: graph.concat %{{.*}}, %{{.*}} axis = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  // GENERIC: "graph.concat"(%{{.*}}, %{{.*}}) <{axis = 1 : i64}>
  %4 = graph.concat %3, %3 axis = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  // CHECK: graph.pad %{{.*}} low = [0, 0] high = [1, 0] value = 0.0 : tensor<1x5xf32> -> tensor<2x5xf32>
  // GENERIC: "graph.pad"(%{{.*}}) <{low = array<i64: 0, 0>, high = array<i64: 1, 0>, value = 0.000000e+00 : f32}>
  %5 = graph.pad %p low = [0, 0] high = [1, 0] value = 0.0 : tensor<1x5xf32> -> tensor<2x5xf32>
  // CHECK: graph.pad %{{.*}} low = [0, 1] high = [0, 0] value = -1.5 : tensor<1x5xf32> -> tensor<1x6xf32>
  %6 = graph.pad %p low = [0, 1] high = [0, 0] value = -1.5 : tensor<1x5xf32> -> tensor<1x6xf32>
  // CHECK: graph.pad %{{.*}} low = [2] high = [1] value = 7 : tensor<3xi32> -> tensor<6xi32>
  %7 = graph.pad %q low = [2] high = [1] value = 7 : tensor<3xi32> -> tensor<6xi32>
  // -inf is written as its bit pattern, like MLIR float attributes.
  // CHECK: graph.pad %{{.*}} low = [0, 0] high = [0, 1] value = 0xff800000 : tensor<1x5xf32> -> tensor<1x6xf32>
  %8 = graph.pad %p low = [0, 0] high = [0, 1] value = 0xFF800000 : tensor<1x5xf32> -> tensor<1x6xf32>
  func.return %4 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @compute
func.func @compute(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %t: tensor<1024x128xf32>, %idx: tensor<1x64xi64>) -> tensor<2x4x16xf32> {
  // CHECK: graph.dot %{{.*}}, %{{.*}} : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  // GENERIC: "graph.dot"(%{{.*}}, %{{.*}}) : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  %0 = graph.dot %a, %b : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
  // CHECK: graph.reduce_sum %{{.*}} axes = [1] : tensor<2x4x16xf32> -> tensor<2x1x16xf32>
  %1 = graph.reduce_sum %0 axes = [1] : tensor<2x4x16xf32> -> tensor<2x1x16xf32>
  // CHECK: graph.reduce_max %{{.*}} axes = [0, 2] : tensor<2x4x16xf32> -> tensor<1x4x1xf32>
  %2 = graph.reduce_max %0 axes = [0, 2] : tensor<2x4x16xf32> -> tensor<1x4x1xf32>
  // CHECK: graph.reduce_mean
  %3 = graph.reduce_mean %0 axes = [2] : tensor<2x4x16xf32> -> tensor<2x4x1xf32>
  // CHECK: graph.gather %{{.*}}, %{{.*}} axis = 0 : (tensor<1024x128xf32>, tensor<1x64xi64>) -> tensor<1x64x128xf32>
  // GENERIC: "graph.gather"(%{{.*}}, %{{.*}}) <{axis = 0 : i64}>
  %4 = graph.gather %t, %idx axis = 0 : (tensor<1024x128xf32>, tensor<1x64xi64>) -> tensor<1x64x128xf32>
  // CHECK: arith.constant dense<1.000000e+00> : tensor<2x4x16xf32>
  %c = arith.constant dense<1.0> : tensor<2x4x16xf32>
  // CHECK: graph.add %{{.*}}, %{{.*}} : tensor<2x4x16xf32>
  %5 = graph.add %0, %c : tensor<2x4x16xf32>
  func.return %5 : tensor<2x4x16xf32>
}
