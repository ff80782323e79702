// RUN: fusion-opt %s -p cse,dce | filecheck %s

// CHECK-LABEL: func.func @dedup
func.func @dedup(%a: f32) -> f32 {
  // CHECK: %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
  // CHECK-NOT: arith.addf
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %a, %a : f32
  %2 = arith.mulf %0, %1 : f32
  // CHECK: arith.mulf %[[S]], %[[S]]
  func.return %2 : f32
}
