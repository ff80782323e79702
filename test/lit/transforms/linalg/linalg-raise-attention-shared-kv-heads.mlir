// RUN: fusion-opt %s --split-input-file -p linalg-raise-attention | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-raise-attention | fusion-opt - --split-input-file > %t.mlir
// RUN: fusion-opt %s --split-input-file -p 'linalg-raise-attention{shared-kv-heads=false}' | filecheck %s --check-prefix=OFF
// linalg-raise-attention's option shared-kv-heads (linalg/attention_groups.py): grouped-query
// attention (4 query heads, 2 K/V heads, each repeated twice by an all-parallel generic and the
// collapse_shape merging (kv head, group)) reads the shared K/V heads; the query heads split
// into (kv head, group), the group an M dim of the op, the output collapsed back.

// Prefill, Llama's order (query head h reads kv head h // 2), a causal mask the same for every
// head, RoPE-like work fused into K's repeat: that generic is computed once per kv head, V's
// repeat (a copy) folds away, Q is expanded to [kv head, group, seq, dim].
// CHECK-LABEL: func.func @gqa_prefill
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x4x8xf32>, %[[K:.*]]: tensor<2x4x8xf32>, %[[V:.*]]: tensor<2x4x8xf32>, %[[M:.*]]: tensor<4x4xf32>, %[[COS:.*]]: tensor<4x8xf32>)
// CHECK:         %[[KR:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[K]], %[[COS]] : tensor<2x4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<2x4x8xf32>)
// CHECK:         %[[QX:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2], [3]] output_shape [2, 2, 4, 8] : tensor<4x4x8xf32> into tensor<2x2x4x8xf32>
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>]> ins(%[[QX]], %[[KR]], %[[V]], %{{.*}}, %{{.*}} : tensor<2x2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, f32, tensor<4x4xf32>) outs(%{{.*}} : tensor<2x2x4x8xf32>)
// CHECK:         %[[OUT:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
// CHECK-NOT:     tensor<2x2x4x8xf32>) {
// CHECK:         func.return %[[OUT]] : tensor<4x4x8xf32>
// OFF-LABEL:   func.func @gqa_prefill
// OFF:           tensor.collapse_shape {{.*}} : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
// OFF:           iree_linalg_ext.attention {{.*}} ins(%{{.*}} : tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, f32, tensor<4x4xf32>)
func.func @gqa_prefill(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %mask: tensor<4x4xf32>, %cos: tensor<4x8xf32>) -> tensor<4x4x8xf32> {
  %k_e = tensor.empty() : tensor<2x2x4x8xf32>
  %k_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k, %cos : tensor<2x4x8xf32>, tensor<4x8xf32>) outs(%k_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x8xf32>
  %k_c = tensor.collapse_shape %k_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %v_e = tensor.empty() : tensor<2x2x4x8xf32>
  %v_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x4x8xf32>) outs(%v_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x4x8xf32>
  %v_c = tensor.collapse_shape %v_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<4x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %eo = tensor.empty() : tensor<4x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k_c : tensor<4x4x8xf32>, tensor<4x4x8xf32>) outs(%zs : tensor<4x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<4x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<4x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x4x4xf32>) outs(%mi : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x4x4xf32>) outs(%si : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<4x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v_c : tensor<4x4x4xf32>, tensor<4x4x8xf32>) outs(%zo : tensor<4x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x8xf32>
  return %pv : tensor<4x4x8xf32>
}

// -----

// The decode step: one query row, no mask; both repeats are copies and fold away.
// CHECK-LABEL: func.func @gqa_decode
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x1x8xf32>, %[[K:.*]]: tensor<2x5x8xf32>, %[[V:.*]]: tensor<2x5x8xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[QX:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2], [3]] output_shape [2, 2, 1, 8] : tensor<4x1x8xf32> into tensor<2x2x1x8xf32>
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d5)>]> ins(%[[QX]], %[[K]], %[[V]], %{{.*}} : tensor<2x2x1x8xf32>, tensor<2x5x8xf32>, tensor<2x5x8xf32>, f32) outs(%{{.*}} : tensor<2x2x1x8xf32>)
// CHECK:         %[[OUT:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0, 1], [2], [3]] : tensor<2x2x1x8xf32> into tensor<4x1x8xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         func.return %[[OUT]] : tensor<4x1x8xf32>
// OFF-LABEL:   func.func @gqa_decode
// OFF:           linalg.generic
// OFF:           iree_linalg_ext.attention {{.*}} ins(%{{.*}} : tensor<4x1x8xf32>, tensor<4x5x8xf32>, tensor<4x5x8xf32>, f32)
func.func @gqa_decode(%q: tensor<4x1x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x5x8xf32>) -> tensor<4x1x8xf32> {
  %k_e = tensor.empty() : tensor<2x2x5x8xf32>
  %k_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<2x5x8xf32>) outs(%k_e : tensor<2x2x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x5x8xf32>
  %k_c = tensor.collapse_shape %k_r [[0, 1], [2], [3]] : tensor<2x2x5x8xf32> into tensor<4x5x8xf32>
  %v_e = tensor.empty() : tensor<2x2x5x8xf32>
  %v_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x5x8xf32>) outs(%v_e : tensor<2x2x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x5x8xf32>
  %v_c = tensor.collapse_shape %v_r [[0, 1], [2], [3]] : tensor<2x2x5x8xf32> into tensor<4x5x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<4x1x5xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x1x5xf32>) -> tensor<4x1x5xf32>
  %eo = tensor.empty() : tensor<4x1x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x1x8xf32>) -> tensor<4x1x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k_c : tensor<4x1x8xf32>, tensor<4x5x8xf32>) outs(%zs : tensor<4x1x5xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x1x5xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk : tensor<4x1x5xf32>) outs(%es : tensor<4x1x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x1x5xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<4x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x1x5xf32>) outs(%mi : tensor<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<4x1x5xf32>, tensor<4x1xf32>) outs(%es : tensor<4x1x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x1x5xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x1x5xf32>) outs(%si : tensor<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x1xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x1x5xf32>, tensor<4x1xf32>) outs(%es : tensor<4x1x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<4x1x5xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v_c : tensor<4x1x5xf32>, tensor<4x5x8xf32>) outs(%zo : tensor<4x1x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x1x8xf32>
  return %pv : tensor<4x1x8xf32>
}

// -----

// The other repeat order (a tiled repeat: query head h reads kv head h % 2; the group is the
// outer dim of the merged pair): Q splits into (group, kv head), read with the group first.
// CHECK-LABEL: func.func @gqa_tiled_repeat
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x4x8xf32>, %[[K:.*]]: tensor<2x4x8xf32>, %[[V:.*]]: tensor<2x4x8xf32>, %[[M:.*]]: tensor<4x4xf32>)
// CHECK:         %[[QX:.*]] = tensor.expand_shape %[[Q]] {{\[}}[0, 1], [2], [3]] output_shape [2, 2, 4, 8]
// CHECK:         %[[R:.*]] = iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d0, d2, d5)>]> ins(%[[QX]], %[[K]], %[[V]], %{{.*}}, %{{.*}} : tensor<2x2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, f32, tensor<4x4xf32>)
// CHECK:         tensor.collapse_shape %[[R]] {{\[}}[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
func.func @gqa_tiled_repeat(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %mask: tensor<4x4xf32>) -> tensor<4x4x8xf32> {
  %k_e = tensor.empty() : tensor<2x2x4x8xf32>
  %k_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<2x4x8xf32>) outs(%k_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x4x8xf32>
  %k_c = tensor.collapse_shape %k_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %v_e = tensor.empty() : tensor<2x2x4x8xf32>
  %v_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x4x8xf32>) outs(%v_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x4x8xf32>
  %v_c = tensor.collapse_shape %v_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<4x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %eo = tensor.empty() : tensor<4x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k_c : tensor<4x4x8xf32>, tensor<4x4x8xf32>) outs(%zs : tensor<4x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<4x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<4x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x4x4xf32>) outs(%mi : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x4x4xf32>) outs(%si : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<4x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v_c : tensor<4x4x4xf32>, tensor<4x4x8xf32>) outs(%zo : tensor<4x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x8xf32>
  return %pv : tensor<4x4x8xf32>
}

// -----

// Negative: K repeated in Llama's order, V tiled: no one split of the query heads reads both,
// so the attention is raised over the repeated copies.
// CHECK-LABEL: func.func @gqa_repeat_orders_differ
// CHECK:         %[[KC:.*]] = tensor.collapse_shape %{{.*}} : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
// CHECK:         %[[VC:.*]] = tensor.collapse_shape %{{.*}} : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         iree_linalg_ext.attention <indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3)>, {{.*}} ins(%{{.*}}, %[[KC]], %[[VC]], %{{.*}}, %{{.*}} : tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, f32, tensor<4x4xf32>)
func.func @gqa_repeat_orders_differ(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %mask: tensor<4x4xf32>) -> tensor<4x4x8xf32> {
  %k_e = tensor.empty() : tensor<2x2x4x8xf32>
  %k_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<2x4x8xf32>) outs(%k_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x4x8xf32>
  %k_c = tensor.collapse_shape %k_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %v_e = tensor.empty() : tensor<2x2x4x8xf32>
  %v_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x4x8xf32>) outs(%v_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x4x8xf32>
  %v_c = tensor.collapse_shape %v_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<4x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %eo = tensor.empty() : tensor<4x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k_c : tensor<4x4x8xf32>, tensor<4x4x8xf32>) outs(%zs : tensor<4x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<4x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<4x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x4x4xf32>) outs(%mi : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x4x4xf32>) outs(%si : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<4x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v_c : tensor<4x4x4xf32>, tensor<4x4x8xf32>) outs(%zo : tensor<4x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x8xf32>
  return %pv : tensor<4x4x8xf32>
}

// -----

// Negative: a mask that differs per query head ([heads, queries, keys]): not split, raised over
// the repeated copies.
// CHECK-LABEL: func.func @gqa_mask_per_head
// CHECK:         %[[KC:.*]] = tensor.collapse_shape %{{.*}} : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
// CHECK:         %[[VC:.*]] = tensor.collapse_shape %{{.*}} : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%{{.*}}, %[[KC]], %[[VC]], %{{.*}}, %{{.*}} : tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, f32, tensor<4x4x4xf32>)
func.func @gqa_mask_per_head(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %mask: tensor<4x4x4xf32>) -> tensor<4x4x8xf32> {
  %k_e = tensor.empty() : tensor<2x2x4x8xf32>
  %k_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<2x4x8xf32>) outs(%k_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x4x8xf32>
  %k_c = tensor.collapse_shape %k_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %v_e = tensor.empty() : tensor<2x2x4x8xf32>
  %v_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x4x8xf32>) outs(%v_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x4x8xf32>
  %v_c = tensor.collapse_shape %v_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<4x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %eo = tensor.empty() : tensor<4x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k_c : tensor<4x4x8xf32>, tensor<4x4x8xf32>) outs(%zs : tensor<4x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<4x4x4xf32>, tensor<4x4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<4x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<4x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x4x4xf32>) outs(%mi : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x4x4xf32>) outs(%si : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<4x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v_c : tensor<4x4x4xf32>, tensor<4x4x8xf32>) outs(%zo : tensor<4x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x8xf32>
  return %pv : tensor<4x4x8xf32>
}

// -----

// Negative: K's "repeat" multiplies each copy by a factor of its group (the generic reads its
// group loop), so the copies differ: not a shared head, raised over the copies.
// CHECK-LABEL: func.func @gqa_k_differs_per_group
// CHECK:         %[[KR:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%{{.*}} : tensor<2x2x4x8xf32>)
// CHECK:         %[[KC:.*]] = tensor.collapse_shape %[[KR]] {{\[}}[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
// CHECK-NOT:     tensor.expand_shape
// CHECK:         iree_linalg_ext.attention {{.*}} ins(%{{.*}}, %[[KC]], %{{.*}}, %{{.*}}, %{{.*}} : tensor<4x4x8xf32>, tensor<4x4x8xf32>, tensor<4x4x8xf32>, f32, tensor<4x4xf32>)
func.func @gqa_k_differs_per_group(%q: tensor<4x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %mask: tensor<4x4xf32>, %cos: tensor<2x8xf32>) -> tensor<4x4x8xf32> {
  %k_e = tensor.empty() : tensor<2x2x4x8xf32>
  %k_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k, %cos : tensor<2x4x8xf32>, tensor<2x8xf32>) outs(%k_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<2x2x4x8xf32>
  %k_c = tensor.collapse_shape %k_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %v_e = tensor.empty() : tensor<2x2x4x8xf32>
  %v_r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x4x8xf32>) outs(%v_e : tensor<2x2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<2x2x4x8xf32>
  %v_c = tensor.collapse_shape %v_r [[0, 1], [2], [3]] : tensor<2x2x4x8xf32> into tensor<4x4x8xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %es = tensor.empty() : tensor<4x4x4xf32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<4x4x4xf32>) -> tensor<4x4x4xf32>
  %eo = tensor.empty() : tensor<4x4x8xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<4x4x8xf32>) -> tensor<4x4x8xf32>
  %qk = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k_c : tensor<4x4x8xf32>, tensor<4x4x8xf32>) outs(%zs : tensor<4x4x4xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%qk, %mask : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.353553385 : f32
    %y = arith.mulf %a, %c : f32
    %z = arith.addf %y, %b : f32
    linalg.yield %z : f32
  } -> tensor<4x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %er = tensor.empty() : tensor<4x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %mx = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x4x4xf32>) outs(%mi : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %o : f32
    linalg.yield %m : f32
  } -> tensor<4x4xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<4x4x4xf32>
  %si = linalg.fill ins(%zero : f32) outs(%er : tensor<4x4xf32>) -> tensor<4x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ex : tensor<4x4x4xf32>) outs(%si : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<4x4x4xf32>, tensor<4x4xf32>) outs(%es : tensor<4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %dv = arith.divf %a, %b : f32
    linalg.yield %dv : f32
  } -> tensor<4x4x4xf32>
  %pv = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v_c : tensor<4x4x4xf32>, tensor<4x4x8xf32>) outs(%zo : tensor<4x4x8xf32>) {
  ^bb0(%ca: f32, %cb: f32, %co: f32):
    %cm = arith.mulf %ca, %cb : f32
    %cs = arith.addf %co, %cm : f32
    linalg.yield %cs : f32
  } -> tensor<4x4x8xf32>
  return %pv : tensor<4x4x8xf32>
}
