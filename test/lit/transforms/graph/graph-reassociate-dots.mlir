// The re-planning under the pass's default fast-math contract (finite values): weights of
// mixed signs and with zeros are re-planned whenever FLOPs drop. The exact-nonfinite policy
// (`strict-nonfinite=true`) is graph-reassociate-dots-nonfinite.mlir, and STRICT below.
// RUN: fusion-opt %s --split-input-file -p graph-reassociate-dots 2>/dev/null | filecheck %s
// RUN: fusion-opt %s --split-input-file -p 'graph-reassociate-dots{max-const-bytes=32}' 2>/dev/null | filecheck %s --check-prefix=BUDGET
// RUN: fusion-opt %s --split-input-file --verify-diagnostics -p graph-reassociate-dots
// RUN: fusion-opt %s --split-input-file -p 'graph-reassociate-dots{strict-nonfinite=true}' -o %t.strict.mlir 2>&1 | filecheck %s --check-prefix=STRICT-REMARK
// RUN: filecheck %s --check-prefix=STRICT --input-file %t.strict.mlir
// The pass's helper modules these cases exercise: graph/dot_chain.py, graph/dot_chain_read.py,
// graph/dot_chain_ir.py, graph/dot_chain_numerics.py, graph/dot_add_patterns.py,
// graph/dot_scale_patterns.py.

// Issue #4: X * (Y*A + b) * C with constant A, b, C -> X * (Y*(A*C) + b*C): 3 dots -> 2.
// Splat weights make the folded values checkable: A*C = 4 * 0.5 * 0.25, b*C = 4 * 2 * 0.25.
// CHECK-LABEL: func.func @x_linear_c
// CHECK-SAME:    (%[[X:.*]]: tensor<4x4xf32>, %[[Y:.*]]: tensor<4x4xf32>)
// CHECK:         %[[AC:.*]] = arith.constant dense<5.000000e-01> : tensor<4x4xf32>
// CHECK-NEXT:    %[[YAC:.*]] = graph.dot %[[Y]], %[[AC]]
// CHECK-NEXT:    %[[BC:.*]] = arith.constant dense<2.000000e+00> : tensor<4x4xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[YAC]], %[[BC]] : tensor<4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.dot %[[X]], %[[S]]
// CHECK-NEXT:    func.return %[[R]]
func.func @x_linear_c(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = arith.constant dense<0.5> : tensor<4x4xf32>
  %bv = arith.constant dense<2.0> : tensor<4xf32>
  %c = arith.constant dense<0.25> : tensor<4x4xf32>
  %ya = graph.dot %y, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = graph.broadcast %bv dims = [1] : tensor<4xf32> -> tensor<4x4xf32>
  %s = graph.add %ya, %b : tensor<4x4xf32>
  %xs = graph.dot %x, %s : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  // expected-remark@+1 {{reassociated 3-dot chain: 400 FLOP -> 272 FLOP (3 -> 2 run-time dots)}}
  %r = graph.dot %xs, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}

// -----

// The design chain with dense mixed-sign weights (a zero in A): re-planned by default, A*C and
// b*C folded. With `strict-nonfinite=true` it is kept: where x[i,k] = inf the input forms
// inf*0 = NaN, the re-plan +-inf.
// CHECK-LABEL: func.func @x_linear_c_mixed_signs
// CHECK-SAME:    (%[[X:.*]]: tensor<2x2xf32>, %[[Y:.*]]: tensor<2x2xf32>)
// CHECK:         %[[AC:.*]] = arith.constant dense<{{\[}}[-2.500000e-01, -1.125000e+00], [3.000000e+00, 5.000000e-01]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[YAC:.*]] = graph.dot %[[Y]], %[[AC]]
// CHECK-NEXT:    %[[BC:.*]] = arith.constant dense<[-1.500000e+00, -1.062500e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[BB:.*]] = graph.broadcast %[[BC]] dims = [1]
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[YAC]], %[[BB]] : tensor<2x2xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.dot %[[X]], %[[S]]
// CHECK-NEXT:    func.return %[[R]]
// STRICT-REMARK: remark: kept 3-dot chain: a constant factor holds a zero (inf*0 = NaN in one order, not in the other)
// STRICT-LABEL: func.func @x_linear_c_mixed_signs
// STRICT:         %[[YA:.*]] = graph.dot %y, %a
// STRICT:         %[[S:.*]] = graph.add %[[YA]], %b
// STRICT-NEXT:    %[[XS:.*]] = graph.dot %x, %[[S]]
// STRICT-NEXT:    %[[R:.*]] = graph.dot %[[XS]], %c
// STRICT-NEXT:    func.return %[[R]]
func.func @x_linear_c_mixed_signs(%x: tensor<2x2xf32>, %y: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %a = arith.constant dense<[[1.0, -0.5], [0.0, 2.0]]> : tensor<2x2xf32>
  %bv = arith.constant dense<[0.75, -1.25]> : tensor<2xf32>
  %c = arith.constant dense<[[0.5, -1.0], [1.5, 0.25]]> : tensor<2x2xf32>
  %ya = graph.dot %y, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %b = graph.broadcast %bv dims = [1] : tensor<2xf32> -> tensor<2x2xf32>
  %s = graph.add %ya, %b : tensor<2x2xf32>
  %xs = graph.dot %x, %s : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // expected-remark@+1 {{reassociated 3-dot chain: 52 FLOP -> 36 FLOP (3 -> 2 run-time dots)}}
  %r = graph.dot %xs, %c : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// -----

// Within the contract the re-plan stays finite: A*C = 2e60 overflows f32 where the input
// program's x*A and (x*A)*C are finite for |x| < 1e8. Kept.
// CHECK-LABEL: func.func @folded_product_overflows
// CHECK:         %[[XA:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<2x2xf32>)
// CHECK-NEXT:    graph.dot %[[XA]], %{{.*}} : (tensor<4x2xf32>, tensor<2x2xf32>)
func.func @folded_product_overflows(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %a = arith.constant dense<[[1.0e30, -1.0e30], [1.0e30, 1.0e30]]> : tensor<2x2xf32>
  %c = arith.constant dense<[[1.0e30, 1.0e30], [1.0e30, 1.0e30]]> : tensor<2x2xf32>
  %0 = graph.dot %x, %a : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // expected-remark@+1 {{kept 2-dot chain: a folded constant product overflows or underflows in f32}}
  %1 = graph.dot %0, %c : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

// ... and nonzero: A*C = 2e-60 would flush to 0 in f32, losing x*A*C where x is large. Kept.
// CHECK-LABEL: func.func @folded_product_underflows
// CHECK:         %[[XA:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<2x2xf32>)
// CHECK-NEXT:    graph.dot %[[XA]], %{{.*}} : (tensor<4x2xf32>, tensor<2x2xf32>)
func.func @folded_product_underflows(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %a = arith.constant dense<1.0e-30> : tensor<2x2xf32>
  %c = arith.constant dense<1.0e-30> : tensor<2x2xf32>
  %0 = graph.dot %x, %a : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  // expected-remark@+1 {{kept 2-dot chain: a folded constant product overflows or underflows in f32}}
  %1 = graph.dot %0, %c : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

// Two stacked Linear layers: one run-time dot and one add. W1*W2 starts with row [1, 2, 3];
// b1*W2 = [2, 3, 4] stays a broadcast vector and merges with b2 = 1.
// With a 32-byte budget W1*W2 (48 bytes) may not fold; distributing b1 alone would cost more
// (the add moves to the wider output): unchanged.
// CHECK-LABEL: func.func @two_linears
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4xf32>)
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], {{.*}}]> : tensor<4x3xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[X]], %[[W]] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[B:.*]] = arith.constant dense<[3.000000e+00, 4.000000e+00, 5.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[BB:.*]] = graph.broadcast %[[B]] dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %[[O:.*]] = graph.add %[[D]], %[[BB]] : tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[O]]
// BUDGET-LABEL: func.func @two_linears
// BUDGET:         %[[H:.*]] = graph.add
// BUDGET-NEXT:    graph.dot %[[H]], %{{.*}}
func.func @two_linears(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w1 = arith.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]]> : tensor<4x2xf32>
  %b1v = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %w2 = arith.constant dense<[[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]> : tensor<2x3xf32>
  %b2v = arith.constant dense<1.0> : tensor<3xf32>
  %d1 = graph.dot %x, %w1 : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  %b1 = graph.broadcast %b1v dims = [1] : tensor<2xf32> -> tensor<2x2xf32>
  %h = graph.add %d1, %b1 : tensor<2x2xf32>
  // expected-remark@+1 {{reassociated 2-dot chain: 60 FLOP -> 54 FLOP (2 -> 1 run-time dots)}}
  %d2 = graph.dot %h, %w2 : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b2 = graph.broadcast %b2v dims = [1] : tensor<3xf32> -> tensor<2x3xf32>
  %o = graph.add %d2, %b2 : tensor<2x3xf32>
  func.return %o : tensor<2x3xf32>
}

// -----

// Low-rank factors: Y*(A*C) would cost 2*8*32*32 instead of 2*2*8*32*2: kept.
// CHECK-LABEL: func.func @low_rank
// CHECK:         %[[D1:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<8x32xf32>, tensor<32x2xf32>)
// CHECK-NEXT:    graph.dot %[[D1]], %{{.*}} : (tensor<8x2xf32>, tensor<2x32xf32>)
func.func @low_rank(%y: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %a = arith.constant dense<0.5> : tensor<32x2xf32>
  %c = arith.constant dense<0.25> : tensor<2x32xf32>
  %ya = graph.dot %y, %a : (tensor<8x32xf32>, tensor<32x2xf32>) -> tensor<8x2xf32>
  // expected-remark@+1 {{kept 2-dot chain: no cheaper order than 2.05 KFLOP}}
  %r = graph.dot %ya, %c : (tensor<8x2xf32>, tensor<2x32xf32>) -> tensor<8x32xf32>
  func.return %r : tensor<8x32xf32>
}

// -----

// Low rank with mixed signs: kept by cost alone, never made more expensive.
// CHECK-LABEL: func.func @low_rank_mixed_signs
// CHECK:         %[[D1:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<8x4xf32>, tensor<4x1xf32>)
// CHECK-NEXT:    graph.dot %[[D1]], %{{.*}} : (tensor<8x1xf32>, tensor<1x4xf32>)
func.func @low_rank_mixed_signs(%y: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %a = arith.constant dense<[[1.0], [-2.0], [0.0], [0.5]]> : tensor<4x1xf32>
  %c = arith.constant dense<[[-1.0, 0.25, 3.0, -0.5]]> : tensor<1x4xf32>
  %ya = graph.dot %y, %a : (tensor<8x4xf32>, tensor<4x1xf32>) -> tensor<8x1xf32>
  // expected-remark@+1 {{kept 2-dot chain: no cheaper order than 128 FLOP}}
  %r = graph.dot %ya, %c : (tensor<8x1xf32>, tensor<1x4xf32>) -> tensor<8x4xf32>
  func.return %r : tensor<8x4xf32>
}

// -----

// The intermediate Y*A + b has another user (returned): nothing is distributed.
// CHECK-LABEL: func.func @intermediate_needed
// CHECK:         %[[YA:.*]] = graph.dot %{{.*}}, %{{.*}}
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[YA]], %{{.*}}
// CHECK-NEXT:    %[[R:.*]] = graph.dot %[[S]], %{{.*}}
// CHECK-NEXT:    func.return %[[R]], %[[S]]
func.func @intermediate_needed(%y: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %a = arith.constant dense<0.5> : tensor<4x4xf32>
  %b = arith.constant dense<2.0> : tensor<4x4xf32>
  %c = arith.constant dense<0.25> : tensor<4x4xf32>
  %ya = graph.dot %y, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = graph.add %ya, %b : tensor<4x4xf32>
  %r = graph.dot %s, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %r, %s : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// Run-time C and run-time bias: no constant to fold, the chains stay as written.
// CHECK-LABEL: func.func @runtime_operands
// CHECK:         %[[YA:.*]] = graph.dot %[[Y:.*]], %{{.*}}
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[YA]], %{{.*}}
// CHECK-NEXT:    graph.dot %[[S]], %{{.*}}
func.func @runtime_operands(%y: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = arith.constant dense<0.5> : tensor<4x4xf32>
  %ya = graph.dot %y, %a : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = graph.add %ya, %b : tensor<4x4xf32>
  %r = graph.dot %s, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}

// -----

// Mixed precision: the f16 dot's result is converted before the f32 dot, which ends the chain.
// CHECK-LABEL: func.func @mixed_dtypes
// CHECK-COUNT-2: graph.dot
func.func @mixed_dtypes(%y: tensor<4x4xf16>) -> tensor<4x4xf32> {
  %a = arith.constant dense<0.5> : tensor<4x4xf16>
  %c = arith.constant dense<0.25> : tensor<4x4xf32>
  %ya = graph.dot %y, %a : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16>
  %w = graph.convert %ya : tensor<4x4xf16> -> tensor<4x4xf32>
  %r = graph.dot %w, %c : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}

// -----

// A per-column scale after the dot goes into the constant weight (find_mul_dot).
// CHECK-LABEL: func.func @column_scale
// CHECK:         %[[S:.*]] = arith.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[W:.*]] = graph.broadcast %[[S]] dims = [1] : tensor<2xf32> -> tensor<2x2xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %{{.*}}, %[[W]]
// CHECK-NEXT:    func.return %[[D]]
func.func @column_scale(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %w = arith.constant dense<1.0> : tensor<2x2xf32>
  %sv = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %d = graph.dot %x, %w : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %s = graph.broadcast %sv dims = [1] : tensor<2xf32> -> tensor<3x2xf32>
  // expected-remark@+1 {{folded a column scale into the constant dot operand}}
  %r = graph.mul %d, %s : tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

// Row views between the dots: the reshape only regroups rows and the weights are the same for
// every batch, so the chain is planned on all 8 rows: one dot on x viewed as [8, 8].
// CHECK-LABEL: func.func @row_views
// CHECK-SAME:    (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-NEXT:    %[[X2:.*]] = graph.reshape %[[X]] : tensor<2x4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT:    %[[AC:.*]] = arith.constant dense<1.000000e+00> : tensor<8x8xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[X2]], %[[AC]] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @row_views(%x: tensor<2x4x8xf32>) -> tensor<8x8xf32> {
  %a = arith.constant dense<0.5> : tensor<8x8xf32>
  %ba = graph.broadcast %a dims = [1, 2] : tensor<8x8xf32> -> tensor<2x8x8xf32>
  %c = arith.constant dense<0.25> : tensor<8x8xf32>
  %xa = graph.dot %x, %ba : (tensor<2x4x8xf32>, tensor<2x8x8xf32>) -> tensor<2x4x8xf32>
  %r = graph.reshape %xa : tensor<2x4x8xf32> -> tensor<8x8xf32>
  // expected-remark@+1 {{reassociated 2-dot chain: 2.05 KFLOP -> 1.02 KFLOP (2 -> 1 run-time dots)}}
  %o = graph.dot %r, %c : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  func.return %o : tensor<8x8xf32>
}

// -----

// A reshape that splits the last dim (heads) is not a row view: the chain stops there.
// CHECK-LABEL: func.func @head_split
// CHECK-COUNT-2: graph.dot
func.func @head_split(%x: tensor<4x8xf32>) -> tensor<4x2x2xf32> {
  %a = arith.constant dense<0.5> : tensor<8x8xf32>
  %c = arith.constant dense<0.25> : tensor<4x4x2xf32>
  %xa = graph.dot %x, %a : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = graph.reshape %xa : tensor<4x8xf32> -> tensor<4x2x4xf32>
  %o = graph.dot %r, %c : (tensor<4x2x4xf32>, tensor<4x4x2xf32>) -> tensor<4x2x2xf32>
  func.return %o : tensor<4x2x2xf32>
}

// -----

// MIGraphX `find_dot_add` (`simplify_dot_add`), graph-dialect versions of its test cases:
// dot(x + C1, C2) -> dot(x, C2) + C1.C2 with the constant product folded.

// simplify_dot_add: a full 2x2 constant on the add's left, N = K (no more adds, and the add
// now fuses into the dot's kernel). C1 = [[1, 2], [3, 4]], C2 = [[1, 0], [1, 1]]:
// C1.C2 = [[3, 2], [7, 4]].
// CHECK-LABEL: func.func @simplify_dot_add
// CHECK-SAME:    (%[[X:.*]]: tensor<2x2xf32>)
// CHECK:         %[[C2:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 0.000000e+00], [1.000000e+00, 1.000000e+00]]>
// CHECK:         %[[P:.*]] = arith.constant dense<{{\[}}[3.000000e+00, 2.000000e+00], [7.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[X]], %[[C2]] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[D]], %[[P]] : tensor<2x2xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @simplify_dot_add(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %one = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %two = arith.constant dense<[[1.0, 0.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %sum = graph.add %one, %x : tensor<2x2xf32>
  // expected-remark@+1 {{distributed the constant dot operand over a constant add (add on [2, 2] -> [2, 2])}}
  %dot = graph.dot %sum, %two : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %dot : tensor<2x2xf32>
}

// -----

// A broadcast row bias (MIGraphX matches broadcast constants too) over a wider output: the
// product stays a row, b.C2 = [1, 2, 3] for b = [1, 2], broadcast again (3 adds a row
// instead of 2, inside the dot's kernel instead of a kernel of their own).
// CHECK-LABEL: func.func @row_bias_wider_output
// CHECK-SAME:    (%[[X:.*]]: tensor<8x2xf32>)
// CHECK:         %[[W:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 0.000000e+00, 1.000000e+00], {{.*}}]> : tensor<2x3xf32>
// CHECK:         %[[R:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT:    %[[RB:.*]] = graph.broadcast %[[R]] dims = [1] : tensor<3xf32> -> tensor<8x3xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[X]], %[[W]]
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[D]], %[[RB]] : tensor<8x3xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @row_bias_wider_output(%x: tensor<8x2xf32>) -> tensor<8x3xf32> {
  %bv = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = graph.broadcast %bv dims = [1] : tensor<2xf32> -> tensor<8x2xf32>
  %w = arith.constant dense<[[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]]> : tensor<2x3xf32>
  %h = graph.add %x, %b : tensor<8x2xf32>
  // expected-remark@+1 {{distributed the constant dot operand over a constant add (add on [8, 2] -> [8, 3])}}
  %d = graph.dot %h, %w : (tensor<8x2xf32>, tensor<2x3xf32>) -> tensor<8x3xf32>
  func.return %d : tensor<8x3xf32>
}

// -----

// The constant on the dot's left (MIGraphX keeps the side): dot(C2, x + C1) ->
// dot(C2, x) + C2.C1, batched (rank 3). C2 = 2 splat, C1 = 1 splat, K = 3: C2.C1 = 6.
// CHECK-LABEL: func.func @flipped_batched
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x5xf64>)
// CHECK:         %[[C2:.*]] = arith.constant dense<2.000000e+00> : tensor<2x4x3xf64>
// CHECK:         %[[P:.*]] = arith.constant dense<6.000000e+00> : tensor<2x4x5xf64>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[C2]], %[[X]] : (tensor<2x4x3xf64>, tensor<2x3x5xf64>) -> tensor<2x4x5xf64>
// CHECK-NEXT:    %[[S:.*]] = graph.add %[[D]], %[[P]]
// CHECK-NEXT:    func.return %[[S]]
func.func @flipped_batched(%x: tensor<2x3x5xf64>) -> tensor<2x4x5xf64> {
  %c1 = arith.constant dense<1.0> : tensor<2x3x5xf64>
  %c2 = arith.constant dense<2.0> : tensor<2x4x3xf64>
  %h = graph.add %x, %c1 : tensor<2x3x5xf64>
  // expected-remark@+1 {{distributed the constant dot operand over a constant add (add on [2, 3, 5] -> [2, 4, 5])}}
  %d = graph.dot %c2, %h : (tensor<2x4x3xf64>, tensor<2x3x5xf64>) -> tensor<2x4x5xf64>
  func.return %d : tensor<2x4x5xf64>
}

// -----

// Integers distribute exactly (wrap-around arithmetic is a ring).
// CHECK-LABEL: func.func @integers
// CHECK:         graph.dot %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<4x2xi32>)
// CHECK-NEXT:    graph.add
// CHECK-NEXT:    func.return
func.func @integers(%x: tensor<2x4xi32>) -> tensor<2x2xi32> {
  %c1 = arith.constant dense<3> : tensor<2x4xi32>
  %c2 = arith.constant dense<2> : tensor<4x2xi32>
  %h = graph.add %x, %c1 : tensor<2x4xi32>
  // expected-remark@+1 {{distributed the constant dot operand over a constant add}}
  %d = graph.dot %h, %c2 : (tensor<2x4xi32>, tensor<4x2xi32>) -> tensor<2x2xi32>
  func.return %d : tensor<2x2xi32>
}

// -----

// Negative: f16 (and bf16) reassociation changes rounding visibly: unchanged.
// CHECK-LABEL: func.func @f16_unchanged
// CHECK:         %[[H:.*]] = graph.add
// CHECK-NEXT:    graph.dot %[[H]], %{{.*}}
func.func @f16_unchanged(%x: tensor<2x4xf16>) -> tensor<2x2xf16> {
  %c1 = arith.constant dense<1.0> : tensor<2x4xf16>
  %c2 = arith.constant dense<0.5> : tensor<4x2xf16>
  %h = graph.add %x, %c1 : tensor<2x4xf16>
  %d = graph.dot %h, %c2 : (tensor<2x4xf16>, tensor<4x2xf16>) -> tensor<2x2xf16>
  func.return %d : tensor<2x2xf16>
}

// -----

// Negative: the sum has another user (MIGraphX `used_once`): its value is needed anyway.
// CHECK-LABEL: func.func @add_used_twice
// CHECK:         %[[H:.*]] = graph.add
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[H]], %{{.*}}
// CHECK-NEXT:    func.return %[[D]], %[[H]]
func.func @add_used_twice(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x4xf32>) {
  %c1 = arith.constant dense<1.0> : tensor<2x4xf32>
  %c2 = arith.constant dense<0.5> : tensor<4x2xf32>
  %h = graph.add %x, %c1 : tensor<2x4xf32>
  %d = graph.dot %h, %c2 : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  func.return %d, %h : tensor<2x2xf32>, tensor<2x4xf32>
}

// -----

// Negative: the other dot operand is not a constant (nothing to fold).
// CHECK-LABEL: func.func @runtime_weight
// CHECK:         %[[H:.*]] = graph.add
// CHECK-NEXT:    graph.dot %[[H]], %{{.*}}
func.func @runtime_weight(%x: tensor<2x4xf32>, %w: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %c1 = arith.constant dense<1.0> : tensor<2x4xf32>
  %h = graph.add %x, %c1 : tensor<2x4xf32>
  %d = graph.dot %h, %w : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  func.return %d : tensor<2x2xf32>
}

// -----

// Negative: the add's other operand is not a constant either.
// CHECK-LABEL: func.func @runtime_addend
// CHECK:         %[[H:.*]] = graph.add
// CHECK-NEXT:    graph.dot %[[H]], %{{.*}}
func.func @runtime_addend(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<2x2xf32> {
  %c2 = arith.constant dense<0.5> : tensor<4x2xf32>
  %h = graph.add %x, %y : tensor<2x4xf32>
  %d = graph.dot %h, %c2 : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
  func.return %d : tensor<2x2xf32>
}

// -----

// Negative (cost): a full, non-splat [M, K] constant and N > 3K: the folded [M, N] product
// the epilogue would read is bigger than everything the input-side add moves.
// CHECK-LABEL: func.func @wide_full_constant_unchanged
// CHECK:         %[[H:.*]] = graph.add
// CHECK-NEXT:    graph.dot %[[H]], %{{.*}}
func.func @wide_full_constant_unchanged(%x: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %c1 = arith.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %c2 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>
  %h = graph.add %x, %c1 : tensor<2x1xf32>
  %d = graph.dot %h, %c2 : (tensor<2x1xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  func.return %d : tensor<2x4xf32>
}

// -----

// bf16 policy, allowed: A*C = 6 * 0.5 * 0.25 = 0.75 is exact in bf16, and X*(A*C) is one dot:
// one rounding of the exact chain value (correctly rounded up to f32 accumulation).
// CHECK-LABEL: func.func @bf16_exact_fold
// CHECK-SAME:    (%[[X:.*]]: tensor<4x6xbf16>)
// CHECK:         %[[AC:.*]] = arith.constant dense<7.500000e-01> : tensor<6x2xbf16>
// CHECK-NEXT:    %[[R:.*]] = graph.dot %[[X]], %[[AC]]
// CHECK-NEXT:    func.return %[[R]]
func.func @bf16_exact_fold(%x: tensor<4x6xbf16>) -> tensor<4x2xbf16> {
  %a = arith.constant dense<0.5> : tensor<6x6xbf16>
  %c = arith.constant dense<0.25> : tensor<6x2xbf16>
  %0 = graph.dot %x, %a : (tensor<4x6xbf16>, tensor<6x6xbf16>) -> tensor<4x6xbf16>
  // expected-remark@+1 {{reassociated 2-dot chain: 384 FLOP -> 96 FLOP (2 -> 1 run-time dots)}}
  %1 = graph.dot %0, %c : (tensor<4x6xbf16>, tensor<6x2xbf16>) -> tensor<4x2xbf16>
  func.return %1 : tensor<4x2xbf16>
}

// -----

// bf16 policy, refused: (1 + 2^-7) is exact in bf16 but 6 * (1 + 2^-7)^2 needs 15 bits, so
// the folded A*C would round where the input program rounds X*A instead.
// CHECK-LABEL: func.func @bf16_inexact_fold
// CHECK:         %[[XA:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<4x6xbf16>, tensor<6x6xbf16>)
// CHECK-NEXT:    %[[R:.*]] = graph.dot %[[XA]], %{{.*}} : (tensor<4x6xbf16>, tensor<6x2xbf16>)
// CHECK-NEXT:    func.return %[[R]]
func.func @bf16_inexact_fold(%x: tensor<4x6xbf16>) -> tensor<4x2xbf16> {
  %a = arith.constant dense<1.0078125> : tensor<6x6xbf16>
  %c = arith.constant dense<1.0078125> : tensor<6x2xbf16>
  %0 = graph.dot %x, %a : (tensor<4x6xbf16>, tensor<6x6xbf16>) -> tensor<4x6xbf16>
  // expected-remark@+1 {{kept 2-dot chain: a constant product it folds is not exact in bf16}}
  %1 = graph.dot %0, %c : (tensor<4x6xbf16>, tensor<6x2xbf16>) -> tensor<4x2xbf16>
  func.return %1 : tensor<4x2xbf16>
}

// -----

// Negative: x*(y*z) is cheaper than (x*y)*z, but it forms y*z, a product of run-time values
// the input never forms: it can overflow where the input's intermediates do not.
// CHECK-LABEL: func.func @runtime_products_keep_their_order
// CHECK:         %[[XY:.*]] = graph.dot %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<1x3xf32>)
// CHECK-NEXT:    %[[R:.*]] = graph.dot %[[XY]], %{{.*}} : (tensor<3x3xf32>, tensor<3x2xf32>)
// CHECK-NEXT:    func.return %[[R]]
func.func @runtime_products_keep_their_order(%x: tensor<3x1xf32>, %y: tensor<1x3xf32>, %z: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %0 = graph.dot %x, %y : (tensor<3x1xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  // expected-remark@+1 {{kept 2-dot chain: it would multiply run-time values in another order (their products' magnitudes, and overflow, change)}}
  %1 = graph.dot %0, %z : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %1 : tensor<3x2xf32>
}

// -----

// A row view, then weights that differ per batch (XLNet's relative-position keys, folded to a
// constant): the chain cannot be planned on all rows, and is read again without the view.
// CHECK-LABEL: func.func @row_view_then_batched_weights
// CHECK-COUNT-2: graph.dot
// CHECK-NOT:     graph.dot
func.func @row_view_then_batched_weights(%x: tensor<8x4xf32>) -> tensor<2x4x2xf32> {
  %a = arith.constant dense<0.5> : tensor<4x8xf32>
  %c = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]],
                             [[0.5, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 9.0]]]> : tensor<2x8x2xf32>
  %xa = graph.dot %x, %a : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %r = graph.reshape %xa : tensor<8x8xf32> -> tensor<2x4x8xf32>
  %o = graph.dot %r, %c : (tensor<2x4x8xf32>, tensor<2x8x2xf32>) -> tensor<2x4x2xf32>
  func.return %o : tensor<2x4x2xf32>
}

// -----

// The same for a bias that differs per row group.
// CHECK-LABEL: func.func @row_view_after_batched_bias
// CHECK-COUNT-2: graph.dot
// CHECK-NOT:     graph.dot
func.func @row_view_after_batched_bias(%x: tensor<2x4x8xf32>, %b: tensor<2x4x8xf32>) -> tensor<8x8xf32> {
  %a = arith.constant dense<0.5> : tensor<8x8xf32>
  %ba = graph.broadcast %a dims = [1, 2] : tensor<8x8xf32> -> tensor<2x8x8xf32>
  %bias = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                                 [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]],
                                [[2.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                                 [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0]]]> : tensor<2x4x8xf32>
  %c = arith.constant dense<0.25> : tensor<8x8xf32>
  %xa = graph.dot %x, %ba : (tensor<2x4x8xf32>, tensor<2x8x8xf32>) -> tensor<2x4x8xf32>
  %xb = graph.add %xa, %bias : tensor<2x4x8xf32>
  %r = graph.reshape %xb : tensor<2x4x8xf32> -> tensor<8x8xf32>
  %o = graph.dot %r, %c : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  func.return %o : tensor<8x8xf32>
}
