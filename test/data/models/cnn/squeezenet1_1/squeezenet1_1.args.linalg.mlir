#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
module {
  func.func @main_graph(%arg0: tensor<1x3x64x64xf32>, %arg1: tensor<64x3x3x3xf32>, %arg2: tensor<64xf32>, %arg3: tensor<16x64x1x1xf32>, %arg4: tensor<16xf32>, %arg5: tensor<64x16x1x1xf32>, %arg6: tensor<64xf32>, %arg7: tensor<64x16x3x3xf32>, %arg8: tensor<64xf32>, %arg9: tensor<16x128x1x1xf32>, %arg10: tensor<16xf32>, %arg11: tensor<64x16x1x1xf32>, %arg12: tensor<64xf32>, %arg13: tensor<64x16x3x3xf32>, %arg14: tensor<64xf32>, %arg15: tensor<32x128x1x1xf32>, %arg16: tensor<32xf32>, %arg17: tensor<128x32x1x1xf32>, %arg18: tensor<128xf32>, %arg19: tensor<128x32x3x3xf32>, %arg20: tensor<128xf32>, %arg21: tensor<32x256x1x1xf32>, %arg22: tensor<32xf32>, %arg23: tensor<128x32x1x1xf32>, %arg24: tensor<128xf32>, %arg25: tensor<128x32x3x3xf32>, %arg26: tensor<128xf32>, %arg27: tensor<48x256x1x1xf32>, %arg28: tensor<48xf32>, %arg29: tensor<192x48x1x1xf32>, %arg30: tensor<192xf32>, %arg31: tensor<192x48x3x3xf32>, %arg32: tensor<192xf32>, %arg33: tensor<48x384x1x1xf32>, %arg34: tensor<48xf32>, %arg35: tensor<192x48x1x1xf32>, %arg36: tensor<192xf32>, %arg37: tensor<192x48x3x3xf32>, %arg38: tensor<192xf32>, %arg39: tensor<64x384x1x1xf32>, %arg40: tensor<64xf32>, %arg41: tensor<256x64x1x1xf32>, %arg42: tensor<256xf32>, %arg43: tensor<256x64x3x3xf32>, %arg44: tensor<256xf32>, %arg45: tensor<64x512x1x1xf32>, %arg46: tensor<64xf32>, %arg47: tensor<256x64x1x1xf32>, %arg48: tensor<256xf32>, %arg49: tensor<256x64x3x3xf32>, %arg50: tensor<256xf32>, %arg51: tensor<10x512x1x1xf32>, %arg52: tensor<10xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 9.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x64x31x31xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<64xf32>) outs(%0 : tensor<1x64x31x31xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg0, %arg1 : tensor<1x3x64x64xf32>, tensor<64x3x3x3xf32>) outs(%broadcasted : tensor<1x64x31x31xf32>) -> tensor<1x64x31x31xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x64x31x31xf32>) outs(%0 : tensor<1x64x31x31xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x64x31x31xf32>
    %padded = tensor.pad %2 low[0, 0, 0, 0] high[0, 0, 2, 2] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x64x31x31xf32> to tensor<1x64x33x33xf32>
    %3 = tensor.empty() : tensor<1x64x15x15xf32>
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<1x64x15x15xf32>) -> tensor<1x64x15x15xf32>
    %5 = tensor.empty() : tensor<3x3xf32>
    %6 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %5 : tensor<1x64x33x33xf32>, tensor<3x3xf32>) outs(%4 : tensor<1x64x15x15xf32>) -> tensor<1x64x15x15xf32>
    %7 = tensor.empty() : tensor<1x16x15x15xf32>
    %broadcasted_2 = linalg.broadcast ins(%arg4 : tensor<16xf32>) outs(%7 : tensor<1x16x15x15xf32>) dimensions = [0, 2, 3] 
    %8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%6, %arg3 : tensor<1x64x15x15xf32>, tensor<16x64x1x1xf32>) outs(%broadcasted_2 : tensor<1x16x15x15xf32>) -> tensor<1x16x15x15xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<1x16x15x15xf32>) outs(%7 : tensor<1x16x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x16x15x15xf32>
    %broadcasted_3 = linalg.broadcast ins(%arg6 : tensor<64xf32>) outs(%3 : tensor<1x64x15x15xf32>) dimensions = [0, 2, 3] 
    %10 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%9, %arg5 : tensor<1x16x15x15xf32>, tensor<64x16x1x1xf32>) outs(%broadcasted_3 : tensor<1x64x15x15xf32>) -> tensor<1x64x15x15xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<1x64x15x15xf32>) outs(%3 : tensor<1x64x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x64x15x15xf32>
    %padded_4 = tensor.pad %9 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst : f32
    } : tensor<1x16x15x15xf32> to tensor<1x16x17x17xf32>
    %broadcasted_5 = linalg.broadcast ins(%arg8 : tensor<64xf32>) outs(%3 : tensor<1x64x15x15xf32>) dimensions = [0, 2, 3] 
    %12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_4, %arg7 : tensor<1x16x17x17xf32>, tensor<64x16x3x3xf32>) outs(%broadcasted_5 : tensor<1x64x15x15xf32>) -> tensor<1x64x15x15xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<1x64x15x15xf32>) outs(%3 : tensor<1x64x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x64x15x15xf32>
    %concat = tensor.concat dim(1) %11, %13 : (tensor<1x64x15x15xf32>, tensor<1x64x15x15xf32>) -> tensor<1x128x15x15xf32>
    %broadcasted_6 = linalg.broadcast ins(%arg10 : tensor<16xf32>) outs(%7 : tensor<1x16x15x15xf32>) dimensions = [0, 2, 3] 
    %14 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%concat, %arg9 : tensor<1x128x15x15xf32>, tensor<16x128x1x1xf32>) outs(%broadcasted_6 : tensor<1x16x15x15xf32>) -> tensor<1x16x15x15xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<1x16x15x15xf32>) outs(%7 : tensor<1x16x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x16x15x15xf32>
    %broadcasted_7 = linalg.broadcast ins(%arg12 : tensor<64xf32>) outs(%3 : tensor<1x64x15x15xf32>) dimensions = [0, 2, 3] 
    %16 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%15, %arg11 : tensor<1x16x15x15xf32>, tensor<64x16x1x1xf32>) outs(%broadcasted_7 : tensor<1x64x15x15xf32>) -> tensor<1x64x15x15xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<1x64x15x15xf32>) outs(%3 : tensor<1x64x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x64x15x15xf32>
    %padded_8 = tensor.pad %15 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst : f32
    } : tensor<1x16x15x15xf32> to tensor<1x16x17x17xf32>
    %broadcasted_9 = linalg.broadcast ins(%arg14 : tensor<64xf32>) outs(%3 : tensor<1x64x15x15xf32>) dimensions = [0, 2, 3] 
    %18 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_8, %arg13 : tensor<1x16x17x17xf32>, tensor<64x16x3x3xf32>) outs(%broadcasted_9 : tensor<1x64x15x15xf32>) -> tensor<1x64x15x15xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18 : tensor<1x64x15x15xf32>) outs(%3 : tensor<1x64x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x64x15x15xf32>
    %concat_10 = tensor.concat dim(1) %17, %19 : (tensor<1x64x15x15xf32>, tensor<1x64x15x15xf32>) -> tensor<1x128x15x15xf32>
    %padded_11 = tensor.pad %concat_10 low[0, 0, 0, 0] high[0, 0, 2, 2] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x128x15x15xf32> to tensor<1x128x17x17xf32>
    %20 = tensor.empty() : tensor<1x128x7x7xf32>
    %21 = linalg.fill ins(%cst_0 : f32) outs(%20 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    %22 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_11, %5 : tensor<1x128x17x17xf32>, tensor<3x3xf32>) outs(%21 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    %23 = tensor.empty() : tensor<1x32x7x7xf32>
    %broadcasted_12 = linalg.broadcast ins(%arg16 : tensor<32xf32>) outs(%23 : tensor<1x32x7x7xf32>) dimensions = [0, 2, 3] 
    %24 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%22, %arg15 : tensor<1x128x7x7xf32>, tensor<32x128x1x1xf32>) outs(%broadcasted_12 : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<1x32x7x7xf32>) outs(%23 : tensor<1x32x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x32x7x7xf32>
    %broadcasted_13 = linalg.broadcast ins(%arg18 : tensor<128xf32>) outs(%20 : tensor<1x128x7x7xf32>) dimensions = [0, 2, 3] 
    %26 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%25, %arg17 : tensor<1x32x7x7xf32>, tensor<128x32x1x1xf32>) outs(%broadcasted_13 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26 : tensor<1x128x7x7xf32>) outs(%20 : tensor<1x128x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x128x7x7xf32>
    %padded_14 = tensor.pad %25 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst : f32
    } : tensor<1x32x7x7xf32> to tensor<1x32x9x9xf32>
    %broadcasted_15 = linalg.broadcast ins(%arg20 : tensor<128xf32>) outs(%20 : tensor<1x128x7x7xf32>) dimensions = [0, 2, 3] 
    %28 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_14, %arg19 : tensor<1x32x9x9xf32>, tensor<128x32x3x3xf32>) outs(%broadcasted_15 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%28 : tensor<1x128x7x7xf32>) outs(%20 : tensor<1x128x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x128x7x7xf32>
    %concat_16 = tensor.concat dim(1) %27, %29 : (tensor<1x128x7x7xf32>, tensor<1x128x7x7xf32>) -> tensor<1x256x7x7xf32>
    %broadcasted_17 = linalg.broadcast ins(%arg22 : tensor<32xf32>) outs(%23 : tensor<1x32x7x7xf32>) dimensions = [0, 2, 3] 
    %30 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%concat_16, %arg21 : tensor<1x256x7x7xf32>, tensor<32x256x1x1xf32>) outs(%broadcasted_17 : tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
    %31 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30 : tensor<1x32x7x7xf32>) outs(%23 : tensor<1x32x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x32x7x7xf32>
    %broadcasted_18 = linalg.broadcast ins(%arg24 : tensor<128xf32>) outs(%20 : tensor<1x128x7x7xf32>) dimensions = [0, 2, 3] 
    %32 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%31, %arg23 : tensor<1x32x7x7xf32>, tensor<128x32x1x1xf32>) outs(%broadcasted_18 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    %33 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32 : tensor<1x128x7x7xf32>) outs(%20 : tensor<1x128x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x128x7x7xf32>
    %padded_19 = tensor.pad %31 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst : f32
    } : tensor<1x32x7x7xf32> to tensor<1x32x9x9xf32>
    %broadcasted_20 = linalg.broadcast ins(%arg26 : tensor<128xf32>) outs(%20 : tensor<1x128x7x7xf32>) dimensions = [0, 2, 3] 
    %34 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_19, %arg25 : tensor<1x32x9x9xf32>, tensor<128x32x3x3xf32>) outs(%broadcasted_20 : tensor<1x128x7x7xf32>) -> tensor<1x128x7x7xf32>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<1x128x7x7xf32>) outs(%20 : tensor<1x128x7x7xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x128x7x7xf32>
    %concat_21 = tensor.concat dim(1) %33, %35 : (tensor<1x128x7x7xf32>, tensor<1x128x7x7xf32>) -> tensor<1x256x7x7xf32>
    %padded_22 = tensor.pad %concat_21 low[0, 0, 0, 0] high[0, 0, 2, 2] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst_0 : f32
    } : tensor<1x256x7x7xf32> to tensor<1x256x9x9xf32>
    %36 = tensor.empty() : tensor<1x256x3x3xf32>
    %37 = linalg.fill ins(%cst_0 : f32) outs(%36 : tensor<1x256x3x3xf32>) -> tensor<1x256x3x3xf32>
    %38 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_22, %5 : tensor<1x256x9x9xf32>, tensor<3x3xf32>) outs(%37 : tensor<1x256x3x3xf32>) -> tensor<1x256x3x3xf32>
    %39 = tensor.empty() : tensor<1x48x3x3xf32>
    %broadcasted_23 = linalg.broadcast ins(%arg28 : tensor<48xf32>) outs(%39 : tensor<1x48x3x3xf32>) dimensions = [0, 2, 3] 
    %40 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%38, %arg27 : tensor<1x256x3x3xf32>, tensor<48x256x1x1xf32>) outs(%broadcasted_23 : tensor<1x48x3x3xf32>) -> tensor<1x48x3x3xf32>
    %41 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40 : tensor<1x48x3x3xf32>) outs(%39 : tensor<1x48x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x48x3x3xf32>
    %42 = tensor.empty() : tensor<1x192x3x3xf32>
    %broadcasted_24 = linalg.broadcast ins(%arg30 : tensor<192xf32>) outs(%42 : tensor<1x192x3x3xf32>) dimensions = [0, 2, 3] 
    %43 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%41, %arg29 : tensor<1x48x3x3xf32>, tensor<192x48x1x1xf32>) outs(%broadcasted_24 : tensor<1x192x3x3xf32>) -> tensor<1x192x3x3xf32>
    %44 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43 : tensor<1x192x3x3xf32>) outs(%42 : tensor<1x192x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x192x3x3xf32>
    %padded_25 = tensor.pad %41 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst : f32
    } : tensor<1x48x3x3xf32> to tensor<1x48x5x5xf32>
    %broadcasted_26 = linalg.broadcast ins(%arg32 : tensor<192xf32>) outs(%42 : tensor<1x192x3x3xf32>) dimensions = [0, 2, 3] 
    %45 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_25, %arg31 : tensor<1x48x5x5xf32>, tensor<192x48x3x3xf32>) outs(%broadcasted_26 : tensor<1x192x3x3xf32>) -> tensor<1x192x3x3xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45 : tensor<1x192x3x3xf32>) outs(%42 : tensor<1x192x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x192x3x3xf32>
    %concat_27 = tensor.concat dim(1) %44, %46 : (tensor<1x192x3x3xf32>, tensor<1x192x3x3xf32>) -> tensor<1x384x3x3xf32>
    %broadcasted_28 = linalg.broadcast ins(%arg34 : tensor<48xf32>) outs(%39 : tensor<1x48x3x3xf32>) dimensions = [0, 2, 3] 
    %47 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%concat_27, %arg33 : tensor<1x384x3x3xf32>, tensor<48x384x1x1xf32>) outs(%broadcasted_28 : tensor<1x48x3x3xf32>) -> tensor<1x48x3x3xf32>
    %48 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%47 : tensor<1x48x3x3xf32>) outs(%39 : tensor<1x48x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x48x3x3xf32>
    %broadcasted_29 = linalg.broadcast ins(%arg36 : tensor<192xf32>) outs(%42 : tensor<1x192x3x3xf32>) dimensions = [0, 2, 3] 
    %49 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%48, %arg35 : tensor<1x48x3x3xf32>, tensor<192x48x1x1xf32>) outs(%broadcasted_29 : tensor<1x192x3x3xf32>) -> tensor<1x192x3x3xf32>
    %50 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49 : tensor<1x192x3x3xf32>) outs(%42 : tensor<1x192x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x192x3x3xf32>
    %padded_30 = tensor.pad %48 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst : f32
    } : tensor<1x48x3x3xf32> to tensor<1x48x5x5xf32>
    %broadcasted_31 = linalg.broadcast ins(%arg38 : tensor<192xf32>) outs(%42 : tensor<1x192x3x3xf32>) dimensions = [0, 2, 3] 
    %51 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_30, %arg37 : tensor<1x48x5x5xf32>, tensor<192x48x3x3xf32>) outs(%broadcasted_31 : tensor<1x192x3x3xf32>) -> tensor<1x192x3x3xf32>
    %52 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51 : tensor<1x192x3x3xf32>) outs(%42 : tensor<1x192x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x192x3x3xf32>
    %concat_32 = tensor.concat dim(1) %50, %52 : (tensor<1x192x3x3xf32>, tensor<1x192x3x3xf32>) -> tensor<1x384x3x3xf32>
    %53 = tensor.empty() : tensor<1x64x3x3xf32>
    %broadcasted_33 = linalg.broadcast ins(%arg40 : tensor<64xf32>) outs(%53 : tensor<1x64x3x3xf32>) dimensions = [0, 2, 3] 
    %54 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%concat_32, %arg39 : tensor<1x384x3x3xf32>, tensor<64x384x1x1xf32>) outs(%broadcasted_33 : tensor<1x64x3x3xf32>) -> tensor<1x64x3x3xf32>
    %55 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54 : tensor<1x64x3x3xf32>) outs(%53 : tensor<1x64x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x64x3x3xf32>
    %broadcasted_34 = linalg.broadcast ins(%arg42 : tensor<256xf32>) outs(%36 : tensor<1x256x3x3xf32>) dimensions = [0, 2, 3] 
    %56 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%55, %arg41 : tensor<1x64x3x3xf32>, tensor<256x64x1x1xf32>) outs(%broadcasted_34 : tensor<1x256x3x3xf32>) -> tensor<1x256x3x3xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%56 : tensor<1x256x3x3xf32>) outs(%36 : tensor<1x256x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x256x3x3xf32>
    %padded_35 = tensor.pad %55 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst : f32
    } : tensor<1x64x3x3xf32> to tensor<1x64x5x5xf32>
    %broadcasted_36 = linalg.broadcast ins(%arg44 : tensor<256xf32>) outs(%36 : tensor<1x256x3x3xf32>) dimensions = [0, 2, 3] 
    %58 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_35, %arg43 : tensor<1x64x5x5xf32>, tensor<256x64x3x3xf32>) outs(%broadcasted_36 : tensor<1x256x3x3xf32>) -> tensor<1x256x3x3xf32>
    %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%58 : tensor<1x256x3x3xf32>) outs(%36 : tensor<1x256x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x256x3x3xf32>
    %concat_37 = tensor.concat dim(1) %57, %59 : (tensor<1x256x3x3xf32>, tensor<1x256x3x3xf32>) -> tensor<1x512x3x3xf32>
    %broadcasted_38 = linalg.broadcast ins(%arg46 : tensor<64xf32>) outs(%53 : tensor<1x64x3x3xf32>) dimensions = [0, 2, 3] 
    %60 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%concat_37, %arg45 : tensor<1x512x3x3xf32>, tensor<64x512x1x1xf32>) outs(%broadcasted_38 : tensor<1x64x3x3xf32>) -> tensor<1x64x3x3xf32>
    %61 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%60 : tensor<1x64x3x3xf32>) outs(%53 : tensor<1x64x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x64x3x3xf32>
    %broadcasted_39 = linalg.broadcast ins(%arg48 : tensor<256xf32>) outs(%36 : tensor<1x256x3x3xf32>) dimensions = [0, 2, 3] 
    %62 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%61, %arg47 : tensor<1x64x3x3xf32>, tensor<256x64x1x1xf32>) outs(%broadcasted_39 : tensor<1x256x3x3xf32>) -> tensor<1x256x3x3xf32>
    %63 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%62 : tensor<1x256x3x3xf32>) outs(%36 : tensor<1x256x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x256x3x3xf32>
    %padded_40 = tensor.pad %61 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg53: index, %arg54: index, %arg55: index, %arg56: index):
      tensor.yield %cst : f32
    } : tensor<1x64x3x3xf32> to tensor<1x64x5x5xf32>
    %broadcasted_41 = linalg.broadcast ins(%arg50 : tensor<256xf32>) outs(%36 : tensor<1x256x3x3xf32>) dimensions = [0, 2, 3] 
    %64 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_40, %arg49 : tensor<1x64x5x5xf32>, tensor<256x64x3x3xf32>) outs(%broadcasted_41 : tensor<1x256x3x3xf32>) -> tensor<1x256x3x3xf32>
    %65 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%64 : tensor<1x256x3x3xf32>) outs(%36 : tensor<1x256x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x256x3x3xf32>
    %concat_42 = tensor.concat dim(1) %63, %65 : (tensor<1x256x3x3xf32>, tensor<1x256x3x3xf32>) -> tensor<1x512x3x3xf32>
    %66 = tensor.empty() : tensor<1x10x3x3xf32>
    %broadcasted_43 = linalg.broadcast ins(%arg52 : tensor<10xf32>) outs(%66 : tensor<1x10x3x3xf32>) dimensions = [0, 2, 3] 
    %67 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%concat_42, %arg51 : tensor<1x512x3x3xf32>, tensor<10x512x1x1xf32>) outs(%broadcasted_43 : tensor<1x10x3x3xf32>) -> tensor<1x10x3x3xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%67 : tensor<1x10x3x3xf32>) outs(%66 : tensor<1x10x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.cmpf ugt, %in, %cst : f32
      %74 = arith.select %73, %in, %cst : f32
      linalg.yield %74 : f32
    } -> tensor<1x10x3x3xf32>
    %69 = tensor.empty() : tensor<1x10x1x1xf32>
    %70 = linalg.fill ins(%cst : f32) outs(%69 : tensor<1x10x1x1xf32>) -> tensor<1x10x1x1xf32>
    %71 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%68 : tensor<1x10x3x3xf32>) outs(%70 : tensor<1x10x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.addf %in, %out : f32
      linalg.yield %73 : f32
    } -> tensor<1x10x1x1xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%71 : tensor<1x10x1x1xf32>) outs(%69 : tensor<1x10x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %73 = arith.divf %in, %cst_1 : f32
      linalg.yield %73 : f32
    } -> tensor<1x10x1x1xf32>
    %collapsed = tensor.collapse_shape %72 [[0], [1, 2, 3]] : tensor<1x10x1x1xf32> into tensor<1x10xf32>
    return %collapsed : tensor<1x10xf32>
  }
}

