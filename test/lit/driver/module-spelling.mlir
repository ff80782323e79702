// Modules print as `module`, like mlir-opt/iree-opt (nested ones too); both spellings parse,
// and the generic form keeps the full name.
// RUN: fusion-opt %s | filecheck %s
// RUN: fusion-opt %s | fusion-opt - | filecheck %s
// RUN: fusion-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK:      {{^}}module {
// CHECK-NEXT:   func.func @f()
// CHECK:        {{^  }}module @inner {
// CHECK-NEXT:     func.func @g(%x: f32) -> f32 {
// CHECK-NOT:  builtin.module
// GENERIC:    {{^}}"builtin.module"() ({
builtin.module {
  func.func @f() {
    func.return
  }
  module @inner {
    func.func @g(%x: f32) -> f32 {
      func.return %x : f32
    }
  }
}
