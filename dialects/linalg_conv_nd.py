"""1-D and 3-D convolutions and pooling, grouped NHWGC convolution, depthwise convolutions with
a channel multiplier and min pooling: the rest of MLIR's sliding-window named ops, in MLIR's
syntax (same `WindowOp` base as `linalg_conv.py`, whose docstring says why they are ours and
not xDSL's).

Each `WindowSpec` follows MLIR's OpDSL definition (`core_named_ops.py`): loop order, operand
indexing and body (`O += I * K`, `O = max(O, I)`, `O = min(O, I)`, `O += I`). The quantized
variants (`*_q`, with zero-point operands) are not here.
"""

from __future__ import annotations

from fusionopt.dialects.linalg_conv import WindowOp, WindowSpec, _op

_W1 = (("ow", "kw"),)
_W3 = (("od", "kd"), ("oh", "kh"), ("ow", "kw"))
_W2 = (("oh", "kh"), ("ow", "kw"))


def _conv(name: str, domain: str, inp: tuple, filt: str, out: str, einsum: str) -> type[WindowOp]:
    spec = WindowSpec(tuple(domain.split()), inp, tuple(filt.split()), tuple(out.split()), "conv", einsum)
    class_name = "".join(part.capitalize() for part in name.split("_")) + "Op"
    return _op(class_name, f"linalg.{name}", spec, f"{name}: O[{out}] += I * K[{filt}]")


def _pool(name: str, domain: str, inp: tuple, filt: str, out: str, kind: str) -> type[WindowOp]:
    spec = WindowSpec(tuple(domain.split()), inp, tuple(filt.split()), tuple(out.split()), kind)
    class_name = "".join(part.capitalize() for part in name.split("_")) + "Op"
    return _op(class_name, f"linalg.{name}", spec, f"{name}: {kind} over the window; the filter gives its shape")


CONV_ND_OPS: tuple[type[WindowOp], ...] = (
    _conv("conv_1d_nwc_wcf", "n ow f kw c", ("n", *_W1, "c"), "kw c f", "n ow f", "nwck,kcf->nwf"),
    _conv("conv_1d_ncw_fcw", "n f ow c kw", ("n", "c", *_W1), "f c kw", "n f ow", "ncwk,fck->nfw"),
    _conv("conv_3d_ndhwc_dhwcf", "n od oh ow f kd kh kw c", ("n", *_W3, "c"), "kd kh kw c f",
          "n od oh ow f", "ndhwcxyz,xyzcf->ndhwf"),
    _conv("conv_3d_ncdhw_fcdhw", "n f od oh ow c kd kh kw", ("n", "c", *_W3), "f c kd kh kw",
          "n f od oh ow", "ncdhwxyz,fcxyz->nfdhw"),
    _conv("conv_2d_nhwgc_gfhwc", "n oh ow g fg kh kw c", ("n", *_W2, "g", "c"), "g fg kh kw c",
          "n oh ow g fg", "nhwgcxy,gfxyc->nhwgf"),
    _conv("depthwise_conv_1d_nwc_wc", "n ow ic kw", ("n", *_W1, "ic"), "kw ic", "n ow ic", "nwck,kc->nwc"),
    _conv("depthwise_conv_1d_ncw_cw", "n ow ic kw", ("n", "ic", *_W1), "ic kw", "n ic ow", "ncwk,ck->ncw"),
    _conv("depthwise_conv_1d_nwc_wcm", "n ow ic cm kw", ("n", *_W1, "ic"), "kw ic cm", "n ow ic cm",
          "nwck,kcm->nwcm"),
    _conv("depthwise_conv_2d_nhwc_hwcm", "n oh ow ic cm kh kw", ("n", *_W2, "ic"), "kh kw ic cm",
          "n oh ow ic cm", "nhwcxy,xycm->nhwcm"),
    _conv("depthwise_conv_3d_ndhwc_dhwc", "n od oh ow kd kh kw ic", ("n", *_W3, "ic"), "kd kh kw ic",
          "n od oh ow ic", "ndhwcxyz,xyzc->ndhwc"),
    _conv("depthwise_conv_3d_ncdhw_cdhw", "n od oh ow kd kh kw ic", ("n", "ic", *_W3), "ic kd kh kw",
          "n ic od oh ow", "ncdhwxyz,cxyz->ncdhw"),
    _conv("depthwise_conv_3d_ndhwc_dhwcm", "n od oh ow cm kd kh kw ic", ("n", *_W3, "ic"),
          "kd kh kw ic cm", "n od oh ow ic cm", "ndhwcxyz,xyzcm->ndhwcm"),
)

POOL_ND_OPS: tuple[type[WindowOp], ...] = (
    *(_pool(f"pooling_nwc_{k}", "n ow c kw", ("n", *_W1, "c"), "kw", "n ow c", k) for k in ("sum", "max", "min")),
    *(_pool(f"pooling_ncw_{k}", "n c ow kw", ("n", "c", *_W1), "kw", "n c ow", k) for k in ("sum", "max")),
    _pool("pooling_nhwc_min", "n oh ow c kh kw", ("n", *_W2, "c"), "kh kw", "n oh ow c", "min"),
    *(_pool(f"pooling_ndhwc_{k}", "n od oh ow c kd kh kw", ("n", *_W3, "c"), "kd kh kw", "n od oh ow c", k)
      for k in ("sum", "max", "min")),
)

WINDOW_ND_OPS = (*CONV_ND_OPS, *POOL_ND_OPS)

__all__ = ["CONV_ND_OPS", "POOL_ND_OPS", "WINDOW_ND_OPS"]
