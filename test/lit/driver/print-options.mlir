// Locations are attached to parsed ops but printed only with --mlir-print-debuginfo.
// RUN: fusion-opt %s | filecheck %s --check-prefix=PLAIN
// RUN: fusion-opt %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUG
// RUN: fusion-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: fusion-opt %s --print-op-generic | fusion-opt - | filecheck %s --check-prefix=PLAIN

// PLAIN-NOT: loc(
// PLAIN: arith.addf %a, %a : f32
// DEBUG: arith.addf %a, %a : f32 loc("{{.*}}print-options.mlir":[[# @LINE + 3]]:3)
// GENERIC: "arith.addf"(%{{.*}}, %{{.*}}) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
func.func @f(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  func.return %0 : f32
}
