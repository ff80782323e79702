// RUN: fusion-opt %s --split-input-file -p linalg-conv1d-channels-last | filecheck %s
// RUN: fusion-opt %s --split-input-file -p linalg-conv1d-channels-last,linalg-conv1d-patches | filecheck %s --check-prefix=PATCHES

// The pass's helper module these cases exercise: linalg/rows_channels_last.py.

// Two 1-D convs over constant filters (a padded stride-1 conv, then a stride-2 one) with a
// bias + tanh between them and a sum over the frames reading it, as torch-mlir lowers Conv1d:
// the input is swapped to [1, W, C] once, before its pad (the pad moves to the frames); each
// conv is an NHWC conv over the swapped rows with its filter as an HWCF constant; the
// activation between them is computed channels last (no swap between the convs); the sum
// reads it through a swapped map, in f64 (one f32 sum per channel in frame order would drift:
// rows_channels_last.widen_frame_sums); only the function's result is swapped back.
// CHECK-LABEL: func.func @conv1d_chain
// CHECK-SAME:    (%[[X:.*]]: tensor<1x3x10xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
// CHECK:         %[[XT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[X]] : tensor<1x3x10xf32>)
// CHECK:         %[[XP:.*]] = tensor.pad %[[XT]] low[0, 1, 0] high[0, 1, 0]
// CHECK:         } : tensor<1x10x3xf32> to tensor<1x12x3xf32>
// CHECK:         %[[XI:.*]] = tensor.expand_shape %[[XP]] {{\[\[}}0, 1], [2], [3]] output_shape [1, 1, 12, 3]
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[XI]], %{{.*}} : tensor<1x1x12x3xf32>, tensor<1x3x3x4xf32>)
// CHECK:         %[[R1:.*]] = tensor.collapse_shape %[[C1]] {{\[\[}}0, 1], [2], [3]] : tensor<1x1x10x4xf32> into tensor<1x10x4xf32>
// CHECK:         %[[ACT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[R1]], %{{.*}} : tensor<1x10x4xf32>, tensor<4xf32>)
// CHECK:         math.tanh
// CHECK:         %[[WIDE:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], {{.*}} ins(%[[ACT]] : tensor<1x10x4xf32>) outs(%{{.*}} : tensor<1x4xf64>)
// CHECK:           arith.extf
// CHECK:           arith.addf %{{.*}}, %{{.*}} : f64
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[WIDE]] : tensor<1x4xf64>) outs(%{{.*}} : tensor<1x4xf32>)
// CHECK:           arith.truncf
// CHECK:         %[[AI:.*]] = tensor.expand_shape %[[ACT]] {{\[\[}}0, 1], [2], [3]] output_shape [1, 1, 10, 4]
// CHECK:         %[[C2:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%[[AI]], %{{.*}} : tensor<1x1x10x4xf32>, tensor<1x2x4x4xf32>)
// CHECK:         %[[R2:.*]] = tensor.collapse_shape %[[C2]]
// CHECK:         %[[BACK:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[R2]] : tensor<1x5x4xf32>)
// CHECK:         func.return %[[BACK]], %[[SUM]] : tensor<1x4x5xf32>, tensor<1x4xf32>
// With linalg-conv1d-patches after it, each conv is a patch copy ([OW, KW, C] rows, collapsed)
// and a matmul with the [KW*C, F] constant, read as [1, OW, F] by the bias + tanh.
// PATCHES-LABEL: func.func @conv1d_chain
// PATCHES-NOT:     linalg.conv_2d
// PATCHES:         %[[P1:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, (d0 + d1), d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} outs(%{{.*}} : tensor<10x3x3xf32>)
// PATCHES:         %[[P1F:.*]] = tensor.collapse_shape %[[P1]] {{\[\[}}0], [1, 2]] : tensor<10x3x3xf32> into tensor<10x9xf32>
// PATCHES:         %[[M1:.*]] = linalg.matmul ins(%[[P1F]], %{{.*}} : tensor<10x9xf32>, tensor<9x4xf32>) outs(%{{.*}} : tensor<10x4xf32>)
// PATCHES:         %[[F1:.*]] = tensor.expand_shape %[[M1]] {{\[\[}}0, 1], [2]] output_shape [1, 10, 4]
// PATCHES:         linalg.generic {{.*}} ins(%[[F1]], %{{.*}} : tensor<1x10x4xf32>, tensor<4xf32>)
// PATCHES:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, ((d0 * 2) + d1), d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} outs(%{{.*}} : tensor<5x2x4xf32>)
// PATCHES:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<5x8xf32>, tensor<8x4xf32>)
func.func @conv1d_chain(%x: tensor<1x3x10xf32>) -> (tensor<1x4x5xf32>, tensor<1x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[ 0.13, -0.13,  0.64],  [ 0.1 , -0.54,  0.36],  [ 1.3 ,  0.95, -0.7 ]], [[-1.27, -0.62,  0.04],  [-2.33, -0.22, -1.25],  [-0.73, -0.54, -0.32]], [[ 0.41,  1.04, -0.13],  [ 1.37, -0.67,  0.35],  [ 0.9 ,  0.09, -0.74]], [[-0.92, -0.46,  0.22],  [-1.01, -0.21, -0.16],  [ 0.54,  0.21,  0.36]]]> : tensor<4x3x3xf32>
  %w2 = arith.constant dense<[[[-0.65, -0.13],  [ 0.78,  1.49],  [-1.26,  1.51],  [ 1.35,  0.78]], [[ 0.26, -0.31],  [ 1.46,  1.96],  [ 1.8 ,  1.32],  [ 0.36, -1.21]], [[-0.  ,  0.66],  [-1.29,  0.4 ],  [ 0.43,  0.7 ],  [-1.18, -0.66]], [[-0.44, -1.17],  [ 1.74, -0.5 ],  [ 0.33, -0.26],  [ 1.58,  1.32]]]> : tensor<4x4x2xf32>
  %b1 = arith.constant dense<[ 0.63, -2.2 ,  0.05,  0.68]> : tensor<4xf32>
  %w1e = tensor.expand_shape %w1 [[0], [1], [2, 3]] output_shape [4, 3, 1, 3] : tensor<4x3x3xf32> into tensor<4x3x1x3xf32>
  %xe = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 3, 1, 10] : tensor<1x3x10xf32> into tensor<1x3x1x10xf32>
  %xp = tensor.pad %xe low[0, 0, 0, 1] high[0, 0, 0, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x1x10xf32> to tensor<1x3x1x12xf32>
  %e1 = tensor.empty() : tensor<1x4x1x10xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x10xf32>) -> tensor<1x4x1x10xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xp, %w1e : tensor<1x3x1x12xf32>, tensor<4x3x1x3xf32>) outs(%f1 : tensor<1x4x1x10xf32>) -> tensor<1x4x1x10xf32>
  %c1f = tensor.collapse_shape %c1 [[0], [1], [2, 3]] : tensor<1x4x1x10xf32> into tensor<1x4x10xf32>
  %e2 = tensor.empty() : tensor<1x4x10xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c1f, %b1 : tensor<1x4x10xf32>, tensor<4xf32>) outs(%e2 : tensor<1x4x10xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<1x4x10xf32>
  %e3 = tensor.empty() : tensor<1x4xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4xf32>) -> tensor<1x4xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%act : tensor<1x4x10xf32>) outs(%f3 : tensor<1x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %o, %a : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  %ae = tensor.expand_shape %act [[0], [1], [2, 3]] output_shape [1, 4, 1, 10] : tensor<1x4x10xf32> into tensor<1x4x1x10xf32>
  %w2e = tensor.expand_shape %w2 [[0], [1], [2, 3]] output_shape [4, 4, 1, 2] : tensor<4x4x2xf32> into tensor<4x4x1x2xf32>
  %e4 = tensor.empty() : tensor<1x4x1x5xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<1x4x1x5xf32>) -> tensor<1x4x1x5xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<[1, 2]> : vector<2xi64>} ins(%ae, %w2e : tensor<1x4x1x10xf32>, tensor<4x4x1x2xf32>) outs(%f4 : tensor<1x4x1x5xf32>) -> tensor<1x4x1x5xf32>
  %c2f = tensor.collapse_shape %c2 [[0], [1], [2, 3]] : tensor<1x4x1x5xf32> into tensor<1x4x5xf32>
  func.return %c2f, %sum : tensor<1x4x5xf32>, tensor<1x4xf32>
}

// -----

// A filter argument: its transpose would run on every call, so the conv stays NCHW.
// CHECK-LABEL: func.func @filter_argument
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
func.func @filter_argument(%x: tensor<1x3x1x10xf32>, %w: tensor<4x3x1x3xf32>) -> tensor<1x4x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x1x8xf32>) -> tensor<1x4x1x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x3x1x10xf32>, tensor<4x3x1x3xf32>) outs(%f : tensor<1x4x1x8xf32>) -> tensor<1x4x1x8xf32>
  func.return %c : tensor<1x4x1x8xf32>
}

// -----

// Two image rows: a 2-D conv with a 1 x 3 window, not a 1-D conv.
// CHECK-LABEL: func.func @two_rows
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
func.func @two_rows(%x: tensor<1x3x2x10xf32>) -> tensor<1x4x2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<4x3x1x3xf32>
  %e = tensor.empty() : tensor<1x4x2x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x3x2x10xf32>, tensor<4x3x1x3xf32>) outs(%f : tensor<1x4x2x8xf32>) -> tensor<1x4x2x8xf32>
  func.return %c : tensor<1x4x2x8xf32>
}

// -----

// Batch 2: not rewritten.
// CHECK-LABEL: func.func @batch_two
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
func.func @batch_two(%x: tensor<2x3x1x10xf32>) -> tensor<2x4x1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<4x3x1x3xf32>
  %e = tensor.empty() : tensor<2x4x1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x1x8xf32>) -> tensor<2x4x1x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x1x10xf32>, tensor<4x3x1x3xf32>) outs(%f : tensor<2x4x1x8xf32>) -> tensor<2x4x1x8xf32>
  func.return %c : tensor<2x4x1x8xf32>
}

// -----

// A pointwise 1-D conv (a 1 x 1 window) between transposes from and to tokens-major, as
// SqueezeBERT's dense layers are written: channels last it reads the tokens' [1, W, C] rows and
// writes [1, W, F] ones, where the NCW form was a W . X matmul written back transposed.
// CHECK-LABEL: func.func @pointwise_between_transposes
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x1x6x4xf32>, tensor<1x1x4x5xf32>)
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
#t3 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#i3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @pointwise_between_transposes(%tokens: tensor<1x6x4xf32>) -> tensor<1x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[[[0.5]], [[-1.0]], [[0.25]], [[2.0]]], [[[1.0]], [[0.5]], [[-0.5]], [[0.125]]], [[[0.75]], [[1.5]], [[0.0]], [[-2.0]]], [[[-0.25]], [[1.0]], [[1.0]], [[0.5]]], [[[0.0]], [[0.5]], [[-1.5]], [[1.0]]]]> : tensor<5x4x1x1xf32>
  %et = tensor.empty() : tensor<1x4x6xf32>
  %x = linalg.generic {indexing_maps = [#t3, #i3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%tokens : tensor<1x6x4xf32>) outs(%et : tensor<1x4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x6xf32>
  %x4 = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 4, 1, 6] : tensor<1x4x6xf32> into tensor<1x4x1x6xf32>
  %e = tensor.empty() : tensor<1x5x1x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x1x6xf32>) -> tensor<1x5x1x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x4, %w : tensor<1x4x1x6xf32>, tensor<5x4x1x1xf32>) outs(%f : tensor<1x5x1x6xf32>) -> tensor<1x5x1x6xf32>
  %c3 = tensor.collapse_shape %c [[0], [1], [2, 3]] : tensor<1x5x1x6xf32> into tensor<1x5x6xf32>
  %eo = tensor.empty() : tensor<1x6x5xf32>
  %y = linalg.generic {indexing_maps = [#t3, #i3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c3 : tensor<1x5x6xf32>) outs(%eo : tensor<1x6x5xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x6x5xf32>
  func.return %y : tensor<1x6x5xf32>
}

// -----

// A reflect pad between two convs (ONNX `Pad` mode reflect, as EnCodec pads each conv's input):
// a concat of two single-frame slices of the activation and the activation itself. It moves
// channels last with the chain: a concat along the frames of slices cut from the channels-last
// activation, so no swap is left between the convs (only the result's, back to [1, C, W]).
// CHECK-LABEL: func.func @reflect_pad_between_convs
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK:         %[[R1:.*]] = tensor.collapse_shape %[[C1]]
// CHECK:         %[[ACT:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[R1]] : tensor<1x6x4xf32>)
// CHECK:           math.tanh
// CHECK-DAG:     %[[S2:.*]] = tensor.extract_slice %[[ACT]][0, 2, 0] [1, 1, 4] [1, 1, 1] : tensor<1x6x4xf32> to tensor<1x1x4xf32>
// CHECK-DAG:     %[[S1:.*]] = tensor.extract_slice %[[ACT]][0, 1, 0] [1, 1, 4] [1, 1, 1] : tensor<1x6x4xf32> to tensor<1x1x4xf32>
// CHECK:         %[[PAD:.*]] = tensor.concat dim(1) %[[S2]], %[[S1]], %[[ACT]] : (tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x6x4xf32>) -> tensor<1x8x4xf32>
// CHECK:         %[[PI:.*]] = tensor.expand_shape %[[PAD]] {{\[\[}}0, 1], [2], [3]] output_shape [1, 1, 8, 4]
// CHECK:         %[[C2:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PI]], %{{.*}} : tensor<1x1x8x4xf32>, tensor<1x3x4x4xf32>)
// CHECK:         %[[R2:.*]] = tensor.collapse_shape %[[C2]]
// CHECK:         %[[BACK:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], {{.*}} ins(%[[R2]] : tensor<1x6x4xf32>)
// CHECK:         func.return %[[BACK]] : tensor<1x4x6xf32>
func.func @reflect_pad_between_convs(%x: tensor<1x3x6xf32>) -> tensor<1x4x6xf32> {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[[0.5], [-0.25], [1.0]], [[0.75], [0.5], [-1.5]], [[-0.5], [1.25], [0.25]], [[1.0], [-0.75], [0.5]]]> : tensor<4x3x1xf32>
  %w2 = arith.constant dense<0.125> : tensor<4x4x3xf32>
  %w1e = tensor.expand_shape %w1 [[0], [1], [2, 3]] output_shape [4, 3, 1, 1] : tensor<4x3x1xf32> into tensor<4x3x1x1xf32>
  %w2e = tensor.expand_shape %w2 [[0], [1], [2, 3]] output_shape [4, 4, 1, 3] : tensor<4x4x3xf32> into tensor<4x4x1x3xf32>
  %xe = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [1, 3, 1, 6] : tensor<1x3x6xf32> into tensor<1x3x1x6xf32>
  %e1 = tensor.empty() : tensor<1x4x1x6xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x1x6xf32>) -> tensor<1x4x1x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xe, %w1e : tensor<1x3x1x6xf32>, tensor<4x3x1x1xf32>) outs(%f1 : tensor<1x4x1x6xf32>) -> tensor<1x4x1x6xf32>
  %c1f = tensor.collapse_shape %c1 [[0], [1], [2, 3]] : tensor<1x4x1x6xf32> into tensor<1x4x6xf32>
  %e2 = tensor.empty() : tensor<1x4x6xf32>
  %act = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c1f : tensor<1x4x6xf32>) outs(%e2 : tensor<1x4x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    linalg.yield %t : f32
  } -> tensor<1x4x6xf32>
  %s2 = tensor.extract_slice %act[0, 0, 2] [1, 4, 1] [1, 1, 1] : tensor<1x4x6xf32> to tensor<1x4x1xf32>
  %s1 = tensor.extract_slice %act[0, 0, 1] [1, 4, 1] [1, 1, 1] : tensor<1x4x6xf32> to tensor<1x4x1xf32>
  %pad = tensor.concat dim(2) %s2, %s1, %act : (tensor<1x4x1xf32>, tensor<1x4x1xf32>, tensor<1x4x6xf32>) -> tensor<1x4x8xf32>
  %pe = tensor.expand_shape %pad [[0], [1], [2, 3]] output_shape [1, 4, 1, 8] : tensor<1x4x8xf32> into tensor<1x4x1x8xf32>
  %e3 = tensor.empty() : tensor<1x4x1x6xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4x1x6xf32>) -> tensor<1x4x1x6xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%pe, %w2e : tensor<1x4x1x8xf32>, tensor<4x4x1x3xf32>) outs(%f3 : tensor<1x4x1x6xf32>) -> tensor<1x4x1x6xf32>
  %c2f = tensor.collapse_shape %c2 [[0], [1], [2, 3]] : tensor<1x4x1x6xf32> into tensor<1x4x6xf32>
  func.return %c2f : tensor<1x4x6xf32>
}
