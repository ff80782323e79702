"""Seeded mutation fuzzer for `fusion-opt`: broken input must get a located, honest error.

    python bench/fuzz.py --count 1000 --seed 1 [--pipeline P] [--timeout 5] [--show-all]

Inputs: every `// -----` chunk of our lit inputs (`test/lit/**/*.mlir`) and `test/data/*.mlir`
that parses and verifies (RUN/CHECK comment lines dropped). Each fuzz input is one seed chunk
with 1-3 mutations: deleted / duplicated / swapped lines and tokens, truncation, changed element
types and dims, undefined values, swapped operands, out-of-range number literals, stray
punctuation and invalid UTF-8 bytes. Inputs are distinct (duplicates are drawn again).

Each input runs through `fusion-opt` in-process (`fusionopt.opt_main.main`, stdin as bytes)
with a per-input time limit, optionally with `-p PIPELINE` (default: a pipeline drawn per input
from `PIPELINES`, "" = parse, verify and print only), and the outcome is one of `CLASSES`:

  ok                   exit 0 and the printed IR parses back
  located error        exit 1, the error says `file:line:col: error:`
  unlocated error      exit 1, an error without a location
  masked internal      exit 1, but the message was made from an internal exception
                       (IndexError, KeyError, struct.error, ...; recorded where it is wrapped:
                       `fusionopt.diagnostics.recording_wrapped_exceptions`)
  internal error       exit 2 ("internal error": a pass or the driver crashed)
  traceback            a Python traceback on stderr, or an exception out of `main`
  hang                 over the time limit
  round-trip break     exit 0 but the printed IR does not parse back

`run_fuzz(count, seed, pipeline)` is the engine the test suite calls (test/unit/test_fuzz_driver.py).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import random
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from fusionopt.diagnostics import FusionError, recording_wrapped_exceptions
from fusionopt.ir_io import parse_module
from fusionopt.opt_main import main

ROOT = Path(__file__).resolve().parents[1]
CLASSES = ("ok", "located error", "unlocated error", "masked internal", "internal error",
           "traceback", "hang", "round-trip break")
BAD_CLASSES = ("masked internal", "internal error", "traceback", "hang", "round-trip break")
# Pipelines drawn per input when none is given ("" = parse/verify/print only). Passes only see
# inputs that still verify, so most inputs stop at the parser either way.
PIPELINES = ("", "", "", "cse,dce", "canonicalize", "dispatch-creation", "graph-to-dispatch")

_SPLIT = re.compile(r"^[ \t]*// -----[^\n]*$", re.M)
_TOKEN = re.compile(r"\s+|%[\w.$#-]+|@[\w.$-]+|#[\w.$-]+|[A-Za-z_][\w.$]*|-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|.", re.S)
_VALUE = re.compile(r"%[\w.$-]+")
_LOCATED = re.compile(r"^\S+:\d+:\d+: error: ", re.M)
_ELEMENT = re.compile(r"\b(?:f16|bf16|f32|f64|i1|i8|i32|i64|index)\b")
_DIM = re.compile(r"(?<=[<x])(\d+|\?)(?=x)")
_NUMBER = re.compile(r"(?<![\w#%@.])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?\b")
_NEW_TYPES = ("f32", "f64", "f16", "bf16", "i1", "i8", "i32", "i64", "index", "complex<f32>", "f3",
              "tensor<4xf32>", "tensor<?x4xf32>", "tensor<4x", "!foo", "memref<2xi8>", "none", "i0")
_NEW_DIMS = ("0", "1", "2", "3", "7", "?", "-1", "99999999999999999999", "1024")
_BIG_NUMBERS = ("99999999999999999999", "-99999999999999999999", "1e999", "-1e400", "4294967296",
                "2147483648", "-129", "256", "65536", "0x7fffffffffffffffff", "1.0e38", "3.5e38", "nan")
_PUNCT = "{}()<>[],:=\"@%#x0-?!^"
_BAD_BYTES = (b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\x80\x80", b"\xf8\x88\x80\x80\x80")


# ---------------------------------------------------------------------------------------------
# Seeds


def _strip_lit_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines()
                     if not re.match(r"\s*//\s*(RUN|CHECK|expected-|REQUIRES|XFAIL|UNSUPPORTED)", line))


def _valid(text: str) -> bool:
    try:
        parse_module(text, "<seed>")
    except FusionError:
        return False
    except Exception:  # noqa: BLE001 - an internal error on a seed: not a usable seed
        return False
    return True


_SEED_CACHE: list[tuple[str, str]] | None = None


def seed_inputs(max_chars: int = 60_000) -> list[tuple[str, str]]:
    """(name, text) of every valid chunk of the lit inputs and test data."""
    global _SEED_CACHE
    if _SEED_CACHE is not None:
        return _SEED_CACHE
    paths = sorted((ROOT / "test" / "lit").rglob("*.mlir")) + sorted((ROOT / "test" / "data").glob("*.mlir"))
    seeds: list[tuple[str, str]] = []
    seen: set[str] = set()
    for path in paths:
        if "Output" in path.parts:
            continue
        text = _strip_lit_comments(path.read_text(errors="replace"))
        for i, chunk in enumerate(_SPLIT.split(text)):
            if not chunk.strip() or len(chunk) > max_chars or chunk in seen:
                continue
            seen.add(chunk)
            if _valid(chunk):
                seeds.append((f"{path.relative_to(ROOT)}#{i}", chunk))
    _SEED_CACHE = seeds
    return seeds


# ---------------------------------------------------------------------------------------------
# Mutations: text -> text (bytes for invalid UTF-8)


def _lines(rng: random.Random, text: str, kind: str) -> str:
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    if kind == "delete_line":
        del lines[i]
    elif kind == "duplicate_line":
        lines.insert(i, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _tokens(rng: random.Random, text: str, kind: str) -> str:
    tokens = _TOKEN.findall(text)
    solid = [i for i, t in enumerate(tokens) if not t.isspace()]
    if not solid:
        return text + "}"
    i = rng.choice(solid)
    if kind == "delete_token":
        tokens[i] = ""
    elif kind == "duplicate_token":
        tokens[i] = tokens[i] + " " + tokens[i]
    elif kind == "swap_tokens":
        k = solid.index(i)
        j = solid[min(k + rng.randint(1, 3), len(solid) - 1)]
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == "insert_punct":
        tokens[i] = rng.choice(_PUNCT) + tokens[i]
    return "".join(tokens)


def _sub_one(rng: random.Random, pattern: re.Pattern, text: str, choices) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[: m.start()] + rng.choice(choices) + text[m.end():]


def _undefined_value(rng: random.Random, text: str) -> str:
    uses = [m for m in _VALUE.finditer(text) if not re.match(r"\s*[=:,)]", text[m.end():m.end() + 3])
            or text[m.end():m.end() + 3].startswith((",", ")", " :"))]
    if not uses:
        return text
    m = rng.choice(uses)
    return text[: m.start()] + rng.choice(("%undef", "%999", "%q0", "%arg9")) + text[m.end():]


def _swap_operands(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if len(_VALUE.findall(line.split("=", 1)[-1])) >= 2]
    if not candidates:
        return text
    i = rng.choice(candidates)
    head, eq, tail = lines[i].partition("=") if "=" in lines[i] else ("", "", lines[i])
    values = list(_VALUE.finditer(tail))
    a, b = rng.sample(range(len(values)), 2)
    a, b = min(a, b), max(a, b)
    va, vb = values[a], values[b]
    tail = tail[: va.start()] + vb.group() + tail[va.end(): vb.start()] + va.group() + tail[vb.end():]
    lines[i] = head + eq + tail
    return "\n".join(lines)


def _truncate(rng: random.Random, text: str) -> str:
    return text[: rng.randrange(max(len(text), 1))]


MUTATIONS = ("delete_line", "duplicate_line", "swap_lines", "delete_token", "duplicate_token",
             "swap_tokens", "insert_punct", "truncate", "change_type", "change_dim", "undefined_value",
             "swap_operands", "out_of_range_number", "invalid_utf8")


def mutate(rng: random.Random, text: str, kind: str) -> str:
    if kind in ("delete_line", "duplicate_line", "swap_lines"):
        return _lines(rng, text, kind)
    if kind in ("delete_token", "duplicate_token", "swap_tokens", "insert_punct"):
        return _tokens(rng, text, kind)
    if kind == "truncate":
        return _truncate(rng, text)
    if kind == "change_type":
        return _sub_one(rng, _ELEMENT, text, _NEW_TYPES)
    if kind == "change_dim":
        return _sub_one(rng, _DIM, text, _NEW_DIMS)
    if kind == "undefined_value":
        return _undefined_value(rng, text)
    if kind == "swap_operands":
        return _swap_operands(rng, text)
    if kind == "out_of_range_number":
        return _sub_one(rng, _NUMBER, text, _BIG_NUMBERS)
    raise ValueError(kind)


def make_input(rng: random.Random, text: str) -> tuple[bytes, list[str]]:
    kinds = [rng.choice(MUTATIONS) for _ in range(rng.choice((1, 1, 2, 3)))]
    utf8 = "invalid_utf8" in kinds
    for kind in kinds:
        if kind != "invalid_utf8":
            text = mutate(rng, text, kind)
    data = text.encode("utf-8")
    if utf8:
        pos = rng.randrange(len(data) + 1)
        data = data[:pos] + rng.choice(_BAD_BYTES) + data[pos:]
    return data, kinds


# ---------------------------------------------------------------------------------------------
# Running and classifying


class _Timeout(BaseException):  # not an Exception: the driver's `except Exception` must not eat it
    pass


def _alarm(signum, frame):
    raise _Timeout()


@dataclass
class Outcome:
    cls: str
    code: int | None
    stderr: str
    detail: str = ""


def run_one(data: bytes, pipeline: str = "", timeout: float = 5.0) -> Outcome:
    """Run `fusion-opt - [-p pipeline]` in-process on `data`; classify the outcome."""
    argv = ["-"] + (["-p", pipeline] if pipeline else [])
    stdout, stderr = io.StringIO(), io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with recording_wrapped_exceptions() as wrapped:
            code = main(argv, stdin=stdin, stdout=stdout, stderr=stderr)
    except _Timeout:
        return Outcome("hang", None, stderr.getvalue(), f"over {timeout:g} s")
    except RecursionError as err:
        return Outcome("traceback", None, stderr.getvalue(), f"RecursionError: {err}")
    except Exception as err:  # noqa: BLE001 - escaped from main: what a user would see as a traceback
        return Outcome("traceback", None, stderr.getvalue(), f"{type(err).__name__}: {err}")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    err_text = stderr.getvalue()
    if "Traceback (most recent call last)" in err_text and code != 2:
        return Outcome("traceback", code, err_text)
    if code == 2:
        return Outcome("internal error", code, err_text)
    if code == 1:
        if wrapped:
            return Outcome("masked internal", code, err_text, wrapped[0])
        if _LOCATED.search(err_text):
            return Outcome("located error", code, err_text)
        return Outcome("unlocated error", code, err_text)
    if code != 0:
        return Outcome("traceback", code, err_text, f"unexpected exit code {code}")
    printed = stdout.getvalue()
    try:
        parse_module(printed, "<printed>")
    except FusionError as err:
        return Outcome("round-trip break", code, err_text, err.format() + "\n--- printed ---\n" + printed)
    except Exception as err:  # noqa: BLE001
        return Outcome("round-trip break", code, err_text, f"{type(err).__name__}: {err}\n--- printed ---\n{printed}")
    return Outcome("ok", code, err_text)


@dataclass
class Example:
    seed_name: str
    mutations: list[str]
    pipeline: str
    data: bytes
    outcome: Outcome


@dataclass
class FuzzReport:
    count: int
    seed: int
    seconds: float
    counts: Counter = field(default_factory=Counter)
    examples: dict[str, list[Example]] = field(default_factory=dict)
    signatures: Counter = field(default_factory=Counter)  # (class, exception type / message) -> inputs

    def bad(self) -> dict[str, int]:
        return {c: self.counts[c] for c in BAD_CLASSES if self.counts[c]}

    def table(self, show_all: bool = False) -> str:
        lines = [f"fusion-opt mutation fuzz: {self.count} distinct inputs, seed {self.seed}, {self.seconds:.1f} s",
                 "", f"| {'class':<17} | {'inputs':>6} | example |", f"|{'-' * 19}|{'-' * 8}:|---------|"]
        for cls in CLASSES:
            ex = self.examples.get(cls, [])
            lines.append(f"| {cls:<17} | {self.counts[cls]:>6} | {_example_line(ex[0]) if ex else ''} |")
        if self.signatures:
            lines += ["", "bad outcomes by cause:"]
            for (cls, sig), n in self.signatures.most_common():
                lines.append(f"  {n:>5}  {cls}: {sig}")
        if show_all:
            for cls in BAD_CLASSES:
                for ex in self.examples.get(cls, []):
                    lines += ["", f"== {cls}: {ex.seed_name} {ex.mutations} -p '{ex.pipeline}'",
                              ex.data.decode("utf-8", "replace"), "-- stderr --", ex.outcome.stderr[-3000:],
                              ex.outcome.detail[-3000:]]
        return "\n".join(lines)


def _signature(outcome: Outcome) -> str:
    """The cause of a bad outcome with numbers and names blurred, to group inputs."""
    text = outcome.detail
    if outcome.cls == "internal error":
        text = next((l for l in outcome.stderr.splitlines() if "internal error" in l), outcome.stderr)
    elif outcome.cls == "round-trip break":
        text = next((l for l in text.splitlines() if "error:" in l), text)
    text = (text.splitlines() or [""])[0]
    text = re.sub(r"<stdin>:\d+:\d+: ", "", text)
    return re.sub(r"-?\d+", "N", re.sub(r"%[\w.$-]+", "%V", text))[:160]


def _example_line(ex: Example) -> str:
    first = (ex.outcome.detail or next((l for l in ex.outcome.stderr.splitlines() if l.strip()), "")).splitlines()
    msg = first[0] if first else ""
    if ex.outcome.cls == "internal error":
        msg = next((l for l in ex.outcome.stderr.splitlines() if "internal error" in l), msg)
    pipe = f" -p {ex.pipeline}" if ex.pipeline else ""
    return f"{ex.seed_name} {'+'.join(ex.mutations)}{pipe}: {msg[:150]}".replace("|", "\\|")


def run_fuzz(count: int, seed: int, pipeline: str | None = None, timeout: float = 5.0,
             keep_examples: int = 3, progress=None) -> FuzzReport:
    """Fuzz `count` distinct mutated inputs drawn with `seed` (see module doc)."""
    rng = random.Random(seed)
    seeds = seed_inputs()
    report = FuzzReport(count, seed, 0.0)
    seen: set[bytes] = set()
    start = time.perf_counter()
    attempts = 0
    while len(seen) < count and attempts < count * 20:
        attempts += 1
        name, text = rng.choice(seeds)
        data, kinds = make_input(rng, text)
        digest = hashlib.sha1(data).digest()
        if digest in seen or data == text.encode():
            continue
        seen.add(digest)
        pipe = rng.choice(PIPELINES) if pipeline is None else pipeline
        outcome = run_one(data, pipe, timeout)
        report.counts[outcome.cls] += 1
        if outcome.cls in BAD_CLASSES:
            report.signatures[(outcome.cls, _signature(outcome))] += 1
        kept = report.examples.setdefault(outcome.cls, [])
        if len(kept) < keep_examples:
            kept.append(Example(name, kinds, pipe, data, outcome))
        if progress is not None and len(seen) % 500 == 0:
            progress(len(seen), report)
    report.count = len(seen)
    report.seconds = time.perf_counter() - start
    return report


def _main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="distinct mutated inputs (default 1000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pipeline", default=None,
                    help="pass pipeline for every input ('' = none); default: drawn per input from "
                         + ", ".join(repr(p) for p in sorted(set(PIPELINES))))
    ap.add_argument("--timeout", type=float, default=5.0, help="per-input time limit in seconds")
    ap.add_argument("--show-all", action="store_true", help="print every kept example of a bad class in full")
    args = ap.parse_args(argv)
    report = run_fuzz(args.count, args.seed, args.pipeline, args.timeout,
                      progress=lambda n, r: print(f"  {n} inputs, {dict(r.counts)}", file=sys.stderr, flush=True))
    print(report.table(args.show_all))
    return 1 if report.bad() else 0


if __name__ == "__main__":
    sys.exit(_main())
