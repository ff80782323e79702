// MLIR (and IREE's output) allow an alias to be a typed attribute: `#a = #d.attr<...> : !d.type`.
// `hal` attributes are registered (kept as opaque text), so both runs read it; an unregistered
// dialect's attribute needs --allow-unregistered-dialect.
// RUN: fusion-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: fusion-opt %s | filecheck %s
// RUN: sed 's/hal[.]device[.]target/nodialect.target/' %s | not fusion-opt - 2>&1 | filecheck %s --check-prefix=UNREGISTERED

// A device target keeps its type (iree-opt prints it so too).
// CHECK: module attributes {test.target = #hal.device.target<"local"> : !hal.device}
// UNREGISTERED: <stdin>:[[# @LINE + 1]]:{{[0-9]+}}: error: 'nodialect.target' is not registered
#target = #hal.device.target<"local"> : !hal.device
module attributes {test.target = #target} {
}
