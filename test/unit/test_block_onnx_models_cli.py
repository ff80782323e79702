"""test/support/block_onnx_models.py as a script: `--only` writes just the blocks named, and
`--size KEY=N` builds them at that size, named after it (the decode step at a long past)."""

from __future__ import annotations

from pathlib import Path

import onnx

from support.block_onnx_models import main


def input_shapes(path: Path) -> dict[str, list[int]]:
    graph = onnx.load(str(path)).graph
    return {i.name: [d.dim_value for d in i.type.tensor_type.shape.dim] for i in graph.input}


def test_only_one_block_at_a_size(tmp_path: Path, capsys):
    main([str(tmp_path), "--only", "llama_decode", "--size", "past=9"])
    written = tmp_path / "llama_decode.past9.onnx"
    assert capsys.readouterr().out.split() == [str(written)]
    assert sorted(p.name for p in tmp_path.iterdir()) == [written.name]
    shapes = input_shapes(written)
    assert shapes["x"] == [1, 1, 256] and shapes["past_k"] == shapes["past_v"] == [1, 2, 9, 32]
