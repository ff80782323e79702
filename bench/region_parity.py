"""Do our dispatch regions have IREE's structure on IREE's own region-formation tests?

For every `// -----` split of IREE's DispatchCreation test files (form_dispatch_regions,
clone_producers_into_dispatch_regions, dispatch_linalg_on_tensors) it runs our
`form-dispatch-regions` (with `aggressive=true` where the file's RUN line asks IREE for
`aggressive-fusion=true`) and compares the *structure* with the split's CHECK lines:

- IREE's structure is read from the CHECK lines: a `flow.dispatch.region` /
  `flow.dispatch.workgroups` line opens a region, the compute ops named by later CHECK lines
  (`= linalg.generic`, `linalg.matmul`, `linalg.pack`, `tensor.pad`, ...) belong to it until
  its `flow.return` (or the next region / `util.return`); compute ops named outside any region
  stay at top level, as do the flow tensor ops (`flow.tensor.update/splat/slice`).
- Ours is read from our output: each top-level `flow.dispatch.region` (also those nested in
  `scf.if`/`scf.for` bodies) with the compute ops inside it, plus the compute and flow tensor
  ops left outside.
- Fills, `tensor.empty`, constants and index math are ignored on both sides (both clone them).

Verdicts: `agree` (same multiset of regions, same ops outside); `agree-after-clone` (IREE's
form_dispatch_regions leaves dequantization-like producers bare and its next pass,
CloneProducersIntoDispatchRegions, clones each into the region after it: with that step applied
the structures match); `differ`; `no-parse` (our parser rejects the split: not counted);
`no-check` (the CHECK lines name no region structure: not counted).

    python bench/region_parity.py [DIR|FILE ...] [--show]

Default input: the gitignored copies in `bench/out/upstream/regions/` (how they were fetched:
bench/RESULTS.md, "Region formation vs IREE's tests").
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from fusionopt.opt_main import split_input

DEFAULT_DIR = Path(__file__).resolve().parent / "out" / "upstream" / "regions"

# Ops that carry the work of a dispatch (what a region is made of, for this comparison).
_COMPUTE = re.compile(
    r"\b(linalg\.(?!fill\b|yield\b|index\b)[a-z_0-9]+|tensor\.(?:pad|pack|unpack)|"
    r"iree_linalg_ext\.(?!yield\b)[a-z_]+|iree_encoding\.(?:set|unset)_encoding)\b"
)
_FLOW_TENSOR = re.compile(r"\bflow\.tensor\.(update|splat|slice)\b")
_REGION_OPEN = re.compile(r"\bflow\.dispatch\.(region|workgroups)\b")


@dataclass
class Structure:
    regions: list[list[str]] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    # For IREE's side: for each op in `outside`, the index of the region opened after it in
    # the CHECK order (None: none follows), i.e. the region IREE's clone step moves it into.
    next_region: list[int | None] = field(default_factory=list)

    def render(self) -> str:
        parts = ["{" + ", ".join(_short(o) for o in r) + "}" for r in self.regions]
        if self.outside:
            parts.append("outside: " + ", ".join(_short(o) for o in self.outside))
        return " ".join(parts) or "(nothing)"


def _short(op: str) -> str:
    return op.replace("linalg.", "").replace("flow.tensor.", "ft.").replace("iree_linalg_ext.", "ext.")


# --- IREE's side: the CHECK lines ------------------------------------------------------------


def iree_structure(split: str) -> Structure | None:
    """The region structure the split's CHECK lines describe (None: they describe none)."""
    structure, current, seen_anything = Structure(), None, False
    for line in split.splitlines():
        match = re.match(r"\s*//\s*CHECK(-[A-Z]+)?:(.*)", line)
        if not match:
            continue
        kind, text = match.group(1) or "", match.group(2)
        if kind in ("-NOT", "-LABEL", "-SAME") or "util.func" in text:
            continue
        if _REGION_OPEN.search(text):
            current = []
            structure.regions.append(current)
            seen_anything = True
            continue
        if re.search(r"\bflow\.return\b|\butil\.return\b|\bcount\(", text):
            current = None
            continue
        if (flow := _FLOW_TENSOR.search(text)) and current is None:
            structure.outside.append(flow.group(0))
            structure.next_region.append(None)
            seen_anything = True
            continue
        op = _COMPUTE.search(text)
        if op is None or ("= " not in text and not text.strip().startswith(op.group(0))):
            continue  # a use in an operand list, not the op itself
        if current is None:
            structure.outside.append(op.group(0))
            structure.next_region.append(len(structure.regions))
        else:
            current.append(op.group(0))
        seen_anything = True
    for i, index in enumerate(structure.next_region):
        if index is not None and index >= len(structure.regions):
            structure.next_region[i] = None
    return structure if seen_anything and structure.regions else None


def cloned_into_next_region(structure: Structure) -> Structure:
    """IREE's CloneProducersIntoDispatchRegions applied to a form_dispatch_regions result:
    bare compute ops the CHECK lines place *before* a region (the dequantization-like producers
    IREE leaves for that pass) move into that region (their consumer in these tests); compute
    ops after the last region stay outside."""
    regions = [list(r) for r in structure.regions]
    outside = []
    for op, index in zip(structure.outside, structure.next_region or [None] * len(structure.outside)):
        if index is not None and _COMPUTE.fullmatch(op):
            regions[index].append(op)
        else:
            outside.append(op)
    return Structure(regions, outside)


def same_structure(ours: Structure, iree: Structure) -> bool:
    """Same ops outside, and IREE's regions matched one to one with ours; a region whose CHECK
    lines name no op (e.g. a copy dispatch, or a test checking only the workload) matches any."""
    if sorted(ours.outside) != sorted(iree.outside) or len(ours.regions) != len(iree.regions):
        return False
    remaining = [sorted(r) for r in ours.regions]
    for region in sorted((sorted(r) for r in iree.regions if r), key=len, reverse=True):
        if region not in remaining:
            return False
        remaining.remove(region)
    return True


# --- our side ----------------------------------------------------------------------------------


def our_structure(text: str) -> Structure:
    from fusionopt.ir_io import parse_module

    module = parse_module(text)
    structure = Structure()
    for op in module.walk():
        if op.name == "flow.dispatch.region":
            structure.regions.append([o.name for o in op.walk() if _COMPUTE.fullmatch(o.name)])
        elif _inside_region(op):
            continue
        elif _COMPUTE.fullmatch(op.name):
            structure.outside.append(op.name)
        elif _FLOW_TENSOR.fullmatch(op.name):
            structure.outside.append(op.name)
    return structure


def _inside_region(op) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent.name in ("flow.dispatch.region", "flow.dispatch.workgroups") or _COMPUTE.fullmatch(parent.name):
            return True
        parent = parent.parent_op()
    return False


def run_ours(split: str, aggressive: bool) -> tuple[str | None, str]:
    pipeline = "form-dispatch-regions{aggressive=true}" if aggressive else "form-dispatch-regions"
    proc = subprocess.run(["fusion-opt", "-p", pipeline], input=split, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        error = next((l for l in proc.stderr.splitlines() if "error" in l), proc.stderr.strip()[-200:])
        return None, error
    return proc.stdout, ""


# --- the comparison ------------------------------------------------------------------------------


@dataclass
class Case:
    file: str
    name: str
    verdict: str
    iree: str
    ours: str


def compare_split(file: str, split: str, aggressive: bool) -> Case | None:
    name_match = re.search(r"func\s+(?:public\s+)?@(\w+)", split)
    if name_match is None:
        return None
    name = name_match.group(1)
    expected = iree_structure(split)
    output, error = run_ours(split, aggressive)
    if output is None:
        return Case(file, name, "no-parse", expected.render() if expected else "", error[:120])
    ours = our_structure(output)
    if expected is None:
        return Case(file, name, "no-check", "", ours.render())
    if same_structure(ours, expected):
        verdict = "agree"
    elif same_structure(ours, cloned_into_next_region(expected)):
        verdict = "agree-after-clone"
    else:
        verdict = "differ"
    return Case(file, name, verdict, expected.render(), ours.render())


def compare_file(path: Path) -> list[Case]:
    text = path.read_text()
    aggressive = "aggressive-fusion=true" in text.split("\n", 40)[0] or bool(
        re.search(r"RUN:.*aggressive-fusion=true", text)
    )
    cases = []
    for chunk in split_input(text, True):
        if "func" not in chunk.text:
            continue
        case = compare_split(path.stem, chunk.text, aggressive)
        if case is not None:
            cases.append(case)
    return cases


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("inputs", nargs="*", type=Path, default=[DEFAULT_DIR])
    parser.add_argument("--show", action="store_true", help="print both structures for every case")
    args = parser.parse_args(argv)
    files = [f for i in args.inputs for f in (sorted(i.glob("*.mlir")) if i.is_dir() else [i])]
    if not files:
        print(f"no input files (fetch them into {DEFAULT_DIR}, see bench/RESULTS.md)", file=sys.stderr)
        return 2
    cases = [c for f in files for c in compare_file(f)]
    print("| file | case | verdict | IREE (CHECK lines) | ours |")
    print("|---|---|---|---|---|")
    for c in cases:
        if args.show or c.verdict not in ("agree", "agree-after-clone"):
            print(f"| {c.file} | {c.name} | {c.verdict} | {c.iree} | {c.ours} |")
    counted = [c for c in cases if c.verdict in ("agree", "agree-after-clone", "differ")]
    agreed = [c for c in counted if c.verdict != "differ"]
    tally = Counter(c.verdict for c in cases)
    print()
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    if counted:
        print(f"agreement: {len(agreed)}/{len(counted)} = {100 * len(agreed) / len(counted):.1f} % of the splits we parse")
    return 0


if __name__ == "__main__":
    sys.exit(main())
