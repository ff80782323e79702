"""The MIGraphX program of three MLP towers of unequal widths over one input.

Tower t is `silu(silu(x @ W0_t + b0_t) @ W1_t + b1_t)` with hidden widths `HIDDEN` (4/6/4) and
outputs `OUT` (4/3/5); the three outputs are concatenated on axis 1. The first layers share `x`
(`graph-horizontal-fuse-dots` concatenates their weights); the second layers have three
different shapes, which only an unequal-shape batching (padded or block-diagonal) joins.

Printed with `migraphx_programs.MigraphxPrinter`, except that every literal is written out:
MIGraphX's own dump elides literals of more than 10 elements (`{ ... }`), which the importer
turns into function arguments, and this program is about constant weights.
`python test/support/migraphx_unequal_towers.py` rewrites `test/data/migraphx/unequal_towers.txt`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # test/, when run as a script
from support.migraphx_programs import TYPE_NAMES, MigraphxPrinter, _csv  # noqa: E402

ROWS, IN = 16, 4
HIDDEN = (4, 6, 4)
OUT = (4, 3, 5)
DATA_FILE = Path(__file__).resolve().parents[1] / "data" / "migraphx" / "unequal_towers.txt"


def _weights() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(39)

    def small(*shape):  # multiples of 1/8 in [-1, 1]: exact in f32, short when printed
        return (rng.integers(-8, 9, size=shape) / 8).astype(np.float32)

    weights = {}
    for t, (hidden, out) in enumerate(zip(HIDDEN, OUT)):
        weights[f"t{t}_w0"], weights[f"t{t}_b0"] = small(IN, hidden), small(hidden)
        weights[f"t{t}_w1"], weights[f"t{t}_b1"] = small(hidden, out), small(out)
    return weights


WEIGHTS = _weights()


class FullLiteralPrinter(MigraphxPrinter):
    """Writes every literal's values, however many."""

    def literal(self, array: np.ndarray) -> str:
        assert all(float(f"{v:g}") == v for v in array.ravel()), "not exact in 6 digits"
        values = "{" + _csv(f"{v:g}" for v in array.ravel()) + "}"
        return self._add(f"@{self.count}", f"@literal{values}", TYPE_NAMES[array.dtype], array.shape)


def unequal_towers() -> str:
    p = FullLiteralPrinter()
    x = p.param("x", [ROWS, IN])
    towers = []
    for t in range(len(HIDDEN)):
        hidden = p.silu(p.linear(x, WEIGHTS[f"t{t}_w0"], WEIGHTS[f"t{t}_b0"]))
        towers.append(p.silu(p.linear(hidden, WEIGHTS[f"t{t}_w1"], WEIGHTS[f"t{t}_b1"])))
    out = p.op("concat", towers, [ROWS, sum(OUT)], "axis=1")
    p.lines.append(f"@{p.count} = @return({out})")
    return p.text()


def numpy_model(x: np.ndarray, dtype) -> np.ndarray:
    """The program's meaning in numpy, in `dtype`."""
    w = {k: v.astype(dtype) for k, v in WEIGHTS.items()}
    x = x.astype(dtype)

    def silu(v):
        return v / (1 + np.exp(-v))

    return np.concatenate([silu(silu(x @ w[f"t{t}_w0"] + w[f"t{t}_b0"]) @ w[f"t{t}_w1"]
                                + w[f"t{t}_b1"]) for t in range(len(HIDDEN))], axis=1)


if __name__ == "__main__":
    DATA_FILE.write_text(unequal_towers())
