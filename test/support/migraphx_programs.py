"""MIGraphX-printed programs for the importer tests, written the way MIGraphX prints them.

`MigraphxPrinter` tracks each instruction's lens and strides as MIGraphX computes them
(standard strides for computed values, permuted strides for `transpose`, the parent's strides
for `slice`, 0 for broadcast dims) and prints `instruction::print`'s format. Literals hold values
exact in f32 with <= 6 significant digits (what `operator<<` prints), at most 10 elements
(larger literals print as `{ ... }`).

`towers_chain_attention()` is the issue's acceptance program: 3 MLP towers (Linear+SiLU x 2 on
one input, concatenated), the GEMM chain X*(Y*A+b)*C, and an attention block with a fused QKV
projection split by slices; `test/data/migraphx/towers_chain_attention.txt` is its text
(`python test/support/migraphx_programs.py` rewrites it). The weights are `WEIGHTS`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

TYPE_NAMES = {np.dtype(np.float32): "float_type", np.dtype(np.int64): "int64_type",
              np.dtype(np.bool_): "bool_type", np.dtype(np.float16): "half_type"}
TOWERS, TOWER_IN, TOWER_HIDDEN, TOWER_OUT, ROWS = 3, 2, 4, 2, 16
CHAIN_N, CHAIN_K, CHAIN_M, CHAIN_P = 32, 2, 5, 1
BATCH, SEQ, HEADS, HEAD_DIM = 2, 8, 2, 4
MODEL_DIM = HEADS * HEAD_DIM


def standard_strides(lens) -> tuple[int, ...]:
    strides, step = [], 1
    for d in reversed(lens):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


def _weights() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(14)

    def small(*shape):  # multiples of 1/8 in [-1, 1]: exact in f32, short when printed
        return (rng.integers(-8, 9, size=shape) / 8).astype(np.float32)

    weights = {}
    for t in range(TOWERS):
        weights[f"t{t}_w0"] = small(TOWER_IN, TOWER_HIDDEN)
        weights[f"t{t}_b0"] = small(TOWER_HIDDEN)
        weights[f"t{t}_w1"] = small(TOWER_HIDDEN, TOWER_OUT)
        weights[f"t{t}_b1"] = small(TOWER_OUT)
    weights["A"], weights["b"], weights["C"] = (small(CHAIN_K, CHAIN_M), small(CHAIN_M),
                                                small(CHAIN_M, CHAIN_P))
    return weights


WEIGHTS = _weights()


class MigraphxPrinter:
    """Appends instructions in MIGraphX's print format; returns their names."""

    def __init__(self):
        self.lines = ['module: "main"']
        self.shapes: dict[str, tuple[str, tuple[int, ...], tuple[int, ...]]] = {}
        self.count = 0

    def _add(self, name: str, text: str, type_name: str, lens, strides=None) -> str:
        lens = tuple(lens)
        strides = standard_strides(lens) if strides is None else tuple(strides)
        self.shapes[name] = (type_name, lens, strides)
        self.lines.append(f"{name} = {text} -> {type_name}, {{{_csv(lens)}}}, {{{_csv(strides)}}}")
        self.count += name.startswith("@")  # parameters are named, not numbered
        return name

    def param(self, name: str, lens, type_name: str = "float_type") -> str:
        return self._add(name, f"@param:{name}", type_name, lens)

    def literal(self, array: np.ndarray) -> str:
        assert all(float(f"{v:g}") == v for v in array.ravel()), "not exact in 6 digits"
        values = "{ ... }" if array.size > 10 else "{" + _csv(f"{v:g}" for v in array.ravel()) + "}"
        return self._add(f"@{self.count}", f"@literal{values}", TYPE_NAMES[array.dtype],
                         array.shape or (1,), None if array.shape else (0,))

    def op(self, op: str, operands, lens=None, attrs: str = "", strides=None,
           type_name: str | None = None) -> str:
        first = self.shapes[operands[0]] if operands else ("", (), ())
        lens = first[1] if lens is None else lens
        args = f"({','.join(operands)})" if operands else ""  # no inputs: no parentheses
        text = f"{op}{f'[{attrs}]' if attrs else ''}{args}"
        return self._add(f"@{self.count}", text, type_name or first[0], lens, strides)

    def transpose(self, x: str, perm) -> str:
        _, lens, strides = self.shapes[x]
        return self.op("transpose", [x], [lens[p] for p in perm], f"permutation={{{_csv(perm)}}}",
                       [strides[p] for p in perm])

    def slice(self, x: str, axis: int, start: int, end: int) -> str:
        _, lens, strides = self.shapes[x]
        out = list(lens)
        out[axis] = end - start
        return self.op("slice", [x], out, f"axes={{{axis}}},starts={{{start}}},ends={{{end}}}",
                       strides)

    def multibroadcast(self, x: str, out_lens) -> str:
        _, lens, strides = self.shapes[x]
        offset = len(out_lens) - len(lens)
        out_strides = [0] * offset + [0 if lens[i] != out_lens[offset + i] else s
                                      for i, s in enumerate(strides)]
        return self.op("multibroadcast", [x], out_lens,
                       f"out_lens={{{_csv(out_lens)}}},out_dyn_dims={{}}", out_strides)

    def reshape(self, x: str, lens) -> str:
        return self.op("reshape", [x], lens, f"dims={{{_csv(lens)}}}")

    def linear(self, x: str, w: np.ndarray, b: np.ndarray) -> str:
        rows = self.shapes[x][1][0]
        y = self.op("dot", [x, self.literal(w)], [rows, w.shape[1]])
        return self.op("add", [y, self.multibroadcast(self.literal(b), [rows, w.shape[1]])])

    def silu(self, x: str) -> str:
        return self.op("mul", [x, self.op("sigmoid", [x])])

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _csv(values) -> str:
    return ", ".join(str(v) for v in values)


def towers_chain_attention() -> str:
    p = MigraphxPrinter()
    x = p.param("x", [ROWS, TOWER_IN])
    y = p.param("y", [CHAIN_N, CHAIN_K])
    x_chain = p.param("x_chain", [CHAIN_N, CHAIN_N])
    h = p.param("h", [BATCH, SEQ, MODEL_DIM])
    w_qkv = p.param("w_qkv", [MODEL_DIM, 3 * MODEL_DIM])
    towers = []
    for t in range(TOWERS):
        hidden = p.silu(p.linear(x, WEIGHTS[f"t{t}_w0"], WEIGHTS[f"t{t}_b0"]))
        towers.append(p.silu(p.linear(hidden, WEIGHTS[f"t{t}_w1"], WEIGHTS[f"t{t}_b1"])))
    towers_out = p.op("concat", towers, [ROWS, TOWERS * TOWER_OUT], "axis=1")
    inner = p.linear(y, WEIGHTS["A"], WEIGHTS["b"])
    chain = p.op("dot", [p.op("dot", [x_chain, inner], [CHAIN_N, CHAIN_M]),
                         p.literal(WEIGHTS["C"])], [CHAIN_N, CHAIN_P])
    attention = _attention(p, h, w_qkv)
    p.lines.append(f"@{p.count} = @return({towers_out},{chain},{attention})")
    return p.text()


def _attention(p: MigraphxPrinter, h: str, w_qkv: str) -> str:
    """Fused QKV projection, sliced into Q, K, V; 2 heads; softmax(Q K^T / 2) V."""
    qkv = p.op("dot", [h, p.multibroadcast(w_qkv, [BATCH, MODEL_DIM, 3 * MODEL_DIM])],
               [BATCH, SEQ, 3 * MODEL_DIM])
    heads = []
    for i, perm in enumerate(([0, 2, 1, 3], [0, 2, 3, 1], [0, 2, 1, 3])):
        part = p.slice(qkv, 2, i * MODEL_DIM, (i + 1) * MODEL_DIM)
        split = p.reshape(p.op("contiguous", [part]), [BATCH, SEQ, HEADS, HEAD_DIM])
        heads.append(p.transpose(split, perm))
    q, kt, v = heads
    scores = p.op("dot", [q, kt], [BATCH, HEADS, SEQ, SEQ])
    scale = p.multibroadcast(p.literal(np.array([0.5], dtype=np.float32)), [BATCH, HEADS, SEQ, SEQ])
    probs = p.op("softmax", [p.op("mul", [scores, scale])], attrs="axis=3")
    context = p.transpose(p.op("dot", [probs, v], [BATCH, HEADS, SEQ, HEAD_DIM]), [0, 2, 1, 3])
    return p.reshape(p.op("contiguous", [context]), [BATCH, SEQ, MODEL_DIM])


DATA_FILE = Path(__file__).resolve().parents[1] / "data" / "migraphx" / "towers_chain_attention.txt"

if __name__ == "__main__":
    DATA_FILE.write_text(towers_chain_attention())
