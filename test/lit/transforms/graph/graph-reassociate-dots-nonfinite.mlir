// graph-reassociate-dots' infinities rule (`strict-nonfinite=true`): a float chain is re-planned
// only when no pattern of infinities in the run-time operand can give NaN in one order and
// +-inf in the other -- its constants are zero-free with rank-1 sign patterns that agree where
// they meet. By default (the fast-math contract: finite values) every case here is re-planned
// (DEFAULT).
// RUN: fusion-opt %s --split-input-file -p 'graph-reassociate-dots{strict-nonfinite=true}' 2>/dev/null | filecheck %s
// RUN: fusion-opt %s --split-input-file --verify-diagnostics -p 'graph-reassociate-dots{strict-nonfinite=true}'
// RUN: fusion-opt %s --split-input-file -p graph-reassociate-dots 2>/dev/null | filecheck %s --check-prefix=DEFAULT
// The pass's helper modules these cases exercise: graph/dot_chain_nonfinite.py.

// Sign-rigid weights: sign(A) = [1 1]^T [1 -1], sign(C) = [1 -1]^T [1 1]; A*C folds.
// DEFAULT-LABEL: func.func @sign_rigid
// DEFAULT-COUNT-1: graph.dot
// DEFAULT-NEXT:    func.return
// CHECK-LABEL: func.func @sign_rigid
// CHECK:         %[[AC:.*]] = arith.constant dense<{{\[}}[4.000000e+00, 7.000000e+00], [7.000000e+00, 6.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.dot %{{.*}}, %[[AC]]
// CHECK-NEXT:    func.return %[[R]]
func.func @sign_rigid(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %a = arith.constant dense<[[1.0, -2.0], [3.0, -1.0]]> : tensor<2x2xf32>
  %c = arith.constant dense<[[2.0, 1.0], [-1.0, -3.0]]> : tensor<2x2xf32>
  %0 = graph.dot %x, %a : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // expected-remark@+1 {{reassociated 2-dot chain: 64 FLOP -> 32 FLOP (2 -> 1 run-time dots)}}
  %1 = graph.dot %0, %c : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

// Negative splats are sign-rigid too.
// DEFAULT-LABEL: func.func @negative_splats
// DEFAULT-COUNT-1: graph.dot
// DEFAULT-NEXT:    func.return
// CHECK-LABEL: func.func @negative_splats
// CHECK:         arith.constant dense<-5.000000e-01> : tensor<2x2xf32>
// CHECK-NEXT:    graph.dot
// CHECK-NOT:     graph.dot
func.func @negative_splats(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %a = arith.constant dense<-1.0> : tensor<2x2xf32>
  %c = arith.constant dense<0.25> : tensor<2x2xf32>
  %0 = graph.dot %x, %a : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // expected-remark@+1 {{reassociated 2-dot chain: 64 FLOP -> 32 FLOP (2 -> 1 run-time dots)}}
  %1 = graph.dot %0, %c : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

// Property-run programs 1606/1607: a zero in A. Where x[i,k] = -inf the input forms
// -inf*0 = NaN in every column of row i; x*(A*C) gives +-inf there, and a `greater` + `where`
// downstream turned that into a different finite value. Kept.
// DEFAULT-LABEL: func.func @zero_in_weight
// DEFAULT-COUNT-1: graph.dot
// DEFAULT-NEXT:    func.return
// CHECK-LABEL: func.func @zero_in_weight
// CHECK:         %[[T:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<2x2xf32>)
// CHECK-NEXT:    graph.dot %[[T]], %{{.*}} : (tensor<4x2xf32>, tensor<2x2xf32>)
func.func @zero_in_weight(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %a = arith.constant dense<[[1.0, 0.0], [2.0, 1.0]]> : tensor<2x2xf32>
  %c = arith.constant dense<0.5> : tensor<2x2xf32>
  %0 = graph.dot %x, %a : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // expected-remark@+1 {{kept 2-dot chain: a constant factor holds a zero (inf*0 = NaN in one order, not in the other)}}
  %1 = graph.dot %0, %c : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

// Mixed signs within a row: x = [inf, 0] gives (x*A) = [inf, -inf] and (x*A)*C = inf - inf = NaN,
// but A*C = [[1], [..]] and x*(A*C) = inf. Kept.
// DEFAULT-LABEL: func.func @mixed_signs
// DEFAULT-COUNT-1: graph.dot
// DEFAULT-NEXT:    func.return
// CHECK-LABEL: func.func @mixed_signs
// CHECK:         graph.dot
// CHECK-NEXT:    graph.dot
func.func @mixed_signs(%x: tensor<4x2xf32>) -> tensor<4x1xf32> {
  %a = arith.constant dense<[[1.0, -1.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %c = arith.constant dense<[[2.0], [1.0]]> : tensor<2x1xf32>
  %0 = graph.dot %x, %a : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // expected-remark@+1 {{kept 2-dot chain: a constant factor's signs are not rank-1 (inf - inf = NaN in one order, not in the other)}}
  %1 = graph.dot %0, %c : (tensor<4x2xf32>, tensor<2x1xf32>) -> tensor<4x1xf32>
  func.return %1 : tensor<4x1xf32>
}

// -----

// Each weight is rank-1 in sign, but A's column signs [1, -1] meet C's row signs [1, 1]: the
// products A[k,l]*C[l,j] mix signs. Kept.
// DEFAULT-LABEL: func.func @adjacent_signs_disagree
// DEFAULT-COUNT-1: graph.dot
// DEFAULT-NEXT:    func.return
// CHECK-LABEL: func.func @adjacent_signs_disagree
// CHECK:         graph.dot
// CHECK-NEXT:    graph.dot
func.func @adjacent_signs_disagree(%x: tensor<4x2xf32>) -> tensor<4x1xf32> {
  %a = arith.constant dense<[[1.0, -1.0], [2.0, -1.0]]> : tensor<2x2xf32>
  %c = arith.constant dense<[[2.0], [1.0]]> : tensor<2x1xf32>
  %0 = graph.dot %x, %a : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // expected-remark@+1 {{kept 2-dot chain: two adjacent constants' signs disagree (inf - inf = NaN in one order, not in the other)}}
  %1 = graph.dot %0, %c : (tensor<4x2xf32>, tensor<2x1xf32>) -> tensor<4x1xf32>
  func.return %1 : tensor<4x1xf32>
}

// -----

// Integers hold no infinity: re-planned whatever the signs.
// DEFAULT-LABEL: func.func @integers
// DEFAULT-COUNT-1: graph.dot
// DEFAULT-NEXT:    func.return
// CHECK-LABEL: func.func @integers
// CHECK:         graph.dot
// CHECK-NOT:     graph.dot
func.func @integers(%x: tensor<4x2xi32>) -> tensor<4x1xi32> {
  %a = arith.constant dense<[[1, 0], [2, -1]]> : tensor<2x2xi32>
  %c = arith.constant dense<[[2], [1]]> : tensor<2x1xi32>
  %0 = graph.dot %x, %a : (tensor<4x2xi32>, tensor<2x2xi32>) -> tensor<4x2xi32>
  // expected-remark@+1 {{reassociated 2-dot chain}}
  %1 = graph.dot %0, %c : (tensor<4x2xi32>, tensor<2x1xi32>) -> tensor<4x1xi32>
  func.return %1 : tensor<4x1xi32>
}
