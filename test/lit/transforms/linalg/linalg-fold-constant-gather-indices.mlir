// RUN: fusion-opt %s --split-input-file -p linalg-fold-constant-gather-indices | filecheck %s

// bert's embeddings after elementwise fusion: word rows gathered at the input ids (unchanged) and
// position rows gathered at constant ids 0..3, wrapped and bounds-checked per element. The
// position row index is the loop index d1; the asserts always hold and go.

// CHECK-LABEL: func.func @position_ids_arange
// CHECK:       ^bb0(%[[ID:.*]]: i64, %{{.*}}: i64, %{{.*}}: f32):
// CHECK:         %[[WIDX:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK:         %[[COL:.*]] = linalg.index 2 : index
// CHECK:         tensor.extract %{{.*}}[%[[WIDX]], %[[COL]]] : tensor<16x8xf32>
// CHECK-NOT:     cf.assert
// CHECK:         %[[ROW:.*]] = linalg.index 1 : index
// CHECK-NEXT:    tensor.extract %{{.*}}[%[[ROW]], %[[COL]]] : tensor<6x8xf32>
func.func @position_ids_arange(%ids: tensor<1x4xi64>, %words: tensor<16x8xf32>, %positions: tensor<6x8xf32>) -> tensor<1x4x8xf32> {
  %pos = arith.constant dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>
  %c0 = arith.constant 0 : i64
  %c16 = arith.constant 16 : i64
  %c6 = arith.constant 6 : i64
  %c6i = arith.constant 6 : index
  %e = tensor.empty() : tensor<1x4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d1)>, affine_map<(d0, d1, d2) -> (0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids, %pos : tensor<1x4xi64>, tensor<1x4xi64>) outs(%e : tensor<1x4x8xf32>) {
  ^bb0(%id: i64, %p: i64, %o: f32):
    %neg = arith.cmpi slt, %id, %c0 : i64
    %wrapped = arith.addi %id, %c16 : i64
    %w = arith.select %neg, %wrapped, %id : i64
    %wi = arith.index_cast %w : i64 to index
    %col = linalg.index 2 : index
    %word = tensor.extract %words[%wi, %col] : tensor<16x8xf32>
    %pneg = arith.cmpi slt, %p, %c0 : i64
    %pwrapped = arith.addi %p, %c6 : i64
    %pw = arith.select %pneg, %pwrapped, %p : i64
    %pi = arith.index_cast %pw : i64 to index
    %below = arith.cmpi slt, %pi, %c6i : index
    cf.assert %below, "index must be smaller than dim size"
    %above = arith.cmpi sge, %pw, %c0 : i64
    cf.assert %above, "index must be larger or equal to 0"
    %position = tensor.extract %positions[%pi, %col] : tensor<6x8xf32>
    %s = arith.addf %word, %position : f32
    linalg.yield %s : f32
  } -> tensor<1x4x8xf32>
  func.return %r : tensor<1x4x8xf32>
}

// -----

// Constant ids 2..5 (negative ones wrapped: -4 is 2): the index is d0 + 2.

// CHECK-LABEL: func.func @offset_ids
// CHECK:         %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[J:.*]] = arith.addi %[[I]], %[[C]] : index
// CHECK-NEXT:    tensor.extract %{{.*}}[%[[J]]] : tensor<6xf32>
func.func @offset_ids(%table: tensor<6xf32>) -> tensor<4xf32> {
  %ids = arith.constant dense<[-4, 3, 4, 5]> : tensor<4xi64>
  %c0 = arith.constant 0 : i64
  %c6 = arith.constant 6 : i64
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ids : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %neg = arith.cmpi slt, %id, %c0 : i64
    %wrapped = arith.addi %id, %c6 : i64
    %w = arith.select %neg, %wrapped, %id : i64
    %i = arith.index_cast %w : i64 to index
    %v = tensor.extract %table[%i] : tensor<6xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// bert's attention mask: ids from static slices of a constant [4, 2] index table
// (row index = col0 + 4 * col1 = 0..3). Folded to d0, both asserts dropped.

// CHECK-LABEL: func.func @mask_ids_from_constant_slices
// CHECK-NOT:     cf.assert
// CHECK:         %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:    tensor.extract %{{.*}}[%[[I]]] : tensor<4xi1>
func.func @mask_ids_from_constant_slices(%keep: tensor<4xi1>) -> tensor<4xf32> {
  %table = arith.constant dense<[[0, 0], [1, 0], [2, 0], [3, 0]]> : tensor<4x2xi64>
  %a = tensor.extract_slice %table[0, 0] [4, 1] [1, 1] : tensor<4x2xi64> to tensor<4x1xi64>
  %b = tensor.extract_slice %table[0, 1] [4, 1] [1, 1] : tensor<4x2xi64> to tensor<4x1xi64>
  %c4 = arith.constant 4 : i64
  %c4i = arith.constant 4 : index
  %c0 = arith.constant 0 : i64
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : tensor<4x1xi64>, tensor<4x1xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%x: i64, %y: i64, %o: f32):
    %scaled = arith.muli %y, %c4 : i64
    %flat = arith.addi %x, %scaled : i64
    %i = arith.index_cast %flat : i64 to index
    %below = arith.cmpi slt, %i, %c4i : index
    cf.assert %below, "index must be smaller than dim size"
    %above = arith.cmpi sge, %flat, %c0 : i64
    cf.assert %above, "index must be larger or equal to 0"
    %k = tensor.extract %keep[%i] : tensor<4xi1>
    %zero = arith.constant 0.0 : f32
    %low = arith.constant -3.40282347e+38 : f32
    %v = arith.select %k, %zero, %low : f32
    linalg.yield %v : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// Negative: constant ids that are no loop index (a permutation) keep their gather; the asserts,
// which hold for every id, still go.

// CHECK-LABEL: func.func @permuted_ids
// CHECK-NOT:     cf.assert
// CHECK:         %[[I:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:    tensor.extract %{{.*}}[%[[I]]] : tensor<4xf32>
func.func @permuted_ids(%table: tensor<4xf32>) -> tensor<4xf32> {
  %ids = arith.constant dense<[1, 0, 3, 2]> : tensor<4xi64>
  %c4i = arith.constant 4 : index
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ids : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %below = arith.cmpi slt, %i, %c4i : index
    cf.assert %below, "index must be smaller than dim size"
    %v = tensor.extract %table[%i] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// Negative: an assert that fails for some constant id (5 >= 4) stays, and so does its gather.

// CHECK-LABEL: func.func @failing_assert_kept
// CHECK:         cf.assert
// CHECK:         tensor.extract
func.func @failing_assert_kept(%table: tensor<8xf32>) -> tensor<2xf32> {
  %ids = arith.constant dense<[0, 5]> : tensor<2xi64>
  %c4i = arith.constant 4 : index
  %e = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ids : tensor<2xi64>) outs(%e : tensor<2xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %below = arith.cmpi slt, %i, %c4i : index
    cf.assert %below, "index must be smaller than dim size"
    %v = tensor.extract %table[%i] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// Negative: ids from a function argument are not known; nothing changes.

// CHECK-LABEL: func.func @argument_ids
// CHECK:         %[[I:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:    cf.assert
// CHECK-NEXT:    tensor.extract %{{.*}}[%[[I]]] : tensor<4xf32>
func.func @argument_ids(%ids: tensor<4xi64>, %table: tensor<4xf32>) -> tensor<4xf32> {
  %true = arith.constant true
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ids : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    cf.assert %true, "always"
    %v = tensor.extract %table[%i] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// Negative: constant ids read along two loops (a 2-D id table) are not one loop's values.

// CHECK-LABEL: func.func @ids_over_two_loops
// CHECK:         %[[I:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:    tensor.extract %{{.*}}[%[[I]]] : tensor<4xf32>
func.func @ids_over_two_loops(%table: tensor<4xf32>) -> tensor<2x2xf32> {
  %ids = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<2x2xi64>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%id: i64, %o: f32):
    %i = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%i] : tensor<4xf32>
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}
