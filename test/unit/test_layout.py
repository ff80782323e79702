"""The package layout's promises (docs/architecture.md): no import cycles between our modules
(module-level or deferred imports alike), the dialects never import the transforms that rewrite
them, and importing the compiler imports no test-only package."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (("fusionopt", "fusionopt"), ("dialects", "fusionopt.dialects"), ("tools", "fusionopt.tools"))


def module_files() -> dict[str, Path]:
    mods = {}
    for folder, package in PACKAGES:
        for path in (ROOT / folder).rglob("*.py"):
            parts = [p for p in path.relative_to(ROOT / folder).with_suffix("").parts if p != "__init__"]
            mods[".".join([package, *parts])] = path
    return mods


def import_graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets = [node.module] if isinstance(node, ast.ImportFrom) and node.module else (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            edges[name].update(t for t in targets if t in mods)
    return edges


def cycles(edges: dict[str, set[str]], nodes) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, found, counter = {}, {}, set(), [], [], 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, successors = work[-1]
            for w in successors:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_import_cycles():
    mods = module_files()
    assert cycles(import_graph(mods), sorted(mods)) == []


def test_cycle_finder_finds_a_cycle():
    edges = defaultdict(set, {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert cycles(edges, ["a", "b", "c", "d"]) == [["a", "b", "c"]]


def test_dialects_and_compiler_import_no_transforms_or_test_packages():
    code = (
        "import sys, fusionopt.dialects.graph, fusionopt.dialects.flow, fusionopt.dialects.linalg\n"
        "assert not [m for m in sys.modules if m.startswith('fusionopt.transforms')], 'dialect -> transforms'\n"
        "from fusionopt import registry\n"
        "for load in registry.get_all_passes().values(): load()\n"
        "assert 'hypothesis' not in sys.modules, 'a pass imports hypothesis'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
