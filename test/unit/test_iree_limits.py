"""bench/iree_limits.py: the IREE 3.13 limits that region formation works around still hold (what
fails to build, and what builds but computes wrong numbers), and the form
`linalg-horizontal-fuse-1x1-convs` emits still builds.

A case that starts to build after an IREE upgrade fails here on purpose: the pass that avoids it
(named in the bench script's docstring) can then stop avoiding it. Skipped without IREE.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fusionopt.iree_tools import iree_available

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import iree_limits  # noqa: E402

WRITE_CONFLICT = "write affecting operations on global resources are restricted to workgroup distributed contexts"
# case -> None (builds) or a piece of IREE's first error
EXPECTED = {
    "pool_stored_plain_and_padded": WRITE_CONFLICT,
    "siblings_padded_into_equal_splats": WRITE_CONFLICT,
    "siblings_with_4d_epilogues": "slice along dimension 3 runs out-of-bounds",
    "siblings_with_rank3_epilogues": None,
    "shuffle_stored_plain_and_padded": WRITE_CONFLICT,
    "residual_through_slice_in_region": WRITE_CONFLICT,
    "residual_through_flat_offset_map": None,
    "pool_stored_into_padded_splat": None,
    "pool_padded_in_region": None,
    "channels_last_conv_into_padded": None,
    "channels_last_conv_into_column_padded": "slice along dimension 3 runs out-of-bounds",
    "channels_last_conv_transposed_into_padded": None,
    "two_transposes_across_unfold": "exceeded stack allocation limit",
    "one_transpose_of_unfold": None,
    "config_over_strided_collapse": "large vector sizes",
    "strided_collapse_without_config": None,
    "attention_then_unit_expand": "large vector sizes",
    "attention_then_epilogue": None,
    "contraction_stored_twice_through_split": WRITE_CONFLICT,
    "reduction_kept_dim_broadcast": "failed to run translation",
    "reduction_broadcast": None,
    "unit_reads_in_conv_epilogue": WRITE_CONFLICT,
    "rank_0_read_in_conv_epilogue": None,
    "matvec_through_unit_expand": WRITE_CONFLICT,
    "matvec_epilogue_flat": None,
    "transposed_matmul_into_padded": None,
    "im2col_unit_height_disjoint_windows": None,
    "im2col_unit_height_overlapping_windows": None,
    "instance_norm_chain_2x16x56x56": "exceeded stack allocation limit",
    "instance_norm_chain_2x24x28x28": None,
    "scan_growing_buffers_38_steps": "failed to solve for usage analysis",
    "scan_growing_buffers_34_steps": None,
    "scan_one_buffer_64_steps": None,
    "layer_norm_chain_64_rows_of_8192": None,
    "reduction_unit_expand_then_transposed_write": WRITE_CONFLICT,
    "reduction_unit_expand_then_unit_loop": WRITE_CONFLICT,
    "reduction_unit_expand_epilogue_then_transposed_write": WRITE_CONFLICT,
    "reduction_then_transposed_write": None,
    "reduction_epilogue_then_transposed_write": None,
    "reduction_unit_expand_then_copy": None,
    "epilogue_kept_dim_broadcast": "failed to run translation",
    "epilogue_collapsed_broadcast": None,
    "reshape_then_unit_dim_dropped": "exceeded stack allocation limit",
    "reshape_then_unit_dim_kept": None,
    "i1_stored_and_widened": WRITE_CONFLICT,
    "i1_widened_only": None,
}
# CUDA sm_80 case -> None (builds) or a piece of IREE's first error
CUDA_EXPECTED = {
    "transpose_through_unit_collapse_split": "exceeded the limit of 166912 bytes",
    "transpose_through_split": None,
    "gathered_matvecs_in_payload": "failed to distribute",
    "gathered_matvecs_copied": None,
}
# run case -> device -> how its output starts: "right", "wrong" or "crashes" (or any of a tuple)
RUN_EXPECTED = {
    "pool_stored_into_padded_splat": {"local-sync": "crashes", "local-task": "wrong"},
    "pool_padded_in_region": {"local-sync": "wrong", "local-task": "wrong"},
    "channels_last_conv_into_padded": {"local-sync": "right", "local-task": "right"},
    "channels_last_conv_transposed_into_padded": {"local-sync": "crashes", "local-task": "wrong"},
    # its stores land outside the buffer: a crash or wrong values, run to run
    "transposed_matmul_into_padded": {"local-sync": ("crashes", "wrong"), "local-task": ("crashes", "wrong")},
    "im2col_unit_height_disjoint_windows": {"local-sync": "wrong", "local-task": "wrong"},
    "im2col_unit_height_overlapping_windows": {"local-sync": "right", "local-task": "right"},
}


def test_every_case_is_pinned():
    assert sorted(iree_limits.CASES) == sorted(EXPECTED)
    assert sorted(iree_limits.RUN_CASES) == sorted(RUN_EXPECTED)
    assert sorted(iree_limits.CUDA_CASES) == sorted(CUDA_EXPECTED)
    assert all(sorted(devices) == sorted(iree_limits.DEVICES) for devices in RUN_EXPECTED.values())


@pytest.mark.skipif(not iree_available(), reason="iree-compile absent")
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_iree_builds_what_it_did(name: str, tmp_path: Path):
    error = iree_limits.try_build(iree_limits.CASES[name], tmp_path, name)
    if EXPECTED[name] is None:
        assert error is None, error
    else:
        assert error is not None and EXPECTED[name] in error, f"IREE now builds or fails differently: {error}"


@pytest.mark.skipif(not iree_available(), reason="iree-compile absent")
@pytest.mark.parametrize("name", sorted(CUDA_EXPECTED))
def test_iree_builds_for_cuda_what_it_did(name: str, tmp_path: Path):
    error = iree_limits.try_build(iree_limits.CUDA_CASES[name], tmp_path, name, "cuda")
    if CUDA_EXPECTED[name] is None:
        assert error is None, error
    else:
        assert error is not None and CUDA_EXPECTED[name] in error, f"IREE now builds or fails differently: {error}"


@pytest.mark.skipif(not iree_available(), reason="iree-compile absent")
@pytest.mark.parametrize("name", sorted(RUN_EXPECTED))
def test_iree_runs_what_it_built_as_it_did(name: str, tmp_path: Path):
    assert iree_limits.try_build(iree_limits.CASES[name], tmp_path, name) is None
    for device, want in RUN_EXPECTED[name].items():
        got = iree_limits.try_run(name, tmp_path, device)
        assert got.startswith(want), f"{name} on {device}: IREE now gives {got!r}, was {want!r}"
