// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{padded-concats=true}" | filecheck %s
// RUN: fusion-opt %s --split-input-file -p form-dispatch-regions | filecheck %s --check-prefix=OFF
// RUN: fusion-opt %s --split-input-file -p "form-dispatch-regions{padded-concats=true padded-shared-results=true padded-results=1048576}" | filecheck %s --check-prefix=SHARED

// A fire module's two branches (1x1 convs + ReLU), concatenated on the channels and padded
// with -inf for a ceil-mode max pool: each branch's region stores straight into its place of
// one -inf splat of the padded shape, the second region into the first one's result; no pad
// (no copy dispatch) is left.
// CHECK-LABEL: func.func @fire_concat_pool
// CHECK:         %[[S:.*]] = flow.tensor.splat %{{.*}} : tensor<1x12x9x9xf32>
// CHECK:         %[[A:.*]] = flow.dispatch.region -> (tensor<1x12x9x9xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK:           %[[IA:.*]] = tensor.insert_slice %{{.*}} into %[[S]][0, 0, 0, 0] [1, 6, 8, 8] [1, 1, 1, 1] : tensor<1x6x8x8xf32> into tensor<1x12x9x9xf32>
// CHECK:           flow.return %[[IA]]
// CHECK:         %[[B:.*]] = flow.dispatch.region -> (tensor<1x12x9x9xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK:           %[[IB:.*]] = tensor.insert_slice %{{.*}} into %[[A]][0, 6, 0, 0] [1, 6, 8, 8] [1, 1, 1, 1] : tensor<1x6x8x8xf32> into tensor<1x12x9x9xf32>
// CHECK:           flow.return %[[IB]]
// CHECK-NOT:     tensor.pad
// CHECK:         linalg.pooling_nchw_max {{.*}} ins(%[[B]],
// OFF-LABEL:   func.func @fire_concat_pool
// OFF:           tensor.pad
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @fire_concat_pool(%x: tensor<1x4x8x8xf32>, %w0: tensor<6x4x1x1xf32>, %w1: tensor<6x4x1x1xf32>) -> tensor<1x12x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %r0 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x6x8x8xf32>) outs(%e : tensor<1x6x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %r1 = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x6x8x8xf32>) outs(%e : tensor<1x6x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8x8xf32>
  %cat = tensor.concat dim(1) %r0, %r1 : (tensor<1x6x8x8xf32>, tensor<1x6x8x8xf32>) -> tensor<1x12x8x8xf32>
  %p = tensor.pad %cat low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %ninf = arith.constant 0xFF800000 : f32
    tensor.yield %ninf : f32
  } : tensor<1x12x8x8xf32> to tensor<1x12x9x9xf32>
  %ninf2 = arith.constant 0xFF800000 : f32
  %pe = tensor.empty() : tensor<1x12x4x4xf32>
  %pf = linalg.fill ins(%ninf2 : f32) outs(%pe : tensor<1x12x4x4xf32>) -> tensor<1x12x4x4xf32>
  %k = tensor.empty() : tensor<3x3xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%p, %k : tensor<1x12x9x9xf32>, tensor<3x3xf32>) outs(%pf : tensor<1x12x4x4xf32>) -> tensor<1x12x4x4xf32>
  func.return %pool : tensor<1x12x4x4xf32>
}

// -----

// A part through a reshape (a 1x1 conv as a flat matmul, expanded to the image) and a conv
// part, padded on both sides with a value from outside: the expand moves into its region,
// the offsets carry the low padding.
// CHECK-LABEL: func.func @flat_matmul_part
// CHECK:         %[[S:.*]] = flow.tensor.splat %pad : tensor<1x10x10x10xf32>
// CHECK:         %[[A:.*]] = flow.dispatch.region -> (tensor<1x10x10x10xf32>)
// CHECK:           linalg.matmul
// CHECK:           %[[X:.*]] = tensor.expand_shape
// CHECK:           tensor.insert_slice %[[X]] into %[[S]][0, 0, 1, 1] [1, 4, 8, 8]
// CHECK:         %[[B:.*]] = flow.dispatch.region -> (tensor<1x10x10x10xf32>)
// CHECK:           linalg.conv_2d_nchw_fchw
// CHECK:           tensor.insert_slice %{{.*}} into %[[A]][0, 4, 1, 1] [1, 6, 8, 8]
// CHECK-NOT:     tensor.pad
// CHECK:         return %[[B]]
func.func @flat_matmul_part(%x: tensor<4x64xf32>, %wm: tensor<4x4xf32>, %img: tensor<1x4x8x8xf32>, %wc: tensor<6x4x1x1xf32>, %pad: f32) -> tensor<1x10x10x10xf32> {
  %zero = arith.constant 0.0 : f32
  %em = tensor.empty() : tensor<4x64xf32>
  %fm = linalg.fill ins(%zero : f32) outs(%em : tensor<4x64xf32>) -> tensor<4x64xf32>
  %m = linalg.matmul ins(%wm, %x : tensor<4x4xf32>, tensor<4x64xf32>) outs(%fm : tensor<4x64xf32>) -> tensor<4x64xf32>
  %mi = tensor.expand_shape %m [[0, 1], [2, 3]] output_shape [1, 4, 8, 8] : tensor<4x64xf32> into tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x6x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %wc : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %cat = tensor.concat dim(1) %mi, %c : (tensor<1x4x8x8xf32>, tensor<1x6x8x8xf32>) -> tensor<1x10x8x8xf32>
  %p = tensor.pad %cat low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %pad : f32
  } : tensor<1x10x8x8xf32> to tensor<1x10x10x10xf32>
  func.return %p : tensor<1x10x10x10xf32>
}

// -----

// Negative: a pad along the concat dim, a concat read besides its pad, a part that is a
// function argument, a part from an elementwise region. Each pad stays (a copy).
// CHECK-LABEL: func.func @not_taken
// CHECK-COUNT-4: tensor.pad
// CHECK-NOT:     tensor.insert_slice
func.func @not_taken(%img: tensor<1x4x8x8xf32>, %w: tensor<6x4x1x1xf32>, %y: tensor<1x6x8x8xf32>) -> (tensor<1x12x8x8xf32>, tensor<1x12x9x9xf32>, tensor<1x12x8x8xf32>, tensor<1x12x9x9xf32>, tensor<1x12x9x9xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %c0 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %w : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %w : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %along = tensor.concat dim(1) %c0, %c1 : (tensor<1x6x8x8xf32>, tensor<1x6x8x8xf32>) -> tensor<1x12x8x8xf32>
  %p0 = tensor.pad %along low[0, 0, 0, 0] high[0, 2, 0, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x12x8x8xf32> to tensor<1x14x8x8xf32>
  %p0s = tensor.extract_slice %p0[0, 0, 0, 0] [1, 12, 8, 8] [1, 1, 1, 1] : tensor<1x14x8x8xf32> to tensor<1x12x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %w : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %c3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %w : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %twice = tensor.concat dim(1) %c2, %c3 : (tensor<1x6x8x8xf32>, tensor<1x6x8x8xf32>) -> tensor<1x12x8x8xf32>
  %p1 = tensor.pad %twice low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x12x8x8xf32> to tensor<1x12x9x9xf32>
  %c4 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %w : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %arg_part = tensor.concat dim(1) %c4, %y : (tensor<1x6x8x8xf32>, tensor<1x6x8x8xf32>) -> tensor<1x12x8x8xf32>
  %p2 = tensor.pad %arg_part low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x12x8x8xf32> to tensor<1x12x9x9xf32>
  %c5 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%img, %w : tensor<1x4x8x8xf32>, tensor<6x4x1x1xf32>) outs(%f : tensor<1x6x8x8xf32>) -> tensor<1x6x8x8xf32>
  %ey = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%y : tensor<1x6x8x8xf32>) outs(%e : tensor<1x6x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<1x6x8x8xf32>
  %ew_part = tensor.concat dim(1) %c5, %ey : (tensor<1x6x8x8xf32>, tensor<1x6x8x8xf32>) -> tensor<1x12x8x8xf32>
  %p3 = tensor.pad %ew_part low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x12x8x8xf32> to tensor<1x12x9x9xf32>
  func.return %p0s, %p1, %twice, %p2, %p3 : tensor<1x12x8x8xf32>, tensor<1x12x9x9xf32>, tensor<1x12x8x8xf32>, tensor<1x12x9x9xf32>, tensor<1x12x9x9xf32>
}

// -----

// Negative: parts from channels-last conv regions whose epilogues take the result back to NCHW
// (`padded_results.transposes_in_region`: IREE 3.13 builds such a padded store
// as a dispatch that writes wrong values). The pad stays (a copy).
// CHECK-LABEL: func.func @transposed_channels_last_parts
// CHECK-NOT:     tensor.insert_slice
// CHECK-COUNT-2: flow.tensor.update
// CHECK:         tensor.pad
#nhwc_to_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
#ident = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @transposed_channels_last_parts(%x: tensor<1x8x8x4xf32>, %w0: tensor<1x1x4x6xf32>, %w1: tensor<1x1x4x6xf32>) -> tensor<1x12x9x9xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
  %t = tensor.empty() : tensor<1x6x8x8xf32>
  %c0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w0 : tensor<1x8x8x4xf32>, tensor<1x1x4x6xf32>) outs(%f : tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
  %r0 = linalg.generic {indexing_maps = [#ident, #nhwc_to_nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c0 : tensor<1x8x8x6xf32>) outs(%t : tensor<1x6x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8x8xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w1 : tensor<1x8x8x4xf32>, tensor<1x1x4x6xf32>) outs(%f : tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
  %r1 = linalg.generic {indexing_maps = [#ident, #nhwc_to_nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1 : tensor<1x8x8x6xf32>) outs(%t : tensor<1x6x8x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8x8xf32>
  %cat = tensor.concat dim(1) %r0, %r1 : (tensor<1x6x8x8xf32>, tensor<1x6x8x8xf32>) -> tensor<1x12x8x8xf32>
  %p = tensor.pad %cat low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x12x8x8xf32> to tensor<1x12x9x9xf32>
  func.return %p : tensor<1x12x9x9xf32>
}

// -----

// Negative: a part through a reshape from a region that already stores the same value into a
// padded buffer (padded-shared-results: the matmul's image is padded for a 3x3 conv too, as
// MobileViT's block output is): a second store through the split fails IREE 3.13's CPU codegen
// (`contraction_stored_twice_through_split` in bench/iree_limits_found.py). The concat's pad stays.
// SHARED-LABEL: func.func @stored_twice_through_split
// SHARED:         flow.dispatch.region -> (tensor<4x16xf32>, tensor<1x4x6x6xf32>)
// SHARED-COUNT-1:   tensor.insert_slice
// SHARED:           flow.return
// SHARED:         flow.dispatch.region -> (tensor<4x16xf32>)
// SHARED-NOT:       tensor.insert_slice
// SHARED-COUNT-2: flow.tensor.update
// SHARED:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
func.func @stored_twice_through_split(%x: tensor<8x16xf32>, %w: tensor<4x8xf32>, %v: tensor<4x8xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%w, %x : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %img = tensor.expand_shape %m [[0, 1], [2, 3]] output_shape [1, 4, 4, 4] : tensor<4x16xf32> into tensor<1x4x4x4xf32>
  %m2 = linalg.matmul ins(%v, %x : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %img2 = tensor.expand_shape %m2 [[0, 1], [2, 3]] output_shape [1, 4, 4, 4] : tensor<4x16xf32> into tensor<1x4x4x4xf32>
  %p1 = tensor.pad %img low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x4xf32> to tensor<1x4x6x6xf32>
  %cat = tensor.concat dim(1) %img2, %img : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x8x4x4xf32>
  %p2 = tensor.pad %cat low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
  func.return %p1, %p2 : tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>
}
