#!/usr/bin/env python3
"""Generate `mlp_towers` in the `graph` dialect with inline, deterministic constant weights.

The model (the same as ../shared/models/mlp_towers, exported from PyTorch there):

    x[1, D] -> T independent towers, each  Linear(D, H) + SiLU -> Linear(H, H) + SiLU
               -> Linear(H, O) + SiLU  -> concat of the T tower outputs on axis 1 -> [1, T*O]

Linear is spelled `graph.dot(x, W[K, N])` + `graph.add(..., graph.broadcast(b[N]) dims = [1])`
and SiLU is `graph.mul(h, graph.sigmoid(h))`, the forms an ONNX/PyTorch import produces.

Weights are written in MLIR's hex form `dense<"0x...">` (little-endian raw bytes): it is the
only form that parses quickly (a decimal list parses ~200x slower in xDSL) and it round-trips
through xDSL and `iree-opt`. Every tensor gets its own seeded normal draw scaled by 1/sqrt(K)
so activations stay O(1) through the towers and no two weight tensors are identical.

Usage:
    python examples/gen_mlp_towers.py -o examples/mlp_towers.mlir             # shipped example (f32)
    python examples/gen_mlp_towers.py --dim 16 --hidden 16 --out-dim 4 --dtype f32 \\
        -o test/data/mlp_towers_small.mlir                                      # test variant

The shipped example is f32, like the real model, so its numbers compare directly with IREE's
f32 run (the 589,824 weights make it ~4.7 MB of hex text); `--dtype f16` writes a half-size
variant.

`build_module(towers, ...)` is importable for tests that need variants (mixed epilogues,
towers of different depths).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np

NUMPY_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


@dataclass(frozen=True)
class Layer:
    """One Linear layer: output width, and whether SiLU follows (bias is always present)."""

    out_dim: int
    silu: bool = True


def hex_dense(values: np.ndarray) -> str:
    """MLIR's hex dense literal: raw little-endian bytes of the row-major data."""
    return '"0x' + values.astype(values.dtype.newbyteorder("<")).tobytes().hex().upper() + '"'


def tensor_type(shape: tuple[int, ...], dtype: str) -> str:
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + dtype + ">"


class _Emitter:
    """Accumulates SSA lines with unique, readable value names."""

    def __init__(self, dtype: str, rng: np.random.Generator):
        self.dtype = dtype
        self.rng = rng
        self.lines: list[str] = []

    def emit(self, name: str, rhs: str) -> str:
        self.lines.append(f"    %{name} = {rhs}")
        return f"%{name}"

    def constant(self, name: str, shape: tuple[int, ...], scale: float) -> str:
        data = (self.rng.standard_normal(shape) * scale).astype(NUMPY_DTYPES[self.dtype])
        return self.emit(name, f"arith.constant dense<{hex_dense(data)}> : {tensor_type(shape, self.dtype)}")

    def linear(self, prefix: str, x: str, rows: int, k: int, layer: Layer) -> str:
        n = layer.out_dim
        t_out = tensor_type((rows, n), self.dtype)
        w = self.constant(f"{prefix}_w", (k, n), 1.0 / np.sqrt(k))
        b = self.constant(f"{prefix}_b", (n,), 0.1)
        t_in, t_w = tensor_type((rows, k), self.dtype), tensor_type((k, n), self.dtype)
        d = self.emit(f"{prefix}_dot", f"graph.dot {x}, {w} : ({t_in}, {t_w}) -> {t_out}")
        bb = self.emit(
            f"{prefix}_bias",
            f"graph.broadcast {b} dims = [1] : {tensor_type((n,), self.dtype)} -> {t_out}",
        )
        h = self.emit(f"{prefix}_add", f"graph.add {d}, {bb} : {t_out}")
        if not layer.silu:
            return h
        s = self.emit(f"{prefix}_sig", f"graph.sigmoid {h} : {t_out}")
        return self.emit(f"{prefix}_silu", f"graph.mul {h}, {s} : {t_out}")


def build_module(
    towers: list[list[Layer]],
    in_dim: int,
    rows: int = 1,
    dtype: str = "f32",
    seed: int = 0,
    func_name: str = "mlp_towers",
) -> str:
    """Text of a module whose function applies each tower to `x` and concatenates the results."""
    em = _Emitter(dtype, np.random.default_rng(seed))
    outs: list[tuple[str, int]] = []
    for t, layers in enumerate(towers):
        h, k = "%x", in_dim
        for li, layer in enumerate(layers):
            h = em.linear(f"t{t}_l{li}", h, rows, k, layer)
            k = layer.out_dim
        outs.append((h, k))
    width = sum(k for _, k in outs)
    t_res = tensor_type((rows, width), dtype)
    names = ", ".join(h for h, _ in outs)
    types = ", ".join(tensor_type((rows, k), dtype) for _, k in outs)
    em.emit("out", f"graph.concat {names} axis = 1 : ({types}) -> {t_res}")
    header = f"  func.func @{func_name}(%x: {tensor_type((rows, in_dim), dtype)}) -> {t_res} {{"
    body = "\n".join(em.lines)
    return f"builtin.module {{\n{header}\n{body}\n    func.return %out : {t_res}\n  }}\n}}\n"


def uniform_towers(count: int, hidden: int, out_dim: int, depth: int = 3) -> list[list[Layer]]:
    """`count` towers of `depth` Linear+SiLU layers: hidden widths, then `out_dim`."""
    widths = [hidden] * (depth - 1) + [out_dim]
    return [[Layer(w) for w in widths] for _ in range(count)]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--towers", type=int, default=4)
    ap.add_argument("--dim", type=int, default=256, help="input width D")
    ap.add_argument("--hidden", type=int, default=256, help="hidden width H")
    ap.add_argument("--out-dim", type=int, default=64, help="tower output width O")
    ap.add_argument("--depth", type=int, default=3, help="Linear+SiLU layers per tower")
    ap.add_argument("--dtype", choices=sorted(NUMPY_DTYPES), default="f32")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-o", "--output", type=Path, required=True)
    args = ap.parse_args(argv)
    towers = uniform_towers(args.towers, args.hidden, args.out_dim, args.depth)
    text = build_module(towers, args.dim, dtype=args.dtype, seed=args.seed)
    comment = (
        f"// Generated by examples/gen_mlp_towers.py: {args.towers} towers x {args.depth} "
        f"Linear+SiLU layers ({args.dim}->{args.hidden}->...->{args.out_dim}), {args.dtype}, "
        f"seed {args.seed}.\n"
    )
    args.output.write_text(comment + text)


if __name__ == "__main__":
    main()
