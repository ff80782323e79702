"""`form-dispatch-regions{im2col-into-contractions}` (default on): an `iree_linalg_ext.im2col`
read only by a contraction root is formed into that root's dispatch.

IREE 3.13's own formation gives the im2col op a dispatch of its own (a LinalgExt root); its CPU
codegen also builds and runs the op fused into the matmul's dispatch when the region is handed
over pre-formed: the patches are computed per tile and never written out. That recomputes them
for every filter tile, so `linalg-strided-conv-to-im2col` only emits the op for convs with few
filters, where the fused dispatch measured as fast as or faster than gather + matmul
(`linalg/im2col_op_form.py`). With the option off, IREE's rule.
"""

from __future__ import annotations

from fusionopt.transforms.common import dispatch_utils as du

IM2COL = "iree_linalg_ext.im2col"


def pull_im2col_into_contractions(analysis) -> int:
    """Move each lone im2col group into the group of the contraction that is its only reader
    (after the groups are decided: no other rule of formation changes). Returns how many."""
    moved = 0
    for group in [g for g in analysis.groups if g.root.name == IM2COL and len(g.ops) == 1]:
        users = analysis.users[group.root]
        if len(users) != 1:
            continue
        (user,) = users
        target = analysis.group_of.get(user)
        if target is None or target.root is not user or not du.is_contraction(user):
            continue
        moved += analysis.merge_lone_root(group, target)
    return moved
