"""bench/sibling_1x1_forms.py: the forms it times compute the same values (else its ratios mean
nothing), and `ours` really is one dispatch for the convs of one filter count.

A small Inception-like block (a plain 1x1 branch and two reductions padded by 1 and 2, the last
of another filter count) is built in every form and run on one input; `check_agreement` compares
each form with IREE's own build. Skipped when the IREE tools are absent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from fusionopt.iree_tools import cpu_flags, flow_dispatch_names, iree_available

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import sibling_1x1_forms as forms  # noqa: E402

needs_iree = pytest.mark.skipif(not iree_available(), reason="iree-compile / iree-benchmark-module / iree.runtime absent")
BLOCK = forms.Block("small", 8, 4, (4, 4, 2), (0, 1, 2))


@needs_iree
def test_every_form_agrees_with_iree(tmp_path: Path):
    vmfbs = forms.build(BLOCK, tmp_path)
    assert set(vmfbs) == {"iree", "ours", "one_rank3_padded_filters", "one_flat_padded_filters"}
    forms.check_agreement(BLOCK, vmfbs, forms.block_inputs(BLOCK, np.random.default_rng(0)))


@needs_iree
def test_ours_fuses_the_convs_of_one_filter_count(tmp_path: Path):
    forms.build(BLOCK, tmp_path)
    names = {form: flow_dispatch_names(tmp_path / f"small.{form}.{suffix}", cpu_flags())
             for form, suffix in (("iree", "mlir"), ("ours", "formed.mlir"), ("one_rank3_padded_filters", "mlir"))}
    assert [len(names[f]) for f in ("iree", "ours", "one_rank3_padded_filters")] == [3, 2, 1]
    assert not any("slow_memcpy" in n for ns in names.values() for n in ns)
