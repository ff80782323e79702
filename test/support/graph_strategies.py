"""Hypothesis strategies for random, well-typed `graph` programs (MLIR text).

`graph_programs()` draws a `func.func @main` whose tensor arguments feed a random DAG of graph
ops: elementwise chains with multi-use values, compares + where, broadcasts, reshapes,
transposes, slices, concats, pads, dots, reductions, gathers, converts and `arith.constant`
tensors, and whole patterns the passes look for (`graph_blocks`: dot chains with constants,
shared-input dots, towers, sliced pointwise ops, viewed dots, softmax, layer norm, attention,
conv + pool). Every value that nothing else uses is returned (in about one program in four but
the first, which leaves dead code), so the ops are observable (useful for differential tests:
interpreter vs. fused code). Shapes stay small (every dim <= 6, rank <= 4).

Gather indices are always constants in range, so every program can be evaluated. Float programs
may still produce inf/NaN (log of a negative, ...); compare results with NaN-aware checks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from hypothesis import strategies as st

from support.graph_blocks import BLOCKS

MAX_DIM = 6
MAX_RANK = 4
FLOAT_TYPES = ("f32", "f16", "bf16", "f64")
INT_TYPES = ("i32", "i64")

FLOAT_UNARY = ("neg", "abs", "exp", "exp2", "log", "sqrt", "rsqrt", "recip", "sin", "cos", "tanh",
               "sigmoid", "relu", "erf")
INT_UNARY = ("neg", "abs", "relu")
FLOAT_BINARY = ("add", "sub", "mul", "div", "max", "min", "pow")
INT_BINARY = ("add", "sub", "mul", "div", "max", "min")
COMPARES = ("greater", "equal", "less")
REDUCES = ("reduce_sum", "reduce_max", "reduce_mean")


@dataclass(frozen=True)
class Value:
    name: str
    shape: tuple[int, ...]
    element: str

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.element)


def tensor_type(shape: tuple[int, ...], element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def _list(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


@dataclass
class ProgramBuilder:
    """Accumulates arguments, op lines and the pool of values ops can consume."""

    draw: st.DrawFn
    element: str
    args: list[Value] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    pool: list[Value] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    counter: int = 0

    # -- values ---------------------------------------------------------------------------
    def fresh(self, shape, element=None) -> Value:
        self.counter += 1
        return Value(f"%v{self.counter}", tuple(shape), element or self.element)

    def new_arg(self, shape, element=None) -> Value:
        value = Value(f"%arg{len(self.args)}", tuple(shape), element or self.element)
        self.args.append(value)
        self.pool.append(value)
        return value

    def emit(self, text: str, result: Value, *operands: Value) -> Value:
        self.lines.append(f"    {result.name} = {text}")
        self.used.update(v.name for v in operands)
        self.pool.append(result)
        return result

    def pick(self, predicate=lambda v: True) -> Value | None:
        """A pool value, biased toward recent ones (long chains) but reusing old ones too."""
        candidates = [v for v in self.pool if predicate(v)]
        if not candidates:
            return None
        if self.draw(st.booleans()):
            return candidates[-1]
        return self.draw(st.sampled_from(candidates))

    def is_float(self, v: Value) -> bool:
        return v.element in FLOAT_TYPES

    def same_type_partner(self, v: Value) -> Value:
        partner = self.pick(lambda w: w.shape == v.shape and w.element == v.element)
        choice = self.draw(st.sampled_from(("pool", "self", "const")))
        if choice == "const" or partner is None:
            return self.constant(v.shape, v.element) if choice == "const" else v
        return partner if choice == "pool" else v

    # -- shapes ---------------------------------------------------------------------------
    def shape(self, min_rank=1, max_rank=3) -> tuple[int, ...]:
        rank = self.draw(st.integers(min_rank, max_rank))
        return tuple(self.draw(st.lists(st.integers(1, MAX_DIM), min_size=rank, max_size=rank)))

    def constant(self, shape, element: str) -> Value:
        result = self.fresh(shape, element)
        self.lines.append(f"    {result.name} = arith.constant {self.dense(shape, element)} : "
                          f"{result.type}")
        self.pool.append(result)
        return result

    def dense(self, shape, element: str) -> str:
        count = math.prod(shape)
        if element in INT_TYPES:
            scalar = st.integers(-4, 4)
        else:  # quarters are exact in every float type, so constants print/parse identically
            scalar = st.integers(-8, 8).map(lambda q: q / 4)
        if self.draw(st.booleans()) or count == 1:
            return f"dense<{self.draw(scalar)}>"
        flat = self.draw(st.lists(scalar, min_size=count, max_size=count))
        return f"dense<{_nest(flat, shape)}>"


def _nest(flat: list, shape: tuple[int, ...]) -> str:
    if len(shape) == 1:
        return _list(flat)
    step = len(flat) // shape[0]
    return "[" + ", ".join(_nest(flat[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def _factor_into_dims(n: int, draw: st.DrawFn) -> tuple[int, ...]:
    """A random shape with product n, every dim <= MAX_DIM (n's primes are all <= 5)."""
    primes, rest = [], n
    for p in (2, 3, 5):
        while rest % p == 0:
            primes.append(p)
            rest //= p
    assert rest == 1, n
    primes = list(draw(st.permutations(primes)))
    dims: list[int] = []
    for p in primes:
        if dims and dims[-1] * p <= MAX_DIM and draw(st.booleans()):
            dims[-1] *= p
        else:
            dims.append(p)
    while len(dims) > MAX_RANK:  # merge the two smallest neighbours that still fit
        merged = False
        for i in range(len(dims) - 1):
            if dims[i] * dims[i + 1] <= MAX_DIM:
                dims[i:i + 2] = [dims[i] * dims[i + 1]]
                merged = True
                break
        if not merged:
            break
    if draw(st.booleans()) and len(dims) < MAX_RANK:
        dims.insert(draw(st.integers(0, len(dims))), 1)
    return tuple(dims) or (1,)


# -- one generator per op family: each returns None when the pool has nothing suitable -------
def gen_unary(b: ProgramBuilder) -> Value | None:
    v = b.pick()
    ops = FLOAT_UNARY if b.is_float(v) else INT_UNARY
    op = b.draw(st.sampled_from(ops))
    return b.emit(f"graph.{op} {v.name} : {v.type}", b.fresh(v.shape, v.element), v)


def gen_binary(b: ProgramBuilder) -> Value | None:
    v = b.pick()
    w = b.same_type_partner(v)
    op = b.draw(st.sampled_from(FLOAT_BINARY if b.is_float(v) else INT_BINARY))
    lhs, rhs = (v, w) if b.draw(st.booleans()) else (w, v)
    return b.emit(f"graph.{op} {lhs.name}, {rhs.name} : {v.type}", b.fresh(v.shape, v.element),
                  lhs, rhs)


def gen_select(b: ProgramBuilder) -> Value | None:
    v = b.pick()
    w = b.same_type_partner(v)
    cmp = b.draw(st.sampled_from(COMPARES))
    mask = b.fresh(v.shape, "i1")
    b.lines.append(f"    {mask.name} = graph.{cmp} {v.name}, {w.name} : {v.type} -> {mask.type}")
    b.used.update((v.name, w.name, mask.name))
    x, y = b.draw(st.permutations([v, w]))
    return b.emit(f"graph.where {mask.name}, {x.name}, {y.name} : {mask.type}, {v.type}",
                  b.fresh(v.shape, v.element), x, y)


def gen_broadcast(b: ProgramBuilder) -> Value | None:
    v = b.pick(lambda w: len(w.shape) < MAX_RANK)
    if v is None:
        return None
    out_rank = b.draw(st.integers(len(v.shape), MAX_RANK))
    dims = sorted(b.draw(st.lists(st.integers(0, out_rank - 1), min_size=len(v.shape),
                                  max_size=len(v.shape), unique=True)))
    out = [b.draw(st.integers(1, MAX_DIM)) for _ in range(out_rank)]
    for i, d in enumerate(dims):
        if v.shape[i] != 1 or b.draw(st.booleans()):
            out[d] = v.shape[i]
    r = b.fresh(out, v.element)
    return b.emit(f"graph.broadcast {v.name} dims = {_list(dims)} : {v.type} -> {r.type}", r, v)


def gen_reshape(b: ProgramBuilder) -> Value | None:
    v = b.pick()
    shape = _factor_into_dims(math.prod(v.shape), b.draw)
    if len(shape) > MAX_RANK:
        shape = tuple(reversed(v.shape))
    r = b.fresh(shape, v.element)
    return b.emit(f"graph.reshape {v.name} : {v.type} -> {r.type}", r, v)


def gen_transpose(b: ProgramBuilder) -> Value | None:
    v = b.pick(lambda w: len(w.shape) >= 2)
    if v is None:
        return None
    perm = b.draw(st.permutations(range(len(v.shape))))
    r = b.fresh([v.shape[p] for p in perm], v.element)
    return b.emit(f"graph.transpose {v.name} perm = {_list(perm)} : {v.type} -> {r.type}", r, v)


def gen_slice(b: ProgramBuilder) -> Value | None:
    v = b.pick()
    axes = b.draw(st.lists(st.integers(0, len(v.shape) - 1), min_size=1, unique=True))
    starts, ends, out = [], [], list(v.shape)
    for a in axes:
        s = b.draw(st.integers(0, v.shape[a] - 1))
        e = b.draw(st.integers(s + 1, v.shape[a]))
        starts.append(s)
        ends.append(e)
        out[a] = e - s
    r = b.fresh(out, v.element)
    return b.emit(f"graph.slice {v.name} axes = {_list(axes)} starts = {_list(starts)} "
                  f"ends = {_list(ends)} : {v.type} -> {r.type}", r, v)


def gen_concat(b: ProgramBuilder) -> Value | None:
    v = b.pick()
    axis = b.draw(st.integers(0, len(v.shape) - 1))

    def fits(w: Value) -> bool:
        same_elsewhere = all(x == y for i, (x, y) in enumerate(zip(w.shape, v.shape)) if i != axis)
        return (w.element == v.element and len(w.shape) == len(v.shape) and same_elsewhere
                and w.shape[axis] + v.shape[axis] <= MAX_DIM)

    w = b.pick(fits)
    if w is None:
        return None
    out = list(v.shape)
    out[axis] += w.shape[axis]
    r = b.fresh(out, v.element)
    return b.emit(f"graph.concat {v.name}, {w.name} axis = {axis} : ({v.type}, {w.type}) -> "
                  f"{r.type}", r, v, w)


def gen_pad(b: ProgramBuilder) -> Value | None:
    v = b.pick(lambda w: any(d < MAX_DIM for d in w.shape))
    if v is None:
        return None
    low, high = [], []
    for d in v.shape:
        lo = b.draw(st.integers(0, min(2, MAX_DIM - d)))
        low.append(lo)
        high.append(b.draw(st.integers(0, min(2, MAX_DIM - d - lo))))
    value = b.draw(st.integers(-2, 2))
    text = f"{value}.0" if b.is_float(v) else str(value)
    r = b.fresh([d + lo + hi for d, lo, hi in zip(v.shape, low, high)], v.element)
    return b.emit(f"graph.pad {v.name} low = {_list(low)} high = {_list(high)} value = {text} : "
                  f"{v.type} -> {r.type}", r, v)


def gen_dot(b: ProgramBuilder) -> Value | None:
    v = b.pick(lambda w: len(w.shape) >= 2)
    if v is None:
        return None
    k = v.shape[-1]
    w = b.pick(lambda u: u.element == v.element and len(u.shape) == len(v.shape)
               and u.shape[:-2] == v.shape[:-2] and u.shape[-2] == k)
    if w is None:
        rhs_shape = (*v.shape[:-2], k, b.draw(st.integers(1, MAX_DIM)))
        w = b.new_arg(rhs_shape, v.element) if b.draw(st.booleans()) else b.constant(
            rhs_shape, v.element)
    r = b.fresh((*v.shape[:-1], w.shape[-1]), v.element)
    return b.emit(f"graph.dot {v.name}, {w.name} : ({v.type}, {w.type}) -> {r.type}", r, v, w)


def gen_reduce(b: ProgramBuilder) -> Value | None:
    v = b.pick()
    axes = sorted(b.draw(st.lists(st.integers(0, len(v.shape) - 1), min_size=1, unique=True)))
    op = b.draw(st.sampled_from(REDUCES))
    r = b.fresh([1 if i in axes else d for i, d in enumerate(v.shape)], v.element)
    return b.emit(f"graph.{op} {v.name} axes = {_list(axes)} : {v.type} -> {r.type}", r, v)


def gen_gather(b: ProgramBuilder) -> Value | None:
    v = b.pick(lambda w: len(w.shape) <= 2)
    if v is None:
        return None
    axis = b.draw(st.integers(0, len(v.shape) - 1))
    idx_shape = b.shape(1, 2)
    count = math.prod(idx_shape)
    flat = b.draw(st.lists(st.integers(-v.shape[axis], v.shape[axis] - 1), min_size=count,
                           max_size=count))
    idx = b.fresh(idx_shape, "i64")
    b.lines.append(f"    {idx.name} = arith.constant dense<{_nest(flat, idx_shape)}> : {idx.type}")
    b.used.add(idx.name)
    r = b.fresh((*v.shape[:axis], *idx_shape, *v.shape[axis + 1:]), v.element)
    return b.emit(f"graph.gather {v.name}, {idx.name} axis = {axis} : ({v.type}, {idx.type}) -> "
                  f"{r.type}", r, v)


def gen_convert_roundtrip(b: ProgramBuilder) -> Value | None:
    """Convert to another float type and back, so the pool keeps one element type per shape."""
    v = b.pick(b.is_float)
    if v is None:
        return None
    other = b.draw(st.sampled_from([t for t in FLOAT_TYPES if t != v.element]))
    mid = b.fresh(v.shape, other)
    b.lines.append(f"    {mid.name} = graph.convert {v.name} : {v.type} -> {mid.type}")
    b.used.update((v.name, mid.name))
    r = b.fresh(v.shape, v.element)
    return b.emit(f"graph.convert {mid.name} : {mid.type} -> {r.type}", r, mid)


GENERATORS = (gen_unary, gen_binary, gen_binary, gen_select, gen_broadcast, gen_reshape,
              gen_transpose, gen_slice, gen_concat, gen_pad, gen_dot, gen_reduce, gen_gather,
              gen_convert_roundtrip)


@st.composite
def graph_programs(draw: st.DrawFn, max_ops: int = 12,
                   element_types: tuple[str, ...] = ("f32", "f32", "f16", "bf16", "f64", "i32"),
                   blocks: bool | tuple = True) -> str:
    """MLIR text of a random well-typed `func.func @main` over graph ops (see module doc);
    with `blocks`, a step may also draw a whole pattern of `graph_blocks.BLOCKS`; given a tuple
    of blocks, every step draws one of those."""
    b = ProgramBuilder(draw, draw(st.sampled_from(element_types)))
    for _ in range(draw(st.integers(1, 3))):
        b.new_arg(b.shape())
    if blocks is True:
        steps = GENERATORS + 2 * BLOCKS  # ~1 step in 2 a block
    else:  # a given set of blocks (or none): those alone, so each is drawn often
        steps = tuple(blocks) or GENERATORS
    for _ in range(draw(st.integers(1, max_ops))):
        if draw(st.sampled_from(steps))(b) is None:
            gen_binary(b)  # the chosen family had no suitable operand; binary always applies
    results = [v for v in b.pool if v.name not in b.used and not v.name.startswith("%arg")]
    results = results or [b.pool[-1]]
    if len(results) > 1 and draw(st.integers(0, 3)) == 0:
        results = results[1:]  # leave dead code behind for the clean-up passes
    args = ", ".join(f"{a.name}: {a.type}" for a in b.args)
    types = ", ".join(v.type for v in results)
    body = "\n".join(b.lines)
    return (f"func.func @main({args}) -> ({types}) {{\n{body}\n"
            f"    func.return {', '.join(v.name for v in results)} : {types}\n}}\n")
