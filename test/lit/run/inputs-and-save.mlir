// --inputs IN.npz by position (argI) or by IR argument name, --save, stdin, and their errors.
// RUN: python3 -c "import numpy as n; n.savez('%t.pos.npz', arg0=n.ones(4, 'f4'), arg1=n.full(4, 2, 'f4'))"
// RUN: python3 -c "import numpy as n; n.savez('%t.names.npz', lhs=n.ones(4, 'f4'), rhs=n.full(4, 3, 'f4'), typo=n.ones(1))"
// RUN: python3 -c "import numpy as n; n.savez('%t.missing.npz', arg0=n.ones(4, 'f4'))"
// RUN: python3 -c "import numpy as n; n.savez('%t.shape.npz', arg0=n.ones(5, 'f4'), arg1=n.ones(4, 'f4'))"
// RUN: fusion-run %s --inputs %t.pos.npz --save %t.out.npz | filecheck %s --check-prefix=POS
// RUN: python3 -c "import numpy as n; d = n.load('%t.out.npz'); print(sorted(d.files), d['result0'].tolist(), d['result1'].dtype)" | filecheck %s --check-prefix=SAVED
// RUN: fusion-run %s --inputs %t.names.npz 2>&1 | filecheck %s --check-prefix=NAMES
// RUN: fusion-run - --inputs %t.pos.npz < %s | filecheck %s --check-prefix=POS
// RUN: not fusion-run %s --inputs %t.missing.npz 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not fusion-run %s --inputs %t.shape.npz 2>&1 | filecheck %s --check-prefix=SHAPE
// RUN: not fusion-run %s --save %t.no-such-dir/out.npz 2>&1 | filecheck %s --check-prefix=UNWRITABLE

// POS: result0: 4 float32 min=3 max=3 mean=3
// POS-NEXT: result1: 4 float32 min=2 max=2 mean=2
// SAVED: ['result0', 'result1'] [3.0, 3.0, 3.0, 3.0] float32
// NAMES: warning: '{{.*}}names.npz' entries used by no argument: typo
// NAMES: result0: 4 float32 min=4 max=4 mean=4
// MISSING: inputs-and-save.mlir:[[# @LINE + 6]]:1: error: '{{.*}}missing.npz' has no entry for argument 1 (looked for arg1, rhs)
// MISSING-NEXT: func.func @main
// SHAPE: inputs-and-save.mlir:[[# @LINE + 4]]:1: error: input 0 has shape [5], argument type is tensor<4xf32>
// UNWRITABLE-NOT: Traceback
// UNWRITABLE: error: cannot open output file '{{.*}}no-such-dir/out.npz': No such file or directory
// UNWRITABLE-NOT: Traceback
func.func @main(%lhs: tensor<4xf32>, %rhs: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %s = arith.addf %lhs, %rhs : tensor<4xf32>
  return %s, %rhs : tensor<4xf32>, tensor<4xf32>
}
