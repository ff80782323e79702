"""Mutation fuzzing of the driver: broken input must give an MLIR-style error, never a traceback.

Valid modules (the driver's lit inputs plus small generated ones, upstream dialects only) are
mutated token-wise — delete, duplicate, swap, truncate, corrupt a type, rename a value — and run
through `fusion-opt` in-process. Every run must exit 0, or exit 1 with a
`file:line:col: error:` diagnostic; exit 2 (internal error) or a traceback fails the test.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fusionopt.diagnostics import FusionError
from fusionopt.ir_io import parse_module
from fusionopt.opt_main import main

LIT_DIR = Path(__file__).resolve().parents[1] / "lit" / "driver"
_TOKEN = re.compile(r"\s+|%[\w.$#-]+|@[\w.$-]+|[A-Za-z_][\w.$]*|\d+(?:\.\d+)?|.", re.S)
_LOCATED_ERROR = re.compile(r"^\S+:\d+:\d+: error: ", re.M)
_TYPES = ["f32", "f64", "i1", "i32", "index", "tensor<4xf32>", "tensor<?x4xf32>", "f3", "tensor<4x", "!foo", "memref<2xi8>"]


def _generated_module(n_ops: int) -> str:
    lines = ["func.func @g(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {"]
    prev = "%a"
    for i in range(n_ops):
        op = ("arith.addf", "arith.mulf", "arith.subf")[i % 3]
        lines.append(f"  %v{i} = {op} {prev}, %b : tensor<4x8xf32>")
        prev = f"%v{i}"
    lines += [
        f"  %e = tensor.empty() : tensor<4x8xf32>",
        f"  %r = linalg.add ins({prev}, %b : tensor<4x8xf32>, tensor<4x8xf32>)"
        " outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>",
        "  func.return %r : tensor<4x8xf32>",
        "}",
    ]
    return "\n".join(lines) + "\n"


def _strip_lit_comments(text: str) -> str:
    # Keep the IR (and the `// -----` chunks as plain comments); RUN/CHECK lines are noise here.
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))


def _parses(text: str) -> bool:
    try:
        parse_module(text)
    except FusionError:
        return False
    return True


def _seed_corpus() -> list[str]:
    """Generated modules plus every valid whole-file input of the driver's lit tests (files
    made of error cases are skipped: they are not valid seeds)."""
    seeds = [_generated_module(n) for n in (1, 4)]
    for path in sorted(LIT_DIR.glob("*.mlir")):
        text = _strip_lit_comments(path.read_text())
        if "func.func" in text and _parses(text):
            seeds.append(text)
    return seeds


SEEDS = _seed_corpus()


def run_driver(text: str, *extra: str) -> tuple[int, str]:
    err = io.StringIO()
    code = main(["-", *extra], stdin=io.StringIO(text), stdout=io.StringIO(), stderr=err)
    return code, err.getvalue()


def assert_clean_outcome(text: str, code: int, err: str) -> None:
    context = f"\n--- input ---\n{text}\n--- stderr ---\n{err}"
    assert "Traceback" not in err, context
    assert code in (0, 1), f"exit code {code}" + context
    if code == 1:
        assert _LOCATED_ERROR.search(err), "error without file:line:col" + context


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def mutate(text: str, kind: str, position: float, payload: int) -> str:
    tokens = _tokens(text)
    solid = [i for i, tok in enumerate(tokens) if not tok.isspace()]
    if not solid:
        return text + "}"
    i = solid[int(position * (len(solid) - 1))]
    if kind == "delete":
        tokens[i] = ""
    elif kind == "duplicate":
        tokens[i] = tokens[i] + " " + tokens[i]
    elif kind == "swap":
        j = solid[min(solid.index(i) + 1, len(solid) - 1)]
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == "truncate":
        return "".join(tokens[:i])
    elif kind == "corrupt_type":
        types = [k for k in solid if tokens[k] in ("f32", "f64", "i32", "index") or tokens[k] == "tensor"]
        if types:
            tokens[types[payload % len(types)]] = _TYPES[payload % len(_TYPES)]
    elif kind == "rename_value":
        values = [k for k in solid if tokens[k].startswith("%")]
        if values:
            tokens[values[payload % len(values)]] = f"%q{payload}"
    elif kind == "insert_char":
        tokens[i] = "{}()<>,:=\"@%#x0-"[payload % 16] + tokens[i]
    return "".join(tokens)


KINDS = ["delete", "duplicate", "swap", "truncate", "corrupt_type", "rename_value", "insert_char"]


def test_corpus_is_valid_and_varied():
    assert len(SEEDS) >= 6
    for seed in SEEDS:
        code, err = run_driver(seed)
        assert code == 0, err


@pytest.mark.parametrize("kind", KINDS)
def test_systematic_mutations(kind):
    """Each mutation kind at evenly spread positions of the generated module."""
    text = SEEDS[1]
    for step in range(12):
        mutated = mutate(text, kind, step / 11, step * 7 + 3)
        code, err = run_driver(mutated)
        assert_clean_outcome(mutated, code, err)


@settings(
    max_examples=250,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.sampled_from(range(len(SEEDS))),
    mutations=st.lists(
        st.tuples(st.sampled_from(KINDS), st.floats(0, 1), st.integers(0, 10_000)),
        min_size=1,
        max_size=3,
    ),
    passes=st.sampled_from([(), ("-p", "cse,dce"), ("-p", "canonicalize")]),
)
def test_random_mutations_never_crash(seed, mutations, passes):
    text = SEEDS[seed]
    for kind, position, payload in mutations:
        text = mutate(text, kind, position, payload)
    code, err = run_driver(text, *passes)
    assert_clean_outcome(text, code, err)


def test_error_location_points_into_the_input():
    """A located error names a real line of the input, and the caret line is under it."""
    text = SEEDS[1].replace("%v1 = arith.mulf %v0", "%v1 = arith.mulf %nope")
    code, err = run_driver(text)
    lines = err.splitlines()
    assert code == 1 and lines[0] == "<stdin>:3:20: error: use of undeclared SSA value name '%nope'"
    assert lines[1] == text.splitlines()[2] and lines[2] == " " * 19 + "^"


@pytest.mark.parametrize(
    "text",
    ["", "  \n", "// only a comment\n", "\udcff\udcfe", "}", "{", "%0", "func.func", '"',
     "builtin.module {", "#map = ", "!t = ", "%0 = ", "func.func @f(", "\x00",
     # an unterminated string on a long line made xDSL's lexer backtrack exponentially
     '"x.y"() {a = "' + "more words " * 30 + "} : () -> ()"],
)
def test_degenerate_inputs(text):
    code, err = run_driver(text)
    assert_clean_outcome(text, code, err)


def test_empty_input_is_an_empty_module():
    out = io.StringIO()
    assert main(["-"], stdin=io.StringIO(""), stdout=out, stderr=io.StringIO()) == 0
    assert out.getvalue() == "module {\n}\n"  # MLIR spelling of the top-level module
