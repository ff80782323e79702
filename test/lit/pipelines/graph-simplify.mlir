// The named pipeline end to end: constants folded, the weight transpose canonicalised away,
// the chain reassociated, and fusion-stats sees the FLOPs drop.
// RUN: fusion-opt %s -p graph-simplify 2>/dev/null | filecheck %s
// RUN: fusion-stats %s | filecheck %s --check-prefix=BEFORE
// RUN: fusion-opt %s -p graph-simplify 2>/dev/null | fusion-stats - | filecheck %s --check-prefix=AFTER
// graph-simplify-strict-nonfinite: the same, but a chain whose weights have mixed signs is kept.
// RUN: fusion-opt %s -p graph-simplify-strict-nonfinite 2>/dev/null | filecheck %s --check-prefix=STRICT

// CHECK-LABEL: func.func @x_linear_c
// CHECK-SAME:    (%[[X:.*]]: tensor<8x8xf32>, %[[Y:.*]]: tensor<8x8xf32>)
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT:    %[[YW:.*]] = graph.dot %[[Y]], %[[W]]
// CHECK-NEXT:    %[[B:.*]] = arith.constant dense<2.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[YW]], %[[B]]
// CHECK-NEXT:    %[[R:.*]] = graph.dot %[[X]], %[[S]]
// CHECK-NEXT:    func.return %[[R]]
// BEFORE: flops {{ *}}3144
// AFTER:  flops {{ *}}2112
func.func @x_linear_c(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %a = arith.constant dense<0.5> : tensor<8x8xf32>
  %at = graph.transpose %a perm = [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
  %half = arith.constant dense<0.5> : tensor<8xf32>
  %two = arith.constant dense<2.0> : tensor<8xf32>
  %bv = graph.mul %half, %two : tensor<8xf32>
  %c = arith.constant dense<0.25> : tensor<8x8xf32>
  %ya = graph.dot %y, %at : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %b = graph.broadcast %bv dims = [1] : tensor<8xf32> -> tensor<8x8xf32>
  %s = graph.add %ya, %b : tensor<8x8xf32>
  %xs = graph.dot %x, %s : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = graph.dot %xs, %c : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  func.return %r : tensor<8x8xf32>
}

// Mixed-sign weights: reassociated by default (the fast-math contract: finite values), kept by
// the strict pipeline (an inf in %x would give NaN in one order and inf in the other).
// CHECK-LABEL: func.func @mixed_signs
// CHECK:         %[[AC:.*]] = arith.constant dense<{{\[}}[-5.000000e-01, 2.000000e+00], [5.000000e-01, -2.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.dot %{{.*}}, %[[AC]]
// CHECK-NEXT:    func.return %[[R]]
// STRICT-LABEL: func.func @x_linear_c
// STRICT:         graph.add
// STRICT-NEXT:    %[[R:.*]] = graph.dot
// STRICT-NEXT:    func.return %[[R]]
// STRICT-LABEL: func.func @mixed_signs
// STRICT:         %[[XA:.*]] = graph.dot %{{.*}}, %{{.*}}
// STRICT-NEXT:    %[[R:.*]] = graph.dot %[[XA]], %{{.*}}
// STRICT-NEXT:    func.return %[[R]]
func.func @mixed_signs(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %a = arith.constant dense<[[1.0, -1.0], [-1.0, 1.0]]> : tensor<2x2xf32>
  %c = arith.constant dense<[[0.5, 1.0], [1.0, -1.0]]> : tensor<2x2xf32>
  %0 = graph.dot %x, %a : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %1 = graph.dot %0, %c : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}
