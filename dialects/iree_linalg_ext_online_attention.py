"""`iree_linalg_ext.online_attention`: one step of flash attention, as IREE 3.13 prints it.

    %acc, %max, %sum = iree_linalg_ext.online_attention
           <indexing_maps = [#q, #k, #v, #scale, (#mask,) #acc, #max, #sum]>
           ins(%q, %k, %v, %scale(, %mask) : tensor<..>, tensor<..>, tensor<..>, f32(, tensor<..>))
           outs(%acc0, %max0, %sum0 : tensor<..>, tensor<..>, tensor<..>) {
         ^bb0(%score: f32):
           iree_linalg_ext.yield %score : f32
         } -> tensor<..>, tensor<..>, tensor<..>

(checked with `iree-opt` 3.13: the region is required; a plain `{indexing_maps = ...}`
dictionary is rejected; the generic form has no segment sizes, the mask is told by the number
of maps: 7 without it, 8 with it.) The iteration dims are classified as for `attention`
(batch, m, k1, k2, n); max and sum are indexed by the batch and m dims (one value per row).

Semantics (IREE's `OnlineAttentionOp::decomposeOperation`; exp2 form unless the
`decomposition_config` sets `use_exp2 = false`): S = (Q * scale * log2 e) . K^T in the
accumulator's type, plus the mask (i1: 0 / -inf; float: mask * log2 e);
    max' = max(max, rowmax S);  norm = exp2(max - max');  sum' = norm * sum + rowsum exp2(S - max')
    acc' = norm * acc + exp2(S - max') . V
The results are (acc', max', sum'): the output is *not* normalized (acc' / sum' is the
attention over the keys seen so far), so a key sequence can be processed in blocks.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, DictionaryAttr, TensorType
from xdsl.ir import Dialect, Region, SSAValue
from xdsl.ir.affine import AffineMap
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
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects import iree_linalg_ext, iree_linalg_ext_scan
from fusionopt.dialects.iree_linalg_ext import (
    YieldOp,
    check_role_maps,
    classify_dims,
    identity_score_region,
    parse_angle_properties,
    print_angle_properties,
    required_maps,
)
from fusionopt.dialects.iree_linalg_ext_scatter import _print_group, _typed_operands

_ROLES = ("query", "key", "value", "scale", "mask", "output", "max", "sum")


@irdl_op_definition
class OnlineAttentionOp(IRDLOperation):
    name = "iree_linalg_ext.online_attention"
    query = operand_def(TensorType)
    key = operand_def(TensorType)
    value = operand_def(TensorType)
    scale = operand_def()
    mask = opt_operand_def(TensorType)
    output = operand_def(TensorType)
    max = operand_def(TensorType)
    sum = operand_def(TensorType)
    result = result_def(TensorType)
    result_max = result_def(TensorType)
    result_sum = result_def(TensorType)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    decomposition_config = opt_prop_def(DictionaryAttr)
    region = region_def("single_block")
    traits = traits_def(Pure())

    def __init__(self, ins: list[SSAValue], outs: list[SSAValue], maps: list[AffineMap], region: Region | None = None):
        q, k, v, scale, *mask = ins
        super().__init__(
            operands=[q, k, v, scale, mask, *outs],
            result_types=[o.type for o in outs],
            properties={"indexing_maps": ArrayAttr(AffineMapAttr(m) for m in maps)},
            regions=[region if region is not None else identity_score_region(scale.type)],
        )

    def operand_maps(self) -> dict[str, AffineMap]:
        """Maps by role: query, key, value, scale, [mask], output, max, sum."""
        names = [r for r in _ROLES if r != "mask" or self.mask is not None]
        return dict(zip(names, [m.data for m in self.indexing_maps.data], strict=True))

    def dim_classes(self) -> dict[int, str]:
        m = self.operand_maps()
        return classify_dims(m["query"], m["key"], m["value"], m["output"])

    def uses_exp2(self) -> bool:
        config = self.decomposition_config
        flag = config.data.get("use_exp2") if config is not None else None
        return True if flag is None else bool(getattr(flag, "value", flag).data)

    # ---- verification ----------------------------------------------------------------------
    def verify_(self) -> None:
        expected = 8 if self.mask is not None else 7
        if len(self.indexing_maps.data) != expected:
            raise VerifyException(f"expected {expected} indexing maps, got {len(self.indexing_maps.data)}")
        roles = self.operand_maps()
        num_dims = roles["query"].num_dims
        if any(m.num_dims != num_dims or m.num_symbols for m in roles.values()):
            raise VerifyException("indexing maps must share one iteration space and have no symbols")
        if roles["scale"].results or isinstance(self.scale.type, TensorType):
            raise VerifyException("the scale must be a scalar read through `() -> ()`")
        check_role_maps({r: (m, getattr(self, r)) for r, m in roles.items() if r != "scale"})
        self._verify_dims(roles, num_dims)
        for out, res in ((self.output, self.result), (self.max, self.result_max), (self.sum, self.result_sum)):
            if out.type != res.type:
                raise VerifyException(f"result type {res.type} differs from its init's {out.type}")
        block = self.region.block
        if len(block.args) != 1 or not isinstance(block.last_op, YieldOp) or len(block.last_op.values) != 1:
            raise VerifyException("the region takes one score and yields one value")

    def _verify_dims(self, roles: dict[str, AffineMap], num_dims: int) -> None:
        classes = classify_dims(roles["query"], roles["key"], roles["value"], roles["output"])
        missing = [d for d in range(num_dims) if d not in classes]
        if missing:
            raise VerifyException(f"dim d{missing[0]} is not a batch, m, k1, k2 or n dim")
        rows = {d for d, c in classes.items() if c in ("batch", "m")}
        for role in ("max", "sum"):
            if {e.position for e in roles[role].results} != rows:  # type: ignore[attr-defined]
                raise VerifyException(f"the {role} map must index exactly the batch and m dims")

    # ---- custom syntax ---------------------------------------------------------------------
    def print(self, printer: Printer) -> None:
        print_angle_properties(printer, self)
        printer.print_op_attributes(self.attributes)
        ins = [self.query, self.key, self.value, self.scale] + ([self.mask] if self.mask is not None else [])
        _print_group(printer, "ins", ins)
        _print_group(printer, "outs", [self.output, self.max, self.sum])
        printer.print_string(" ")
        printer.print_region(self.region)
        printer.print_string(" -> ")
        printer.print_list([r.type for r in self.results], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        props = parse_angle_properties(parser)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_characters("ins")
        ins = _typed_operands(parser)
        parser.parse_characters("outs")
        outs = _typed_operands(parser)
        if len(ins) not in (4, 5) or len(outs) != 3:
            parser.raise_error("expected ins(query, key, value, scale[, mask] : ...) outs(acc, max, sum : ...)")
        region = parser.parse_region()
        parser.parse_punctuation("->")
        parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        op = cls(ins, outs, required_maps(parser, props), region)
        if "decomposition_config" in props:
            op.properties["decomposition_config"] = props["decomposition_config"]
        op.attributes |= attributes
        return op


def _ops() -> list[type[IRDLOperation]]:
    return [*iree_linalg_ext_scan.IreeLinalgExt.operations, OnlineAttentionOp]


IreeLinalgExt = Dialect("iree_linalg_ext", _ops(), [])

__all__ = ["IreeLinalgExt", "OnlineAttentionOp", "iree_linalg_ext"]
