// The conv / pool verifiers reject bad shapes and attributes with located messages.
// RUN: fusion-opt %s --split-input-file --verify-diagnostics

func.func @channels_not_divisible(%x: tensor<1x6x8x8xf32>, %w: tensor<8x2x3x3xf32>) {
  // expected-error@+1 {{input channels 6 are not divisible by group 4}}
  %0 = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 4 : (tensor<1x6x8x8xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x6x6xf32>
  func.return
}

// -----

func.func @filter_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error@+1 {{filter has 3 input channels per group but the input has 4 channels in 1 group(s) (expected 4)}}
  %0 = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x4x8x8xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
  func.return
}

// -----

func.func @kernel_too_large(%x: tensor<1x4x3x3xf32>, %w: tensor<8x4x5x5xf32>) {
  // expected-error@+1 {{kernel extent 5 (kernel 5, dilation 1) is larger than the padded input 4 along spatial dim 0}}
  %0 = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [1, 0, 0, 0] group = 1 : (tensor<1x4x3x3xf32>, tensor<8x4x5x5xf32>) -> tensor<1x8x1x1xf32>
  func.return
}

// -----

func.func @conv_output_shape(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error@+1 {{result shape [1, 8, 8, 8] does not match the expected shape [1, 8, 3, 3]}}
  %0 = graph.conv %x, %w strides = [2, 2] dilations = [1, 1] pads = [0, 0, 0, 0] group = 1 : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  func.return
}

// -----

func.func @pads_length(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error@+1 {{pads must have 4 entries for 2 spatial dims, got [1, 1]}}
  %0 = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [1, 1] group = 1 : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x8x8xf32>
  func.return
}

// -----

func.func @pool_kind(%x: tensor<1x4x8x8xf32>) {
  // expected-error@+1 {{kind must be one of max, avg, got 'min'}}
  %0 = graph.pool %x kind = "min" kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode = false count_include_pad = false : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  func.return
}

// -----

func.func @pool_ceil_shape(%x: tensor<1x4x9x9xf32>) {
  // ceil_mode gives 5 windows of 2 over 9 elements; floor gives 4.
  // expected-error@+1 {{result shape [1, 4, 4, 4] does not match the expected shape [1, 4, 5, 5]}}
  %0 = graph.pool %x kind = "max" kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode = true count_include_pad = false : tensor<1x4x9x9xf32> -> tensor<1x4x4x4xf32>
  func.return
}

// -----

func.func @pool_int(%x: tensor<1x4x8x8xi32>) {
  // expected-error@+1 {{element type must be a float type, got i32}}
  %0 = graph.pool %x kind = "max" kernel = [2, 2] strides = [2, 2] pads = [0, 0, 0, 0] dilations = [1, 1] ceil_mode = false count_include_pad = false : tensor<1x4x8x8xi32> -> tensor<1x4x4x4xi32>
  func.return
}

// -----

func.func @conv_3d_grouped(%x: tensor<1x8x4x6x6xf32>, %w: tensor<8x2x1x3x3xf32>) {
  // expected-error@+1 {{a 3-D conv is plain (group 1) or depthwise (group = 8 channels), got group 4}}
  %0 = graph.conv %x, %w strides = [1, 1, 1] dilations = [1, 1, 1] pads = [0, 0, 0, 0, 0, 0] group = 4 : (tensor<1x8x4x6x6xf32>, tensor<8x2x1x3x3xf32>) -> tensor<1x8x4x4x4xf32>
  func.return
}

// -----

func.func @pool_3d(%x: tensor<1x4x4x8x8xf32>) {
  // expected-error@+1 {{input must be N x C x W (rank 3) or N x C x H x W (rank 4), got rank 5}}
  %0 = graph.pool %x kind = "max" kernel = [2, 2, 2] strides = [2, 2, 2] pads = [0, 0, 0, 0, 0, 0] dilations = [1, 1, 1] ceil_mode = false count_include_pad = false : tensor<1x4x4x8x8xf32> -> tensor<1x4x2x4x4xf32>
  func.return
}
