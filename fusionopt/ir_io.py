"""Reading and writing IR text: the one entry point every tool and test uses.

`parse_module` returns a verified `builtin.module` whose ops carry `file:line:col` locations;
user errors (syntax, unknown ops, undefined values, verifier failures) raise `FusionError`
(see fusionopt/diagnostics.py) carrying that location. `verify_module` verifies a module and
reports the innermost failing op's location.
"""

from __future__ import annotations

import gc
import math
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import tensor as xdsl_tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.irdl import OptRegionDef, SingleBlockRegionDef, VarRegionDef
from xdsl.printer import Printer

from fusionopt.dialects.dense import is_compact_splat, is_splat
from fusionopt.constraint_messages import explain_op
from fusionopt.diagnostics import FusionError, SourceLoc, location_of, register_source
from fusionopt.dominance import first_detached_user, first_dominance_violation
from fusionopt.dynamic_sizes import missing_sizes
from fusionopt.slice_bounds import slice_out_of_bounds
from fusionopt.locations import parse_module_located
from fusionopt.registry import make_context


def parse_module(
    text: str,
    filename: str = "<stdin>",
    ctx: Context | None = None,
    *,
    verify: bool = True,
    line_offset: int = 0,
) -> ModuleOp:
    """Parse (and by default verify) `text`; `line_offset` is for chunks of a bigger file
    whose full text the caller registered with `register_source`."""
    ctx = ctx or make_context()
    if line_offset == 0:
        register_source(filename, text)
    module = _without_gc(parse_module_located, ctx, text, filename, line_offset)
    if verify:
        verify_module(module)
    return module


def _without_gc(fn, *args):
    """Run `fn` with the cyclic GC paused: parsing allocates millions of short-lived objects
    that hold no cycles worth collecting, and GC passes cost ~13% of parse time (measured on
    a 20k-op module, bench/parse_print.py)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return fn(*args)
    finally:
        if was_enabled:
            gc.enable()


def read_source(path: str | Path) -> tuple[str, str]:
    """(text, name) of an input file, `-` meaning stdin; unreadable input is a `FusionError`
    worded like fusion-opt's and mlir-opt's (`could not open input file ...`); text that is not
    UTF-8 is `FILE:LINE:COL: error: invalid UTF-8` at the first bad byte (`decode_source`)."""
    if str(path) == "-":
        return decode_source(sys.stdin.buffer.read(), "<stdin>"), "<stdin>"
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise FusionError(f"could not open input file '{path}': {_os_reason(err)}") from None
    return decode_source(data, str(path)), str(path)


def decode_source(data: bytes, name: str) -> str:
    """`data` as UTF-8 text; else a `FusionError` at the first invalid byte (line and column
    counted in bytes, as MLIR counts columns). Newlines are normalised as text mode would."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        col = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        register_source(name, data.decode("utf-8", errors="replace"))
        raise FusionError(
            f"invalid UTF-8 (byte 0x{data[err.start]:02x}); input must be UTF-8 text",
            SourceLoc(name, line, col),
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def parse_file(path: str | Path, ctx: Context | None = None) -> ModuleOp:
    """Parse and verify a file (`-`: stdin)."""
    text, name = read_source(path)
    return parse_module(text, name, ctx)


def print_module(
    module: ModuleOp,
    generic: bool = False,
    debuginfo: bool = False,
    elide_elements_if_larger: int | None = None,
) -> str:
    """The module's text. `elide_elements_if_larger=N` prints every non-splat dense constant of
    more than N elements as MLIR's `--mlir-elide-elementsattrs-if-larger=N` does:
    `dense_resource<__elided__> : tensor<...>` (re-parseable, values gone)."""
    out = TextPieces()
    printer = MlirPrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.elide_elements_if_larger = elide_elements_if_larger
    printer.print_op(module)
    out.write("\n")
    return out.getvalue()


class TextPieces:
    """A write-only text stream that keeps the pieces and joins them once. A StringIO copies
    its ~100 MB of hex weights into its buffer and again on `getvalue`, and each fresh 100 MB
    buffer costs ~0.2 s of page faults on a VM (vit_s16_6l's front end)."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.write = self.pieces.append

    def flush(self) -> None:
        pass

    def getvalue(self) -> str:
        return "".join(self.pieces)


def _prints_as_hex(attribute: DenseIntOrFPElementsAttr) -> bool:
    """Whether xDSL prints the constant as one hex string: more than 100 stored elements,
    not all equal (`DenseIntOrFPElementsAttr.print_without_type`)."""
    return len(attribute) > 100 and not is_splat(attribute)


ELIDED_ELEMENTS = "dense_resource<__elided__>"  # MLIR's printElidedElementsAttr
RESHAPES = (xdsl_tensor.ExpandShapeOp, xdsl_tensor.CollapseShapeOp)


@dataclass(eq=False, repr=False)
class MlirPrinter(Printer):
    """xDSL's printer, but `builtin.module` prints as `module`, as MLIR tools print it, so
    our output diffs cleanly against `mlir-opt`/`iree-opt` (both spellings parse everywhere);
    large constants may be elided as MLIR elides them (see `print_module`)."""

    elide_elements_if_larger: int | None = None
    _bare_reassociation: Attribute | None = None

    def print_attribute(self, attribute: Attribute) -> None:
        if attribute is self._bare_reassociation:
            groups = (", ".join(str(i.value.data) for i in group.data) for group in attribute.data)
            self.print_string("[" + ", ".join(f"[{g}]" for g in groups) + "]")
            return
        limit = self.elide_elements_if_larger
        if (
            limit is not None
            and isinstance(attribute, DenseIntOrFPElementsAttr)
            and math.prod(attribute.get_shape()) > limit
            and not is_compact_splat(attribute)  # splats stay (MLIR never elides them)
        ):
            self.print_string(ELIDED_ELEMENTS + " : ")
            self.print_attribute(attribute.type)
            return
        if isinstance(attribute, DenseIntOrFPElementsAttr) and _prints_as_hex(attribute):
            # xDSL's own text for it, without unpacking every element to look for a splat; the
            # hex (tens of MB) goes to the stream as it is: no newline to look for, no copy
            digits = attribute.data.data.hex().upper()
            self.print_string('dense<"0x')
            self.stream.write(digits)
            self._current_column += len(digits)
            self.print_string('"> : ')
            self.print_attribute(attribute.type)
            return
        super().print_attribute(attribute)

    def print_op(self, op: Operation) -> None:
        if isinstance(op, RESHAPES) and not self.print_generic_format:
            # MLIR's custom form writes a reshape's groups as bare integers ([[0, 1], [2]]);
            # xDSL writes each with its type ([[0 : i64, 1 : i64], [2 : i64]])
            outer, self._bare_reassociation = self._bare_reassociation, op.reassociation
            try:
                return super().print_op(op)
            finally:
                self._bare_reassociation = outer
        if not isinstance(op, ModuleOp) or self.print_generic_format:
            return super().print_op(op)
        self.enter_scope()  # a module is isolated from above: fresh SSA names inside
        self.print_string("module")
        op.print(self)
        if self.print_debuginfo:
            self.print_string(" ")
            self.print_attribute(op.location)
        self.exit_scope()


# Per-op checks MLIR's verifiers make and xDSL 0.74's do not, run in one walk of the module.
_OP_CHECKS = (slice_out_of_bounds, missing_sizes)


def _first_op_check_failure(
    module: Operation, ops: Iterable[Operation] | None = None
) -> tuple[Operation, str] | None:
    """The first of `ops` (default: every op in `module`) that fails a check of `_OP_CHECKS`;
    each check reads only the op itself and its operands' types."""
    for op in module.walk() if ops is None else ops:
        for check in _OP_CHECKS:
            if (why := check(op)) is not None:
                return op, why
    return None


def verify_module(module: Operation) -> None:
    """`module.verify()`, SSA dominance and no user outside the module (`fusionopt.dominance`),
    static slices in bounds (`fusionopt.slice_bounds`) and dynamic sizes supplied
    (`fusionopt.dynamic_sizes`), but a failure becomes a `FusionError` at the failing op."""
    try:
        module.verify()
        if (violation := first_dominance_violation(module)) is not None:
            op, index = violation
            raise FusionError(f"operand #{index} does not dominate this use", location_of(op))
        if (detached := first_detached_user(module)) is not None:
            op, user = detached
            raise FusionError(f"'{op.name}' op has a user outside the IR ('{user.name}', built by a "
                              "pass and never inserted)", location_of(op))
        if (bad := _first_op_check_failure(module)) is not None:
            op, why = bad
            raise FusionError(f"'{op.name}' op {why}", location_of(op))
    except FusionError:
        raise
    except Exception as err:  # noqa: BLE001 - xDSL raises several exception types on bad IR
        op, message, cause = _find_failing_op(module)
        if op is None:  # the fast path failed but the per-op walk did not: report as is
            op, message, cause = module, _first_line(err), err
        # MLIR's form is "'name' op message"; some xDSL messages already start with the name.
        better = explain_op(op, message)  # MLIR's "operand #0 must be ..., but got '...'"
        if better is not None:
            raise FusionError(better, location_of(op), internal_cause=cause) from None
        message = message.removeprefix(f"'{op.name}' op ").removeprefix(f"'{op.name}' ")
        raise FusionError(f"'{op.name}' op {message}", location_of(op), internal_cause=cause) from None


def verify_ops(module: Operation, ops: list[Operation]) -> None:
    """`verify_module` when only `ops` may have stopped verifying (see
    `IRSnapshot.ops_to_verify`): each op's own checks without its nested ops, then the
    module-wide dominance and slice checks; a failure is reported by `verify_module`, so the
    message and location are the same as after a full verification."""
    try:
        for op in ops:
            _verify_alone(op)
        if (first_dominance_violation(module) is None and first_detached_user(module) is None
                and _first_op_check_failure(module, ops) is None):
            return
    except Exception:  # noqa: BLE001 - xDSL raises several exception types on bad IR
        pass
    verify_module(module)


def _verify_alone(op: Operation) -> None:
    """What `op.verify()` checks of `op` itself, its regions' empty blocks included."""
    op.verify(verify_nested_ops=False)
    for region in op.regions:
        for block in region.blocks:
            if not block.ops:
                block.verify()


def _find_failing_op(op: Operation) -> tuple[Operation | None, str, BaseException | None]:
    """Innermost op whose own verification fails (children are checked first), its message
    and the exception raised."""
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                found, message, cause = _find_failing_op(child)
                if found is not None:
                    return found, message, cause
    if (message := _block_count_violation(op)) is not None:
        return op, message, None  # checked first: custom verifiers read `region.block`
    try:
        _verify_alone(op)  # the block-level checks skipped above (e.g. empty blocks)
    except Exception as err:  # noqa: BLE001
        return op, _first_line(err), err
    return None, "", None


def _block_count_violation(op: Operation) -> str | None:
    """MLIR's message for a single-block region (IRDL `SingleBlockRegionDef`) with another
    number of blocks, in ops whose regions are all fixed (non-variadic)."""
    definition = getattr(type(op), "get_irdl_definition", None)
    if definition is None:
        return None
    defs = definition().regions
    if len(defs) != len(op.regions) or any(isinstance(d, (VarRegionDef, OptRegionDef)) for _, d in defs):
        return None
    for index, ((name, region_def), region) in enumerate(zip(defs, op.regions)):
        if isinstance(region_def, SingleBlockRegionDef) and len(region.blocks) != 1:
            return f"region #{index} ('{name}') failed to verify constraint: region with 1 blocks"
    return None


_VERIFY_PREFIX = "Operation does not verify: "


def _first_line(err: BaseException) -> str:
    text = str(err).strip().split("\n")[0] or type(err).__name__
    return text.removeprefix(_VERIFY_PREFIX)


def _os_reason(err: BaseException) -> str:
    return getattr(err, "strerror", None) or str(err)
