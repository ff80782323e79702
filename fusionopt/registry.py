"""The one place that lists fusionopt's dialects, passes and named pipelines.

Everything is registered through lazy factories so that `fusion-opt --help` does not import
every pass. Add a pass by adding one line to `_PASS_MODULES` (module under
`fusionopt.transforms` + class name); add a pipeline by adding it to `PIPELINES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import get_all_dialects as xdsl_dialects
from xdsl.ir import Dialect
from xdsl.passes import ModulePass


def _lazy(module: str, attr: str) -> Callable[[], object]:
    def load():
        return getattr(importlib.import_module(module), attr)

    return load


# Our own dialects, and upstream ones we extend (ours replace xDSL's of the same name).
_DIALECT_MODULES: dict[str, tuple[str, str]] = {
    "graph": ("fusionopt.dialects.graph", "Graph"),
    "flow": ("fusionopt.dialects.flow", "Flow"),
    "linalg": ("fusionopt.dialects.linalg", "Linalg"),
}

# pass name -> (module, class). Upstream xDSL passes we reuse are listed with their xDSL module.
_PASS_MODULES: dict[str, tuple[str, str]] = {
    "canonicalize": ("xdsl.transforms.canonicalize", "CanonicalizePass"),
    "cse": ("xdsl.transforms.common_subexpression_elimination", "CommonSubexpressionElimination"),
    "dce": ("xdsl.transforms.dead_code_elimination", "DeadCodeElimination"),
}


@dataclass(frozen=True)
class Pipeline:
    """A named pipeline: a summary for `--list-passes` and the pass list it expands to."""

    summary: str
    spec: str


PIPELINES: dict[str, Pipeline] = {}


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    dialects = dict(xdsl_dialects())
    for name, (module, attr) in _DIALECT_MODULES.items():
        dialects[name] = _lazy(module, attr)  # type: ignore[assignment]
    return dialects


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {name: _lazy(m, a) for name, (m, a) in _PASS_MODULES.items()}  # type: ignore[misc]


def make_context(allow_unregistered: bool = False) -> Context:
    """A context that knows every dialect fusionopt parses (loaded lazily on first use)."""
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx
