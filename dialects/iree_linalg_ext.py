"""`iree_linalg_ext`: IREE's `attention` op (and its region terminator), text-compatible with 3.13.

IREE 3.13 prints and parses

    %r = iree_linalg_ext.attention <indexing_maps = [#q, #k, #v, #scale, #mask, #out]>
           ins(%q, %k, %v, %scale, %mask : tensor<..>, tensor<..>, tensor<..>, f32, tensor<..>)
           outs(%init : tensor<..>) {
         ^bb0(%score: f32):
           iree_linalg_ext.yield %score : f32
         } -> tensor<..>

(checked with `iree-opt` 3.13: it also reads `<{indexing_maps = ...}>`; a plain
`{indexing_maps = ...}` attribute dictionary is rejected: "properties dictionary is missing
required attribute"). The mask is optional: 5 operands without it, 6 with it (no segment
sizes); the generic form is `"iree_linalg_ext.attention"(%q, %k, %v, %scale, [%mask,] %init)
<{indexing_maps = [...]}> ({...}) : (...) -> ...`. The region modifies each score after
`Q.K^T` (identity here; IREE allows index-dependent code via `iree_linalg_ext.index`).

Semantics (IREE's `AttentionOp::decomposeOperation`, exp2 form): with iteration dims classified as
batch (in Q, K, V, out), m (Q, out), k1 (Q, K), k2 (K, V), n (V, out):
    S = (Q * (scale * log2 e)) . K^T over k1;  S += mask * log2 e (float mask; an i1 mask adds
    0 / -inf);  P = exp2(S - rowmax_k2 S) / rowsum_k2(...);  out = P . V over k2.
The output's initial value is ignored. A float mask below -FLT_MAX / log2 e overflows to -inf
in f32, so a row masked only with -FLT_MAX is NaN in IREE (measured), not uniform.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import (
    AffineMapAttr, ArrayAttr, BFloat16Type, DictionaryAttr, Float16Type, TensorType, f32,
)
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException


class YieldBase(IRDLOperation):
    """A region's yielded values (also torch-mlir's `tm_tensor.yield`, dialects/tm_tensor.py)."""

    values = var_operand_def()
    assembly_format = "attr-dict ($values^ `:` type($values))?"
    traits = traits_def(IsTerminator(), Pure())

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


@irdl_op_definition
class YieldOp(YieldBase):
    """`iree_linalg_ext.yield`: the score an attention region returns."""

    name = "iree_linalg_ext.yield"


def score_type(scale_type: Attribute) -> Attribute:
    """The type of the scores the region sees: IREE computes Q.K^T of f16 and bf16 operands in
    f32 (a `^bb0(%score: f16)` region fails to build: "type of yield operand 1 ('f16') doesn't
    match the element type of the enclosing linalg.generic op ('f32')"), wider types in their own."""
    return f32 if isinstance(scale_type, Float16Type | BFloat16Type) else scale_type


def identity_score_region(scale_type: Attribute) -> Region:
    """The default region for a scale of `scale_type`: `^bb0(%score): iree_linalg_ext.yield
    %score`, the score typed by `score_type`."""
    block = Block(arg_types=[score_type(scale_type)])
    block.add_op(YieldOp([block.args[0]]))
    return Region(block)


@irdl_op_definition
class AttentionOp(IRDLOperation):
    """`iree_linalg_ext.attention` on tensors (static shapes)."""

    name = "iree_linalg_ext.attention"
    query = operand_def(TensorType)
    key = operand_def(TensorType)
    value = operand_def(TensorType)
    scale = operand_def()
    mask = opt_operand_def(TensorType)
    output = operand_def(TensorType)
    result = result_def(TensorType)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    decomposition_config = opt_prop_def(DictionaryAttr)
    region = region_def("single_block")
    traits = traits_def(Pure())

    def __init__(
        self,
        query: SSAValue,
        key: SSAValue,
        value: SSAValue,
        scale: SSAValue,
        mask: SSAValue | None,
        output: SSAValue,
        maps: Sequence[AffineMap],
        region: Region | None = None,
    ):
        if region is None:
            region = identity_score_region(scale.type)
        super().__init__(
            operands=[query, key, value, scale, [mask] if mask is not None else [], output],
            result_types=[output.type],
            properties={"indexing_maps": ArrayAttr(AffineMapAttr(m) for m in maps)},
            regions=[region],
        )

    # ---- accessors -------------------------------------------------------------------------
    def maps(self) -> list[AffineMap]:
        return [m.data for m in self.indexing_maps.data]

    def operand_maps(self) -> dict[str, AffineMap]:
        """Maps by role: query, key, value, scale, [mask], output."""
        names = ["query", "key", "value", "scale"] + (["mask"] if self.mask is not None else []) + ["output"]
        return dict(zip(names, self.maps(), strict=True))

    def dim_classes(self) -> dict[int, str]:
        """Each iteration dim's role (batch, m, k1, k2, n) as IREE's AttentionOpDetail assigns it."""
        m = self.operand_maps()
        return classify_dims(m["query"], m["key"], m["value"], m["output"])

    def loop_sizes(self) -> list[int]:
        sizes: dict[int, int] = {}
        maps = self.operand_maps()
        for role in ("query", "key", "value", "output"):
            shape = getattr(self, role).type.get_shape()
            for expr, n in zip(maps[role].results, shape, strict=True):
                sizes[expr.position] = n  # type: ignore[attr-defined]
        return [sizes[d] for d in range(maps["query"].num_dims)]

    # ---- verification ----------------------------------------------------------------------
    def verify_(self) -> None:
        maps = self.maps()
        n_expected = 6 if self.mask is not None else 5
        if len(maps) != n_expected:
            raise VerifyException(f"expected {n_expected} indexing maps, got {len(maps)}")
        num_dims = maps[0].num_dims
        if any(m.num_dims != num_dims or m.num_symbols for m in maps):
            raise VerifyException("indexing maps must share one iteration space and have no symbols")
        roles = self.operand_maps()
        if roles["scale"].results:
            raise VerifyException("the scale map must be `() -> ()` (the scale is a scalar)")
        if isinstance(self.scale.type, TensorType):
            raise VerifyException("the scale must be a scalar")
        check_role_maps({r: (m, getattr(self, r)) for r, m in roles.items() if r != "scale"})
        classes = classify_dims(roles["query"], roles["key"], roles["value"], roles["output"])
        for d in range(num_dims):
            if d not in classes:
                raise VerifyException(f"dim d{d} is not a batch, m, k1, k2 or n dim")
        if self.result.type != self.output.type:
            raise VerifyException("the result type must equal the output operand's type")
        block = self.region.block
        if len(block.args) != 1 or not isinstance(block.last_op, YieldOp) or len(block.last_op.values) != 1:
            raise VerifyException("the region takes one score and yields one value")

    # ---- custom syntax ---------------------------------------------------------------------
    def print(self, printer: Printer) -> None:
        print_angle_properties(printer, self)
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        ins = [self.query, self.key, self.value, self.scale] + ([self.mask] if self.mask is not None else [])
        printer.print_string(" ins(")
        printer.print_list(ins, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list([v.type for v in ins], printer.print_attribute)
        printer.print_string(") outs(")
        printer.print_ssa_value(self.output)
        printer.print_string(" : ")
        printer.print_attribute(self.output.type)
        printer.print_string(") ")
        printer.print_region(self.region)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props = parse_angle_properties(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_characters("ins")
        parser.parse_punctuation("(")
        unresolved = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        in_types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        if len(unresolved) not in (4, 5) or len(in_types) != len(unresolved):
            parser.raise_error("expected ins(query, key, value, scale[, mask] : types)")
        ins = [parser.resolve_operand(u, t) for u, t in zip(unresolved, in_types, strict=True)]
        parser.parse_characters("outs")
        parser.parse_punctuation("(")
        out_unresolved = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        out = parser.resolve_operand(out_unresolved, parser.parse_type())
        parser.parse_punctuation(")")
        region = parser.parse_optional_region()
        parser.parse_punctuation("->")
        parser.parse_type()
        op = cls(
            ins[0], ins[1], ins[2], ins[3], ins[4] if len(ins) == 5 else None, out,
            required_maps(parser, props), region if region is not None and region.blocks else None,
        )
        if "decomposition_config" in props:
            op.properties["decomposition_config"] = props["decomposition_config"]
        if attributes:
            op.attributes |= attributes
        return op


def check_role_maps(roles: dict[str, tuple[AffineMap, SSAValue]]) -> dict[int, int]:
    """Each operand read through a projected permutation of its rank, every loop one size
    (dynamic sizes, -1, agree with anything). Returns the known loop sizes."""
    sizes: dict[int, int] = {}
    for role, (m, value) in roles.items():
        if not all(isinstance(e, AffineDimExpr) for e in m.results):
            raise VerifyException(f"the {role} map must be a projected permutation")
        positions = [e.position for e in m.results]  # type: ignore[attr-defined]
        if len(set(positions)) != len(positions):
            raise VerifyException(f"the {role} map repeats a dim")
        shape = value.type.get_shape()
        if len(shape) != len(positions):
            raise VerifyException(f"the {role} map has {len(positions)} results for a rank-{len(shape)} operand")
        for d, n in zip(positions, shape, strict=True):
            known = sizes.setdefault(d, n)
            if n >= 0 and known >= 0 and known != n:
                raise VerifyException(f"dim d{d} has size {known} and {n} ({role})")
            if known < 0:
                sizes[d] = n
    return sizes


def parse_angle_properties(parser: Parser) -> dict[str, Attribute]:
    """IREE 3.13's `<indexing_maps = [...], decomposition_config = {...}>` (or `<{...}>`)."""
    props: dict[str, Attribute] = {}
    if parser.parse_optional_punctuation("<") is not None:
        braced = parser.parse_optional_punctuation("{") is not None

        def entry() -> None:
            name = parser.parse_identifier()
            parser.parse_punctuation("=")
            props[name] = parser.parse_attribute()

        parser.parse_comma_separated_list(Parser.Delimiter.NONE, entry)
        if braced:
            parser.parse_punctuation("}")
        parser.parse_punctuation(">")
    return props


def required_maps(parser: Parser, props: dict[str, Attribute]) -> list[AffineMap]:
    if "indexing_maps" not in props:
        parser.raise_error("properties dictionary is missing required attribute: indexing_maps")
    maps_attr = props["indexing_maps"]
    if not isinstance(maps_attr, ArrayAttr) or not all(isinstance(m, AffineMapAttr) for m in maps_attr.data):
        parser.raise_error("indexing_maps must be an array of affine maps")
    return [m.data for m in maps_attr.data]  # type: ignore[union-attr]


def print_angle_properties(printer: Printer, op: IRDLOperation) -> None:
    printer.print_string(" <indexing_maps = ")
    printer.print_attribute(op.indexing_maps)  # type: ignore[attr-defined]
    if op.decomposition_config is not None:  # type: ignore[attr-defined]
        printer.print_string(", decomposition_config = ")
        printer.print_attribute(op.decomposition_config)  # type: ignore[attr-defined]
    printer.print_string(">")


def classify_dims(q: AffineMap, k: AffineMap, v: AffineMap, out: AffineMap) -> dict[int, str]:
    """IREE's AttentionOpDetail: batch, m, k1, k2, n from where each dim appears."""

    def dims(m: AffineMap) -> set[int]:
        return {e.position for e in m.results if isinstance(e, AffineDimExpr)}

    qs, ks, vs, os_ = dims(q), dims(k), dims(v), dims(out)
    signature = {
        (True, True, True, True): "batch",
        (True, False, False, True): "m",
        (True, True, False, False): "k1",
        (False, True, True, False): "k2",
        (False, False, True, True): "n",
    }
    result: dict[int, str] = {}
    for d in range(q.num_dims):
        role = signature.get((d in qs, d in ks, d in vs, d in os_))
        if role is not None:
            result[d] = role
    return result


IreeLinalgExt = Dialect("iree_linalg_ext", [AttentionOp, YieldOp], [])
