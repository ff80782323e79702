// RUN: fusion-opt %s --split-input-file -p dispatch-reduction-cpu-tiles | filecheck %s
// RUN: fusion-opt -p graph-to-dispatch-llvm-cpu --print-iree-flags | filecheck %s --check-prefix=FLAGS
// RUN: fusion-opt -p dispatch-creation --print-iree-flags | filecheck %s --check-prefix=NOFLAGS --allow-empty

// The pass: fusionopt/transforms/dispatch/reduction_cpu_tiles.py. The CPU pipelines that run it
// are built with IREE's reassociation of float reductions; the target-neutral one asks for no flag.
// FLAGS: --iree-llvmcpu-reassociate-fp-reductions=true
// NOFLAGS-NOT: iree

// vit_s16_6l's softmax max (6 heads x 197 rows of 197 keys) with its exp in one region: the
// max reads a whole row as one vector, 32 rows of a head a workgroup; the exp is left to IREE,
// which derives its tiles from the configured root.
// CHECK-LABEL: func.func @softmax_max_and_exp
// CHECK:         linalg.generic {indexing_maps = {{.*}}, iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:      compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_cpu.lowering_config<distribution = [0, 1, 32, 0], vector_common_parallel = [1, 1, 1, 0], vector_reduction = [0, 0, 0, 197]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_cpu.pipeline<DoubleTilingExpert>>>
// CHECK:         math.exp
// CHECK-NOT:     compilation_info
// CHECK:         flow.return
func.func @softmax_max_and_exp(%s: tensor<6x197x197xf32>) -> tensor<1x6x197x197xf32> {
  %r = flow.dispatch.region -> (tensor<1x6x197x197xf32>) {
    %ninf = arith.constant 0xFF800000 : f32
    %e1 = tensor.empty() : tensor<1x6x197xf32>
    %init = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<1x6x197xf32>) -> tensor<1x6x197xf32>
    %e2 = tensor.empty() : tensor<1x6x197x197xf32>
    %max = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<6x197x197xf32>) outs(%init : tensor<1x6x197xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %m = arith.maximumf %acc, %a : f32
      linalg.yield %m : f32
    } -> tensor<1x6x197xf32>
    %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %max : tensor<6x197x197xf32>, tensor<1x6x197xf32>) outs(%e2 : tensor<1x6x197x197xf32>) {
    ^bb0(%a: f32, %m: f32, %o: f32):
      %d = arith.subf %a, %m : f32
      %x = math.exp %d : f32
      linalg.yield %x : f32
    } -> tensor<1x6x197x197xf32>
    flow.return %exp : tensor<1x6x197x197xf32>
  }
  return %r : tensor<1x6x197x197xf32>
}

// -----

// Rows a workgroup takes: up to 32 of the innermost loop of more than one row (20 here, all of
// them; 40 rows over a unit inner loop: 32), one of each outer loop.
// CHECK-LABEL: func.func @rows_per_workgroup
// CHECK:         lowering_config<distribution = [1, 20, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 45]>
// CHECK:         lowering_config<distribution = [32, 0, 0], vector_common_parallel = [1, 1, 0], vector_reduction = [0, 0, 45]>
func.func @rows_per_workgroup(%a: tensor<3x20x45xf32>, %b: tensor<40x1x45xf32>) -> (tensor<3x20xf32>, tensor<40x1xf32>) {
  %r = flow.dispatch.region -> (tensor<3x20xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<3x20xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<3x20xf32>) -> tensor<3x20xf32>
    %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a : tensor<3x20x45xf32>) outs(%init : tensor<3x20xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %acc, %x : f32
      linalg.yield %s : f32
    } -> tensor<3x20xf32>
    flow.return %sum : tensor<3x20xf32>
  }
  %q = flow.dispatch.region -> (tensor<40x1xf32>) {
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<40x1xf32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<40x1xf32>) -> tensor<40x1xf32>
    %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%b : tensor<40x1x45xf32>) outs(%init : tensor<40x1xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %s = arith.addf %acc, %x : f32
      linalg.yield %s : f32
    } -> tensor<40x1xf32>
    flow.return %sum : tensor<40x1xf32>
  }
  return %r, %q : tensor<3x20xf32>, tensor<40x1xf32>
}

// -----

// Left to IREE: rows 16 divides (384: the flag alone sums them lane-wise), rows longer than
// 512 (600) or of at most 16 (9), a reduction over a row read across (its input's innermost dim
// is a parallel loop), f64, a reduction outside any region, and a region with two chained
// reductions (a layer norm: IREE takes one configuration a dispatch).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     compilation_info
// CHECK:         return
func.func @left_alone(%a: tensor<8x384xf32>, %b: tensor<8x600xf32>, %c: tensor<8x9xf32>, %t: tensor<197x8xf32>,
                      %d: tensor<8x197xf64>, %o: tensor<8x197xf32>, %l: tensor<8x200xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf64>, tensor<8xf32>, tensor<8xf32>) {
  %r1 = flow.dispatch.region -> (tensor<8xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x384xf32>) outs(%f : tensor<8xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %y = arith.addf %acc, %x : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    flow.return %s : tensor<8xf32>
  }
  %r2 = flow.dispatch.region -> (tensor<8xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%b : tensor<8x600xf32>) outs(%f : tensor<8xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %y = arith.addf %acc, %x : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    flow.return %s : tensor<8xf32>
  }
  %r3 = flow.dispatch.region -> (tensor<8xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : tensor<8x9xf32>) outs(%f : tensor<8xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %y = arith.addf %acc, %x : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    flow.return %s : tensor<8xf32>
  }
  %r4 = flow.dispatch.region -> (tensor<8xf32>) {
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<8xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%t : tensor<197x8xf32>) outs(%f : tensor<8xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %y = arith.addf %acc, %x : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    flow.return %s : tensor<8xf32>
  }
  %r5 = flow.dispatch.region -> (tensor<8xf64>) {
    %z = arith.constant 0.0 : f64
    %e = tensor.empty() : tensor<8xf64>
    %f = linalg.fill ins(%z : f64) outs(%e : tensor<8xf64>) -> tensor<8xf64>
    %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%d : tensor<8x197xf64>) outs(%f : tensor<8xf64>) {
    ^bb0(%x: f64, %acc: f64):
      %y = arith.addf %acc, %x : f64
      linalg.yield %y : f64
    } -> tensor<8xf64>
    flow.return %s : tensor<8xf64>
  }
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %outside = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%o : tensor<8x197xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  %r7 = flow.dispatch.region -> (tensor<8xf32>) {
    %z7 = arith.constant 0.0 : f32
    %e7 = tensor.empty() : tensor<8xf32>
    %f7 = linalg.fill ins(%z7 : f32) outs(%e7 : tensor<8xf32>) -> tensor<8xf32>
    %e8 = tensor.empty() : tensor<8x200xf32>
    %mean = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%l : tensor<8x200xf32>) outs(%f7 : tensor<8xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %y = arith.addf %acc, %x : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    %centred = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%l, %mean : tensor<8x200xf32>, tensor<8xf32>) outs(%e8 : tensor<8x200xf32>) {
    ^bb0(%x: f32, %m: f32, %o2: f32):
      %y = arith.subf %x, %m : f32
      linalg.yield %y : f32
    } -> tensor<8x200xf32>
    %var = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%centred : tensor<8x200xf32>) outs(%f7 : tensor<8xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %sq = arith.mulf %x, %x : f32
      %y = arith.addf %acc, %sq : f32
      linalg.yield %y : f32
    } -> tensor<8xf32>
    flow.return %var : tensor<8xf32>
  }
  return %r1, %r2, %r3, %r4, %r5, %outside, %r7 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf64>, tensor<8xf32>, tensor<8xf32>
}
