// RUN: fusion-opt %s --split-input-file -p graph-dense-experts | filecheck %s
// RUN: fusion-opt %s --split-input-file -p graph-dense-experts | fusion-opt - --split-input-file -o %t.mlir
// RUN: fusion-opt %s --split-input-file -p graph-dense-experts --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// STATS:         (gathered expert weights computed densely) : 1
// STATS:         (gathered expert weights computed densely) : 1
// STATS:         (gathered expert weights computed densely) : 1
// STATS-NOT:     gathered expert weights

// transformers' batched_mm experts: 4 rows, each times its expert's [3, 2] weights (of 2
// experts), gathered per row. One [4, 2] x [2, 6] matmul over both experts' stacked weights
// (W transposed to [2, 2 x 3] at compile time), then each row's 3 outputs gathered at
// s * 6 + ids[s] * 3 + o.
// CHECK-LABEL: func.func @gathered_weights_times_rows
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4xi64>, %[[X:.*]]: tensor<4x2x1xf32>)
// CHECK-DAG:     %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00, 9.000000e+00, 1.100000e+01], [2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01]]> : tensor<2x6xf32>
// CHECK-DAG:     %[[XR:.*]] = graph.reshape %[[X]] : tensor<4x2x1xf32> -> tensor<4x2xf32>
// CHECK:         %[[D:.*]] = graph.dot %[[XR]], %[[W]] : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
// CHECK:         graph.mul %[[IDS]], %{{.*}} : tensor<4xi64>
// CHECK:         %[[FLAT:.*]] = graph.reshape %[[D]] : tensor<4x6xf32> -> tensor<24xf32>
// CHECK:         %[[G:.*]] = graph.gather %[[FLAT]], %{{.*}} axis = 0 : (tensor<24xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
// CHECK:         %[[R:.*]] = graph.reshape %[[G]] : tensor<4x3xf32> -> tensor<4x3x1xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @gathered_weights_times_rows(%ids: tensor<4xi64>, %x: tensor<4x2x1xf32>) -> tensor<4x3x1xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>
  %g = graph.gather %w, %ids axis = 0 : (tensor<2x3x2xf32>, tensor<4xi64>) -> tensor<4x3x2xf32>
  %y = graph.dot %g, %x : (tensor<4x3x2xf32>, tensor<4x2x1xf32>) -> tensor<4x3x1xf32>
  func.return %y : tensor<4x3x1xf32>
}

// -----

// The transposed form (weights stored [E, H, O], the row on the left): the stacked weights are
// W's rows side by side, [2, 2 x 3].
// CHECK-LABEL: func.func @rows_times_gathered_weights
// CHECK:         arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00, 1.000000e+01, 1.100000e+01, 1.200000e+01]]> : tensor<2x6xf32>
// CHECK:         graph.dot %{{.*}}, %{{.*}} : (tensor<4x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
// CHECK:         graph.gather %{{.*}}, %{{.*}} axis = 0 : (tensor<24xf32>, tensor<4x3xi32>) -> tensor<4x3xf32>
// CHECK:         graph.reshape %{{.*}} : tensor<4x3xf32> -> tensor<4x1x3xf32>
func.func @rows_times_gathered_weights(%ids: tensor<4xi32>, %x: tensor<4x1x2xf32>) -> tensor<4x1x3xf32> {
  %w = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]]> : tensor<2x2x3xf32>
  %g = graph.gather %w, %ids axis = 0 : (tensor<2x2x3xf32>, tensor<4xi32>) -> tensor<4x2x3xf32>
  %y = graph.dot %x, %g : (tensor<4x1x2xf32>, tensor<4x2x3xf32>) -> tensor<4x1x3xf32>
  func.return %y : tensor<4x1x3xf32>
}

// -----

// Each of 2 tokens' rows repeated for its 2 experts (`repeat_interleave`: [2, 1, 2] broadcast to
// [2, 2, 2], merged to 4 rows): the matmul runs over the 2 tokens, and row s reads token s // 2's
// outputs at (s // 2) * 6 + ids[s] * 3 + o.
// CHECK-LABEL: func.func @repeated_rows
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4xi64>, %[[T:.*]]: tensor<2x1x2xf32>)
// CHECK:         %[[TR:.*]] = graph.reshape %[[T]] : tensor<2x1x2xf32> -> tensor<2x2xf32>
// CHECK:         %[[D:.*]] = graph.dot %[[TR]], %{{.*}} : (tensor<2x2xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
// CHECK:         arith.constant dense<[0, 0, 6, 6]> : tensor<4xi64>
// CHECK:         graph.gather %{{.*}}, %{{.*}} axis = 0 : (tensor<12xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
func.func @repeated_rows(%ids: tensor<4xi64>, %t: tensor<2x1x2xf32>) -> tensor<4x3x1xf32> {
  %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>
  %r = graph.broadcast %t dims = [0, 1, 2] : tensor<2x1x2xf32> -> tensor<2x2x2xf32>
  %x = graph.reshape %r : tensor<2x2x2xf32> -> tensor<4x2x1xf32>
  %g = graph.gather %w, %ids axis = 0 : (tensor<2x3x2xf32>, tensor<4xi64>) -> tensor<4x3x2xf32>
  %y = graph.dot %g, %x : (tensor<4x3x2xf32>, tensor<4x2x1xf32>) -> tensor<4x3x1xf32>
  func.return %y : tensor<4x3x1xf32>
}

// -----

// Left: more experts than rows (a decode step: the dense form would read every expert where the
// gather reads two), weights that are not a constant, a gathered matrix times more than one
// column, and a gather something else reads too.
// CHECK-LABEL: func.func @left_gathered
// CHECK-COUNT-4: graph.gather
// CHECK-NOT:     graph.gather
func.func @left_gathered(%ids2: tensor<2xi64>, %x2: tensor<2x2x1xf32>, %wv: tensor<2x3x2xf32>, %ids: tensor<4xi64>, %x: tensor<4x2x1xf32>, %x4: tensor<4x2x2xf32>) -> (tensor<2x3x1xf32>, tensor<4x3x1xf32>, tensor<4x3x2xf32>, tensor<4x3x1xf32>, tensor<4x3x2xf32>) {
  %w4 = arith.constant dense<1.0> : tensor<4x3x2xf32>
  %g2 = graph.gather %w4, %ids2 axis = 0 : (tensor<4x3x2xf32>, tensor<2xi64>) -> tensor<2x3x2xf32>
  %y2 = graph.dot %g2, %x2 : (tensor<2x3x2xf32>, tensor<2x2x1xf32>) -> tensor<2x3x1xf32>
  %gv = graph.gather %wv, %ids axis = 0 : (tensor<2x3x2xf32>, tensor<4xi64>) -> tensor<4x3x2xf32>
  %yv = graph.dot %gv, %x : (tensor<4x3x2xf32>, tensor<4x2x1xf32>) -> tensor<4x3x1xf32>
  %w = arith.constant dense<2.0> : tensor<2x3x2xf32>
  %g = graph.gather %w, %ids axis = 0 : (tensor<2x3x2xf32>, tensor<4xi64>) -> tensor<4x3x2xf32>
  %y4 = graph.dot %g, %x4 : (tensor<4x3x2xf32>, tensor<4x2x2xf32>) -> tensor<4x3x2xf32>
  %h = arith.constant dense<3.0> : tensor<2x3x2xf32>
  %gh = graph.gather %h, %ids axis = 0 : (tensor<2x3x2xf32>, tensor<4xi64>) -> tensor<4x3x2xf32>
  %yh = graph.dot %gh, %x : (tensor<4x3x2xf32>, tensor<4x2x1xf32>) -> tensor<4x3x1xf32>
  func.return %y2, %yv, %y4, %yh, %gh : tensor<2x3x1xf32>, tensor<4x3x1xf32>, tensor<4x3x2xf32>, tensor<4x3x1xf32>, tensor<4x3x2xf32>
}
