// Chunks are processed independently; outputs are separated by `// -----`; an error in one
// chunk is reported at its line in the whole file and does not stop the others.
// RUN: fusion-opt %s --split-input-file -p cse | filecheck %s
// RUN: sed -e '/arith.mulf %OK/s/%OK/%undefined/g' %s | not fusion-opt - --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=ERR
// RUN: sed -e '/arith.mulf %OK/s/%OK/%undefined/g' %s | not fusion-opt - --split-input-file 2>/dev/null | filecheck %s --check-prefix=PARTIAL

// CHECK-LABEL: func.func @first
// CHECK:       // -----
// CHECK-LABEL: func.func @second
// CHECK:         arith.mulf
// CHECK-NOT:   // -----
func.func @first(%a: f32) -> f32 {
  func.return %a : f32
}

// -----

func.func @second(%OK: f32) -> f32 {
  %0 = arith.mulf %OK, %OK : f32
  func.return %0 : f32
}

// PARTIAL:     func.func @first
// PARTIAL-NEXT:  func.return
// PARTIAL-NOT: @second
// ERR: <stdin>:19:19: error: use of undeclared SSA value name '%undefined'
// ERR-NEXT: %0 = arith.mulf %undefined, %undefined : f32
// ERR-NEXT: {{^ {18}\^$}}
