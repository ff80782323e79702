// `graph-to-dispatch` on mlp_towers (4 towers x 3 Linear+SiLU; IREE makes 12 dispatches): the
// four first layers share %x and become one wide matmul, the deeper layers one batch_matmul each
// (batch = tower); bias and SiLU are fused into each GEMM's region, so exactly 3 regions remain,
// separated only by free reshapes.
// RUN: fusion-opt %data/mlp_towers_small.mlir -p graph-to-dispatch | filecheck %s

// CHECK-LABEL: func.func @mlp_towers
// CHECK-SAME:    (%[[X:.*]]: tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK:         %[[L0:.*]] = flow.dispatch.region -> (tensor<1x64xf32>) {
// CHECK-NOT:       flow.dispatch.region
// CHECK:           linalg.matmul ins(%[[X]], %{{.*}} : tensor<1x16xf32>, tensor<16x64xf32>)
// CHECK-NOT:       linalg.{{(batch_)?}}matmul
// CHECK:           math.exp
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.generic
// CHECK:         %[[IN1:.*]] = flow.tensor.reshape %{{.*}} : tensor<64xf32> -> tensor<4x1x16xf32>
// CHECK:         %[[L1:.*]] = flow.dispatch.region -> (tensor<4x1x16xf32>) {
// CHECK-NOT:       flow.dispatch.region
// CHECK:           linalg.batch_matmul ins(%[[IN1]], %{{.*}} : tensor<4x1x16xf32>, tensor<4x16x16xf32>)
// CHECK-NOT:       linalg.{{(batch_)?}}matmul
// CHECK:           math.exp
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.generic
// CHECK:         %[[L2:.*]] = flow.dispatch.region -> (tensor<4x1x4xf32>) {
// CHECK-NOT:       flow.dispatch.region
// CHECK:           linalg.batch_matmul ins(%[[L1]], %{{.*}} : tensor<4x1x16xf32>, tensor<4x16x4xf32>)
// CHECK-NOT:       linalg.{{(batch_)?}}matmul
// CHECK:           math.exp
// CHECK:           flow.return
// CHECK-NEXT:    }
// CHECK-NOT:     flow.dispatch.region
// CHECK-NOT:     linalg.
// CHECK:         func.return
