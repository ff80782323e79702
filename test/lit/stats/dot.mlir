// RUN: fusion-stats %s --dot %t.dot > %t.table && filecheck %s < %t.dot
// RUN: fusion-stats %s %s --dot %t.pair.dot > %t.pair.table && filecheck %s --check-prefix=PAIR < %t.pair.dot

// The dataflow picture: arguments and results as ellipses, each dispatch region a cluster
// labelled with its FLOPs and bytes moved, op nodes with result shape and FLOPs, edges with the
// bytes they carry. Constants, tensor.empty and init-only fills are left out; edges are listed
// after every cluster (inside one they would pull their source node into it).
// CHECK:      digraph fusionopt {
// CHECK:        subgraph cluster_f{{[0-9]+}} {
// CHECK-NEXT:     label="@regions"; style=dashed;
// CHECK-NEXT:     [[A:n[0-9]+]] [label="arg0\n4x8xf32", shape=ellipse];
// CHECK-NEXT:     [[W:n[0-9]+]] [label="arg1\n8x16xf32", shape=ellipse];
// CHECK-NEXT:     subgraph cluster_d{{[0-9]+}} {
// CHECK-NEXT:       label="dispatch: 32 FLOP, 256 B moved";
// CHECK-NEXT:       style=filled; fillcolor=lightblue;
// CHECK-NEXT:       [[EXP:n[0-9]+]] [label="linalg.generic\n4x8xf32\n32 FLOP", shape=box, style=filled, fillcolor=white];
// CHECK-NEXT:     }
// CHECK-NEXT:     subgraph cluster_d{{[0-9]+}} {
// CHECK-NEXT:       label="dispatch: 1.0 kFLOP, 896 B moved";
// CHECK-NEXT:       style=filled; fillcolor=lightblue;
// CHECK-NOT:        linalg.fill
// CHECK-NEXT:       [[MM:n[0-9]+]] [label="linalg.matmul\n4x16xf32\n1.0 kFLOP", shape=box, style=filled, fillcolor=white];
// CHECK-NEXT:     }
// CHECK-NEXT:     [[RET:n[0-9]+]] [label="return", shape=ellipse];
// CHECK-NEXT:   }
// CHECK-DAG:    [[A]] -> [[EXP]] [label="128 B"];
// CHECK-DAG:    [[EXP]] -> [[MM]] [label="128 B"];
// CHECK-DAG:    [[W]] -> [[MM]] [label="512 B"];
// CHECK-DAG:    [[MM]] -> [[RET]] [label="256 B"];
// CHECK:      }

// With BEFORE AFTER both programs are drawn, each in its own labelled cluster.
// PAIR: label="before: @regions"
// PAIR: label="after: @regions"
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @regions(%a: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = flow.dispatch.region -> (tensor<4x8xf32>) {
    %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = math.exp %in : f32
      linalg.yield %v : f32
    } -> tensor<4x8xf32>
    flow.return %x : tensor<4x8xf32>
  }
  %m = flow.dispatch.region -> (tensor<4x16xf32>) {
    %cst = arith.constant 0.0 : f32
    %o = tensor.empty() : tensor<4x16xf32>
    %z = linalg.fill ins(%cst : f32) outs(%o : tensor<4x16xf32>) -> tensor<4x16xf32>
    %y = linalg.matmul ins(%r, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
    flow.return %y : tensor<4x16xf32>
  }
  func.return %m : tensor<4x16xf32>
}
