"""The `// -----` cases of a lit test as stand-alone programs, by function name (for the
equivalence tests that run a pass's lit cases through the interpreter)."""

from __future__ import annotations

import re
from pathlib import Path

LIT_TRANSFORMS = Path(__file__).resolve().parents[1] / "lit" / "transforms"


def lit_functions(path: Path) -> dict[str, str]:
    """Function name -> that `// -----` chunk of `path`, comment lines (CHECKs) removed."""
    out = {}
    for chunk in path.read_text().split("// -----"):
        text = "\n".join(line for line in chunk.splitlines() if not line.lstrip().startswith("//"))
        name = re.search(r"func\.func @(\w+)", text)
        if name:
            out[name.group(1)] = text
    return out


def with_sizes(text: str, sizes: dict[str, str]) -> str:
    """`text` with each shape spelling of `sizes` replaced, in order: a small lit case at a
    model's size, for the tests that build it with IREE."""
    for old, new in sizes.items():
        text = text.replace(old, new)
    return text


def formed_regions(path: Path, name: str, pipeline: str) -> int:
    """How many `flow.dispatch.region`s `pipeline` forms from the lit case `name` of `path`,
    after checking that it computes what the case does (the interpreter, every input family)."""
    from fusionopt.testing import assert_pass_preserves_semantics

    formed = assert_pass_preserves_semantics(lit_functions(path)[name], pipeline, seeds=(0, 1))
    return sum(op.name == "flow.dispatch.region" for op in formed.walk())
