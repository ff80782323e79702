"""Import MIGraphX's printed program text into the `graph` dialect: `import_migraphx(path)`.

The text is what `migraphx-driver read` / `compile` and MIGraphX's pass traces print (grammar:
`migraphx.lark`, records: `migraphx_parse`). The result is one `func.func @main` built from
module `main` (or the only module of a header-less fragment):
- `x = @param:x -> ...` becomes a function argument (`{migraphx.name = "x"}`) in text order;
- `@literal{v, ...}` becomes an import-time constant; a literal the dump elides
  (`@literal{ ... }`, more than 10 elements) and `hip::hip_copy_literal` (whose literal lives
  in the un-lowered program) become function arguments, each with a warning;
- an operand naming an instruction that is not in the text (a fragment cut from a larger dump)
  becomes a function argument whose shape is inferred from the use (elementwise ops: the
  result's; dot/gemm: from the other operand and the result; transpose: the inverse
  permutation), or an error naming the instruction where it cannot be inferred;
- `@return(...)` gives the results; without it the last instruction is the result (MIGraphX's
  own rule for programs without a return).

Values follow MIGraphX's logical meaning: `lens` define a value, `strides` only its layout
(a `transpose` output keeps its parent's memory, `trans_batch` GEMMs write a permuted layout,
broadcasts have stride 0), so views lower to value ops and `contiguous` is the identity. The
GPU-lowered names map to their reference ops (`migraphx_ops_gpu`). Every emitted op carries
the instruction's `loc("FILE":LINE:COL)`, and every result is checked against the printed lens
and type (a mismatch is an error at the instruction).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr, TensorType
from xdsl.ir import Block, Region, SSAValue

from fusionopt.diagnostics import SourceLoc, register_source
from fusionopt.importers.migraphx_ops import Allocation, MigraphxContext, element_type
from fusionopt.importers.migraphx_ops_gpu import lookup_op
from fusionopt.importers.migraphx_parse import (
    ELIDED, Instruction, MigraphxImportError, parse_migraphx,
)
from fusionopt.importers.onnx_context import Value, element, numpy_dtype_of, shape
from fusionopt.importers.onnx_import import ssa_name

ENTRY_NAME = "main"

__all__ = ["MigraphxImportError", "import_migraphx", "import_migraphx_text"]


def import_migraphx(path: str | Path) -> ModuleOp:
    """The program in file `path` as a verified `builtin.module` holding `func.func @main`."""
    try:
        text = Path(path).read_text()
    except FileNotFoundError:
        raise MigraphxImportError(f"could not open input file '{path}': No such file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise MigraphxImportError(f"could not read MIGraphX program '{path}': {err}") from None
    return import_migraphx_text(text, str(path))


def import_migraphx_text(text: str, filename: str = "<text>") -> ModuleOp:
    register_source(filename, text)  # diagnostics quote the offending line
    program = parse_migraphx(text, filename)
    return ProgramImporter().run(_entry_module(program.modules, filename))


def _entry_module(modules: dict[str, list[Instruction]], filename: str) -> list[Instruction]:
    """Module `main`, else the header-less text, else the first module with instructions."""
    for name in ("main", ""):
        if modules.get(name):
            return modules[name]
    non_empty = [body for body in modules.values() if body]
    if not non_empty:
        raise MigraphxImportError("the program has no instructions", SourceLoc(filename, 1, 1))
    return non_empty[0]


class ProgramImporter:
    """Builds `@main` instruction by instruction (MIGraphX prints in topological order)."""

    def __init__(self):
        self.block = Block()
        self.ctx = MigraphxContext(self.block)
        self.ctx.new_argument = self.argument
        self.values: dict[str, Value | Allocation] = {}
        self.arg_names: list[str] = []
        self.results: list[SSAValue] | None = None

    def run(self, instructions: list[Instruction]) -> ModuleOp:
        last: Value | Allocation | None = None
        for ins in instructions:
            self.ctx.at(ins)
            if ins.name in self.values and ins.op != "@return":
                raise MigraphxImportError(f"'{ins.name}' is defined twice", ins.loc)
            if ins.op == "@return":
                self.results = [self._data(self.lookup(name, loc), ins, i)
                                for i, (name, loc) in enumerate(ins.operands)]
                self.results = [self.ctx.ssa(r) for r in self.results]
                break
            last = self.values[ins.name] = self.instruction(ins)
        if self.results is None:
            self.results = [self._data(last)] if last is not None else []
        return self._module()

    def instruction(self, ins: Instruction) -> Value | Allocation:
        if ins.submodules:
            raise MigraphxImportError(f"'{ins.op}' with module arguments "
                                      f"({', '.join(ins.submodules)}) is not supported", ins.loc)
        if ins.op.startswith("@param:"):
            return self.argument(ins, ins.op[len("@param:"):], self.result_type(ins))
        if ins.op == "@literal":
            return self.literal(ins)
        kind = lookup_op(ins)
        operands = self.operands(ins, kind)
        value = kind.build(self.ctx, ins, operands)
        self.check_result(ins, value)
        return value

    # -- values ---------------------------------------------------------------------------

    def argument(self, ins: Instruction, name: str, type_: TensorType) -> SSAValue:
        arg = self.block.insert_arg(type_, len(self.block.args), self.ctx.location)
        arg.name_hint = ssa_name(name.replace("main:", "").replace("@literal:", "literal")
                                 .replace("@", "v"))
        self.arg_names.append(name)
        return arg

    def literal(self, ins: Instruction) -> Value:
        type_ = self.result_type(ins)
        if ins.literal == ELIDED:
            self.ctx.warn(f"literal '{ins.name}' is elided in the dump ('{{ ... }}'): "
                               "it becomes a function argument")
            return self.argument(ins, ins.name, type_)
        dtype = numpy_dtype_of(type_.get_element_type())
        lens = tuple(type_.get_shape())
        try:
            values = [_literal_value(v, dtype) for v in ins.literal]
        except ValueError as err:
            raise MigraphxImportError(f"bad literal value: {err}", ins.loc) from None
        if len(values) != int(np.prod(lens)):
            raise MigraphxImportError(f"literal '{ins.name}' has {len(values)} values but its "
                                      f"shape {list(lens)} has {int(np.prod(lens))} elements", ins.loc)
        return np.array(values, dtype=dtype).reshape(lens)

    def operands(self, ins: Instruction, kind) -> list[Value | None]:
        """Operands the op reads; undefined ones become arguments typed from this use."""
        kind.check_arity(ins)
        used = kind.used_operands(ins)
        known: list[Value | Allocation | None] = [
            self.values.get(name) if i in used else None for i, (name, _) in enumerate(ins.operands)]
        for i in used:
            if known[i] is None:
                known[i] = self.external(ins, i, kind, known)
        return [self._data(v, ins, i) if i in used else None for i, v in enumerate(known)]

    def lookup(self, name: str, loc: SourceLoc) -> Value | Allocation:
        if name not in self.values:
            raise MigraphxImportError(f"'{name}' is not defined before this use", loc)
        return self.values[name]

    def external(self, ins: Instruction, index: int, kind, known) -> SSAValue:
        name, loc = ins.operands[index]
        inferred = kind.infer_operand(self.ctx, ins, index, known)
        if inferred is None:
            raise MigraphxImportError(
                f"operand '{name}' of '{ins.op}' is not defined in the text and its shape cannot "
                "be inferred from this use", loc)
        arg = self.argument(ins, name, inferred)
        self.values[name] = arg
        return arg

    def _data(self, value, ins: Instruction | None = None, index: int = 0) -> SSAValue | np.ndarray:
        if isinstance(value, Allocation):
            where = ins.operands[index][1] if ins is not None else value.loc
            raise MigraphxImportError(f"'{value.name}' is an uninitialized buffer ({value.op}), "
                                      "read before any instruction writes it", where)
        if isinstance(value, np.ndarray):
            return self.ctx.ssa(value) if ins is None else value
        return value

    # -- checks and output ----------------------------------------------------------------

    def result_type(self, ins: Instruction) -> TensorType:
        if ins.shape is None:
            reason = ins.shape_error or "no result shape is printed"
            raise MigraphxImportError(f"'{ins.name}': {reason} is not supported", ins.loc)
        return TensorType(element_type(ins.shape.type_name, ins), list(ins.shape.lens))

    def check_result(self, ins: Instruction, value) -> None:
        if isinstance(value, Allocation) or (ins.shape is None and ins.shape_error is None):
            return
        expected = self.result_type(ins)  # a tuple or dynamic result shape fails here
        got_shape, got_elem = shape(value), element(value)
        if got_shape != tuple(expected.get_shape()) or got_elem != expected.get_element_type():
            raise MigraphxImportError(
                f"shape mismatch: '{ins.op}' computes {list(got_shape)} x {got_elem} but the text "
                f"says {list(expected.get_shape())} x {expected.get_element_type()}", ins.loc)

    def _module(self) -> ModuleOp:
        self.ctx.at(None)
        self.block.add_op(func.ReturnOp(*self.results))
        arg_attrs = ArrayAttr([DictionaryAttr({"migraphx.name": StringAttr(n)})
                               for n in self.arg_names])
        fn = func.FuncOp(ENTRY_NAME, ([a.type for a in self.block.args],
                                      [r.type for r in self.results]),
                         Region(self.block), arg_attrs=arg_attrs)
        module = ModuleOp([fn])
        try:
            module.verify()
        except Exception as err:  # noqa: BLE001 - an importer bug, reported as such
            raise MigraphxImportError(f"internal importer error: the imported IR does not "
                                      f"verify: {err}") from None
        return module


def _literal_value(text: str, dtype: np.dtype):
    if dtype == np.bool_:
        return text not in ("0", "false")
    if np.issubdtype(dtype, np.integer):
        return int(text)
    return float(text)

