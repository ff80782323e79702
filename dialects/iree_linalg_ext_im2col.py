"""`iree_linalg_ext.im2col`: the patches of a convolution's input as a matrix, IREE 3.13's syntax.

    %r = iree_linalg_ext.im2col strides = [1, 1] dilations = [1, 1] kernel_size = [3, 3]
           offsets = [0, %m_off, %k_off] output_sizes = [[2], [32, 32], [3, 3, 640]]
           batch_pos = [0] m_pos = [1, 2] k_pos = [3] input_k_perm = [0, 1, 2] output_perm = [0, 1, 2]
           (input_pad_low = [..] input_pad_high = [..]) (output_pad_low = [..] output_pad_high = [..])
           (pad_value(%cst : f32))
           ins(%in : tensor<2x34x34x640xf32>) outs(%out : tensor<2x1024x5760xf32>) -> tensor<2x1024x5760xf32>

(read and printed back by `iree-opt` 3.13; `m_offset`/`k_offset`, the older syntax, it rejects.)
kernel_size, offsets, output_sizes and the pads mix constants and index values.

Semantics (IREE's stream-copy decomposition, `computeIm2colInputOffsets`): the output's dims are,
in the order `output_perm` gives (actual dim a holds canonical dim output_perm[a]), the batch
dims, then M dims, then K dims; canonical dim c is at position offsets[c] + i_a, delinearized
row-major by output_sizes[c]. The M components give one output-window index per m_pos dim; the
K components, read through input_k_perm, give for each non-batch input dim in input order a
window offset (m_pos dims) or a channel index (k_pos dims). Input index: batch dims their
position; m_pos[j]: m_j * strides[j] + w_j * dilations[j]; k_pos dims the channel index. With
input padding the input is read at index - input_pad_low, pad_value outside it; output
positions in the output padding are pad_value.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import DYNAMIC_INDEX, ArrayAttr, DenseArrayBase, IndexType, TensorType, i64
from xdsl.ir import Dialect, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects import iree_linalg_ext_online_attention
from fusionopt.dialects.iree_linalg_ext_scatter import _print_group, _typed_operands
from fusionopt.dialects.subclass_verify import verify_dynamic_count

_STATIC_LISTS = ("strides", "dilations")
_MIXED_LISTS = ("kernel_size", "offsets")
_POSITIONS = ("batch_pos", "m_pos", "k_pos", "input_k_perm", "output_perm")
_PADS = ("input_pad_low", "input_pad_high", "output_pad_low", "output_pad_high")


@irdl_op_definition
class Im2colOp(IRDLOperation):
    name = "iree_linalg_ext.im2col"
    input = operand_def(TensorType)
    output = operand_def(TensorType)
    kernel_size = var_operand_def(IndexType)
    offsets = var_operand_def(IndexType)
    output_sizes = var_operand_def(IndexType)
    input_pad_low = var_operand_def(IndexType)
    input_pad_high = var_operand_def(IndexType)
    output_pad_low = var_operand_def(IndexType)
    output_pad_high = var_operand_def(IndexType)
    pad_value = opt_operand_def()
    result = result_def(TensorType)
    strides = prop_def(DenseArrayBase)
    dilations = prop_def(DenseArrayBase)
    static_kernel_size = prop_def(DenseArrayBase)
    static_offsets = prop_def(DenseArrayBase)
    static_output_sizes = prop_def(ArrayAttr[DenseArrayBase])
    batch_pos = prop_def(DenseArrayBase)
    m_pos = prop_def(DenseArrayBase)
    k_pos = prop_def(DenseArrayBase)
    input_k_perm = prop_def(DenseArrayBase)
    output_perm = prop_def(DenseArrayBase)
    static_input_pad_low = prop_def(DenseArrayBase)
    static_input_pad_high = prop_def(DenseArrayBase)
    static_output_pad_low = prop_def(DenseArrayBase)
    static_output_pad_high = prop_def(DenseArrayBase)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(Pure())

    def ints(self, name: str) -> list[int]:
        return list(getattr(self, name).get_values())

    def output_size_lists(self) -> list[list[int]]:
        return [list(a.get_values()) for a in self.static_output_sizes.data]

    def num_m_output_dims(self) -> int:
        """Canonical M output dims: after the batch dims, as many as it takes to cover m_pos."""
        sizes, covered = self.output_size_lists()[len(self.ints("batch_pos")):], 0
        for count, inner in enumerate(sizes):
            if covered == len(self.ints("m_pos")):
                return count
            covered += len(inner)
        return len(sizes) if covered == len(self.ints("m_pos")) else -1

    def verify_(self) -> None:
        verify_im2col(self)

    def print(self, printer: Printer) -> None:
        for name in _STATIC_LISTS:
            printer.print_string(f" {name} = [{', '.join(map(str, self.ints(name)))}]")
        _print_mixed(printer, "kernel_size", self.ints("static_kernel_size"), list(self.kernel_size))
        _print_mixed(printer, "offsets", self.ints("static_offsets"), list(self.offsets))
        _print_nested(printer, self.output_size_lists(), list(self.output_sizes))
        for name in _POSITIONS:
            printer.print_string(f" {name} = [{', '.join(map(str, self.ints(name)))}]")
        for name in _PADS:
            static = self.ints(f"static_{name}")
            if static:
                _print_mixed(printer, name, static, list(getattr(self, name)))
        if self.pad_value is not None:
            _print_group(printer, "pad_value", [self.pad_value])
        printer.print_op_attributes(self.attributes)
        _print_group(printer, "ins", [self.input])
        _print_group(printer, "outs", [self.output])
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props: dict = {}
        segments: dict[str, list[SSAValue]] = {}
        for name in _STATIC_LISTS:
            props[name] = _array(_parse_keyword_list(parser, name, mixed=False)[0])
        for name in _MIXED_LISTS:
            static, segments[name] = _parse_keyword_list(parser, name, mixed=True)
            props[f"static_{name}"] = _array(static)
        parser.parse_keyword("output_sizes")
        parser.parse_punctuation("=")
        nested = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, lambda: _parse_mixed(parser))
        props["static_output_sizes"] = ArrayAttr(_array(s) for s, _ in nested)
        segments["output_sizes"] = [v for _, values in nested for v in values]
        for name in _POSITIONS:
            props[name] = _array(_parse_keyword_list(parser, name, mixed=False)[0])
        for name in _PADS:
            static, segments[name] = [], []
            if parser.parse_optional_keyword(name) is not None:
                parser.parse_punctuation("=")
                static, segments[name] = _parse_mixed(parser)
            props[f"static_{name}"] = _array(static)
        pad = []
        if parser.parse_optional_keyword("pad_value") is not None:
            pad = _typed_operands(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_characters("ins")
        (source,) = _typed_operands(parser)
        parser.parse_characters("outs")
        (dest,) = _typed_operands(parser)
        parser.parse_punctuation("->")
        result = parser.parse_type()
        operands = [[source], [dest], *(segments[n] for n in (*_MIXED_LISTS, "output_sizes", *_PADS)), pad]
        op = cls(operands=operands, result_types=[result], properties=props)
        op.attributes |= attributes
        return op


def _array(values: list[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


def _parse_keyword_list(parser: Parser, name: str, mixed: bool) -> tuple[list[int], list[SSAValue]]:
    parser.parse_keyword(name)
    parser.parse_punctuation("=")
    if mixed:
        return _parse_mixed(parser)
    return parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parser.parse_integer), []


def _parse_mixed(parser: Parser) -> tuple[list[int], list[SSAValue]]:
    """`[4, %x, 2]`: MLIR's static/dynamic index list (dynamic entries are index values)."""
    static: list[int] = []
    values: list[SSAValue] = []

    def entry() -> None:
        operand = parser.parse_optional_unresolved_operand()
        if isinstance(operand, UnresolvedOperand):
            values.append(parser.resolve_operand(operand, IndexType()))
            static.append(DYNAMIC_INDEX)
        else:
            static.append(parser.parse_integer())

    parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, entry)
    return static, values


def _mixed_text(printer: Printer, static: list[int], values: list[SSAValue]) -> None:
    dynamic = iter(values)
    printer.print_string("[")
    printer.print_list(static, lambda s: printer.print_operand(next(dynamic)) if s == DYNAMIC_INDEX else printer.print_string(str(s)))
    printer.print_string("]")


def _print_mixed(printer: Printer, name: str, static: list[int], values: list[SSAValue]) -> None:
    printer.print_string(f" {name} = ")
    _mixed_text(printer, static, values)


def _print_nested(printer: Printer, nested: list[list[int]], values: list[SSAValue]) -> None:
    printer.print_string(" output_sizes = [")
    dynamic = iter(values)
    for i, inner in enumerate(nested):
        if i:
            printer.print_string(", ")
        _mixed_text(printer, inner, [next(dynamic) for s in inner if s == DYNAMIC_INDEX])
    printer.print_string("]")


def verify_im2col(op: Im2colOp) -> None:
    """The structural rules the semantics need (IREE's verifier checks more)."""
    source, dest = op.input.type, op.output.type
    if op.result.type != dest:
        raise VerifyException(f"result type {op.result.type} differs from the output's {dest}")
    if source.element_type != dest.element_type:
        raise VerifyException("input and output element types differ")
    m_pos, k_pos, batch = op.ints("m_pos"), op.ints("k_pos"), op.ints("batch_pos")
    if not len(op.ints("strides")) == len(op.ints("dilations")) == len(op.ints("static_kernel_size")) == len(m_pos):
        raise VerifyException("strides, dilations and kernel_size need one entry per m_pos dim")
    if sorted(batch + m_pos + k_pos) != list(range(source.get_num_dims())):
        raise VerifyException("batch_pos, m_pos and k_pos must name each input dim once")
    if sorted(op.ints("input_k_perm")) != list(range(len(m_pos) + len(k_pos))):
        raise VerifyException("input_k_perm must permute the m_pos and k_pos dims")
    rank = dest.get_num_dims()
    if sorted(op.ints("output_perm")) != list(range(rank)):
        raise VerifyException(f"output_perm must permute the {rank} output dims")
    if len(op.ints("static_offsets")) != rank or len(op.output_size_lists()) != rank:
        raise VerifyException(f"offsets and output_sizes need one entry per output dim ({rank})")
    _verify_canonical_split(op)
    _verify_pads(op, source.get_num_dims(), rank)
    for name in ("kernel_size", "offsets", *_PADS):
        verify_dynamic_count(op, getattr(op, name), op.ints(f"static_{name}"), name, f"static_{name}")
    sizes = [s for inner in op.output_size_lists() for s in inner]
    verify_dynamic_count(op, op.output_sizes, sizes, "output_sizes", "static_output_sizes")


def _verify_canonical_split(op: Im2colOp) -> None:
    sizes, n_batch, n_m = op.output_size_lists(), len(op.ints("batch_pos")), op.num_m_output_dims()
    if any(len(s) != 1 for s in sizes[:n_batch]):
        raise VerifyException("each batch output dim has one size")
    if n_m < 0:
        raise VerifyException("the M output sizes must cover the m_pos dims exactly")
    k_components = sum(len(s) for s in sizes[n_batch + n_m:])
    if k_components != len(op.ints("m_pos")) + len(op.ints("k_pos")):
        raise VerifyException("the K output sizes must cover the kernel window and k_pos dims")


def _verify_pads(op: Im2colOp, in_rank: int, out_rank: int) -> None:
    padded = False
    for name, rank in zip(_PADS, (in_rank, in_rank, out_rank, out_rank)):
        static = op.ints(f"static_{name}")
        if static and len(static) != rank:
            raise VerifyException(f"{name} needs {rank} entries")
        padded |= bool(static)
    if padded and (op.pad_value is None or op.pad_value.type != op.output.type.element_type):
        raise VerifyException("padding needs a pad_value of the element type")


def _ops() -> list[type[IRDLOperation]]:
    return [*iree_linalg_ext_online_attention.IreeLinalgExt.operations, Im2colOp]


IreeLinalgExt = Dialect("iree_linalg_ext", _ops(), [])
