"""docs/passes.md is generated from the registry and the pass docstrings (docs/gen_passes.py):
the checked-in page must be what the generator writes now, so it cannot drift from the code."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs"))
import gen_passes  # noqa: E402

from fusionopt import registry  # noqa: E402


def test_checked_in_passes_page_matches_the_registry():
    expected = gen_passes.render()
    actual = gen_passes.OUTPUT.read_text()
    assert actual == expected, (
        f"docs/passes.md is out of date with fusionopt/registry.py or a pass docstring; "
        f"regenerate it with `{gen_passes.COMMAND}` and commit the result"
    )


def test_every_registered_pass_and_pipeline_is_on_the_page():
    page = gen_passes.render()
    for name in (*registry._PASS_MODULES, *registry.PIPELINES):
        assert f"`{name}`" in page, name


def test_option_meanings_are_read_from_the_options_section():
    doc = """Summary.

    Options:
      alpha -- the first, spread
               over two lines.
      beta-gamma, delta (int, default 3): shared text.
    (a closing remark, not an option)
    """
    assert gen_passes.option_texts(doc) == {
        "alpha": "the first, spread over two lines.",
        "beta-gamma": "shared text.",
        "delta": "shared text.",
    }


def test_pipelines_that_set_options_name_them():
    uses = gen_passes.pipeline_uses()
    assert "`graph-simplify-strict-nonfinite` (`strict-nonfinite=true`)" in uses["graph-reassociate-dots"]
    assert "`graph-simplify`" in uses["graph-reassociate-dots"]
    assert "dispatch-matmul-to-mmt4d" not in uses  # opt-in: in no pipeline
