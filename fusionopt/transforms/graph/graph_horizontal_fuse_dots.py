"""`graph-horizontal-fuse-dots`: batch independent Linear layers into fewer, bigger GEMMs.

Two kinds of group start a fusion (MIGraphX `fuse_horizontal.cpp`, IREE
`FuseHorizontalContractions`):
- shared LHS: dots reading the same activation with constant weights `[K, N_i]` become one dot
  on the N-concatenated weights (the WIDE layout, lanes recovered by slices); dots reading
  separate reshapes of one input to one type count as sharing it; with `fuse-batched-dots`,
  batched dots `[B, M, K] x [B, K, N_i]` too (MIGraphX `simplify_dot_horiz`,
  `simplify_dot_horiz_reshape`: concatenated on the last axis);
- towers: dots with different activations but identical shapes and constant weights become one
  batched dot `[G, M, K] x [G, K, N]` on stacked activations and weights; a dot in a shared-LHS
  group is never also a tower member (its activation would be stacked once per member);
- unequal towers (`horizontal_unequal`): 2-D layers with the same M, element type and epilogue
  but different K or N, zero-padded to a common `[G, K, N]` or as one block-diagonal dot,
  whichever the roofline cost model prices cheapest, and only when that beats the separate dots.
  Roots of this kind (distinct activations: padded only) are formed once no equal-shape group
  is left; in a chain, the lanes whose next layers no equal-shape group takes are priced
  together (block-diagonal only for consecutive lanes of a WIDE layer, a view).
Bias adds and SiLU epilogues are absorbed into the fused layer; the epilogue kind is part of the
grouping key, so every member of a group has the same epilogue. Members never depend on each
other (no path between any two).

The rewrite is chain-aware: from a fused layer it follows each lane into the next Linear, groups
those by key, and feeds the next batched dot straight from the fused tensor, so 4 towers x 3
layers become 3 dots without slice/concat round trips. Lanes are sliced back only for uses that
leave the chain, and `concat(lanes in order)` folds back into the fused tensor.

What the unequal forms rely on: the padded form is exact on every input (literal zero padding
meets zero weight rows; padded output columns, NaN where an activation is inf, are sliced off
and never read); the block-diagonal form relies on finite activations (inf * 0 from one lane's
activation would land in another lane's outputs), the fast-math contract `graph-simplify` makes,
and `strict-nonfinite=true` leaves it out.

Guard (as MIGraphX): towers whose activations are all slices (through <= 4 pointwise ops) of one
tensor and that all carry an epilogue are left alone: each dot would fuse with its slice and its
epilogue anyway, which beats a batched GEMM with separate stacking and slicing kernels.

Options:
  min-group (int, default 2): smallest number of members worth fusing.
  allow-runtime-concat (bool, default false): also fuse dots whose weights (and biases) are not
    constants, concatenating them at run time (a copy kernel per fused layer).
  unequal-shapes (bool, default true): also batch towers of unequal shapes when cheaper.
  strict-nonfinite (bool, default false): keep infinities and NaN where the input program has
    them: no block-diagonal batching (the padded form stays).
  device (str, default "cpu"): the `fusionopt.device_profiles` profile the unequal forms are
    priced on.
  tower-matvecs (bool, default true): also batch towers whose activations are single rows
    (matrix-vector products). The llvm-cpu pipelines set false: a matvec reads every weight once
    and is bound by memory, IREE 3.13 packs a constant 2-D weight into panels for it but not a
    batched one, and the two directions of a bidirectional LSTM step batched as one
    [2, 1, 256] x [2, 256, 1024] ran at 11 GFLOP/s against 44 for the two packed matvecs (one
    Zen 4 core: the whole 2-layer LSTM 14.1 ms batched, 5.05 ms not).
  fuse-batched-dots (bool, default false): also fuse shared-input dots with batch dims
    (`[B, M, K] x [B, K, N_i]`). Off by default: until dispatch formation fuses the lane slices
    into their consumers, `fusion-stats` counts as many or more dispatches and more bytes moved
    after it (MIGraphX's `simplify_dot_horiz` cases: 2 -> 2 dispatches, 1.2-2.3x the bytes).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from fusionopt import pass_statistics
from fusionopt.device_profiles import DeviceProfile, get_profile
from fusionopt.dialects.util import functions_with_body

from fusionopt.transforms.graph.horizontal_concat_fold import fold_piece_concats
from fusionopt.transforms.graph.horizontal_layers import (
    FusedLayer,
    batched_input,
    emit_batched_layer,
    emit_wide_layer,
    lane_value,
    stack_inputs,
)
from fusionopt.transforms.graph.horizontal_linear import Linear, continuation, match_linear, slice_source
from fusionopt.transforms.graph.horizontal_unequal import (
    BLOCK,
    PADDED,
    Pricing,
    emit_block_layer,
    emit_padded_layer,
    lanes_side_by_side,
    lanes_stacked,
    plan,
    unequal_key,
    wide_lanes,
)
from fusionopt.transforms.graph.graph_ir import (
    OpBuilder,
    ReachCache,
    erase_if_dead,
    greedy_independent_groups,
    stable_topological_sort,
)


@dataclass(frozen=True)
class RootGroup:
    members: list[Linear]
    wide: bool  # shared LHS (N-concat) rather than stacked towers
    unequal: bool = False  # towers of unequal shapes, zero-padded


def prefers_vertical_fusion(members: list[Linear]) -> bool:
    """MIGraphX's guard: every activation is a slice of one tensor and every dot has an
    epilogue, so per-dot slice -> dot -> epilogue kernels are better than batching."""
    sources = {slice_source(m.lhs) for m in members}
    has_epilogue = all(m.bias_add is not None or m.silu_mul is not None for m in members)
    return has_epilogue and len(sources) == 1 and None not in sources


def _independent_subgroups(members: list[Linear], cache: ReachCache) -> list[list[Linear]]:
    by_dot = {m.dot: m for m in members}
    groups = greedy_independent_groups([m.dot for m in members], cache)
    return [[by_dot[d] for d in g] for g in groups]  # type: ignore[index]


class HorizontalDotFuser:
    """Fuses groups in one block until no group is left (one root group per round)."""

    def __init__(self, min_group: int, allow_runtime: bool, batched: bool = False,
                 profile: DeviceProfile | None = None, strict_nonfinite: bool = False,
                 tower_matvecs: bool = True):
        self.min_group = min_group
        self.allow_runtime = allow_runtime
        self.batched = batched
        self.tower_matvecs = tower_matvecs
        self.profile = profile  # None: towers of unequal shapes are not batched
        self.forms = (PADDED,) if strict_nonfinite else (PADDED, BLOCK)

    # ---- choosing root groups -----------------------------------------------------------

    def candidates(self, block: Block) -> list[Linear]:
        return [lin for op in block.ops if (lin := match_linear(op, self.allow_runtime))]

    def root_groups(self, linears: list[Linear]) -> list[RootGroup]:
        """Groups in program order of their first member; shared-LHS groups first on ties."""
        position = {lin.dot: i for i, lin in enumerate(linears)}
        shared: dict[tuple, list[Linear]] = defaultdict(list)
        towers: dict[tuple, list[Linear]] = defaultdict(list)
        for lin in linears:
            if lin.rank == 2 or self.batched:
                shared[lin.shared_key()].append(lin)
            if self._stacks_as_tower(lin):  # towers stack 2-D layers into [G, M, K] x [G, K, N]
                towers[lin.tower_key()].append(lin)
        cache = ReachCache()
        found: list[tuple[int, int, RootGroup]] = []
        in_wide: set[Operation] = set()
        for wide, table in ((True, shared), (False, towers)):
            for members in table.values():
                # A tower stacks its activations: one that several members share would be copied
                # in once per member (RT-DETR's six decoder layers' value projections of one
                # encoder memory beside the encoder head's): those members go WIDE instead.
                members = members if wide else [m for m in members if m.dot not in in_wide]
                for group in _independent_subgroups(members, cache):
                    if self._worth_fusing(group, wide):
                        found.append((position[group[0].dot], 0 if wide else 1,
                                      RootGroup(group, wide)))
                        if wide:
                            in_wide.update(m.dot for m in group)
        found.sort(key=lambda item: item[:2])
        if not found and self.profile is not None:
            return self.unequal_root_groups(linears, cache)
        return [group for _, _, group in found]

    def unequal_root_groups(self, linears: list[Linear], cache: ReachCache) -> list[RootGroup]:
        """Towers of unequal 2-D shapes over distinct activations, where a form pays."""
        table: dict[tuple, list[Linear]] = defaultdict(list)
        for lin in linears:
            if self._stacks_as_tower(lin):
                table[unequal_key(lin)].append(lin)
        found = []
        for members in table.values():
            for group in _independent_subgroups(members, cache):
                if not self._worth_fusing(group, wide=False):
                    continue
                chosen = plan(group, self.forms, self.min_group, lambda _: Pricing(self.profile))
                if chosen is not None and len({m.lhs for m in chosen[1]}) > 1:
                    found.append(RootGroup(chosen[1], wide=False, unequal=True))
        return found

    def _stacks_as_tower(self, lin: Linear) -> bool:
        return lin.rank == 2 and (self.tower_matvecs or lin.lhs.type.get_shape()[0] != 1)

    def _worth_fusing(self, group: list[Linear], wide: bool) -> bool:
        if len(group) < self.min_group:
            return False
        if wide:
            return True
        # One shared activation is the WIDE case; towers must also pass MIGraphX's guard.
        return len({m.lhs for m in group}) > 1 and not prefers_vertical_fusion(group)

    # ---- fusing a chain -----------------------------------------------------------------

    def run(self, block: Block) -> bool:
        changed = False
        while groups := self.root_groups(self.candidates(block)):
            self.fuse_chain(block, groups[0])
            changed = True
        if changed:
            fold_piece_concats(block)
            stable_topological_sort(block)
        return changed

    def fuse_chain(self, block: Block, root: RootGroup) -> None:
        b = OpBuilder(root.members[0].dot)
        if root.wide:
            # Members may read separate reshapes of one input (same type): use the first's.
            layer = emit_wide_layer(b, root.members[0].lhs, root.members)
        elif root.unequal:
            layer = emit_padded_layer(b, [m.lhs for m in root.members], root.members)
        else:
            layer = emit_batched_layer(b, stack_inputs(b, [m.lhs for m in root.members]),
                                       root.members)
        replaced: list[Operation] = []
        worklist = [layer]
        while worklist:
            layer = worklist.pop(0)
            pass_statistics.count("dots batched", len(layer.members))
            replaced.extend(op for m in layer.members for op in m.ops)
            continued = self.continue_chain(b, layer, worklist)
            for lane, member in enumerate(layer.members):
                self.redirect_exits(b, layer, lane, member, continued.get(lane))
        erase_if_dead(replaced + b.created)
        stable_topological_sort(block)

    def continue_chain(self, b: OpBuilder, layer: FusedLayer, worklist: list[FusedLayer]):
        """Batch the next Linear of each lane, keyed like roots; returns lane -> next dot."""
        nexts = [continuation(m, self.allow_runtime) for m in layer.members]
        by_key: dict[tuple, list[int]] = defaultdict(list)
        for lane, nxt in enumerate(nexts):
            if nxt is not None:
                by_key[nxt.tower_key()].append(lane)
        continued: dict[int, Operation] = {}
        cache = ReachCache()
        for lanes in by_key.values():
            members = [nexts[i] for i in lanes]
            if len(lanes) < self.min_group or len(_independent_subgroups(members, cache)) != 1:
                continue
            x = batched_input(b, layer, lanes)
            worklist.append(emit_batched_layer(b, x, members))  # type: ignore[arg-type]
            continued.update((i, nexts[i].dot) for i in lanes)  # type: ignore[union-attr]
        if self.profile is not None:
            left = {i: nxt for i, nxt in enumerate(nexts) if nxt is not None and i not in continued}
            self.continue_unequal(b, layer, left, worklist, continued)
        return continued

    def continue_unequal(self, b: OpBuilder, layer: FusedLayer, nexts: dict[int, Linear],
                         worklist: list[FusedLayer], continued: dict[int, Operation]) -> None:
        """Batch the next Linears that no equal-shape group took, where a form pays."""
        by_key: dict[tuple, list[int]] = defaultdict(list)
        for lane, nxt in nexts.items():
            by_key[unequal_key(nxt)].append(lane)
        cache = ReachCache()
        for lanes in by_key.values():
            members = [nexts[i] for i in lanes]
            if len(lanes) < self.min_group or len(_independent_subgroups(members, cache)) != 1:
                continue
            pricing = self._lane_pricing(layer, {id(nexts[i]): i for i in lanes})
            chosen = plan(members, self.forms, self.min_group, pricing)
            if chosen is None:
                pass_statistics.count("unequal groups kept (cost)")
                continue
            form, kept = chosen
            lanes = [i for i in lanes if nexts[i] in kept]
            if form == PADDED:
                x = (batched_input(b, layer, lanes) if lanes_stacked(layer, lanes, kept)
                     else [lane_value(b, layer, i) for i in lanes])
                worklist.append(emit_padded_layer(b, x, kept))
            else:
                worklist.append(emit_block_layer(b, wide_lanes(b, layer, lanes), kept))
            pass_statistics.count(f"unequal layers ({form})")
            continued.update((i, nexts[i].dot) for i in lanes)

    def _lane_pricing(self, layer: FusedLayer, lane_of: dict[int, int]):
        """Prices a group of next Linears by where their activations sit in `layer`
        (`lane_of`: id of a Linear -> its lane)."""

        def pricing(group: list[Linear]) -> Pricing:
            own = [lane_of[id(m)] for m in group]
            return Pricing(self.profile, lanes_side_by_side(layer, own),  # type: ignore[arg-type]
                           lanes_stacked(layer, own, group))

        return pricing

    @staticmethod
    def redirect_exits(b: OpBuilder, layer: FusedLayer, lane: int, member: Linear,
                       continued_dot: Operation | None) -> None:
        """Uses of the member's output outside the chain read the lane of the fused value."""
        output = member.output
        if all(use.operation is continued_dot for use in output.uses):
            return
        value = lane_value(b, layer, lane)
        output.replace_uses_with_if(value, lambda use: use.operation is not continued_dot)


@dataclass(frozen=True)
class GraphHorizontalFuseDotsPass(ModulePass):
    """Batch independent `graph.dot` Linear layers (see the module docstring).

    Options: `min-group` (int, 2), `allow-runtime-concat` (bool, false),
    `fuse-batched-dots` (bool, false), `unequal-shapes` (bool, true), `strict-nonfinite`
    (bool, false), `device` (str, "cpu"), `tower-matvecs` (bool, true).
    """

    name = "graph-horizontal-fuse-dots"

    min_group: int = 2
    allow_runtime_concat: bool = False
    fuse_batched_dots: bool = False
    unequal_shapes: bool = True
    strict_nonfinite: bool = False
    device: str = "cpu"
    tower_matvecs: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        profile = get_profile(self.device) if self.unequal_shapes else None
        fuser = HorizontalDotFuser(max(2, self.min_group), self.allow_runtime_concat,
                                   self.fuse_batched_dots, profile, self.strict_nonfinite,
                                   self.tower_matvecs)
        for block in [b for func in functions_with_body(op) for b in func.body.blocks]:
            fuser.run(block)
