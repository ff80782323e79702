"""IR builders for the graph-simplify tests and benchmark: the GEMM-chain cases (MIGraphX #2818)
as MLIR text with random dense constants (hex-encoded, so every element type round-trips
exactly)."""

from __future__ import annotations

import numpy as np

_DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


class Builder:
    """Collects the lines of one function; `const` adds a random dense constant."""

    def __init__(self, dtype: str = "f32", seed: int = 0, scale: float = 1.0):
        self.dtype = dtype
        self.rng = np.random.default_rng(seed)
        self.scale = scale
        self.lines: list[str] = []
        self.count = 0

    def t(self, *shape: int) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{self.dtype}>"

    def fresh(self, stem: str) -> str:
        self.count += 1
        return f"%{stem}{self.count}"

    def const(self, *shape: int, stem: str = "c") -> str:
        fan_in = shape[-2] if len(shape) >= 2 else shape[-1]
        values = self.rng.standard_normal(shape) * self.scale / np.sqrt(fan_in)
        data = values.astype(_DTYPES[self.dtype]).tobytes().hex().upper()
        name = self.fresh(stem)
        self.lines.append(f'{name} = arith.constant dense<"0x{data}"> : {self.t(*shape)}')
        return name

    def op(self, text: str, stem: str = "v") -> str:
        name = self.fresh(stem)
        self.lines.append(f"{name} = {text}")
        return name

    def dot(self, a: str, a_shape, b: str, b_shape) -> str:
        out = (*a_shape[:-1], b_shape[-1])
        return self.op(f"graph.dot {a}, {b} : ({self.t(*a_shape)}, {self.t(*b_shape)}) -> {self.t(*out)}", "d")

    def row_bias(self, shape) -> str:
        """A constant vector broadcast over the rows: the bias of a Linear layer."""
        vec = self.const(shape[-1], stem="b")
        return self.op(f"graph.broadcast {vec} dims = [{len(shape) - 1}] : {self.t(shape[-1])} -> {self.t(*shape)}", "bb")

    def add(self, a: str, b: str, shape) -> str:
        return self.op(f"graph.add {a}, {b} : {self.t(*shape)}", "a")

    def function(self, name: str, args: list[tuple[str, tuple[int, ...]]], results: list[tuple[str, tuple[int, ...]]]) -> str:
        params = ", ".join(f"{a}: {self.t(*s)}" for a, s in args)
        types = ", ".join(self.t(*s) for _, s in results)
        body = "\n".join(f"  {line}" for line in self.lines)
        ret = ", ".join(r for r, _ in results)
        return f"func.func @{name}({params}) -> ({types}) {{\n{body}\n  func.return {ret} : {types}\n}}\n"


def x_linear_c(n: int = 32, dtype: str = "f32", seed: int = 0) -> str:
    """`X * (Y*A + b) * C` with square constant A, C (MIGraphX #2818's main case)."""
    b = Builder(dtype, seed)
    a, c = b.const(n, n, stem="A"), b.const(n, n, stem="C")
    ya = b.dot("%y", (n, n), a, (n, n))
    s = b.add(ya, b.row_bias((n, n)), (n, n))
    xs = b.dot("%x", (n, n), s, (n, n))
    out = b.dot(xs, (n, n), c, (n, n))
    return b.function("x_linear_c", [("%x", (n, n)), ("%y", (n, n))], [(out, (n, n))])


def two_linears(m: int = 16, k: int = 64, h: int = 64, n: int = 32, dtype: str = "f32", seed: int = 0) -> str:
    """`(x*W1 + b1)*W2 + b2`: two stacked Linear layers without an activation."""
    b = Builder(dtype, seed)
    w1, w2 = b.const(k, h, stem="W"), b.const(h, n, stem="W")
    hid = b.add(b.dot("%x", (m, k), w1, (k, h)), b.row_bias((m, h)), (m, h))
    out = b.add(b.dot(hid, (m, h), w2, (h, n)), b.row_bias((m, n)), (m, n))
    return b.function("two_linears", [("%x", (m, k))], [(out, (m, n))])


def low_rank(m: int = 348, k: int = 768, r: int = 64, dtype: str = "f32", seed: int = 0, scale: float = 1.0) -> str:
    """`Y[m,k] * A[k,r] * C[r,k]`: folding A*C would cost more (counter-case)."""
    b = Builder(dtype, seed, scale)
    a, c = b.const(k, r, stem="A"), b.const(r, k, stem="C")
    out = b.dot(b.dot("%y", (m, k), a, (k, r)), (m, r), c, (r, k))
    return b.function("low_rank", [("%y", (m, k))], [(out, (m, k))])


def attention_tail(seq: int = 12, heads: int = 3, dh: int = 4, dtype: str = "f32", seed: int = 0) -> str:
    """The seed's tail: `Y*A + b`, reshape to heads, transpose, slice, batched dot with a
    run-time X, transpose back, reshape, `* C` (counter-case: must stay unchanged)."""
    b = Builder(dtype, seed)
    d = heads * dh
    wide = 3 * d
    a, c = b.const(d, wide, stem="A"), b.const(d, d, stem="C")
    qkv = b.add(b.dot("%y", (seq, d), a, (d, wide)), b.row_bias((seq, wide)), (seq, wide))
    r = b.op(f"graph.reshape {qkv} : {b.t(seq, wide)} -> {b.t(1, seq, 3 * heads, dh)}")
    t = b.op(f"graph.transpose {r} perm = [0, 2, 1, 3] : {b.t(1, seq, 3 * heads, dh)} -> {b.t(1, 3 * heads, seq, dh)}")
    v = b.op(f"graph.slice {t} axes = [1] starts = [{2 * heads}] ends = [{3 * heads}] : "
             f"{b.t(1, 3 * heads, seq, dh)} -> {b.t(1, heads, seq, dh)}")
    att = b.dot("%x", (1, heads, seq, seq), v, (1, heads, seq, dh))
    back = b.op(f"graph.transpose {att} perm = [0, 2, 1, 3] : {b.t(1, heads, seq, dh)} -> {b.t(1, seq, heads, dh)}")
    flat = b.op(f"graph.reshape {back} : {b.t(1, seq, heads, dh)} -> {b.t(seq, d)}")
    out = b.dot(flat, (seq, d), c, (d, d))
    return b.function("attention_tail", [("%x", (1, heads, seq, seq)), ("%y", (seq, d))], [(out, (seq, d))])
