// Command-line mistakes are one MLIR-style error each (exit 1, never a traceback).
// RUN: not fusion-opt %s -p 'cse,csee' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN:      <pass-pipeline>:1:5: error: unknown pass 'csee'; did you mean 'cse'?
// UNKNOWN-NEXT: cse,csee
// UNKNOWN-NEXT: {{^    \^$}}
// UNKNOWN-NOT:  Traceback

// RUN: not fusion-opt %s -p 'test-diagnostics{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: <pass-pipeline>:1:18: error: unknown option 'bogus' for pass 'test-diagnostics' (options: ops, severity, crash)

// RUN: not fusion-opt %s -p 'test-diagnostics{crash=maybe}' 2>&1 | filecheck %s --check-prefix=TYPE
// TYPE: <pass-pipeline>:1:18: error: invalid value 'maybe' for option 'crash' of pass 'test-diagnostics': expected bool

// A bare bool option means true (MLIR/llvm::cl); other options need a value.
// RUN: not fusion-opt %s -p 'test-diagnostics{crash}' 2>&1 | filecheck %s --check-prefix=BAREBOOL
// BAREBOOL: fusion-opt: internal error: pass 'test-diagnostics' crashed: RuntimeError: test-diagnostics was asked to crash
// RUN: not fusion-opt %s -p 'test-diagnostics{ops}' 2>&1 | filecheck %s --check-prefix=BARESTR
// BARESTR: <pass-pipeline>:1:18: error: invalid value '' for option 'ops' of pass 'test-diagnostics': expected str

// RUN: not fusion-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// UNCLOSED: <pass-pipeline>:1:19: error: expected ',' or ')', found end of pipeline

// RUN: not fusion-opt %s --pass-pipeline='builtin.module(foo.bar(cse))' 2>&1 | filecheck %s --check-prefix=ANCHOR
// ANCHOR: <pass-pipeline>:1:16: error: unknown pass anchor 'foo.bar'

// RUN: not fusion-opt %s -p 'cse,,dce' 2>&1 | filecheck %s --check-prefix=EMPTY
// EMPTY: <pass-pipeline>:1:5: error: expected a pass name, found ','

// RUN: not fusion-opt %s -p 'test-diagnostics{ops' 2>&1 | filecheck %s --check-prefix=BRACE
// BRACE: <pass-pipeline>:1:21: error: expected an option name or '}', found end of pipeline

// RUN: not fusion-opt %t.does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: error: could not open input file '{{.*}}does-not-exist.mlir': No such file or directory

// RUN: not fusion-opt %s -o %t.no-such-dir/out.mlir 2>&1 | filecheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: error: cannot open output file '{{.*}}no-such-dir/out.mlir': No such file or directory

// RUN: not fusion-opt %s --no-such-flag 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG: fusion-opt: error: unrecognized arguments: --no-such-flag

func.func @f(%a: f32) -> f32 {
  func.return %a : f32
}

// RUN: not fusion-opt %s -p cse --print-ir-after=cs 2>&1 | filecheck %s --check-prefix=PRINTAFTER
// PRINTAFTER: fusion-opt: error: --print-ir-after: unknown pass 'cs'; did you mean 'cse'?
