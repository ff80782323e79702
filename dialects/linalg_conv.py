"""Convolution and pooling named ops (`linalg.conv_2d_*`, `linalg.depthwise_conv_2d_*`,
`linalg.pooling_*`) in MLIR's syntax, as torch-mlir and IREE print them:

    %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>,
                                   strides = dense<2> : vector<2xi64>}
           ins(%in, %f : tensor<1x3x34x34xf32>, tensor<16x3x3x3xf32>)
           outs(%init : tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32>

Why our own classes and not xDSL 0.74's (`Conv2DNchwFchwOp`, `PoolingNchwMaxOp`, ...):
- xDSL's `get_default_indexing_maps` unpacks `strides.get_values()` into two names; our parser
  stores a splat `dense<1> : vector<2xi64>` compactly (one element, `fusionopt.dialects.dense`),
  so `get_values()` returns one value and the op fails to load with "not enough values to
  unpack (expected 2, got 1)". Here strides and dilations are read with `dense_to_numpy`.
- xDSL's conv body is `addf %mul, %out` (MLIR: `addf %out, %mul`), its int-only widening asserts
  on a float accumulator wider than the inputs, and its `pooling_nchw_max` body is
  `max(%in, %window)`: the max of the input and the (shape-only) window operand, the output
  never read. Ours follow MLIR's OpDSL (`O = max(O, I)`, `O += I`, `O += I * K`).
- xDSL defines no depthwise convolution, no pooling sum and no NHWC pooling.
- xDSL does not verify that operand shapes agree with the strides and dilations.

Each op is described by a `WindowSpec` (MLIR's OpDSL domain order, so our indexing maps are
MLIR's): the interpreter (`fusionopt.interpreter.linalg_conv`) runs them with sliding windows
and one einsum/reduction, the cost model counts 2 FLOPs per iteration point of a convolution.

Constructor, for every op: `Op(inputs=[input, filter], outputs=[init], strides=[sh, sw],
dilations=[dh, dw])` (strides/dilations as int lists or dense attributes); the result type is
the init's.
"""

from __future__ import annotations

from fusionopt.dialects.window_op import WindowOp, WindowSpec, _op


_W = (("oh", "kh"), ("ow", "kw"))

Conv2DNchwFchwOp = _op(
    "Conv2DNchwFchwOp", "linalg.conv_2d_nchw_fchw",
    WindowSpec(("n", "f", "oh", "ow", "c", "kh", "kw"), ("n", "c", *_W), ("f", "c", "kh", "kw"),
               ("n", "f", "oh", "ow"), "conv", "nchwkl,fckl->nfhw"),
    "O[n, f, oh, ow] += I[n, c, oh*sh + kh*dh, ow*sw + kw*dw] * K[f, c, kh, kw]",
)
Conv2DNhwcHwcfOp = _op(
    "Conv2DNhwcHwcfOp", "linalg.conv_2d_nhwc_hwcf",
    WindowSpec(("n", "oh", "ow", "f", "kh", "kw", "c"), ("n", *_W, "c"), ("kh", "kw", "c", "f"),
               ("n", "oh", "ow", "f"), "conv", "nhwckl,klcf->nhwf"),
    "O[n, oh, ow, f] += I[n, oh*sh + kh*dh, ow*sw + kw*dw, c] * K[kh, kw, c, f]",
)
Conv2DNhwcFhwcOp = _op(
    "Conv2DNhwcFhwcOp", "linalg.conv_2d_nhwc_fhwc",
    WindowSpec(("n", "oh", "ow", "f", "kh", "kw", "c"), ("n", *_W, "c"), ("f", "kh", "kw", "c"),
               ("n", "oh", "ow", "f"), "conv", "nhwckl,fklc->nhwf"),
    "O[n, oh, ow, f] += I[n, oh*sh + kh*dh, ow*sw + kw*dw, c] * K[f, kh, kw, c]",
)
Conv2DNgchwFgchwOp = _op(
    "Conv2DNgchwFgchwOp", "linalg.conv_2d_ngchw_fgchw",
    WindowSpec(("n", "g", "fg", "oh", "ow", "c", "kh", "kw"), ("n", "g", "c", *_W),
               ("fg", "g", "c", "kh", "kw"), ("n", "g", "fg", "oh", "ow"), "conv", "ngchwkl,fgckl->ngfhw"),
    "O[n, g, fg, oh, ow] += I[n, g, c, oh*sh + kh*dh, ow*sw + kw*dw] * K[fg, g, c, kh, kw]",
)
Conv2DNgchwGfchwOp = _op(
    "Conv2DNgchwGfchwOp", "linalg.conv_2d_ngchw_gfchw",
    WindowSpec(("n", "g", "fg", "oh", "ow", "c", "kh", "kw"), ("n", "g", "c", *_W),
               ("g", "fg", "c", "kh", "kw"), ("n", "g", "fg", "oh", "ow"), "conv", "ngchwkl,gfckl->ngfhw"),
    "O[n, g, fg, oh, ow] += I[n, g, c, oh*sh + kh*dh, ow*sw + kw*dw] * K[g, fg, c, kh, kw]",
)
DepthwiseConv2DNchwChwOp = _op(
    "DepthwiseConv2DNchwChwOp", "linalg.depthwise_conv_2d_nchw_chw",
    WindowSpec(("n", "oh", "ow", "ic", "kh", "kw"), ("n", "ic", *_W), ("ic", "kh", "kw"),
               ("n", "ic", "oh", "ow"), "conv", "nchwkl,ckl->nchw"),
    "O[n, c, oh, ow] += I[n, c, oh*sh + kh*dh, ow*sw + kw*dw] * K[c, kh, kw]",
)
DepthwiseConv2DNhwcHwcOp = _op(
    "DepthwiseConv2DNhwcHwcOp", "linalg.depthwise_conv_2d_nhwc_hwc",
    WindowSpec(("n", "oh", "ow", "ic", "kh", "kw"), ("n", *_W, "ic"), ("kh", "kw", "ic"),
               ("n", "oh", "ow", "ic"), "conv", "nhwckl,klc->nhwc"),
    "O[n, oh, ow, c] += I[n, oh*sh + kh*dh, ow*sw + kw*dw, c] * K[kh, kw, c]",
)
_POOL_NCHW = (("n", "c", "oh", "ow", "kh", "kw"), ("n", "c", *_W), ("kh", "kw"), ("n", "c", "oh", "ow"))
_POOL_NHWC = (("n", "oh", "ow", "c", "kh", "kw"), ("n", *_W, "c"), ("kh", "kw"), ("n", "oh", "ow", "c"))
PoolingNchwMaxOp = _op(
    "PoolingNchwMaxOp", "linalg.pooling_nchw_max", WindowSpec(*_POOL_NCHW, "max"),
    "O[n, c, oh, ow] = max(O, I[n, c, oh*sh + kh*dh, ow*sw + kw*dw]); the filter only gives the window",
)
PoolingNchwSumOp = _op(
    "PoolingNchwSumOp", "linalg.pooling_nchw_sum", WindowSpec(*_POOL_NCHW, "sum"),
    "O[n, c, oh, ow] += I[n, c, oh*sh + kh*dh, ow*sw + kw*dw]; the filter only gives the window",
)
PoolingNhwcMaxOp = _op(
    "PoolingNhwcMaxOp", "linalg.pooling_nhwc_max", WindowSpec(*_POOL_NHWC, "max"),
    "O[n, oh, ow, c] = max(O, I[n, oh*sh + kh*dh, ow*sw + kw*dw, c]); the filter only gives the window",
)
PoolingNhwcSumOp = _op(
    "PoolingNhwcSumOp", "linalg.pooling_nhwc_sum", WindowSpec(*_POOL_NHWC, "sum"),
    "O[n, oh, ow, c] += I[n, oh*sh + kh*dh, ow*sw + kw*dw, c]; the filter only gives the window",
)

WINDOW_OPS: tuple[type[WindowOp], ...] = (
    Conv2DNchwFchwOp,
    Conv2DNhwcHwcfOp,
    Conv2DNhwcFhwcOp,
    Conv2DNgchwFgchwOp,
    Conv2DNgchwGfchwOp,
    DepthwiseConv2DNchwChwOp,
    DepthwiseConv2DNhwcHwcOp,
    PoolingNchwMaxOp,
    PoolingNchwSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcSumOp,
)
CONV_NAMES = frozenset(op.name for op in WINDOW_OPS if op.SPEC.kind == "conv")
POOLING_NAMES = frozenset(op.name for op in WINDOW_OPS if op.SPEC.kind != "conv")


def is_window_op(op: object) -> bool:
    return isinstance(op, WindowOp)


__all__ = [
    "CONV_NAMES",
    "POOLING_NAMES",
    "WINDOW_OPS",
    "WindowOp",
    "WindowSpec",
    "Conv2DNchwFchwOp",
    "Conv2DNhwcHwcfOp",
    "Conv2DNhwcFhwcOp",
    "Conv2DNgchwFgchwOp",
    "Conv2DNgchwGfchwOp",
    "DepthwiseConv2DNchwChwOp",
    "DepthwiseConv2DNhwcHwcOp",
    "PoolingNchwMaxOp",
    "PoolingNchwSumOp",
    "PoolingNhwcMaxOp",
    "PoolingNhwcSumOp",
]

