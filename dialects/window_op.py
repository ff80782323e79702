"""The base of the sliding-window named ops (`linalg.conv_*`, `linalg.depthwise_conv_*`,
`linalg.pooling_*`): `WindowSpec` (one op's loops and operand indexing in MLIR's OpDSL order) and
`WindowOp` (strides, dilations, MLIR's body, maps, parsing, printing and shape verification).
The ops themselves are declared in `linalg_conv.py` (2-D), `linalg_conv_nd.py` (1-D/3-D) and
`linalg_conv_q.py` (quantized); why they are ours and not xDSL's is said in `linalg_conv.py`.
"""

from __future__ import annotations

import functools
import math

from abc import ABC
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

import numpy as np
from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntegerType,
    ShapedType,
    TensorType,
    VectorType,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from fusionopt.dialects.dense import dense_to_numpy, numpy_to_dense
from fusionopt.dialects.linalg_contraction import _cast_to



@dataclass(frozen=True)
class WindowSpec:
    """One sliding-window op.

    `domain`: loop names in MLIR's OpDSL order; `input`/`filter`/`output`: per operand
    dimension a loop name, or `("oh", "kh")` for `oh * stride + kh * dilation` (spatial
    dimension i uses strides[i] and dilations[i]); `kind`: "conv" (O += I * K), "max" or "min"
    (O = max(O, I), O = min(O, I)) or "sum" (O += I); `einsum`: the interpreter's contraction of the input
    windows (input dims, then kh, kw appended) with the filter (conv only).
    """

    domain: tuple[str, ...]
    input: tuple[str | tuple[str, str], ...]
    filter: tuple[str, ...]
    output: tuple[str, ...]
    kind: str
    einsum: str = ""

    @property
    def input_spatial_axes(self) -> tuple[int, ...]:
        return tuple(i for i, d in enumerate(self.input) if isinstance(d, tuple))

    @property
    def windows(self) -> tuple[tuple[str, str], ...]:
        return tuple(d for d in self.input if isinstance(d, tuple))

    @property
    def spatial_rank(self) -> int:
        return len(self.windows)

    @functools.lru_cache(maxsize=256)  # noqa: B019 - the specs are a few module constants
    def maps(self, strides: tuple[int, ...], dilations: tuple[int, ...]) -> tuple[AffineMap, ...]:
        """The input, filter and output maps; cached, as the verifier after every pass asks
        for them three times per op."""
        dims = {name: AffineDimExpr(i) for i, name in enumerate(self.domain)}
        n = len(self.domain)
        spatial = 0
        input_exprs: list[AffineExpr] = []
        for d in self.input:
            if isinstance(d, tuple):
                o, k = d
                input_exprs.append(dims[o] * strides[spatial] + dims[k] * dilations[spatial])
                spatial += 1
            else:
                input_exprs.append(dims[d])
        return (
            AffineMap(n, 0, tuple(input_exprs)),
            AffineMap(n, 0, tuple(dims[d] for d in self.filter)),
            AffineMap(n, 0, tuple(dims[d] for d in self.output)),
        )


def _index_attr(
    values: Sequence[int] | DenseIntOrFPElementsAttr, what: str, rank: int
) -> DenseIntOrFPElementsAttr:
    if isinstance(values, DenseIntOrFPElementsAttr):
        return values
    values = [int(v) for v in values]
    if len(values) != rank:
        raise ValueError(f"expected {rank} {what}, got {values}")
    return numpy_to_dense(np.asarray(values, dtype=np.int64), VectorType(i64, [rank]))


def _ones(rank: int) -> DenseIntOrFPElementsAttr:
    return _index_attr([1] * rank, "values", rank)


@functools.lru_cache(maxsize=256)
def _index_values(attr: DenseIntOrFPElementsAttr) -> tuple[int, ...]:
    """A strides/dilations attribute's integers (attributes are immutable: cached)."""
    return tuple(int(v) for v in np.asarray(dense_to_numpy(attr)).reshape(-1))


class WindowOp(NamedOperation, ABC):
    """Base of the convolution and pooling ops: strides, dilations, MLIR's body and maps."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    SPEC: ClassVar[WindowSpec]

    strides = prop_def(DenseIntOrFPElementsAttr)
    dilations = prop_def(DenseIntOrFPElementsAttr)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        strides: Sequence[int] | DenseIntOrFPElementsAttr | None = None,
        dilations: Sequence[int] | DenseIntOrFPElementsAttr | None = None,
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if res is None:
            res = tuple(o.type for o in outputs if isinstance(o.type, TensorType))
        rank = self.SPEC.spatial_rank
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res,
            properties={
                "dilations": _index_attr(dilations or [1] * rank, "dilations", rank),
                "strides": _index_attr(strides or [1] * rank, "strides", rank),
            },
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    # --- attributes -------------------------------------------------------------------

    def _values(self, attr: DenseIntOrFPElementsAttr, what: str) -> tuple[int, ...]:
        if not isinstance(attr.get_element_type(), IntegerType):
            raise VerifyException(f"{what} must be a vector of i64, got {attr.type}")
        rank = self.SPEC.spatial_rank
        count = math.prod(attr.get_shape())  # checked before expanding a (compact) splat
        if count != rank:
            raise VerifyException(f"{what} must have {rank} elements (one per spatial dimension), got {count}")
        return _index_values(attr)

    def stride_values(self) -> tuple[int, ...]:
        return self._values(self.strides, "strides")

    def dilation_values(self) -> tuple[int, ...]:
        return self._values(self.dilations, "dilations")

    # --- structured-op interface ---------------------------------------------------------

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.SPEC.maps(self.stride_values(), self.dilation_values())

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        out = set(self.SPEC.output)
        return ArrayAttr(
            IteratorTypeAttr.parallel() if d in out else IteratorTypeAttr.reduction()
            for d in self.SPEC.domain
        )

    def window_sizes(self) -> tuple[int, ...]:
        """Kernel extent per spatial dimension (e.g. kh, kw), read off the filter."""
        filter_shape = cast(ShapedType, self.inputs[1].type).get_shape()
        return tuple(filter_shape[self.SPEC.filter.index(k)] for _, k in self.SPEC.windows)

    @classmethod
    def body_types(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> tuple[list[Attribute], Attribute, bool]:
        """The body's argument types, the accumulator's, and whether it is a float (operands
        checked first)."""
        cls._check_operand_kinds(inputs, outputs)
        arg_types = cls.body_arg_types((*inputs, *outputs))
        return arg_types, arg_types[-1], isinstance(arg_types[-1], AnyFloat)

    @classmethod
    def get_hidden_region(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
        arg_types, acc, is_float = cls.body_types(inputs, outputs)
        kind = cls.SPEC.kind

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            if kind == "conv":
                mul = arith.MulfOp if is_float else arith.MuliOp
                add = arith.AddfOp if is_float else arith.AddiOp
                product = mul(_cast_to(args[0], acc), _cast_to(args[1], acc))
                YieldOp(add(args[2], product))
            elif kind in ("max", "min"):
                if kind == "max":
                    op = arith.MaximumfOp if is_float else arith.MaxSIOp
                else:
                    op = arith.MinimumfOp if is_float else arith.MinSIOp
                YieldOp(op(args[2], _cast_to(args[0], acc)))
            else:
                add = arith.AddfOp if is_float else arith.AddiOp
                YieldOp(add(args[2], _cast_to(args[0], acc)))

        return hidden_region

    # Quantized variants (linalg_conv_q.py) take two more scalar inputs: they override these.
    EXTRA_INPUTS: ClassVar[int] = 0

    @classmethod
    def _check_operand_kinds(cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> None:
        if len(inputs) != 2 + cls.EXTRA_INPUTS or len(outputs) != 1:
            raise VerifyException(
                f"'{cls.name}' op expects 2 inputs (input, {'filter' if cls.SPEC.kind == 'conv' else 'window'}) "
                f"and 1 output, but got {len(inputs)} and {len(outputs)}"
            )
        for index, value in enumerate((*inputs, *outputs)):
            ty = value.type
            element = ty.get_element_type() if isinstance(ty, ShapedType) else ty
            if not isinstance(element, AnyFloat | IntegerType):
                raise VerifyException(
                    f"'{cls.name}' op operand #{index} must be a tensor of integers or floats, but got '{ty}'"
                )

    # --- verification ---------------------------------------------------------------------

    def verify_(self) -> None:
        if len(self.inputs) != 2 + self.EXTRA_INPUTS or len(self.outputs) != 1:
            raise VerifyException(f"'{self.name}' op expects {2 + self.EXTRA_INPUTS} inputs and 1 output")
        strides, dilations = self.stride_values(), self.dilation_values()
        for what, values in (("strides", strides), ("dilations", dilations)):
            if any(v < 1 for v in values):
                raise VerifyException(f"'{self.name}' op {what} must be positive, got {list(values)}")
        operands = (self.inputs[0], self.inputs[1], self.outputs[0])
        specs = (self.SPEC.input, self.SPEC.filter, self.SPEC.output)
        shapes: list[tuple[int, ...]] = []
        for index, (value, spec) in enumerate(zip(operands, specs)):
            if not isinstance(value.type, ShapedType):
                raise VerifyException(f"'{self.name}' op operand #{index} must be a shaped type")
            shape = tuple(value.type.get_shape())
            if len(shape) != len(spec):
                raise VerifyException(
                    f"'{self.name}' op expected operand #{index} of rank {len(spec)}, got {value.type}"
                )
            shapes.append(shape)
        if self.res and self.res[0].type != self.outputs[0].type:
            raise VerifyException(
                f"'{self.name}' op result type {self.res[0].type} does not match the init {self.outputs[0].type}"
            )
        # Loop extents from the operand dimensions each loop indexes alone (MLIR's rule).
        extents: dict[str, tuple[int, int, int]] = {}
        for index, (shape, spec) in enumerate(zip(shapes, specs)):
            for dim, (size, name) in enumerate(zip(shape, spec)):
                if isinstance(name, tuple) or size < 0:
                    continue
                if name in extents and extents[name][0] != size:
                    first, o_index, o_dim = extents[name]
                    raise VerifyException(
                        f"'{self.name}' op inferred input/output operand #{index} has shape's dimension "
                        f"#{dim} to be {first} (operand #{o_index} dimension #{o_dim}), but found {size}"
                    )
                extents.setdefault(name, (size, index, dim))
        spatial = 0
        for dim, name in enumerate(specs[0]):
            if not isinstance(name, tuple):
                continue
            o, k = name
            size = shapes[0][dim]
            if o in extents and k in extents and size >= 0:
                out_size, kernel = extents[o][0], extents[k][0]
                needed = (out_size - 1) * strides[spatial] + (kernel - 1) * dilations[spatial] + 1
                if out_size > 0 and kernel > 0 and needed > size:
                    raise VerifyException(
                        f"'{self.name}' op inferred input/output operand #0 has shape's dimension #{dim} "
                        f"to be greater than or equal to {needed}, but found {size} (output {out_size}, "
                        f"kernel {kernel}, stride {strides[spatial]}, dilation {dilations[spatial]})"
                    )
            spatial += 1
        super().verify_()

    # --- syntax ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, parser: Parser):
        op = cast(WindowOp, super().parse(parser))
        for key in ("strides", "dilations"):
            if key in op.attributes:  # an attribute dict that xDSL did not route to properties
                op.properties[key] = op.attributes.pop(key)
            op.properties.setdefault(key, _ones(cls.SPEC.spatial_rank))
        return op

    def print(self, printer: Printer):
        # MLIR prints the attribute dictionary sorted: dilations, then strides.
        props = dict(self.properties)
        ordered = {k: props.pop(k) for k in ("dilations", "strides") if k in props}
        saved = self.properties
        self.properties = {**ordered, **props}
        try:
            super().print(printer)
        finally:
            self.properties = saved


def _op(class_name: str, op_name: str, spec: WindowSpec, doc: str) -> type[WindowOp]:
    cls = type(class_name, (WindowOp,), {
        "name": op_name,
        "SPEC": spec,
        "__doc__": doc,
        "__module__": __name__,
        "__annotations__": {"SPEC": "ClassVar[WindowSpec]"},
    })
    return irdl_op_definition(cls)
