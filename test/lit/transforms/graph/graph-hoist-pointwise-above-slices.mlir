// RUN: fusion-opt %s --split-input-file -p graph-hoist-pointwise-above-slices | filecheck %s

// Unary op on every slice of an exact tiling: one sigmoid on the whole tensor, sliced after.
// CHECK-LABEL: func.func @unary_full_tiling
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT:    %[[S:.*]] = graph.sigmoid %[[X]] : tensor<2x8xf32>
// CHECK-NEXT:    %[[A:.*]] = graph.slice %[[S]] axes = [1] starts = [0] ends = [3]
// CHECK-NEXT:    %[[B:.*]] = graph.slice %[[S]] axes = [1] starts = [3] ends = [8]
// CHECK-NEXT:    func.return %[[A]], %[[B]]
func.func @unary_full_tiling(%x: tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>) {
  %a = graph.slice %x axes = [1] starts = [0] ends = [3] : tensor<2x8xf32> -> tensor<2x3xf32>
  %b = graph.slice %x axes = [1] starts = [3] ends = [8] : tensor<2x8xf32> -> tensor<2x5xf32>
  %sa = graph.sigmoid %a : tensor<2x3xf32>
  %sb = graph.sigmoid %b : tensor<2x5xf32>
  func.return %sa, %sb : tensor<2x3xf32>, tensor<2x5xf32>
}

// -----

// MIGraphX simplify_split_add_relu: add of a broadcast constant then relu on each slice.
// The bias constants are concatenated on the slice axis and broadcast once.
// CHECK-LABEL: func.func @split_add_relu
// CHECK-SAME:    (%[[X:.*]]: tensor<3x2x4xf32>)
// CHECK:         %[[C:.*]] = arith.constant dense<{{\[}}1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[BC:.*]] = graph.broadcast %[[C]] dims = [1] : tensor<2xf32> -> tensor<3x2x4xf32>
// CHECK-NEXT:    %[[ADD:.*]] = graph.add %[[X]], %[[BC]] : tensor<3x2x4xf32>
// CHECK-NEXT:    %[[RELU:.*]] = graph.relu %[[ADD]] : tensor<3x2x4xf32>
// CHECK-NEXT:    %[[R0:.*]] = graph.slice %[[RELU]] axes = [1] starts = [0] ends = [1]
// CHECK-NEXT:    %[[R1:.*]] = graph.slice %[[RELU]] axes = [1] starts = [1] ends = [2]
// CHECK-NEXT:    %[[SUM:.*]] = graph.add %[[R0]], %[[R1]] : tensor<3x1x4xf32>
// CHECK-NEXT:    func.return %[[SUM]]
func.func @split_add_relu(%x: tensor<3x2x4xf32>) -> tensor<3x1x4xf32> {
  %c1 = arith.constant dense<1.0> : tensor<1xf32>
  %c2 = arith.constant dense<2.0> : tensor<1xf32>
  %a = graph.slice %x axes = [1] starts = [0] ends = [1] : tensor<3x2x4xf32> -> tensor<3x1x4xf32>
  %b = graph.slice %x axes = [1] starts = [1] ends = [2] : tensor<3x2x4xf32> -> tensor<3x1x4xf32>
  %ba = graph.broadcast %c1 dims = [1] : tensor<1xf32> -> tensor<3x1x4xf32>
  %bb = graph.broadcast %c2 dims = [1] : tensor<1xf32> -> tensor<3x1x4xf32>
  %aa = graph.add %a, %ba : tensor<3x1x4xf32>
  %ab = graph.add %bb, %b : tensor<3x1x4xf32>
  %ra = graph.relu %aa : tensor<3x1x4xf32>
  %rb = graph.relu %ab : tensor<3x1x4xf32>
  %s = graph.add %ra, %rb : tensor<3x1x4xf32>
  func.return %s : tensor<3x1x4xf32>
}

// -----

// The SiLU diamond: slice -> sigmoid -> mul(slice, sigmoid) on every slice becomes one SiLU.
// CHECK-LABEL: func.func @silu_diamond
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8xf32>)
// CHECK-NEXT:    %[[SIG:.*]] = graph.sigmoid %[[X]] : tensor<1x8xf32>
// CHECK-NEXT:    %[[MUL:.*]] = graph.mul %{{.*}}, %{{.*}} : tensor<1x8xf32>
// CHECK-NEXT:    %[[A:.*]] = graph.slice %[[MUL]] axes = [1] starts = [0] ends = [4]
// CHECK-NEXT:    %[[B:.*]] = graph.slice %[[MUL]] axes = [1] starts = [4] ends = [8]
// CHECK-NEXT:    func.return %[[A]], %[[B]]
// CHECK-NOT:     tensor<1x4xf32> -> tensor<1x4xf32>
func.func @silu_diamond(%x: tensor<1x8xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %a = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<1x8xf32> -> tensor<1x4xf32>
  %b = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<1x8xf32> -> tensor<1x4xf32>
  %sa = graph.sigmoid %a : tensor<1x4xf32>
  %ma = graph.mul %a, %sa : tensor<1x4xf32>
  %sb = graph.sigmoid %b : tensor<1x4xf32>
  %mb = graph.mul %sb, %b : tensor<1x4xf32>
  func.return %ma, %mb : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// Partial hoist (PR #5014): slices 0 and 1 feed exp, slice 2 feeds tanh. exp runs once over
// the bounding slice [0, 6) of the run; the tanh member stays as it was.
// CHECK-LABEL: func.func @partial_run
// CHECK-SAME:    (%[[X:.*]]: tensor<1x9xf32>)
// CHECK-DAG:     %[[C:.*]] = graph.slice %[[X]] axes = [1] starts = [6] ends = [9]
// CHECK-DAG:     %[[BOUND:.*]] = graph.slice %[[X]] axes = [1] starts = [0] ends = [6] : tensor<1x9xf32> -> tensor<1x6xf32>
// CHECK:         %[[E:.*]] = graph.exp %[[BOUND]] : tensor<1x6xf32>
// CHECK-DAG:     graph.slice %[[E]] axes = [1] starts = [0] ends = [3]
// CHECK-DAG:     graph.slice %[[E]] axes = [1] starts = [3] ends = [6]
// CHECK-DAG:     graph.tanh %[[C]] : tensor<1x3xf32>
// CHECK-NOT:     graph.exp
func.func @partial_run(%x: tensor<1x9xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %a = graph.slice %x axes = [1] starts = [0] ends = [3] : tensor<1x9xf32> -> tensor<1x3xf32>
  %b = graph.slice %x axes = [1] starts = [3] ends = [6] : tensor<1x9xf32> -> tensor<1x3xf32>
  %c = graph.slice %x axes = [1] starts = [6] ends = [9] : tensor<1x9xf32> -> tensor<1x3xf32>
  %ea = graph.exp %a : tensor<1x3xf32>
  %eb = graph.exp %b : tensor<1x3xf32>
  %tc = graph.tanh %c : tensor<1x3xf32>
  func.return %ea, %eb, %tc : tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}

// -----

// Binary op whose other operand is an identically ranged slice of another tensor.
// CHECK-LABEL: func.func @slice_of_other_tensor
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8xf32>, %[[Y:.*]]: tensor<2x8xf32>)
// CHECK-NEXT:    %[[S:.*]] = graph.sub %[[X]], %[[Y]] : tensor<2x8xf32>
// CHECK-NEXT:    graph.slice %[[S]] axes = [1] starts = [0] ends = [4]
// CHECK-NEXT:    graph.slice %[[S]] axes = [1] starts = [4] ends = [8]
func.func @slice_of_other_tensor(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %xa = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<2x8xf32> -> tensor<2x4xf32>
  %xb = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<2x8xf32> -> tensor<2x4xf32>
  %ya = graph.slice %y axes = [1] starts = [0] ends = [4] : tensor<2x8xf32> -> tensor<2x4xf32>
  %yb = graph.slice %y axes = [1] starts = [4] ends = [8] : tensor<2x8xf32> -> tensor<2x4xf32>
  %da = graph.sub %xa, %ya : tensor<2x4xf32>
  %db = graph.sub %xb, %yb : tensor<2x4xf32>
  func.return %da, %db : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Negative: a gap between the slices ([0,3) and [4,8)) refuses the rewrite.
// CHECK-LABEL: func.func @gap_refuses
// CHECK-NEXT:    graph.slice
// CHECK-NEXT:    graph.slice
// CHECK-NEXT:    graph.exp %{{.*}} : tensor<1x3xf32>
// CHECK-NEXT:    graph.exp %{{.*}} : tensor<1x4xf32>
func.func @gap_refuses(%x: tensor<1x8xf32>) -> (tensor<1x3xf32>, tensor<1x4xf32>) {
  %a = graph.slice %x axes = [1] starts = [0] ends = [3] : tensor<1x8xf32> -> tensor<1x3xf32>
  %b = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<1x8xf32> -> tensor<1x4xf32>
  %ea = graph.exp %a : tensor<1x3xf32>
  %eb = graph.exp %b : tensor<1x4xf32>
  func.return %ea, %eb : tensor<1x3xf32>, tensor<1x4xf32>
}

// -----

// Negative: slices on different axes do not tile anything.
// CHECK-LABEL: func.func @different_axes
// CHECK-NEXT:    graph.slice %{{.*}} axes = [0]
// CHECK-NEXT:    graph.slice %{{.*}} axes = [1]
// CHECK-NEXT:    graph.exp %{{.*}} : tensor<1x4xf32>
// CHECK-NEXT:    graph.exp %{{.*}} : tensor<2x2xf32>
func.func @different_axes(%x: tensor<2x4xf32>) -> (tensor<1x4xf32>, tensor<2x2xf32>) {
  %a = graph.slice %x axes = [0] starts = [0] ends = [1] : tensor<2x4xf32> -> tensor<1x4xf32>
  %b = graph.slice %x axes = [1] starts = [2] ends = [4] : tensor<2x4xf32> -> tensor<2x2xf32>
  %ea = graph.exp %a : tensor<1x4xf32>
  %eb = graph.exp %b : tensor<2x2xf32>
  func.return %ea, %eb : tensor<1x4xf32>, tensor<2x2xf32>
}

// -----

// Negative: different ops on the two slices (no run of length 2).
// CHECK-LABEL: func.func @different_ops
// CHECK:         graph.exp %{{.*}} : tensor<1x4xf32>
// CHECK:         graph.tanh %{{.*}} : tensor<1x4xf32>
// CHECK-NOT:     tensor<1x8xf32> -> tensor<1x8xf32>
func.func @different_ops(%x: tensor<1x8xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %a = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<1x8xf32> -> tensor<1x4xf32>
  %b = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<1x8xf32> -> tensor<1x4xf32>
  %ea = graph.exp %a : tensor<1x4xf32>
  %tb = graph.tanh %b : tensor<1x4xf32>
  func.return %ea, %tb : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// Negative: the other operand is neither constant nor a slice (a function argument).
// CHECK-LABEL: func.func @runtime_other_operand
// CHECK:         graph.add %{{.*}}, %{{.*}} : tensor<1x4xf32>
// CHECK:         graph.add %{{.*}}, %{{.*}} : tensor<1x4xf32>
// CHECK-NOT:     graph.add %{{.*}} : tensor<1x8xf32>
func.func @runtime_other_operand(%x: tensor<1x8xf32>, %y: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %a = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<1x8xf32> -> tensor<1x4xf32>
  %b = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<1x8xf32> -> tensor<1x4xf32>
  %aa = graph.add %a, %y : tensor<1x4xf32>
  %ab = graph.add %b, %y : tensor<1x4xf32>
  func.return %aa, %ab : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// Negative: non-commutative op with the slice on different sides (x - c vs c - x).
// CHECK-LABEL: func.func @sub_sides_differ
// CHECK-COUNT-2: graph.sub %{{.*}}, %{{.*}} : tensor<1x4xf32>
// CHECK-NOT:     graph.sub
func.func @sub_sides_differ(%x: tensor<1x8xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %c = arith.constant dense<1.0> : tensor<1x4xf32>
  %a = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<1x8xf32> -> tensor<1x4xf32>
  %b = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<1x8xf32> -> tensor<1x4xf32>
  %sa = graph.sub %a, %c : tensor<1x4xf32>
  %sb = graph.sub %c, %b : tensor<1x4xf32>
  func.return %sa, %sb : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// Dead terminals (ops without users) are never hoisted and the pass terminates.
// CHECK-LABEL: func.func @dead_terminals
// CHECK-NOT:     graph.exp %{{.*}} : tensor<1x8xf32>
// CHECK:         func.return %{{.*}} : tensor<1x8xf32>
func.func @dead_terminals(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %a = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<1x8xf32> -> tensor<1x4xf32>
  %b = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<1x8xf32> -> tensor<1x4xf32>
  %ea = graph.exp %a : tensor<1x4xf32>
  %eb = graph.exp %b : tensor<1x4xf32>
  func.return %x : tensor<1x8xf32>
}
