// RUN: fusion-opt %s --split-input-file -p graph-dense-experts | filecheck %s
// RUN: fusion-opt %s --split-input-file -p graph-dense-experts | fusion-opt - --split-input-file -o %t.mlir
// RUN: fusion-opt %s --split-input-file -p graph-dense-experts --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// STATS:         (gathered expert weights computed densely) : 1
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

// -----

// 24 experts (more than 16), each of 12 tokens' rows repeated for its 2 experts: the dense
// matmul does 24 / 2 = 12 times the gathered one's multiply-adds, at most 16, so it is taken.
// CHECK-LABEL: func.func @many_experts_repeated_rows
// CHECK:         graph.dot %{{.*}}, %{{.*}} : (tensor<12x2xf32>, tensor<2x48xf32>) -> tensor<12x48xf32>
// CHECK:         graph.gather %{{.*}}, %{{.*}} axis = 0 : (tensor<576xf32>, tensor<24x2xi64>) -> tensor<24x2xf32>
// CHECK-NOT:     graph.gather
func.func @many_experts_repeated_rows(%ids: tensor<24xi64>, %t: tensor<12x1x2xf32>) -> tensor<24x2x1xf32> {
  %w = arith.constant dense<[[[0.0000, 0.1250], [0.2500, 0.3750]], [[0.5000, 0.6250], [0.7500, 0.8750]], [[1.0000, 1.1250], [1.2500, 1.3750]], [[1.5000, 1.6250], [1.7500, 1.8750]], [[2.0000, 2.1250], [2.2500, 2.3750]], [[2.5000, 2.6250], [2.7500, 2.8750]], [[3.0000, 3.1250], [3.2500, 3.3750]], [[3.5000, 3.6250], [3.7500, 3.8750]], [[4.0000, 4.1250], [4.2500, 4.3750]], [[4.5000, 4.6250], [4.7500, 4.8750]], [[5.0000, 5.1250], [5.2500, 5.3750]], [[5.5000, 5.6250], [5.7500, 5.8750]], [[6.0000, 6.1250], [6.2500, 6.3750]], [[6.5000, 6.6250], [6.7500, 6.8750]], [[7.0000, 7.1250], [7.2500, 7.3750]], [[7.5000, 7.6250], [7.7500, 7.8750]], [[8.0000, 8.1250], [8.2500, 8.3750]], [[8.5000, 8.6250], [8.7500, 8.8750]], [[9.0000, 9.1250], [9.2500, 9.3750]], [[9.5000, 9.6250], [9.7500, 9.8750]], [[10.0000, 10.1250], [10.2500, 10.3750]], [[10.5000, 10.6250], [10.7500, 10.8750]], [[11.0000, 11.1250], [11.2500, 11.3750]], [[11.5000, 11.6250], [11.7500, 11.8750]]]> : tensor<24x2x2xf32>
  %r = graph.broadcast %t dims = [0, 1, 2] : tensor<12x1x2xf32> -> tensor<12x2x2xf32>
  %x = graph.reshape %r : tensor<12x2x2xf32> -> tensor<24x2x1xf32>
  %g = graph.gather %w, %ids axis = 0 : (tensor<24x2x2xf32>, tensor<24xi64>) -> tensor<24x2x2xf32>
  %y = graph.dot %g, %x : (tensor<24x2x2xf32>, tensor<24x2x1xf32>) -> tensor<24x2x1xf32>
  func.return %y : tensor<24x2x1xf32>
}

// -----

// Left: 40 experts, 2 a token, would be 20 times the multiply-adds; 24 experts whose rows are
// not repeated, 24 times.
// CHECK-LABEL: func.func @many_experts_left_gathered
// CHECK-COUNT-2: graph.gather %{{.*}}, %{{.*}} axis = 0 : (tensor<{{40|24}}x2x2xf32>
// CHECK-NOT:     graph.gather
func.func @many_experts_left_gathered(%ids: tensor<40xi64>, %t: tensor<20x1x2xf32>, %ids24: tensor<24xi64>, %x24: tensor<24x2x1xf32>) -> (tensor<40x2x1xf32>, tensor<24x2x1xf32>) {
  %w = arith.constant dense<0.5> : tensor<40x2x2xf32>
  %r = graph.broadcast %t dims = [0, 1, 2] : tensor<20x1x2xf32> -> tensor<20x2x2xf32>
  %x = graph.reshape %r : tensor<20x2x2xf32> -> tensor<40x2x1xf32>
  %g = graph.gather %w, %ids axis = 0 : (tensor<40x2x2xf32>, tensor<40xi64>) -> tensor<40x2x2xf32>
  %y = graph.dot %g, %x : (tensor<40x2x2xf32>, tensor<40x2x1xf32>) -> tensor<40x2x1xf32>
  %w24 = arith.constant dense<0.25> : tensor<24x2x2xf32>
  %g24 = graph.gather %w24, %ids24 axis = 0 : (tensor<24x2x2xf32>, tensor<24xi64>) -> tensor<24x2x2xf32>
  %y24 = graph.dot %g24, %x24 : (tensor<24x2x2xf32>, tensor<24x2x1xf32>) -> tensor<24x2x1xf32>
  func.return %y, %y24 : tensor<40x2x1xf32>, tensor<24x2x1xf32>
}
