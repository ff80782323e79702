// IR dumps go to stderr, headed like mlir-opt's; stdout keeps only the result.
// RUN: fusion-opt %s -p cse,dce --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=ALL
// RUN: fusion-opt %s -p cse,dce --print-ir-before=dce 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: fusion-opt %s -p cse,dce --print-ir-after=cse 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: fusion-opt %s -p cse,dce --print-ir-after-all 2>/dev/null | filecheck %s --check-prefix=STDOUT

// ALL:      // -----// IR Dump After cse //----- //
// ALL:        %{{.*}} = arith.addf
// ALL-NOT:    arith.addf
// ALL:        arith.mulf
// ALL:      // -----// IR Dump After dce //----- //
// ALL:        func.return

// BEFORE-NOT: IR Dump After
// BEFORE:     // -----// IR Dump Before dce //----- //
// BEFORE:       arith.addf
// BEFORE-NOT:   arith.addf
// BEFORE:       arith.mulf
// BEFORE-NOT: IR Dump

// AFTER:      // -----// IR Dump After cse //----- //
// AFTER-NOT:  IR Dump

// STDOUT-NOT: IR Dump
// STDOUT:     func.func @f
func.func @f(%a: f32) -> f32 {
  %0 = arith.addf %a, %a : f32
  %1 = arith.addf %a, %a : f32
  %2 = arith.mulf %0, %1 : f32
  func.return %2 : f32
}
