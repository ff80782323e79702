"""Sliding-window `graph` ops: `conv` and `pool` (ONNX Conv / MaxPool / AveragePool, N-D with
N = 1 or 2 spatial dims, NCHW layout).

    %y = graph.conv %x, %w strides = [1, 1] dilations = [1, 1] pads = [1, 1, 1, 1] group = 1
           : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x32x32xf32>
    %p = graph.pool %x kind = "max" kernel = [3, 3] strides = [2, 2] pads = [1, 1, 1, 1]
           dilations = [1, 1] ceil_mode = false count_include_pad = false
           : tensor<1x16x32x32xf32> -> tensor<1x16x16x16xf32>

`pads` is ONNX's `[begin_0, .., begin_{N-1}, end_0, .., end_{N-1}]`. Conv weights are
`F x C/group x k...`; a bias is a separate `graph.add`. Pool `kind` is `max` (padding reads
-inf) or `avg` (the divisor counts padded positions iff `count_include_pad`; positions past the
end padding that `ceil_mode` adds are never counted). Output size per spatial dim:
`(in + pb + pe - ((k - 1) * d + 1)) / s + 1`, floored (or ceiled for `ceil_mode`, where the
last window must start inside the input or its begin padding, as ONNX and PyTorch define it).
Numpy semantics: `fusionopt.graph_numpy`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, BoolAttr, IntegerAttr, StringAttr, TensorType, i1
from xdsl.ir import SSAValue
from xdsl.irdl import operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure

from fusionopt.dialects.graph_base import (
    GraphOp,
    I64ArrayConstr,
    check_result_element,
    check_result_shape,
    element_of,
    fail,
    graph_op_definition,
    i64_array,
    i64_attr,
    is_float,
    shape_of,
    tensor,
)

POOL_KINDS = ("max", "avg")


def window_output_size(size: int, kernel: int, stride: int, dilation: int, pad_begin: int,
                       pad_end: int, ceil_mode: bool = False) -> int:
    """Number of window positions along one spatial dim (see module doc)."""
    extent = (kernel - 1) * dilation + 1
    span = size + pad_begin + pad_end - extent
    if span < 0:
        return 0
    if not ceil_mode:
        return span // stride + 1
    out = -(-span // stride) + 1
    if (out - 1) * stride >= size + pad_begin:  # the last window would start in the end padding
        out -= 1
    return out


def _bool_attr(value: bool) -> IntegerAttr:
    return IntegerAttr(int(bool(value)), i1)


class WindowOp(GraphOp):
    """Shared accessors and checks of `conv` and `pool`."""

    MAX_SPATIAL_RANK: ClassVar[int] = 2  # 1-D and 2-D windows

    @property
    def strides_values(self) -> tuple[int, ...]:
        return self.strides.get_values()

    @property
    def dilations_values(self) -> tuple[int, ...]:
        return self.dilations.get_values()

    @property
    def pads_values(self) -> tuple[int, ...]:
        return self.pads.get_values()

    @property
    def spatial_rank(self) -> int:
        return len(shape_of(self.input)) - 2

    def pads_begin_end(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        pads, n = self.pads_values, self.spatial_rank
        return pads[:n], pads[n:]

    def _check_rank(self) -> None:
        rank = len(shape_of(self.input))
        if not 1 <= rank - 2 <= self.MAX_SPATIAL_RANK:
            ranks = ("N x C x W (rank 3)", "N x C x H x W (rank 4)", "N x C x D x H x W (rank 5)")
            allowed = ranks[:self.MAX_SPATIAL_RANK]
            fail(self, f"input must be {', '.join(allowed[:-1])} or {allowed[-1]}, got rank {rank}")

    def _check_window(self, kernel: Sequence[int], ceil_mode: bool = False) -> list[int]:
        """Checks shared by conv and pool; returns the expected spatial output sizes."""
        self._check_rank()
        shape = shape_of(self.input)
        n = len(shape) - 2
        for name, values, size in (("strides", self.strides_values, n),
                                   ("dilations", self.dilations_values, n),
                                   ("pads", self.pads_values, 2 * n), ("kernel", kernel, n)):
            if len(values) != size:
                fail(self, f"{name} must have {size} entries for {n} spatial dims, got "
                     f"{list(values)}")
        if any(s < 1 for s in self.strides_values) or any(d < 1 for d in self.dilations_values):
            fail(self, f"strides and dilations must be >= 1, got strides = "
                 f"{list(self.strides_values)} dilations = {list(self.dilations_values)}")
        if any(p < 0 for p in self.pads_values):
            fail(self, f"pads must be non-negative, got {list(self.pads_values)}")
        if any(k < 1 for k in kernel):
            fail(self, f"kernel sizes must be >= 1, got {list(kernel)}")
        begin, end = self.pads_begin_end()
        out = []
        for i in range(n):
            extent = (kernel[i] - 1) * self.dilations_values[i] + 1
            padded = shape[2 + i] + begin[i] + end[i]
            if extent > padded:
                fail(self, f"kernel extent {extent} (kernel {kernel[i]}, dilation "
                     f"{self.dilations_values[i]}) is larger than the padded input "
                     f"{padded} along spatial dim {i}")
            out.append(window_output_size(shape[2 + i], kernel[i], self.strides_values[i],
                                          self.dilations_values[i], begin[i], end[i], ceil_mode))
        if not is_float(element_of(self.input)):
            fail(self, f"element type must be a float type, got {element_of(self.input)}")
        check_result_element(self, element_of(self.input))
        return out


def conv_shape(x: Sequence[int], w: Sequence[int], strides, dilations, pads) -> list[int]:
    n = len(x) - 2
    return [x[0], w[0], *(window_output_size(x[2 + i], w[2 + i], strides[i], dilations[i],
                                             pads[i], pads[n + i]) for i in range(n))]


@graph_op_definition
class ConvOp(WindowOp):
    """ONNX Conv without bias: NC(H)W input, F x C/group x k.. weights."""

    MAX_SPATIAL_RANK: ClassVar[int] = 3  # and 3-D, plain or depthwise (video models)
    name = "graph.conv"
    input = operand_def(TensorType)
    filter = operand_def(TensorType)
    strides = prop_def(I64ArrayConstr)
    dilations = prop_def(I64ArrayConstr)
    pads = prop_def(I64ArrayConstr)
    group = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = ("$input `,` $filter `strides` `=` $strides `dilations` `=` $dilations "
                       "`pads` `=` $pads `group` `=` $group attr-dict `:` `(` type($input) `,` "
                       "type($filter) `)` `->` type($result)")

    def __init__(self, input: SSAValue, filter: SSAValue, strides: Sequence[int],
                 dilations: Sequence[int], pads: Sequence[int], group: int = 1):
        x = SSAValue.get(input).type
        shape = conv_shape(shape_of(x), shape_of(SSAValue.get(filter)), strides, dilations, pads)
        super().__init__(operands=[input, filter],
                         properties={"strides": i64_array(strides),
                                     "dilations": i64_array(dilations),
                                     "pads": i64_array(pads), "group": i64_attr(group)},
                         result_types=[tensor(shape, element_of(x))])

    @property
    def group_value(self) -> int:
        return self.group.value.data

    def verify_semantics(self) -> None:
        x, w, group = shape_of(self.input), shape_of(self.filter), self.group_value
        self._check_rank()
        if len(w) != len(x):
            fail(self, f"filter rank {len(w)} must equal the input rank {len(x)}")
        if len(x) == 5 and group not in (1, x[1]):
            fail(self, f"a 3-D conv is plain (group 1) or depthwise (group = {x[1]} channels), "
                 f"got group {group}")
        if element_of(self.filter) != element_of(self.input):
            fail(self, f"operand element types differ: {element_of(self.input)} and "
                 f"{element_of(self.filter)}")
        if group < 1:
            fail(self, f"group must be >= 1, got {group}")
        if x[1] % group:
            fail(self, f"input channels {x[1]} are not divisible by group {group}")
        if w[0] % group:
            fail(self, f"output channels {w[0]} are not divisible by group {group}")
        if w[1] * group != x[1]:
            fail(self, f"filter has {w[1]} input channels per group but the input has {x[1]} "
                 f"channels in {group} group(s) (expected {x[1] // group})")
        spatial = self._check_window(w[2:])
        check_result_shape(self, [x[0], w[0], *spatial])


@graph_op_definition
class PoolOp(WindowOp):
    """ONNX MaxPool / AveragePool over the spatial dims (see module doc)."""

    name = "graph.pool"
    input = operand_def(TensorType)
    kind = prop_def(StringAttr)
    kernel = prop_def(I64ArrayConstr)
    strides = prop_def(I64ArrayConstr)
    pads = prop_def(I64ArrayConstr)
    dilations = prop_def(I64ArrayConstr)
    ceil_mode = prop_def(BoolAttr)
    count_include_pad = prop_def(BoolAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = ("$input `kind` `=` $kind `kernel` `=` $kernel `strides` `=` $strides "
                       "`pads` `=` $pads `dilations` `=` $dilations `ceil_mode` `=` $ceil_mode "
                       "`count_include_pad` `=` $count_include_pad attr-dict `:` type($input) "
                       "`->` type($result)")

    def __init__(self, input: SSAValue, kind: str, kernel: Sequence[int], strides: Sequence[int],
                 pads: Sequence[int], dilations: Sequence[int] | None = None,
                 ceil_mode: bool = False, count_include_pad: bool = False):
        x = SSAValue.get(input).type
        xs = shape_of(x)
        n = len(xs) - 2
        dilations = list(dilations) if dilations is not None else [1] * n
        shape = [*xs[:2], *(window_output_size(xs[2 + i], kernel[i], strides[i], dilations[i],
                                               pads[i], pads[n + i], ceil_mode)
                            for i in range(n))]
        super().__init__(operands=[input],
                         properties={"kind": StringAttr(kind), "kernel": i64_array(kernel),
                                     "strides": i64_array(strides), "pads": i64_array(pads),
                                     "dilations": i64_array(dilations),
                                     "ceil_mode": _bool_attr(ceil_mode),
                                     "count_include_pad": _bool_attr(count_include_pad)},
                         result_types=[tensor(shape, element_of(x))])

    kind_value = property(lambda self: self.kind.data)
    kernel_values = property(lambda self: self.kernel.get_values())
    ceil_mode_value = property(lambda self: bool(self.ceil_mode.value.data))
    count_include_pad_value = property(lambda self: bool(self.count_include_pad.value.data))

    def verify_semantics(self) -> None:
        if self.kind_value not in POOL_KINDS:
            fail(self, f"kind must be one of {', '.join(POOL_KINDS)}, got '{self.kind_value}'")
        x = shape_of(self.input)
        spatial = self._check_window(self.kernel_values, self.ceil_mode_value)
        check_result_shape(self, [*x[:2], *spatial])
