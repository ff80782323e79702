"""MLIR's quantized convolutions (`*_q`): the window op of the same name without `_q`, with two
more scalar inputs, the input and filter zero points, subtracted before the product:

    O += (I - izp) * (K - kzp)      (operands widened to O's element type first, signed)

    %r = linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
        ins(%img, %filt, %izp, %kzp : tensor<1x8x8x3xi8>, tensor<3x3x3x4xi8>, i32, i32)
        outs(%acc : tensor<1x6x6x4xi32>) -> tensor<1x6x6x4xi32>

Indexing maps: the unquantized op's input and filter maps, `() -> ()` for each zero point, then
its output map (MLIR's OpDSL order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import ShapedType
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.linalg_contraction import _cast_to
from fusionopt.dialects.linalg_conv import WINDOW_OPS, WindowOp
from fusionopt.dialects.linalg_conv_nd import CONV_ND_OPS


class QuantizedWindowOp(WindowOp):
    """A convolution with input and filter zero points (inputs 2 and 3, scalars)."""

    EXTRA_INPUTS: ClassVar[int] = 2

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        inp, filt, out = self.SPEC.maps(self.stride_values(), self.dilation_values())
        scalar = AffineMap(len(self.SPEC.domain), 0, ())
        return (inp, filt, scalar, scalar, out)

    @classmethod
    def _check_operand_kinds(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> None:
        if len(inputs) != 4 or len(outputs) != 1:
            raise VerifyException(
                f"'{cls.name}' op expects 4 inputs (input, filter, input zero point, filter zero point) "
                f"and 1 output, but got {len(inputs)} and {len(outputs)}"
            )
        for index, value in enumerate(inputs[2:], start=2):
            if isinstance(value.type, ShapedType):
                raise VerifyException(f"'{cls.name}' op zero point #{index} must be a scalar, got {value.type}")
        super()._check_operand_kinds(inputs, outputs)

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types, acc, is_float = cls.body_types(inputs, outputs)
        sub = arith.SubfOp if is_float else arith.SubiOp
        mul = arith.MulfOp if is_float else arith.MuliOp
        add = arith.AddfOp if is_float else arith.AddiOp

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            x = sub(_cast_to(args[0], acc), _cast_to(args[2], acc))
            k = sub(_cast_to(args[1], acc), _cast_to(args[3], acc))
            YieldOp(add(args[4], mul(x, k)))

        return hidden_region


def _quantized(base: type[WindowOp]) -> type[QuantizedWindowOp]:
    name = base.name + "_q"
    cls = type(base.__name__.removesuffix("Op") + "QOp", (QuantizedWindowOp,), {
        "name": name,
        "SPEC": base.SPEC,
        "__doc__": f"{name}: {base.name} with input and filter zero points",
        "__module__": __name__,
        "__annotations__": {"SPEC": "ClassVar[WindowSpec]"},
    })
    return irdl_op_definition(cls)


_BASES = {op.name: op for op in (*WINDOW_OPS, *CONV_ND_OPS)}
QUANTIZED_CONV_OPS: tuple[type[QuantizedWindowOp], ...] = tuple(
    _quantized(_BASES[f"linalg.{name}"])
    for name in ("conv_2d_nhwc_hwcf", "conv_2d_nhwc_fhwc", "conv_2d_nchw_fchw", "conv_2d_ngchw_gfchw",
                 "depthwise_conv_2d_nhwc_hwc", "depthwise_conv_2d_nhwc_hwcm")
)
