// MIGraphX #2818's distilgpt2 attention tail (test/data/onnx/attn_tail.args.onnx) in linalg, as
// IREE's ONNX import writes it: iree-import-onnx, then iree-compile --compile-to=input with the
// ABI wrapper (hal.tensor.import/export) replaced by plain function arguments and result.
func.func @main_graph(%arg0: tensor<1x12x348x348xf32>, %arg1: tensor<348x768xf32>, %arg2: tensor<768x2304xf32>, %arg3: tensor<2304xf32>, %arg4: tensor<768x768xf32>) -> tensor<348x768xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %5 = tensor.empty() : tensor<348x2304xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<348x2304xf32>) -> tensor<348x2304xf32>
    %7 = linalg.matmul ins(%arg1, %arg2 : tensor<348x768xf32>, tensor<768x2304xf32>) outs(%6 : tensor<348x2304xf32>) -> tensor<348x2304xf32>
    %8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%7, %arg3 : tensor<348x2304xf32>, tensor<2304xf32>) outs(%5 : tensor<348x2304xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %19 = arith.addf %in, %in_4 : f32
      linalg.yield %19 : f32
    } -> tensor<348x2304xf32>
    %expanded = tensor.expand_shape %8 [[0, 1], [2, 3]] output_shape [1, 348, 36, 64] : tensor<348x2304xf32> into tensor<1x348x36x64xf32>
    %9 = tensor.empty() : tensor<1x36x348x64xf32>
    %transposed = linalg.transpose ins(%expanded : tensor<1x348x36x64xf32>) outs(%9 : tensor<1x36x348x64xf32>) permutation = [0, 2, 1, 3] 
    %extracted_slice = tensor.extract_slice %transposed[0, 24, 0, 0] [1, 12, 348, 64] [1, 1, 1, 1] : tensor<1x36x348x64xf32> to tensor<1x12x348x64xf32>
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<1x12x348x348xf32> into tensor<12x348x348xf32>
    %collapsed_0 = tensor.collapse_shape %extracted_slice [[0, 1], [2], [3]] : tensor<1x12x348x64xf32> into tensor<12x348x64xf32>
    %10 = tensor.empty() : tensor<12x348x64xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<12x348x64xf32>) -> tensor<12x348x64xf32>
    %12 = linalg.batch_matmul ins(%collapsed, %collapsed_0 : tensor<12x348x348xf32>, tensor<12x348x64xf32>) outs(%11 : tensor<12x348x64xf32>) -> tensor<12x348x64xf32>
    %expanded_1 = tensor.expand_shape %12 [[0, 1], [2], [3]] output_shape [1, 12, 348, 64] : tensor<12x348x64xf32> into tensor<1x12x348x64xf32>
    %13 = tensor.empty() : tensor<1x348x12x64xf32>
    %transposed_2 = linalg.transpose ins(%expanded_1 : tensor<1x12x348x64xf32>) outs(%13 : tensor<1x348x12x64xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_3 = tensor.collapse_shape %transposed_2 [[0, 1], [2, 3]] : tensor<1x348x12x64xf32> into tensor<348x768xf32>
    %14 = tensor.empty() : tensor<348x768xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<348x768xf32>) -> tensor<348x768xf32>
    %16 = linalg.matmul ins(%collapsed_3, %arg4 : tensor<348x768xf32>, tensor<768x768xf32>) outs(%15 : tensor<348x768xf32>) -> tensor<348x768xf32>
    return %16 : tensor<348x768xf32>
}
