"""How much of what IREE and MLIR write fusionopt reads, verifies and prints back.

For every `// -----` split of the given MLIR test files (IREE's DispatchCreation tests, MLIR's
Linalg/Tensor/Arith dialect tests, ...) it records:
  - `iree`:   iree-opt (IREE 3.13) accepts the split as written;
  - `ours`:   fusionopt parses, verifies and prints it (no exception);
  - `reread`: iree-opt re-reads what we printed;
  - `crash`:  our failure was not a user error (`FusionError`) but another exception, or a
              user error made from one (`internal_cause`): a bug whatever the input.
The figure the project tracks (issue "read what IREE and MLIR write") is reread / iree: the
share of the splits iree-opt accepts that we round-trip so that iree-opt reads our output.

    python bench/parse_coverage.py FILE.mlir|DIR... [--reasons N] [--json OUT]

A directory argument stands for every `*.mlir` file in it (sorted).

The test files are not fetched here (no network at test time); keep copies in the gitignored
`bench/out/upstream/` (see bench/RESULTS.md for which files and commits were measured).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from fusionopt.diagnostics import FusionError
from fusionopt.ir_io import parse_module, print_module
from fusionopt.opt_main import split_input

IREE_OPT = "iree-opt"


@dataclass
class SplitResult:
    file: str
    index: int
    iree: bool
    ours: bool
    reread: bool
    crash: bool
    reason: str  # our first error line, or iree-opt's on re-read; "" when all is well


def iree_opt_accepts(text: str) -> tuple[bool, str]:
    """(accepted, first error line) of `iree-opt` on `text` (parse + verify)."""
    proc = subprocess.run(
        [IREE_OPT, "-", "-o", "-"], input=text, capture_output=True, text=True, timeout=120
    )
    error = next((line for line in proc.stderr.splitlines() if "error:" in line), proc.stderr.strip())
    return proc.returncode == 0, error


def ours(text: str) -> tuple[str | None, str, bool]:
    """(printed text or None, first error line, crashed) of fusionopt on `text`."""
    try:
        module = parse_module(text, "<split>")
        return print_module(module), "", False
    except FusionError as err:
        return None, str(err).splitlines()[0], err.internal_cause is not None
    except Exception as err:  # noqa: BLE001 - any other exception is exactly what we count
        return None, f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}", True


def measure_split(file: str, index: int, text: str) -> SplitResult:
    iree_ok, _ = iree_opt_accepts(text)
    printed, reason, crashed = ours(text)
    reread = False
    if printed is not None:
        reread, iree_error = iree_opt_accepts(printed)
        if not reread:
            reason = f"iree-opt rejects our output: {iree_error}"
    return SplitResult(file, index, iree_ok, printed is not None, reread, crashed, reason)


def measure_file(path: Path) -> list[SplitResult]:
    text = path.read_text()
    chunks = [c.text for c in split_input(text, True)]
    return [measure_split(path.name, i, chunk) for i, chunk in enumerate(chunks) if chunk.strip()]


_NOISE = re.compile(r"^<split>:\d+:\d+: error: ")


def reason_key(reason: str) -> str:
    """A failure reason with positions and SSA names removed, so equal causes group."""
    reason = _NOISE.sub("", reason)
    reason = re.sub(r"<stdin>:\d+:\d+: error: ", "", reason)
    reason = re.sub(r"%[\w.#]+", "%v", reason)
    return reason[:110]


def summary_rows(results: list[SplitResult]) -> list[tuple[str, int, int, int, int, int]]:
    """(file, splits, iree accepts, we print, iree re-reads ours, crashes) per file + total."""
    by_file: dict[str, list[SplitResult]] = {}
    for r in results:
        by_file.setdefault(r.file, []).append(r)
    rows = [(name, *_counts(rs)) for name, rs in by_file.items()]
    rows.append(("total", *_counts(results)))
    return rows


def _counts(rs: list[SplitResult]) -> tuple[int, int, int, int, int]:
    valid = [r for r in rs if r.iree]
    return (len(rs), len(valid), sum(r.ours for r in valid), sum(r.reread for r in valid),
            sum(r.crash for r in rs))


def print_report(results: list[SplitResult], reasons: int) -> None:
    print(f"{'file':44} {'splits':>6} {'iree':>5} {'ours':>5} {'reread':>6} {'%':>6} {'crash':>5}")
    for name, n, valid, ok, reread, crash in summary_rows(results):
        pct = 100.0 * reread / valid if valid else 0.0
        print(f"{name:44} {n:6d} {valid:5d} {ok:5d} {reread:6d} {pct:5.1f}% {crash:5d}")
    failed = Counter(reason_key(r.reason) for r in results if r.iree and not r.reread)
    if failed and reasons:
        print("\nwhy valid splits fail (count, first error):")
        for reason, count in failed.most_common(reasons):
            print(f"  {count:4d}  {reason}")
    crashes = [r for r in results if r.crash]
    for r in crashes:
        print(f"CRASH {r.file} split {r.index}: {r.reason}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="test files, or directories of *.mlir files")
    parser.add_argument("--reasons", type=int, default=25, help="how many failure causes to list")
    parser.add_argument("--json", type=Path, help="write every split's result here")
    args = parser.parse_args(argv)
    if shutil.which(IREE_OPT) is None:
        print("iree-opt is not on PATH (pip install iree-base-compiler)", file=sys.stderr)
        return 2
    files = [f for path in args.files for f in (sorted(path.glob("*.mlir")) if path.is_dir() else [path])]
    if not files:
        print("no .mlir files given", file=sys.stderr)
        return 2
    results = [r for path in files for r in measure_file(path)]
    print_report(results, args.reasons)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
