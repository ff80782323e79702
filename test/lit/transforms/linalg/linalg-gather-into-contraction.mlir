// RUN: fusion-opt %s --split-input-file -p linalg-gather-into-contraction | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-gather-into-contraction --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=STATS
// STATS:         (gathered matrices read in place) : 1
// STATS-NOT:     gathered matrices

// MoE experts left gathered: 4 rows, each its expert's [3, 2] matrix (of 3) times its column,
// as convert-graph-to-linalg lowers dot(gather(W, ids), x) (negative ids wrapped). One generic
// over (s, o, n, h) loads W[id(s), o, h] in place and accumulates into the matmul's init; no
// [4, 3, 2] copy is left.
// CHECK-LABEL: func.func @gathered_matvecs
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4xi64>, %[[X:.*]]: tensor<4x2x1xf32>)
// CHECK-NOT:     tensor<4x3x2xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[IDS]], %[[X]] : tensor<4xi64>, tensor<4x2x1xf32>) outs(%[[FILL]] : tensor<4x3x1xf32>)
// CHECK:           arith.select
// CHECK:           %[[O:.*]] = linalg.index 1 : index
// CHECK:           %[[H:.*]] = linalg.index 3 : index
// CHECK:           %[[W:.*]] = tensor.extract %{{.*}}[%{{.*}}, %[[O]], %[[H]]] : tensor<3x3x2xf32>
// CHECK:           %[[P:.*]] = arith.mulf %[[W]], %{{.*}} : f32
// CHECK:           arith.addf %{{.*}}, %[[P]] : f32
// CHECK-NOT:     linalg.batch_matmul
func.func @gathered_matvecs(%ids: tensor<4xi64>, %x: tensor<4x2x1xf32>) -> tensor<4x3x1xf32> {
    %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]], [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]]]> : tensor<3x3x2xf32>
    %ge = tensor.empty() : tensor<4x3x2xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<4xi64>) outs(%ge : tensor<4x3x2xf32>) {
    ^bb0(%a: i64, %o: f32):
      %i = arith.index_cast %a : i64 to index
      %n = arith.constant 3 : index
      %z = arith.constant 0 : index
      %neg = arith.cmpi slt, %i, %z : index
      %wr = arith.addi %i, %n : index
      %p = arith.select %neg, %wr, %i : index
      %r = linalg.index 1 : index
      %c = linalg.index 2 : index
      %v = tensor.extract %w[%p, %r, %c] : tensor<3x3x2xf32>
      linalg.yield %v : f32
    } -> tensor<4x3x2xf32>
    %ye = tensor.empty() : tensor<4x3x1xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%ye : tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
    %y = linalg.batch_matmul ins(%g, %x : tensor<4x3x2xf32>, tensor<4x2x1xf32>) outs(%f : tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
    func.return %y : tensor<4x3x1xf32>
}

// -----

// Left: two columns a row (a batched matmul, not matvecs), and a gather something else reads too.
// CHECK-LABEL: func.func @gathers_kept
// CHECK-COUNT-2: linalg.batch_matmul
func.func @gathers_kept(%ids: tensor<4xi64>, %x2: tensor<4x2x2xf32>, %x: tensor<4x2x1xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x1xf32>, tensor<4x3x2xf32>) {
    %w = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]], [[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]]]> : tensor<3x3x2xf32>
    %ge = tensor.empty() : tensor<4x3x2xf32>
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<4xi64>) outs(%ge : tensor<4x3x2xf32>) {
    ^bb0(%a: i64, %o: f32):
      %i = arith.index_cast %a : i64 to index
      %n = arith.constant 3 : index
      %z = arith.constant 0 : index
      %neg = arith.cmpi slt, %i, %z : index
      %wr = arith.addi %i, %n : index
      %p = arith.select %neg, %wr, %i : index
      %r = linalg.index 1 : index
      %c = linalg.index 2 : index
      %v = tensor.extract %w[%p, %r, %c] : tensor<3x3x2xf32>
      linalg.yield %v : f32
    } -> tensor<4x3x2xf32>
    %he = tensor.empty() : tensor<4x3x2xf32>
    %h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ids : tensor<4xi64>) outs(%he : tensor<4x3x2xf32>) {
    ^bb0(%a: i64, %o: f32):
      %i = arith.index_cast %a : i64 to index
      %n = arith.constant 3 : index
      %z = arith.constant 0 : index
      %neg = arith.cmpi slt, %i, %z : index
      %wr = arith.addi %i, %n : index
      %p = arith.select %neg, %wr, %i : index
      %r = linalg.index 1 : index
      %c = linalg.index 2 : index
      %v = tensor.extract %w[%p, %r, %c] : tensor<3x3x2xf32>
      linalg.yield %v : f32
    } -> tensor<4x3x2xf32>
    %zero = arith.constant 0.0 : f32
    %ye = tensor.empty() : tensor<4x3x2xf32>
    %f = linalg.fill ins(%zero : f32) outs(%ye : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %y = linalg.batch_matmul ins(%g, %x2 : tensor<4x3x2xf32>, tensor<4x2x2xf32>) outs(%f : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    %ye1 = tensor.empty() : tensor<4x3x1xf32>
    %f1 = linalg.fill ins(%zero : f32) outs(%ye1 : tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
    %y1 = linalg.batch_matmul ins(%h, %x : tensor<4x3x2xf32>, tensor<4x2x1xf32>) outs(%f1 : tensor<4x3x1xf32>) -> tensor<4x3x1xf32>
    func.return %y, %y1, %h : tensor<4x3x2xf32>, tensor<4x3x1xf32>, tensor<4x3x2xf32>
}
