"""Batching Linear layers of unequal shapes: zero-padded `[G, K, N]` or one block-diagonal dot.

Towers whose layers differ in K or N (hidden widths 4/6/4, outputs 4/3/5) cannot be stacked as
they are. Two forms make them one dot (MIGraphX #4723 batches towers into one chain):
- PADDED  `[G, M, Kmax] x [G, Kmax, Nmax]`: each activation zero-padded to Kmax and stacked (a
  staging copy), each weight zero-padded (rows >= K_i, columns >= N_i) and stacked; lane i is
  `[i, :, :N_i]`, the padded columns are sliced off and never read.
- BLOCK   `[M, sum K] x [sum K, sum N]`: the activations side by side (a free view when they
  are consecutive lanes of a WIDE fused layer), weight i in the diagonal block
  `[off_K_i : +K_i, off_N_i : +N_i]`, zeros elsewhere; the result is a WIDE layer, so a concat
  of the lanes in order folds away and the chain continues from it.

What each relies on:
- PADDED is exact on every input, infinities and NaN included: padded activation columns are
  literal zeros meeting zero weight rows (0 * 0), so kept columns sum the same products; padded
  output columns may hold NaN (inf * 0) but only `lane_value` slices read the result, and they
  drop them.
- BLOCK relies on finite activations (the fast-math contract of `graph-simplify`): an inf in
  lane j's activation meets lane i's zero weights, and inf * 0 = NaN lands in lane i's kept
  outputs. It is built only where the activations are consecutive lanes of one WIDE layer
  (Linears of one shared input), so an inf or NaN in the shared input makes that row
  non-finite in every lane anyway; what can still leak is an overflow inside one lane.
  `strict-nonfinite=true` never builds it.
Both add +0 terms to kept sums (the result is the same on finite values; -0 may read as +0).

The choice is priced with the roofline of `fusionopt.device_profiles` (launch + max(FLOPs /
peak, bytes / bandwidth) per kernel, FLOPs as `fusionopt.cost_model` counts them: 2*M*K*N per
dot, one per element for bias add, sigmoid and mul): the members as separate kernels against
each form with its padding FLOPs and bytes and its staging copies (activations that are not
already side by side, weights that are not constants). The cheapest form wins when it beats
the separate kernels; otherwise the member whose removal leaves the cheapest whole is dropped
and the rest is priced again, down to `min_group` members. Every staging copy is priced as
dispatch formation leaves it: one copy kernel per joined piece (`flow.tensor.update`) and a
pad kernel per padded one. With argument weights (`allow-runtime-concat`) the padded or
block-diagonal weight is built that way at run time, on every call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import SSAValue

from fusionopt.cost_model import element_bytes
from fusionopt.device_profiles import DeviceProfile, estimate_seconds
from fusionopt.dialects import graph
from fusionopt.dialects.graph_base import element_of, shape_of
from fusionopt.transforms.graph.graph_ir import OpBuilder, dense_constant, is_constant
from fusionopt.transforms.graph.horizontal_layers import FusedLayer, epilogue, is_run, join
from fusionopt.transforms.graph.horizontal_linear import Linear

PADDED, BLOCK = "padded", "block"


def unequal_key(lin: Linear) -> tuple:
    """Members of one unequal batch: 2-D layers with the same rows, element type, epilogue."""
    return (shape_of(lin.lhs)[0], element_of(lin.weight), lin.epilogue)


def _dims(lin: Linear) -> tuple[int, int]:
    k, n = shape_of(lin.weight)
    return k, n


# ---- pricing --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pricing:
    """Prices the forms of one group on `profile`. Where the activations already are one value,
    no staging is priced: `lhs_side_by_side` (one `[M, sum K]` column range in member order,
    consecutive lanes of a WIDE layer: BLOCK needs it) and `lhs_stacked` (one `[G, M, K]` batch
    range, consecutive lanes of an unpadded BATCHED layer with K = that layer's N)."""

    profile: DeviceProfile
    lhs_side_by_side: bool = False
    lhs_stacked: bool = False

    def _kernel(self, flops: float, elements: float, lin: Linear) -> float:
        nbytes = elements * element_bytes(element_of(lin.weight))
        return estimate_seconds(flops, nbytes, self.profile)

    @staticmethod
    def _epilogue_ops(lin: Linear) -> int:
        return int(lin.bias_add is not None) + 2 * int(lin.silu_mul is not None)

    def _layer(self, lin: Linear, g: int, m: int, k: int, n: int) -> float:
        """One dot kernel `[g, m, k] x [g, k, n]` with the members' epilogue."""
        flops = g * (2 * m * k * n + self._epilogue_ops(lin) * m * n)
        elements = g * (m * k + k * n + m * n + (n if lin.bias_add is not None else 0))
        return self._kernel(flops, elements, lin)

    def _copies(self, lin: Linear, sizes: Sequence[int], padded: Sequence[int]) -> float:
        """Joining pieces of `sizes` elements into slots of `padded` elements: one copy per
        piece (dispatch formation makes each a `flow.tensor.update`) and a pad kernel for each
        piece smaller than its slot."""
        cost = sum(self._kernel(0, 2 * slot, lin) for slot in padded)
        return cost + sum(self._kernel(0, size + slot, lin)
                          for size, slot in zip(sizes, padded) if size < slot)

    def _runtime_weights(self, members: Sequence[Linear], slots: Sequence[int]) -> float:
        if all(is_constant(lin.weight) and (lin.bias is None or is_constant(lin.bias))
               for lin in members):
            return 0.0
        return self._copies(members[0], [k * n for k, n in map(_dims, members)], slots)

    def separate(self, members: Sequence[Linear]) -> float:
        m = shape_of(members[0].lhs)[0]
        return sum(self._layer(lin, 1, m, *_dims(lin)) for lin in members)

    def padded(self, members: Sequence[Linear]) -> float:
        first, g, m = members[0], len(members), shape_of(members[0].lhs)[0]
        ks, ns = zip(*map(_dims, members))
        kmax, nmax = max(ks), max(ns)
        cost = self._layer(first, g, m, kmax, nmax)
        if not self.lhs_stacked:
            cost += self._copies(first, [m * k for k in ks], [m * kmax] * g)
        return cost + self._runtime_weights(members, [kmax * nmax] * g)

    def block(self, members: Sequence[Linear]) -> float:
        first, m = members[0], shape_of(members[0].lhs)[0]
        ks, ns = zip(*map(_dims, members))
        if not self.lhs_side_by_side:
            return float("inf")  # built only on a view (see the module doc)
        cost = self._layer(first, 1, m, sum(ks), sum(ns))
        return cost + self._runtime_weights(members, [k * sum(ns) for k in ks])

    def best(self, members: Sequence[Linear], forms: Sequence[str]) -> tuple[str, float] | None:
        """The cheapest form when it is cheaper than the separate kernels, else None."""
        cost, form = min((getattr(self, form)(members), form) for form in forms)
        return (form, cost) if cost < self.separate(members) else None


def plan(members: list[Linear], forms: Sequence[str], min_group: int,
         pricing: Callable[[list[Linear]], Pricing]) -> tuple[str, list[Linear]] | None:
    """The form and the members to batch in it (see the module doc); None when no group of
    >= `min_group` pays. While the group does not pay, the member whose removal leaves the
    cheapest whole (the rest in its best form, the removed one on its own) is dropped.
    `pricing(group)`: the `Pricing` of that group (where its activations are)."""
    group = list(members)
    while len(group) >= min_group:
        found = pricing(group).best(group, forms)
        if found is not None:
            return found[0], group

        def total_without(lin: Linear) -> float:
            rest = [m for m in group if m is not lin]
            fused = min(getattr(pricing(rest), form)(rest) for form in forms)
            return fused + pricing([lin]).separate([lin])

        group.remove(min(group, key=total_without))
    return None


# ---- emitting -------------------------------------------------------------------------------


def _pad_constant(value: SSAValue, low: Sequence[int], high: Sequence[int]) -> ConstantOp:
    """A constant padded with zero bytes (+0 for every float type, 0 for integers)."""
    attr = dense_constant(value)
    assert attr is not None
    shape = tuple(attr.get_shape())
    itemsize = attr.get_element_type().compile_time_size
    raw = np.frombuffer(attr.data.data, dtype=np.uint8).reshape(-1, itemsize)
    raw = np.broadcast_to(raw, (int(np.prod(shape)), itemsize)) if raw.shape[0] == 1 else raw
    padded = np.pad(raw.reshape(*shape, itemsize), [*zip(low, high), (0, 0)])
    out_type = TensorType(attr.get_element_type(), list(padded.shape[:-1]))
    return ConstantOp(DenseIntOrFPElementsAttr(out_type, BytesAttr(padded.tobytes())))


def pad_zeros(b: OpBuilder, value: SSAValue, low: Sequence[int], high: Sequence[int]) -> SSAValue:
    """`value` with zeros around it: folded when it is a constant, a `graph.pad` otherwise."""
    if not any(low) and not any(high):
        return value
    if is_constant(value):
        return b.add(_pad_constant(value, low, high))
    return b.add(graph.PadOp(value, low, high, 0))


def emit_padded_layer(b: OpBuilder, lhs: SSAValue | Sequence[SSAValue],
                      members: list[Linear]) -> FusedLayer:
    """`dot(stack(pad(x_i))[G, M, Kmax], stack(pad(W_i))[G, Kmax, Nmax])` + epilogue; `lhs` is
    the activations, or the `[G, M, K]` value that already stacks them."""
    kmax, nmax = (max(d) for d in zip(*map(_dims, members)))
    stacked = lhs if isinstance(lhs, SSAValue) else join(
        b, [pad_zeros(b, x, [0, 0], [0, kmax - shape_of(x)[1]]) for x in lhs], 0, stack=True)
    weights = [pad_zeros(b, m.weight, [0, 0], [kmax - _dims(m)[0], nmax - _dims(m)[1]])
               for m in members]
    value = b.add(graph.DotOp(stacked, join(b, weights, 0, stack=True)))
    biases = [pad_zeros(b, m.bias, [0], [nmax - m.n]) for m in members if m.bias is not None]
    value = epilogue(b, value, members, (0, 2), stack=True, biases=biases)
    return FusedLayer(value, batched=True, members=members)


def emit_block_layer(b: OpBuilder, lhs: SSAValue, members: list[Linear]) -> FusedLayer:
    """`dot(lhs[M, sum K], blockdiag(W_i)[sum K, sum N])` + epilogue, a WIDE layer."""
    total, start, rows = sum(m.n for m in members), 0, []
    for m in members:
        rows.append(pad_zeros(b, m.weight, [0, start], [0, total - start - m.n]))
        start += m.n
    value = b.add(graph.DotOp(lhs, join(b, rows, 0, stack=False)))
    value = epilogue(b, value, members, (1,), stack=False)
    return FusedLayer(value, batched=False, members=members)


def lanes_side_by_side(layer: FusedLayer, lanes: Sequence[int]) -> bool:
    """True when `lanes` of `layer` are one column range of it, in order (a view)."""
    return not layer.batched and is_run(lanes)


def lanes_stacked(layer: FusedLayer, lanes: Sequence[int], members: Sequence[Linear]) -> bool:
    """True when `lanes` of `layer` are one batch range `[g, M, K]` of it, each member's K
    the layer's full width (a view)."""
    width = shape_of(layer.value)[-1]
    return (layer.batched and not layer.padded and is_run(lanes)
            and all(_dims(m)[0] == width for m in members))


def wide_lanes(b: OpBuilder, layer: FusedLayer, lanes: Sequence[int]) -> SSAValue:
    """Consecutive lanes of a WIDE layer as one `[M, sum N]` column range."""
    start = layer.offsets[lanes[0]]
    end = layer.offsets[lanes[-1]] + layer.members[lanes[-1]].n
    return b.slice(layer.value, 1, start, end)
