// RUN: fusion-opt %s --split-input-file -p graph-canonicalize | filecheck %s
// Upstream `canonicalize` picks the same patterns up through the ops' GraphCanonicalization trait.
// RUN: fusion-opt %s --split-input-file -p canonicalize | filecheck %s
// The pass's helper modules these cases exercise: graph/graph_canonicalization_patterns.py,
// graph/graph_ir.py, graph/concat_of_permuted_slices.py, graph/gather_at_constant_index.py,
// graph/slice_of_reshape.py, graph/nested_concats.py.

// CHECK-LABEL: func.func @views
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>, %[[V:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %[[X]] perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %[[X]] : tensor<2x3x4xf32> -> tensor<24xf32>
// CHECK-NEXT:    %[[B:.*]] = graph.broadcast %[[V]] dims = [2] : tensor<4xf32> -> tensor<5x3x4xf32>
// CHECK-NEXT:    func.return %[[X]], %[[T]], %[[R]], %[[B]], %[[X]]
func.func @views(%x: tensor<2x3x4xf32>, %v: tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<24xf32>, tensor<5x3x4xf32>, tensor<2x3x4xf32>) {
  %t0 = graph.transpose %x perm = [1, 0, 2] : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  %t1 = graph.transpose %t0 perm = [1, 0, 2] : tensor<3x2x4xf32> -> tensor<2x3x4xf32>
  %u0 = graph.transpose %x perm = [0, 2, 1] : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
  %u1 = graph.transpose %u0 perm = [1, 0, 2] : tensor<2x4x3xf32> -> tensor<4x2x3xf32>
  %r0 = graph.reshape %x : tensor<2x3x4xf32> -> tensor<6x4xf32>
  %r1 = graph.reshape %r0 : tensor<6x4xf32> -> tensor<24xf32>
  %b0 = graph.broadcast %v dims = [1] : tensor<4xf32> -> tensor<3x4xf32>
  %b1 = graph.broadcast %b0 dims = [1, 2] : tensor<3x4xf32> -> tensor<5x3x4xf32>
  %s = graph.slice %x axes = [1] starts = [0] ends = [3] : tensor<2x3x4xf32> -> tensor<2x3x4xf32>
  func.return %t1, %u1, %r1, %b1, %s : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<24xf32>, tensor<5x3x4xf32>, tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @slices_and_concats
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[Y:.*]]: tensor<4x8xf32>)
// CHECK-NEXT:    %[[S:.*]] = graph.slice %[[Y]] axes = [1] starts = [1] ends = [4] : tensor<4x8xf32> -> tensor<4x3xf32>
// CHECK-NEXT:    %[[A:.*]] = graph.slice %[[X]] axes = [1] starts = [6] ends = [8] : tensor<4x8xf32> -> tensor<4x2xf32>
// CHECK-NEXT:    %[[B:.*]] = graph.slice %[[Y]] axes = [1] starts = [0] ends = [2] : tensor<4x8xf32> -> tensor<4x2xf32>
// CHECK-NEXT:    %[[AB:.*]] = graph.concat %[[A]], %[[B]] axis = 1
// CHECK-NEXT:    %[[P:.*]] = graph.slice %[[X]] axes = [0, 1] starts = [1, 0] ends = [3, 6] : tensor<4x8xf32> -> tensor<2x6xf32>
// CHECK-NEXT:    %[[SS:.*]] = graph.slice %[[X]] axes = [0, 1] starts = [1, 3] ends = [2, 5] : tensor<4x8xf32> -> tensor<1x2xf32>
// CHECK-NEXT:    func.return %[[S]], %[[X]], %[[AB]], %[[P]], %[[SS]]
func.func @slices_and_concats(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x3xf32>, tensor<4x8xf32>, tensor<4x4xf32>, tensor<2x6xf32>, tensor<1x2xf32>) {
  %cc = graph.concat %x, %y axis = 1 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  // Reads only %y.
  %s = graph.slice %cc axes = [1] starts = [9] ends = [12] : tensor<4x16xf32> -> tensor<4x3xf32>
  // Adjacent slices of one value, concatenated back in order: the value itself.
  %s0 = graph.slice %x axes = [1] starts = [0] ends = [3] : tensor<4x8xf32> -> tensor<4x3xf32>
  %s1 = graph.slice %x axes = [1] starts = [3] ends = [8] : tensor<4x8xf32> -> tensor<4x5xf32>
  %j = graph.concat %s0, %s1 axis = 1 : (tensor<4x3xf32>, tensor<4x5xf32>) -> tensor<4x8xf32>
  // Straddles both inputs: the concat of the two pieces.
  %ab = graph.slice %cc axes = [1] starts = [6] ends = [10] : tensor<4x16xf32> -> tensor<4x4xf32>
  // Adjacent on axis 1 with the same rows: one slice.
  %p0 = graph.slice %x axes = [0, 1] starts = [1, 0] ends = [3, 2] : tensor<4x8xf32> -> tensor<2x2xf32>
  %p1 = graph.slice %x axes = [0, 1] starts = [1, 2] ends = [3, 6] : tensor<4x8xf32> -> tensor<2x4xf32>
  %p = graph.concat %p0, %p1 axis = 1 : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x6xf32>
  // slice of slice.
  %q0 = graph.slice %x axes = [0] starts = [1] ends = [3] : tensor<4x8xf32> -> tensor<2x8xf32>
  %q1 = graph.slice %q0 axes = [0, 1] starts = [0, 3] ends = [1, 5] : tensor<2x8xf32> -> tensor<1x2xf32>
  func.return %s, %j, %ab, %p, %q1 : tensor<4x3xf32>, tensor<4x8xf32>, tensor<4x4xf32>, tensor<2x6xf32>, tensor<1x2xf32>
}

// -----

// An unrolled scan's rows so far, grown a step at a time (the form `SliceOfConcat` leaves of a
// select_scatter chain): one concat of every step; the inner one stays for its other user.
// CHECK-LABEL: func.func @nested_concats
// CHECK-SAME:    (%[[A:.*]]: tensor<1x4xf32>, %[[B:.*]]: tensor<1x4xf32>, %[[C:.*]]: tensor<1x4xf32>, %[[D:.*]]: tensor<1x4xf32>)
// CHECK-NEXT:    %[[AB:.*]] = graph.concat %[[A]], %[[B]] axis = 0
// CHECK-NEXT:    %[[ALL:.*]] = graph.concat %[[A]], %[[B]], %[[C]], %[[D]] axis = 0 : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT:    func.return %[[ALL]], %[[AB]]
func.func @nested_concats(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>, %c: tensor<1x4xf32>, %d: tensor<1x4xf32>) -> (tensor<4x4xf32>, tensor<2x4xf32>) {
  %ab = graph.concat %a, %b axis = 0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %abc = graph.concat %ab, %c axis = 0 : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  %abcd = graph.concat %abc, %d axis = 0 : (tensor<3x4xf32>, tensor<1x4xf32>) -> tensor<4x4xf32>
  func.return %abcd, %ab : tensor<4x4xf32>, tensor<2x4xf32>
}

// -----

// Negative: the inner concat runs along another axis.
// CHECK-LABEL: func.func @nested_concats_across_axes
// CHECK-NEXT:    %[[AB:.*]] = graph.concat %{{.*}}, %{{.*}} axis = 1
// CHECK-NEXT:    %[[ABC:.*]] = graph.concat %[[AB]], %{{.*}} axis = 0
// CHECK-NEXT:    func.return %[[ABC]]
func.func @nested_concats_across_axes(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>, %c: tensor<1x8xf32>) -> tensor<2x8xf32> {
  %ab = graph.concat %a, %b axis = 1 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
  %abc = graph.concat %ab, %c axis = 0 : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
  func.return %abc : tensor<2x8xf32>
}

// -----

// Negative: rows differ and the gap are not merged; out-of-order slices covering %x become a
// gather (concat_of_permuted_slices.py), not a slice.
// CHECK-LABEL: func.func @slices_kept
// CHECK:         graph.concat
// CHECK:         graph.gather %{{.*}}, %{{.*}} axis = 1
// CHECK-COUNT-2: graph.concat
func.func @slices_kept(%x: tensor<4x8xf32>) -> (tensor<4x5xf32>, tensor<4x6xf32>, tensor<4x8xf32>) {
  %a = graph.slice %x axes = [1] starts = [0] ends = [2] : tensor<4x8xf32> -> tensor<4x2xf32>
  %b = graph.slice %x axes = [1] starts = [3] ends = [6] : tensor<4x8xf32> -> tensor<4x3xf32>
  %gap = graph.concat %a, %b axis = 1 : (tensor<4x2xf32>, tensor<4x3xf32>) -> tensor<4x5xf32>
  %c = graph.slice %x axes = [1] starts = [2] ends = [8] : tensor<4x8xf32> -> tensor<4x6xf32>
  %swap = graph.concat %c, %a axis = 1 : (tensor<4x6xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  %r0 = graph.slice %x axes = [0, 1] starts = [0, 0] ends = [2, 3] : tensor<4x8xf32> -> tensor<2x3xf32>
  %r1 = graph.slice %x axes = [0, 1] starts = [2, 3] ends = [4, 6] : tensor<4x8xf32> -> tensor<2x3xf32>
  %rows = graph.concat %r0, %r1 axis = 1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %rr = graph.reshape %rows : tensor<2x6xf32> -> tensor<4x3xf32>
  %pad = graph.concat %rr, %rr axis = 1 : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x6xf32>
  func.return %gap, %pad, %swap : tensor<4x5xf32>, tensor<4x6xf32>, tensor<4x8xf32>
}

// -----

// x + 0, 0 + x, x - 0, x * 1; `x - 0` only on the right, `x * 2` kept.
// CHECK-LABEL: func.func @identities
// CHECK-SAME:    (%[[X:.*]]: tensor<4xf32>, %[[N:.*]]: tensor<4xi32>)
// CHECK:         %[[Z:.*]] = graph.sub %{{.*}}, %[[X]]
// CHECK-NEXT:    %[[M:.*]] = graph.mul %[[X]], %{{.*}}
// CHECK-NEXT:    func.return %[[X]], %[[X]], %[[N]], %[[Z]], %[[M]]
func.func @identities(%x: tensor<4xf32>, %n: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
  %zero = arith.constant dense<0.0> : tensor<4xf32>
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %izero = arith.constant dense<0> : tensor<4xi32>
  %zs = arith.constant dense<0.0> : tensor<f32>
  %zb = graph.broadcast %zs dims = [] : tensor<f32> -> tensor<4xf32>
  %a = graph.add %zb, %x : tensor<4xf32>
  %m = graph.mul %x, %one : tensor<4xf32>
  %i = graph.sub %n, %izero : tensor<4xi32>
  %z = graph.sub %zero, %x : tensor<4xf32>
  %k = graph.mul %x, %two : tensor<4xf32>
  func.return %a, %m, %i, %z, %k : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Views of constants fold; a splat keeps one stored element whatever the shape.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %[[T:.*]] = arith.constant dense<{{\[}}[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[S:.*]] = arith.constant dense<5.000000e-01> : tensor<1024x1024xf32>
// CHECK-NEXT:    func.return %[[T]], %[[S]]
func.func @constants() -> (tensor<2x2xf32>, tensor<1024x1024xf32>) {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %t = graph.transpose %c perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
  %h = arith.constant dense<0.5> : tensor<1024xf32>
  %b = graph.broadcast %h dims = [1] : tensor<1024xf32> -> tensor<1024x1024xf32>
  func.return %t, %b : tensor<2x2xf32>, tensor<1024x1024xf32>
}

// -----

// Stacked constant biases: (x + c1) + c2 -> x + (c1 + c2), summed before one broadcast.
// CHECK-LABEL: func.func @bias_sum
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<[1.100000e+01, 2.200000e+01]> : tensor<2xf32>
// CHECK-NEXT:    %[[B:.*]] = graph.broadcast %[[C]] dims = [1] : tensor<2xf32> -> tensor<3x2xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.add %{{.*}}, %[[B]]
// CHECK-NEXT:    func.return %[[R]]
func.func @bias_sum(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %c1 = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c2 = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %b1 = graph.broadcast %c1 dims = [1] : tensor<2xf32> -> tensor<3x2xf32>
  %b2 = graph.broadcast %c2 dims = [1] : tensor<2xf32> -> tensor<3x2xf32>
  %a1 = graph.add %x, %b1 : tensor<3x2xf32>
  %a2 = graph.add %b2, %a1 : tensor<3x2xf32>
  func.return %a2 : tensor<3x2xf32>
}

// -----

// Slices of dots and of constants (MIGraphX `find_dot_slice`; the `dot(a, slice(C))` case
// peer case): the slice moves onto the dot's operands, and a cut of a constant folds into it.

// dot(a, slice(C)) with constant C -> dot(a, C') (C' = columns 1..3).
// CHECK-LABEL: func.func @dot_of_sliced_constant
// CHECK-SAME:    (%[[A:.*]]: tensor<2x2xf32>)
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[}}[2.000000e+00, 3.000000e+00], [6.000000e+00, 7.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[A]], %[[C]] : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @dot_of_sliced_constant(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %s = graph.slice %c axes = [1] starts = [1] ends = [3] : tensor<2x4xf32> -> tensor<2x2xf32>
  %d = graph.dot %a, %s : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %d : tensor<2x2xf32>
}

// -----

// The slice after the dot: a column cut goes to the constant weight and folds.
// CHECK-LABEL: func.func @column_slice_after_dot
// CHECK-SAME:    (%[[A:.*]]: tensor<3x2xf32>)
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<{{\[}}[3.000000e+00, 4.000000e+00], [7.000000e+00, 8.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[A]], %[[C]] : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @column_slice_after_dot(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %d = graph.dot %a, %c : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %s = graph.slice %d axes = [1] starts = [2] ends = [4] : tensor<3x4xf32> -> tensor<3x2xf32>
  func.return %s : tensor<3x2xf32>
}

// -----

// A row cut goes to the activation; the weight is untouched.
// CHECK-LABEL: func.func @row_slice_after_dot
// CHECK-SAME:    (%[[A:.*]]: tensor<6x2xf32>)
// CHECK:         %[[AS:.*]] = graph.slice %[[A]] axes = [0] starts = [1] ends = [3] : tensor<6x2xf32> -> tensor<2x2xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[AS]], %{{.*}} : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @row_slice_after_dot(%a: tensor<6x2xf32>) -> tensor<2x4xf32> {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %d = graph.dot %a, %c : (tensor<6x2xf32>, tensor<2x4xf32>) -> tensor<6x4xf32>
  %s = graph.slice %d axes = [0] starts = [1] ends = [3] : tensor<6x4xf32> -> tensor<2x4xf32>
  func.return %s : tensor<2x4xf32>
}

// -----

// Batch and column cuts at once on a batched dot: the batch cut goes to both operands, the
// column cut to the weight only; the weight's cut folds (batch 1, columns 0..1 of
// [[[0, 1, 2], [3, 4, 5]], [[6, 7, 8], [9, 10, 11]]]).
// CHECK-LABEL: func.func @batch_and_column_slice
// CHECK-SAME:    (%[[A:.*]]: tensor<2x3x2xf32>)
// CHECK-DAG:     %[[C:.*]] = arith.constant dense<{{\[}}{{\[}}[6.000000e+00], [9.000000e+00]]]> : tensor<1x2x1xf32>
// CHECK-DAG:     %[[AS:.*]] = graph.slice %[[A]] axes = [0] starts = [1] ends = [2] : tensor<2x3x2xf32> -> tensor<1x3x2xf32>
// CHECK:         %[[D:.*]] = graph.dot %[[AS]], %[[C]] : (tensor<1x3x2xf32>, tensor<1x2x1xf32>) -> tensor<1x3x1xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @batch_and_column_slice(%a: tensor<2x3x2xf32>) -> tensor<1x3x1xf32> {
  %c = arith.constant dense<[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]]> : tensor<2x2x3xf32>
  %d = graph.dot %a, %c : (tensor<2x3x2xf32>, tensor<2x2x3xf32>) -> tensor<2x3x3xf32>
  %s = graph.slice %d axes = [0, 2] starts = [1, 0] ends = [2, 1] : tensor<2x3x3xf32> -> tensor<1x3x1xf32>
  func.return %s : tensor<1x3x1xf32>
}

// -----

// A weight broadcast over the batch: the cut moves through the broadcast onto the stored
// constant, which stays [K, n] (2x1 here) and is broadcast again.
// CHECK-LABEL: func.func @broadcast_weight
// CHECK-SAME:    (%[[A:.*]]: tensor<4x3x2xf32>)
// CHECK:         %[[C:.*]] = arith.constant dense<{{\[}}[2.000000e+00], [5.000000e+00]]> : tensor<2x1xf32>
// CHECK-NEXT:    %[[B:.*]] = graph.broadcast %[[C]] dims = [1, 2] : tensor<2x1xf32> -> tensor<4x2x1xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %[[A]], %[[B]] : (tensor<4x3x2xf32>, tensor<4x2x1xf32>) -> tensor<4x3x1xf32>
// CHECK-NEXT:    func.return %[[D]]
func.func @broadcast_weight(%a: tensor<4x3x2xf32>) -> tensor<4x3x1xf32> {
  %w = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %wb = graph.broadcast %w dims = [1, 2] : tensor<2x3xf32> -> tensor<4x2x3xf32>
  %d = graph.dot %a, %wb : (tensor<4x3x2xf32>, tensor<4x2x3xf32>) -> tensor<4x3x3xf32>
  %s = graph.slice %d axes = [2] starts = [2] ends = [3] : tensor<4x3x3xf32> -> tensor<4x3x1xf32>
  func.return %s : tensor<4x3x1xf32>
}

// -----

// A splat constant's slice is a splat (its one stored element reused).
// CHECK-LABEL: func.func @splat_slice
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<5.000000e-01> : tensor<8x2xf32>
// CHECK-NEXT:    %[[D:.*]] = graph.dot %{{.*}}, %[[C]]
func.func @splat_slice(%a: tensor<4x8xf32>) -> tensor<4x2xf32> {
  %c = arith.constant dense<0.5> : tensor<8x64xf32>
  %d = graph.dot %a, %c : (tensor<4x8xf32>, tensor<8x64xf32>) -> tensor<4x64xf32>
  %s = graph.slice %d axes = [1] starts = [10] ends = [12] : tensor<4x64xf32> -> tensor<4x2xf32>
  func.return %s : tensor<4x2xf32>
}

// -----

// Negative: the dot has another user (its whole value is needed): unchanged.
// CHECK-LABEL: func.func @dot_used_twice
// CHECK:         %[[D:.*]] = graph.dot
// CHECK-NEXT:    %[[S:.*]] = graph.slice %[[D]]
// CHECK-NEXT:    func.return %[[S]], %[[D]]
func.func @dot_used_twice(%a: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3x4xf32>) {
  %c = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %d = graph.dot %a, %c : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %s = graph.slice %d axes = [1] starts = [2] ends = [4] : tensor<3x4xf32> -> tensor<3x2xf32>
  func.return %s, %d : tensor<3x2xf32>, tensor<3x4xf32>
}

// -----

// Negative: a slice of a run-time value that is not a dot, concat or broadcast stays.
// CHECK-LABEL: func.func @slice_of_add
// CHECK:         %[[S:.*]] = graph.add
// CHECK-NEXT:    graph.slice %[[S]]
func.func @slice_of_add(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x2xf32> {
  %s = graph.add %a, %b : tensor<3x4xf32>
  %t = graph.slice %s axes = [1] starts = [2] ends = [4] : tensor<3x4xf32> -> tensor<3x2xf32>
  func.return %t : tensor<3x2xf32>
}

// -----

// slice(transpose(x)) -> transpose(slice(x)) when only slices read the transpose (the K and V
// heads of a head-split QKV projection): each slice moves only the heads it keeps.
// CHECK-LABEL: func.func @slices_of_transpose
// CHECK-NOT:     graph.transpose %x
// CHECK:         %[[K:.*]] = graph.slice %x axes = [2] starts = [2] ends = [4] : tensor<1x5x6x3xf32> -> tensor<1x5x2x3xf32>
// CHECK-NEXT:    %[[KT:.*]] = graph.transpose %[[K]] perm = [0, 2, 1, 3] : tensor<1x5x2x3xf32> -> tensor<1x2x5x3xf32>
// CHECK-NEXT:    %[[V:.*]] = graph.slice %x axes = [2, 3] starts = [4, 1] ends = [6, 3] : tensor<1x5x6x3xf32> -> tensor<1x5x2x2xf32>
// CHECK-NEXT:    %[[VT:.*]] = graph.transpose %[[V]] perm = [0, 2, 1, 3] : tensor<1x5x2x2xf32> -> tensor<1x2x5x2xf32>
// CHECK-NEXT:    func.return %[[KT]], %[[VT]]
func.func @slices_of_transpose(%x: tensor<1x5x6x3xf32>) -> (tensor<1x2x5x3xf32>, tensor<1x2x5x2xf32>) {
  %t = graph.transpose %x perm = [0, 2, 1, 3] : tensor<1x5x6x3xf32> -> tensor<1x6x5x3xf32>
  %k = graph.slice %t axes = [1] starts = [2] ends = [4] : tensor<1x6x5x3xf32> -> tensor<1x2x5x3xf32>
  %v = graph.slice %t axes = [1, 3] starts = [4, 1] ends = [6, 3] : tensor<1x6x5x3xf32> -> tensor<1x2x5x2xf32>
  func.return %k, %v : tensor<1x2x5x3xf32>, tensor<1x2x5x2xf32>
}

// -----

// Negative: the transpose is read whole too (returned), so moving the slice would transpose
// the kept part twice: unchanged.
// CHECK-LABEL: func.func @transpose_read_whole
// CHECK:         %[[T:.*]] = graph.transpose %x
// CHECK-NEXT:    %[[S:.*]] = graph.slice %[[T]]
// CHECK-NEXT:    func.return %[[S]], %[[T]]
func.func @transpose_read_whole(%x: tensor<1x5x6x3xf32>) -> (tensor<1x2x5x3xf32>, tensor<1x6x5x3xf32>) {
  %t = graph.transpose %x perm = [0, 2, 1, 3] : tensor<1x5x6x3xf32> -> tensor<1x6x5x3xf32>
  %k = graph.slice %t axes = [1] starts = [2] ends = [4] : tensor<1x6x5x3xf32> -> tensor<1x2x5x3xf32>
  func.return %k, %t : tensor<1x2x5x3xf32>, tensor<1x6x5x3xf32>
}

// -----

// RoPE's rotate_half (concat of the negated upper half and the lower half) and torch.roll
// (blocks swapped): one gather of x at import-time indices, the negated blocks multiplied by -1.
// CHECK-LABEL: func.func @permuted_blocks
// CHECK-SAME:    (%[[X:.*]]: tensor<2x8xf32>)
// CHECK:         %[[I:.*]] = arith.constant dense<[4, 5, 6, 7, 0, 1, 2, 3]> : tensor<8xi64>
// CHECK:         %[[G:.*]] = graph.gather %[[X]], %[[I]] axis = 1
// CHECK:         %[[S:.*]] = arith.constant dense<[-1.000000e+00, -1.000000e+00, -1.000000e+00, -1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<8xf32>
// CHECK:         %[[B:.*]] = graph.broadcast %[[S]] dims = [1] : tensor<8xf32> -> tensor<2x8xf32>
// CHECK:         %[[R:.*]] = graph.mul %[[G]], %[[B]]
// CHECK:         %[[J:.*]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK:         %[[L:.*]] = graph.gather %[[X]], %[[J]] axis = 0
// CHECK-NOT:     graph.concat
// CHECK:         func.return %[[R]], %[[L]]
func.func @permuted_blocks(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %hi = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<2x8xf32> -> tensor<2x4xf32>
  %n = graph.neg %hi : tensor<2x4xf32>
  %lo = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<2x8xf32> -> tensor<2x4xf32>
  %rot = graph.concat %n, %lo axis = 1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  %r1 = graph.slice %x axes = [0] starts = [1] ends = [2] : tensor<2x8xf32> -> tensor<1x8xf32>
  %r0 = graph.slice %x axes = [0] starts = [0] ends = [1] : tensor<2x8xf32> -> tensor<1x8xf32>
  %roll = graph.concat %r1, %r0 axis = 0 : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<2x8xf32>
  func.return %rot, %roll : tensor<2x8xf32>, tensor<2x8xf32>
}

// -----

// Negative: blocks that repeat an index, blocks of two values, slices also cut on another axis.
// CHECK-LABEL: func.func @blocks_kept
// CHECK-NOT:     graph.gather
// CHECK-COUNT-3: graph.concat
// CHECK-NOT:     graph.concat
// The lower half negated in place (blocks in order): x times the signs, no gather.
// CHECK:         %[[B:.*]] = graph.broadcast %{{.*}} dims = [1] : tensor<8xf32> -> tensor<2x8xf32>
// CHECK:         %[[M:.*]] = graph.mul %{{.*}}, %[[B]]
// CHECK:         func.return %{{.*}}, %{{.*}}, %{{.*}}, %[[M]]
func.func @blocks_kept(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<1x8xf32>, tensor<2x8xf32>) {
  %a = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<2x8xf32> -> tensor<2x4xf32>
  %b = graph.slice %x axes = [1] starts = [4] ends = [8] : tensor<2x8xf32> -> tensor<2x4xf32>
  %twice = graph.concat %a, %b axis = 1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  %c = graph.slice %y axes = [1] starts = [0] ends = [4] : tensor<2x8xf32> -> tensor<2x4xf32>
  %two = graph.concat %a, %c axis = 1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  %d = graph.slice %x axes = [0, 1] starts = [0, 4] ends = [1, 8] : tensor<2x8xf32> -> tensor<1x4xf32>
  %e = graph.slice %x axes = [0, 1] starts = [0, 0] ends = [1, 4] : tensor<2x8xf32> -> tensor<1x4xf32>
  %rows = graph.concat %d, %e axis = 1 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
  %lo = graph.slice %x axes = [1] starts = [0] ends = [4] : tensor<2x8xf32> -> tensor<2x4xf32>
  %n = graph.neg %lo : tensor<2x4xf32>
  %signed = graph.concat %n, %a axis = 1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  func.return %twice, %two, %rows, %signed : tensor<2x8xf32>, tensor<2x8xf32>, tensor<1x8xf32>, tensor<2x8xf32>
}


// -----

// PyTorch's MultiheadAttention splits its packed QKV projection with unflatten -> transpose ->
// select(0, i), exported as a Gather of one constant index: as slices (the last index is -1,
// counted from the end), moved above the squeeze, the transpose (which then moves unit axes
// only: a reshape) and the unflatten, each head reads its columns of the projection.
// CHECK-LABEL: func.func @qkv_select
// CHECK-SAME:    (%[[X:.*]]: tensor<5x1x12xf32>)
// CHECK-NEXT:    %[[Q:.*]] = graph.slice %[[X]] axes = [2] starts = [0] ends = [4] : tensor<5x1x12xf32> -> tensor<5x1x4xf32>
// CHECK-NEXT:    %[[K:.*]] = graph.slice %[[X]] axes = [2] starts = [4] ends = [8] : tensor<5x1x12xf32> -> tensor<5x1x4xf32>
// CHECK-NEXT:    %[[V:.*]] = graph.slice %[[X]] axes = [2] starts = [8] ends = [12] : tensor<5x1x12xf32> -> tensor<5x1x4xf32>
// CHECK-NEXT:    func.return %[[Q]], %[[K]], %[[V]]
func.func @qkv_select(%x: tensor<5x1x12xf32>) -> (tensor<5x1x4xf32>, tensor<5x1x4xf32>, tensor<5x1x4xf32>) {
  %u = graph.reshape %x : tensor<5x1x12xf32> -> tensor<1x5x1x3x4xf32>
  %t = graph.transpose %u perm = [3, 1, 2, 0, 4] : tensor<1x5x1x3x4xf32> -> tensor<3x5x1x1x4xf32>
  %s = graph.reshape %t : tensor<3x5x1x1x4xf32> -> tensor<3x5x1x4xf32>
  %c0 = arith.constant dense<0> : tensor<i64>
  %c1 = arith.constant dense<1> : tensor<i64>
  %cm1 = arith.constant dense<-1> : tensor<i64>
  %q = graph.gather %s, %c0 axis = 0 : (tensor<3x5x1x4xf32>, tensor<i64>) -> tensor<5x1x4xf32>
  %k = graph.gather %s, %c1 axis = 0 : (tensor<3x5x1x4xf32>, tensor<i64>) -> tensor<5x1x4xf32>
  %v = graph.gather %s, %cm1 axis = 0 : (tensor<3x5x1x4xf32>, tensor<i64>) -> tensor<5x1x4xf32>
  func.return %q, %k, %v : tensor<5x1x4xf32>, tensor<5x1x4xf32>, tensor<5x1x4xf32>
}

// -----

// A transpose that keeps its non-unit axes (4, 3) in order only moves unit axes: a reshape.
// CHECK-LABEL: func.func @unit_axes_transpose
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %x : tensor<1x4x1x3xf32> -> tensor<4x1x1x3xf32>
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %x perm = [0, 3, 2, 1]
// CHECK-NEXT:    func.return %[[R]], %[[T]]
func.func @unit_axes_transpose(%x: tensor<1x4x1x3xf32>) -> (tensor<4x1x1x3xf32>, tensor<1x3x1x4xf32>) {
  %t = graph.transpose %x perm = [1, 0, 2, 3] : tensor<1x4x1x3xf32> -> tensor<4x1x1x3xf32>
  %u = graph.transpose %x perm = [0, 3, 2, 1] : tensor<1x4x1x3xf32> -> tensor<1x3x1x4xf32>
  func.return %t, %u : tensor<4x1x1x3xf32>, tensor<1x3x1x4xf32>
}

// -----

// A one-element index vector along an inner axis keeps that axis (size 1).
// CHECK-LABEL: func.func @gather_one_index_inner_axis
// CHECK-NEXT:    %[[S:.*]] = graph.slice %x axes = [1] starts = [2] ends = [3] : tensor<4x6xf32> -> tensor<4x1xf32>
// CHECK-NEXT:    func.return %[[S]]
func.func @gather_one_index_inner_axis(%x: tensor<4x6xf32>) -> tensor<4x1xf32> {
  %i = arith.constant dense<[2]> : tensor<1xi32>
  %g = graph.gather %x, %i axis = 1 : (tensor<4x6xf32>, tensor<1xi32>) -> tensor<4x1xf32>
  func.return %g : tensor<4x1xf32>
}

// -----

// Negative: two indices stay a gather (an index out of range or not a constant stays one
// too: test_graph_simplify, as the interpreter cannot run those on any input).
// CHECK-LABEL: func.func @gathers_kept
// CHECK:         graph.gather
// CHECK-NOT:     graph.slice
func.func @gathers_kept(%x: tensor<4x6xf32>) -> tensor<2x6xf32> {
  %two = arith.constant dense<[0, 3]> : tensor<2xi64>
  %b = graph.gather %x, %two axis = 0 : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<2x6xf32>
  func.return %b : tensor<2x6xf32>
}

// -----

// A row of a 6x2 -> 2x6 reshape is rows 3..6 of its operand: sliced there, then reshaped.
// CHECK-LABEL: func.func @slice_of_reshape_rows
// CHECK-NEXT:    %[[S:.*]] = graph.slice %y axes = [0] starts = [3] ends = [6] : tensor<6x2xf32> -> tensor<3x2xf32>
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %[[S]] : tensor<3x2xf32> -> tensor<1x6xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @slice_of_reshape_rows(%y: tensor<6x2xf32>) -> tensor<1x6xf32> {
  %q = graph.reshape %y : tensor<6x2xf32> -> tensor<2x6xf32>
  %b = graph.slice %q axes = [0] starts = [1] ends = [2] : tensor<2x6xf32> -> tensor<1x6xf32>
  func.return %b : tensor<1x6xf32>
}

// -----

// Negative: slices of a reshape that are no contiguous block of whole rows of its operand (a
// cut inside the 4-wide rows of 12 -> 3x4; the second row of 3x4 -> 2x6 starts mid-row), and a
// reshape that is also read whole: unchanged.
// CHECK-LABEL: func.func @slices_of_reshape_kept
// CHECK-NEXT:    %[[R:.*]] = graph.reshape %x
// CHECK-NEXT:    graph.slice %[[R]]
// CHECK-NEXT:    %[[Q:.*]] = graph.reshape %y
// CHECK-NEXT:    graph.slice %[[Q]]
// CHECK-NEXT:    %[[W:.*]] = graph.reshape %z
// CHECK-NEXT:    graph.slice %[[W]]
func.func @slices_of_reshape_kept(%x: tensor<12xf32>, %y: tensor<3x4xf32>, %z: tensor<2x6xf32>) -> (tensor<3x2xf32>, tensor<1x6xf32>, tensor<2x2xf32>, tensor<6x2xf32>) {
  %r = graph.reshape %x : tensor<12xf32> -> tensor<3x4xf32>
  %a = graph.slice %r axes = [1] starts = [0] ends = [2] : tensor<3x4xf32> -> tensor<3x2xf32>
  %q = graph.reshape %y : tensor<3x4xf32> -> tensor<2x6xf32>
  %b = graph.slice %q axes = [0] starts = [1] ends = [2] : tensor<2x6xf32> -> tensor<1x6xf32>
  %w = graph.reshape %z : tensor<2x6xf32> -> tensor<6x2xf32>
  %c = graph.slice %w axes = [0] starts = [1] ends = [3] : tensor<6x2xf32> -> tensor<2x2xf32>
  func.return %a, %b, %c, %w : tensor<3x2xf32>, tensor<1x6xf32>, tensor<2x2xf32>, tensor<6x2xf32>
}

// -----

// Negative: ShuffleNetV2's channel shuffle (split the channels in two groups, swap, merge),
// then cut in halves. Moved above the merge, the cut would reach a transpose that stays one:
// each half would copy its strided part (1.22x slower at two threads); unchanged.
// CHECK-LABEL: func.func @channel_shuffle_halves
// CHECK-NEXT:    %[[S:.*]] = graph.reshape %x
// CHECK-NEXT:    %[[T:.*]] = graph.transpose %[[S]] perm = [0, 2, 1, 3]
// CHECK-NEXT:    %[[M:.*]] = graph.reshape %[[T]]
// CHECK-NEXT:    graph.slice %[[M]] axes = [1] starts = [0] ends = [4]
// CHECK-NEXT:    graph.slice %[[M]] axes = [1] starts = [4] ends = [8]
func.func @channel_shuffle_halves(%x: tensor<1x8x3xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>) {
  %s = graph.reshape %x : tensor<1x8x3xf32> -> tensor<1x2x4x3xf32>
  %t = graph.transpose %s perm = [0, 2, 1, 3] : tensor<1x2x4x3xf32> -> tensor<1x4x2x3xf32>
  %m = graph.reshape %t : tensor<1x4x2x3xf32> -> tensor<1x8x3xf32>
  %a = graph.slice %m axes = [1] starts = [0] ends = [4] : tensor<1x8x3xf32> -> tensor<1x4x3xf32>
  %b = graph.slice %m axes = [1] starts = [4] ends = [8] : tensor<1x8x3xf32> -> tensor<1x4x3xf32>
  func.return %a, %b : tensor<1x4x3xf32>, tensor<1x4x3xf32>
}
