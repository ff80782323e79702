// MLIR (and IREE's output) allow an alias to be a typed attribute: `#a = #d.attr<...> : !d.type`.
// RUN: fusion-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: not fusion-opt %s 2>&1 | filecheck %s --check-prefix=REGISTERED

// CHECK: module attributes {test.target = #hal.device.target<"local">}
// REGISTERED: typed-attr-alias.mlir:[[# @LINE + 1]]:{{[0-9]+}}: error: 'hal.device.target' is not registered
#target = #hal.device.target<"local"> : !hal.device
module attributes {test.target = #target} {
}
