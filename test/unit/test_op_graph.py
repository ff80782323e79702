"""`fusion-stats --dot/--svg`: the dataflow picture (fusionopt.op_graph).

The DOT text itself is checked by test/lit/stats/dot.mlir; here: SVG rendering through the
first Graphviz found (skipped with the reason when none is installed), the located user error
when none is, and that the picture of the README's main job shows its three dispatches.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from fusionopt import op_graph
from fusionopt.ir_io import parse_file
from fusionopt.testing import apply_pipeline

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "mlp_towers.mlir"
needs_renderer = pytest.mark.skipif(
    op_graph.find_renderer() is None,
    reason="no Graphviz renderer (`dot` or graphviz-pure from the `pictures` extra) is installed",
)


def main_job_modules():
    before = parse_file(str(EXAMPLE))
    after = apply_pipeline(parse_file(str(EXAMPLE)), "graph-to-dispatch")
    return [("before", before), ("after", after)]


def test_main_job_picture_has_one_cluster_per_dispatch():
    dot = op_graph.to_dot(main_job_modules())
    assert dot.count("subgraph cluster_d") == 3  # the three dispatches of the towers
    assert dot.count("label=\"graph.dot\\n") == 12  # the twelve dots before
    assert dot.count("subgraph cluster_f") == 2  # before and after side by side


@needs_renderer
def test_svg_renders(tmp_path: Path):
    out = tmp_path / "pair.svg"
    result = subprocess.run(
        [sys.executable, "-m", "fusionopt.tools.fusion_stats", str(EXAMPLE), str(EXAMPLE), "--svg", str(out)],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    svg = out.read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "before: @mlp_towers" in svg


def test_svg_without_renderer_is_a_user_error(monkeypatch, tmp_path: Path, capsys):
    from fusionopt.tools import fusion_stats

    monkeypatch.setattr(op_graph, "find_renderer", lambda: None)
    out = tmp_path / "x.svg"
    code = fusion_stats.main([str(EXAMPLE), "--svg", str(out)])
    assert code == 1
    assert "no Graphviz renderer found" in capsys.readouterr().err
    assert not out.exists()
