// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// Encodings and HAL attributes are kept as opaque text: printed back exactly as written
// (`<>` included), so iree-opt re-reads them.

// CHECK-LABEL: util.func public @encode
// CHECK: iree_encoding.set_encoding %{{.*}} : tensor<?x?xf32> -> tensor<?x?xf32, #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>>
// CHECK: iree_encoding.unset_encoding %{{.*}} : tensor<?x?xf32, #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>> -> tensor<?x?xf32>{%{{.*}}, %{{.*}}}
#enc = #iree_encoding.encoding<operand_index = 0, op_type = matmul, element_types = [f32, f32, f32]>
util.func public @encode(%t: tensor<?x?xf32>, %d0: index, %d1: index) -> tensor<?x?xf32> {
  %e = iree_encoding.set_encoding %t : tensor<?x?xf32> -> tensor<?x?xf32, #enc>
  %u = iree_encoding.unset_encoding %e : tensor<?x?xf32, #enc> -> tensor<?x?xf32>{%d0, %d1}
  util.return %u : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: util.func public @testing_encoding
// CHECK-SAME: tensor<4xf32, #iree_encoding.testing<>>
util.func public @testing_encoding(%t: tensor<4xf32>) -> tensor<4xf32, #iree_encoding.testing<>> {
  %e = iree_encoding.set_encoding %t : tensor<4xf32> -> tensor<4xf32, #iree_encoding.testing<>>
  util.return %e : tensor<4xf32, #iree_encoding.testing<>>
}

// -----

// CHECK: module attributes {hal.device.targets = [#hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic"}>]>]}
// CHECK-LABEL: util.func public @views
// CHECK-SAME: (%{{.*}}: !hal.buffer_view, %{{.*}}: !hal.fence) -> !hal.buffer_view
module attributes {hal.device.targets = [#hal.device.target<"local", [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {cpu = "generic"}>]>]} {
  util.func public @views(%v: !hal.buffer_view, %f: !hal.fence) -> !hal.buffer_view {
    util.return %v : !hal.buffer_view
  }
}

// -----

// `encoding_dims{...}` gives the values of the encoding's dynamic iteration sizes; printed
// between the source and the `:`, where IREE puts it.
// CHECK-LABEL: util.func public @encoding_dims
// CHECK: iree_encoding.set_encoding %{{.*}} encoding_dims{%[[M:.*]]} : tensor<?x64xf32> -> tensor<?x64xf32, #iree_encoding.encoding<
// CHECK: iree_encoding.unset_encoding %{{.*}} encoding_dims{%[[M]]} : tensor<?x64xf32, #iree_encoding.encoding<{{.*}}>> -> tensor<?x64xf32>{%[[M]]}
#enc_dims = #iree_encoding.encoding<operand_index = 0 : index, op_type = matmul, element_types = [f32, f32, f32], iteration_sizes = [?, 64, 64]>
util.func public @encoding_dims(%t: tensor<?x64xf32>, %m: index) -> tensor<?x64xf32> {
  %e = iree_encoding.set_encoding %t encoding_dims{%m} : tensor<?x64xf32> -> tensor<?x64xf32, #enc_dims>
  %u = iree_encoding.unset_encoding %e encoding_dims{%m} : tensor<?x64xf32, #enc_dims> -> tensor<?x64xf32>{%m}
  util.return %u : tensor<?x64xf32>
}

// -----

// A testing encoding takes encoding dims without counting them (as in IREE).
// CHECK-LABEL: util.func public @testing_encoding_dims
// CHECK: iree_encoding.set_encoding %{{.*}} encoding_dims{%{{.*}}, %{{.*}}} : tensor<4xf32> -> tensor<4xf32, #iree_encoding.testing<>>
util.func public @testing_encoding_dims(%t: tensor<4xf32>, %a: index) -> tensor<4xf32, #iree_encoding.testing<>> {
  %e = iree_encoding.set_encoding %t encoding_dims{%a, %a} : tensor<4xf32> -> tensor<4xf32, #iree_encoding.testing<>>
  util.return %e : tensor<4xf32, #iree_encoding.testing<>>
}

// -----

// CHECK-LABEL: util.func public @buffer_view_dim
// CHECK: %[[D:.*]] = hal.buffer_view.dim<%{{.*}} : !hal.buffer_view>[1] : index
// CHECK: hal.tensor.import %{{.*}} : !hal.buffer_view -> tensor<4x?xf32>{%[[D]]}
util.func public @buffer_view_dim(%v: !hal.buffer_view) -> tensor<4x?xf32> {
  %d = hal.buffer_view.dim<%v : !hal.buffer_view>[1] : index
  %t = hal.tensor.import %v : !hal.buffer_view -> tensor<4x?xf32>{%d}
  util.return %t : tensor<4x?xf32>
}

// -----

// A global read from a parameter archive at the stream level.
// CHECK: util.global private mutable @w = #stream.parameter.named<"model"::"w"> : tensor<1x1x10xf32>
module {
  util.global private mutable @w = #stream.parameter.named<"model"::"w"> : tensor<1x1x10xf32>
}
