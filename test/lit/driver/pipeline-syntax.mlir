// Both pipeline syntaxes, spaces after commas, anchors, repeated -p.
// RUN: fusion-opt %s -p 'cse, dce' | filecheck %s
// RUN: fusion-opt %s --pass-pipeline='builtin.module(func.func(cse), dce)' | filecheck %s
// RUN: fusion-opt %s --pass-pipeline='builtin.module(any(cse),util.func(dce))' | filecheck %s
// RUN: fusion-opt %s -p cse -p dce | filecheck %s
// RUN: fusion-opt %s -p 'cse,dce' --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=ORDER
// An empty pipeline only parses and prints.
// RUN: fusion-opt %s | filecheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @dedup
// CHECK:         %[[S:.*]] = arith.addf %{{.*}}, %{{.*}} : f32
// CHECK-NOT:     arith.addf
// CHECK-NOT:     arith.subf
// CHECK:         func.return %[[S]] : f32
// NONE-COUNT-2:  arith.addf
// NONE:          arith.subf
// ORDER:         IR Dump After cse
// ORDER:         IR Dump After dce
func.func @dedup(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %a, %a : f32
  %dead = arith.subf %0, %1 : f32
  func.return %0 : f32
}
