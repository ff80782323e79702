// RUN: fusion-opt %s --split-input-file --verify-diagnostics

util.func public @export_missing_dims(%a: tensor<?xf32>) -> !hal.buffer_view {
  // expected-error @+1 {{0 source dims for 1 dynamic dimensions}}
  %v = hal.tensor.export %a : tensor<?xf32> -> !hal.buffer_view
  util.return %v : !hal.buffer_view
}

// -----

util.func public @import_missing_dims(%view: !hal.buffer_view) -> tensor<?xf32> {
  // expected-error @+1 {{0 target dims for 1 dynamic dimensions}}
  %t = hal.tensor.import %view : !hal.buffer_view -> tensor<?xf32>
  util.return %t : tensor<?xf32>
}

