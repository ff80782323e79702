// RUN: fusion-opt %s --split-input-file | filecheck %s
// RUN: fusion-opt %s --split-input-file | fusion-opt --split-input-file | filecheck %s

// hal.tensor.import / export / barrier / alias print back in IREE's syntax.

// CHECK-LABEL: util.func public @import_export
// CHECK: %[[T:.*]] = hal.tensor.import wait(%{{.*}}) => %{{.*}} "input0" : !hal.buffer_view -> tensor<4x8xf32>
// CHECK: hal.tensor.export %[[T]] "output0" : tensor<4x8xf32> -> !hal.buffer_view
util.func public @import_export(%view: !hal.buffer_view, %fence: !hal.fence) -> !hal.buffer_view {
  %t = hal.tensor.import wait(%fence) => %view "input0" : !hal.buffer_view -> tensor<4x8xf32>
  %v = hal.tensor.export %t "output0" : tensor<4x8xf32> -> !hal.buffer_view
  util.return %v : !hal.buffer_view
}

// -----

// CHECK-LABEL: util.func public @barrier_alias_dynamic
// CHECK: = hal.tensor.barrier join(%{{.*}}, %{{.*}} : tensor<?xf32>, tensor<4xf32>) => %{{.*}} : !hal.fence
// CHECK: hal.tensor.export %{{.*}} : tensor<?xf32>{%{{.*}}} -> !hal.buffer_view
// CHECK: hal.tensor.alias wait(%{{.*}}) => %{{.*}} : tensor<4xf32> to %{{.*}} : !hal.buffer_view
util.func public @barrier_alias_dynamic(%a: tensor<?xf32>, %b: tensor<4xf32>, %d: index, %view: !hal.buffer_view, %fence: !hal.fence) -> (!hal.buffer_view, tensor<4xf32>) {
  %r:2 = hal.tensor.barrier join(%a, %b : tensor<?xf32>, tensor<4xf32>) => %fence : !hal.fence
  %v = hal.tensor.export %r#0 : tensor<?xf32>{%d} -> !hal.buffer_view
  %s = hal.tensor.alias wait(%fence) => %r#1 : tensor<4xf32> to %view : !hal.buffer_view
  util.return %v, %s : !hal.buffer_view, tensor<4xf32>
}

// -----

// A device target that initializes a global carries its type; the executable target it names
// through an alias is written out in full (the alias itself is not printed back).
// CHECK: util.global private @device = #hal.device.target<"local", {ordinal = 0 : index}, [#hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {ukernels = "all"}>]> : !hal.device
#exec = #hal.executable.target<"llvm-cpu", "embedded-elf-x86_64", {ukernels = "all"}>
#device = #hal.device.target<"local", {ordinal = 0 : index}, [#exec]> : !hal.device
util.global private @device = #device
