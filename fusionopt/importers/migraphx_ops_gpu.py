"""MIGraphX's GPU-lowered instruction names -> their reference meaning.

After `lowering` a MIGraphX program names GPU kernels and buffers (src/targets/gpu):
- `gpu::X[...](inputs..., out)`: the reference op X whose output buffer is the last operand
  (`output_alias` is the last argument), e.g. `gpu::contiguous`, and `gpu::gemm[alpha,beta,
  compute_fp32,trans_batch,solution_idx](A, B[, C], out)` = alpha * A.B + beta * C (rocBLAS /
  hipBLASLt; `trans_batch` only permutes the output's layout, visible in its strides;
  `compute_fp32` accumulates f16 in f32, as our interpreter's dot does);
- `load[offset,end](@scratch)`, `hip::allocate[shape]`, `allocate[shape]`: buffers, only ever
  written: they have no value, and reading one is an error;
- `hip::hip_copy_literal[id=main:@literal:N]`: a literal of the un-lowered program copied to
  the device; its values are not in the text, so it becomes a function argument (a warning);
- `hip::copy_to_gpu`, `hip::copy_from_gpu`, `hip::copy(src, dst)`, `hip::sync_stream(x, ...)`:
  the value of their first operand.
Compiled kernels (`gpu::code_object`, `gpu::precompile_op`, `gpu::mlir_op`) carry no reference
meaning in the text and are reported as unsupported.
"""

from __future__ import annotations

from fusionopt.importers.migraphx_ops import (
    REFERENCE_OPS, Allocation, MigraphxContext, OpKind, dot_operand, gemm, identity, like_result,
)
from fusionopt.importers.migraphx_parse import Instruction, MigraphxImportError
from fusionopt.importers.onnx_context import Value


def gpu_gemm(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    alpha, beta = ctx.number("alpha", 1.0), ctx.number("beta", 0.0)
    return gemm(ctx, a[0], a[1], a[2] if len(a) > 2 else None, alpha, beta)


def allocation(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Allocation:
    return Allocation(ins.name, ins.op, ins.loc)


def copied_literal(ctx: MigraphxContext, ins: Instruction, a: list[Value]) -> Value:
    ident = ctx.attr("id", ins.name)
    ctx.warn(f"'{ins.name}' copies literal '{ident}', whose values are not in the text: "
             "it becomes a function argument")
    return ctx.new_argument(ins, str(ident), ctx.result_type())


GPU_OPS: dict[str, OpKind] = {
    "gpu::gemm": OpKind(gpu_gemm, dot_operand, (2, 3), output_buffer=True),
    "load": OpKind(allocation, arity=(0, 0), reads=0),
    "hip::allocate": OpKind(allocation, arity=(0, 0), reads=0),
    "allocate": OpKind(allocation, arity=(0, 0), reads=0),
    "hip::hip_copy_literal": OpKind(copied_literal, arity=(0, 0), reads=0),
    "hip::copy_to_gpu": OpKind(identity, like_result, reads=1),
    "hip::copy_from_gpu": OpKind(identity, like_result, reads=1),
    "hip::copy": OpKind(identity, like_result, reads=1),
    "hip::sync_stream": OpKind(identity, like_result, reads=1),
}
COMPILED_KERNELS = ("gpu::code_object", "gpu::precompile_op", "gpu::mlir_op")
GPU_PREFIX = "gpu::"


def lookup_op(ins: Instruction) -> OpKind:
    if ins.op in GPU_OPS:
        return GPU_OPS[ins.op]
    if ins.op in REFERENCE_OPS:
        return REFERENCE_OPS[ins.op]
    base = ins.op[len(GPU_PREFIX):] if ins.op.startswith(GPU_PREFIX) else None
    if base in REFERENCE_OPS:
        kind = REFERENCE_OPS[base]
        return OpKind(kind.build_fn, kind.infer, kind.arity, output_buffer=True, reads=kind.reads)
    if ins.op in COMPILED_KERNELS:
        raise MigraphxImportError(f"'{ins.op}' is a compiled kernel: its computation is not in "
                                  "the text (import the program before `compile`)", ins.loc)
    raise MigraphxImportError(f"unsupported MIGraphX op '{ins.op}'", ins.loc)


SUPPORTED_OPS = tuple(sorted({*REFERENCE_OPS, *GPU_OPS}))
