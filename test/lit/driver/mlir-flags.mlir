// iree-opt's spellings of our flags, and the flags iree-opt users reach for.
// RUN: fusion-opt %s -p cse --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=AFTERALL
// AFTERALL: // -----// IR Dump After cse //----- //
// RUN: fusion-opt %s -p cse,dce --mlir-print-ir-before=dce --mlir-print-ir-after=cse 2>&1 >/dev/null | filecheck %s --check-prefix=NAMED
// NAMED: // -----// IR Dump After cse //----- //
// NAMED: // -----// IR Dump Before dce //----- //
// NAMED-NOT: IR Dump

// Large non-splat constants print as MLIR elides them; splats and small ones stay.
// RUN: fusion-opt %s --mlir-elide-elementsattrs-if-larger=2 | filecheck %s --check-prefix=ELIDE
// ELIDE: arith.constant dense_resource<__elided__> : tensor<3xf32>
// ELIDE: arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// ELIDE: arith.constant dense<5.000000e+00> : tensor<8xf32>
// The elided form is still valid IR.
// RUN: fusion-opt %s --mlir-elide-elementsattrs-if-larger=2 | fusion-opt - > /dev/null

// RUN: fusion-opt %s -p cse --mlir-pass-statistics 2>&1 >/dev/null | filecheck %s --check-prefix=STATS
// STATS: ===-------------------------------------------------------------------------===
// STATS-NEXT: ... Pass statistics report ...
// STATS-NEXT: ===-------------------------------------------------------------------------===
// STATS-NEXT: cse

// RUN: fusion-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: fusionopt version {{[0-9]+\.[0-9]+}}
// VERSION-NEXT: xDSL version
// RUN: fusion-opt --show-dialects | filecheck %s --check-prefix=DIALECTS
// DIALECTS: Available Dialects: {{.*}}arith,{{.*}}flow,{{.*}}graph,{{.*}}linalg,

// RUN: fusion-opt %s -p cse --verify-each | filecheck %s --check-prefix=OUT
// RUN: fusion-opt %s -p cse --verify-each=false | filecheck %s --check-prefix=OUT
// RUN: fusion-opt %s -p cse --verify-each=true | filecheck %s --check-prefix=OUT
// OUT: func.func @f
// RUN: not fusion-opt %s --verify-each=maybe 2>&1 | filecheck %s --check-prefix=BADBOOL
// BADBOOL: usage: fusion-opt
// BADBOOL: fusion-opt: error: argument --verify-each: expected true or false, got 'maybe'

// An unknown flag: the usage line, the error and a suggestion; exit code 1 (not argparse's 2).
// RUN: not fusion-opt %s --mlir-print-ir-afterall 2>&1 | filecheck %s --check-prefix=TYPO
// TYPO: usage: fusion-opt
// TYPO: fusion-opt: error: unrecognized arguments: --mlir-print-ir-afterall
// TYPO-NEXT: note: unknown flag '--mlir-print-ir-afterall'; did you mean '--mlir-print-ir-after-all'?

// The --help example pipeline is real.
// RUN: fusion-opt %s -p 'cse,linalg-fuse-elementwise{aggressive=true}' | filecheck %s --check-prefix=OUT

func.func @f() -> (tensor<3xf32>, tensor<2xf32>, tensor<8xf32>) {
  %0 = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %2 = arith.constant dense<5.0> : tensor<8xf32>
  func.return %0, %1, %2 : tensor<3xf32>, tensor<2xf32>, tensor<8xf32>
}
