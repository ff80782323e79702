// Default entry: the only public function (private helpers do not count), else main/main_graph.
// RUN: fusion-run %s 2>&1 | filecheck %s
// RUN: fusion-run %S/Inputs/two-public-with-main.mlir | filecheck %s --check-prefix=MAIN
// RUN: not fusion-run %S/Inputs/two-public.mlir 2>&1 | filecheck %s --check-prefix=AMBIGUOUS
// RUN: fusion-run %S/Inputs/two-public.mlir --entry second | filecheck %s --check-prefix=SECOND
// RUN: not fusion-run %S/Inputs/two-public.mlir --entry nope 2>&1 | filecheck %s --check-prefix=NOPE

// CHECK: result0: scalar float32 min=6 max=6 mean=6
// MAIN: result0: scalar int32 min=7 max=7 mean=7
// AMBIGUOUS: error: cannot choose an entry function among 2 public functions; use --entry NAME
// SECOND: result0: scalar int32 min=2 max=2 mean=2
// NOPE: error: no function named 'nope' (have: first, second)
func.func private @helper(%x: f32) -> f32 {
  %r = arith.addf %x, %x : f32
  return %r : f32
}
func.func @only_public() -> f32 {
  %c = arith.constant 3.0 : f32
  %r = func.call @helper(%c) : (f32) -> f32
  return %r : f32
}
