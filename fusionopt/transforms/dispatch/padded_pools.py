"""`form-dispatch-regions{pads-into-pools=N}`: a `tensor.pad` read only by a small NCHW pooling op
joins the pool's dispatch.

A pool's input pad is written by the input's producer where it can (`padded_results.py`,
`padded_concats.py`). A max pool's result that other ops read too cannot: IREE 3.13 fails to
build a pool region that stores its result both plain and padded, in every form tried (the 4-D
named op; a rank-3 generic; either with the plain store flattened; either behind an elementwise
copy: "write affecting operations on global resources are restricted to workgroup distributed
contexts"; bench/iree_limits.py). If the pad's reader is another pool (an Inception block's
pool branch reading the previous block's max pool), the pad can go into that pool's region
instead. IREE builds it for `linalg.pooling_nchw_max` and `_sum`, and computes bit-equal
values: 2x2 and 3x3 windows, strides 1 and 2, 5x5 to 56x56 inputs, symmetric and ceil-mode pads.

Measured against IREE's copy + pool (bench/pool_pad_forms.py at dfad5b9: single-pool modules,
llvm-cpu), the time depends on the shape:
- 8x8 outputs: 0.90x (56 channels, inception_mini's pool branch), 1.00x (128 channels);
- stride 2: 0.99x at 56x56 -> 28x28, 0.82x at 112x112 -> 56x56; 32x32 stride 1: 0.97x;
- but 1.21x-1.43x at 14x14, 16x16 and 28x28 stride 1.

So only pads of a pool's result, read by a pool of at most N output pixels, go into that pool's
region (the fewest pipelines: 64, an 8x8 image); other producers write their pads themselves.
In inception_mini this removes its last `slow_memcpy` at the same whole-model time, bit-equal
(bench/RESULTS.md, "A pool's pad in the next pool's dispatch"). The same holds for the pad of a
concat that others read too (googlenet's Inception outputs: the next block's 1x1 convs read the
concat, its pool branch the padded concat), which `padded_concats.py` cannot take: googlenet
78 -> 72 IREE dispatches, its last six copies, at the same time (bench/RESULTS.md, "Six CNNs
the passes were not written for").
"""

from __future__ import annotations

from math import prod

from xdsl.ir import Operation

from fusionopt.transforms.common import dispatch_utils as du
from fusionopt.transforms.dispatch.padded_gathers import pull_pads_into

NCHW_POOLS = ("linalg.pooling_nchw_max", "linalg.pooling_nchw_sum")


def is_pooled(value) -> bool:
    """`value` is a pooling op's result (which its region cannot also store padded)."""
    owner = value.owner
    return isinstance(owner, Operation) and owner.name.startswith("linalg.pooling_")


def is_shared_concat(value) -> bool:
    """`value` is a concat's result that others read besides one pad: `padded_concats.py` takes
    only a concat its pad alone reads (googlenet's blocks: the next block's 1x1 convs and its
    pool branch's pad read each concat)."""
    owner = value.owner
    return isinstance(owner, Operation) and owner.name == "tensor.concat" and len(list(value.uses)) > 1


def is_pad_of_small_pool(pad: Operation, reader: Operation, max_pixels: int) -> bool:
    """`pad`, static, of a pool's result or of a shared concat, is the input of `reader`, an NCHW
    pool of at most `max_pixels` output pixels. (Pads of other producers are left to the
    producers' regions, `padded_results.py` and `padded_concats.py`.)"""
    source = pad.operands[0]
    if reader.name not in NCHW_POOLS or reader.operands[0] is not pad.results[0]:
        return False
    if not (is_pooled(source) or is_shared_concat(source)):
        return False
    if not (du.is_static_tensor(pad.results[0]) and du.is_static_tensor(pad.operands[0])):
        return False
    result = reader.results[0]
    return du.is_static_tensor(result) and prod(result.type.get_shape()[2:]) <= max_pixels


def pull_pads_into_pools(analysis, max_pixels: int) -> int:
    """Add each top-level pad read only by a small NCHW pool (module docstring) to its group."""
    return pull_pads_into(analysis, lambda pad, reader: is_pad_of_small_pool(pad, reader, max_pixels))
