// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s
// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions,dispatch-verify-with-iree --mlir-pass-statistics -o %t.mlir 2>&1 | filecheck %s --check-prefix=BUILDS
// REQUIRES: iree
// The pass's helpers these cases exercise: dispatch/fusion_groups.py (gathers_group_value,
// reads_windows_of).
// Every region formed here builds with iree-compile:
// BUILDS:      {{^}}dispatch-verify-with-iree{{$}}
// BUILDS-NEXT:   (regions checked)        : 2
// BUILDS-NEXT:   (regions unwrapped)      : 0
// BUILDS:      {{^}}dispatch-verify-with-iree{{$}}
// BUILDS-NEXT:   (regions checked)        : 1
// BUILDS:      {{^}}dispatch-verify-with-iree{{$}}
// BUILDS-NEXT:   (regions checked)        : 2
// BUILDS-NEXT:   (regions unwrapped)      : 0

// A row norm whose result a rotate-half reads in place and at rotated columns (Gemma 3's query
// norm before rotary): the rotate-half does not join the norm's region (IREE's codegen rejects
// that region: dispatch-verify-with-iree.mlir, @gather_and_operand_of_one_value); it starts a
// region of its own that reads the norm's result both ways.
// CHECK-LABEL: func.func @rotate_half_after_norm
// CHECK:         %[[N:.*]] = flow.dispatch.region -> (tensor<8x64xf32>)
// CHECK:           math.rsqrt
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<8x64xf32>)
// CHECK:           linalg.generic {{.*}} ins(%[[N]], %{{.*}} : tensor<8x64xf32>, tensor<64xi64>)
// CHECK:             tensor.extract %[[N]]
// CHECK:           flow.return
func.func @rotate_half_after_norm(%x: tensor<8x64xf32>, %idx: tensor<64xi64>) -> tensor<8x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = math.rsqrt %b : f32
    %y = arith.mulf %a, %q : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  %rot = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n, %idx : tensor<8x64xf32>, tensor<64xi64>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %i: i64, %o: f32):
    %row = linalg.index 0 : index
    %col = arith.index_cast %i : i64 to index
    %v = tensor.extract %n[%row, %col] : tensor<8x64xf32>
    %y = arith.addf %a, %v : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  func.return %rot : tensor<8x64xf32>
}

// -----

// The same consumer reading the norm only in place (no extract): it joins the norm's region.
// CHECK-LABEL: func.func @in_place_read_after_norm
// CHECK:         flow.dispatch.region -> (tensor<8x64xf32>)
// CHECK:           math.rsqrt
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:           flow.return
// CHECK-NOT:     flow.dispatch.region
func.func @in_place_read_after_norm(%x: tensor<8x64xf32>, %w: tensor<64xf32>) -> tensor<8x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x64xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    %t = arith.addf %o, %m : f32
    linalg.yield %t : f32
  } -> tensor<8xf32>
  %e2 = tensor.empty() : tensor<8x64xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %s : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = math.rsqrt %b : f32
    %y = arith.mulf %a, %q : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%n, %w : tensor<8x64xf32>, tensor<64xf32>) outs(%e2 : tensor<8x64xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %y = arith.addf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<8x64xf32>
  func.return %out : tensor<8x64xf32>
}

// -----

// A patch copy (an audio conv's im2col: frame ow reads rows 2*ow .. 2*ow + 2) of a tanh:
// the tanh keeps a region of its own and the copy reads its result. In the copy's region the
// tanh would be computed once per window that reads an element (1.5x here; wav2vec2's GroupNorm
// + GELU in its first patch copy took 35 ms against 2 ms apart), and IREE leaves such a fused
// copy scalar (fusion_groups.reads_windows_of).
// CHECK-LABEL: func.func @patch_copy_of_tanh
// CHECK:         %[[T:.*]] = flow.dispatch.region -> (tensor<11x4xf32>)
// CHECK:           math.tanh
// CHECK:           flow.return
// CHECK:         flow.dispatch.region -> (tensor<5x3x4xf32>)
// CHECK-NOT:       math.tanh
// CHECK:           linalg.generic {{.*}} ins(%[[T]] : tensor<11x4xf32>)
// CHECK:           flow.return
func.func @patch_copy_of_tanh(%x: tensor<11x4xf32>) -> tensor<5x3x4xf32> {
  %e = tensor.empty() : tensor<11x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<11x4xf32>) outs(%e : tensor<11x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %h = math.tanh %a : f32
    linalg.yield %h : f32
  } -> tensor<11x4xf32>
  %pe = tensor.empty() : tensor<5x3x4xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0 * 2 + d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%t : tensor<11x4xf32>) outs(%pe : tensor<5x3x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<5x3x4xf32>
  func.return %p : tensor<5x3x4xf32>
}
