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
