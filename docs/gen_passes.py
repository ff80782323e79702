"""Writes docs/passes.md from the registry and the pass docstrings: `python docs/gen_passes.py`.

Every pass in `fusionopt.registry._PASS_MODULES` (fusionopt/registry_tables.py) gets its summary (the class docstring's first
paragraph, as `fusion-opt --list-passes` shows it), its module docstring's first paragraph,
its options (name, type and default from the pass dataclass; the meaning from the `Options:`
section of the class docstring, else of the module docstring) and the named pipelines that run
it, with the options they set. test/unit/test_docs_passes.py regenerates the page in memory
and fails when the checked-in file differs, so edit docstrings and the registry, never the page.

Not in the installed package: only the docs and their test use it.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path

from fusionopt import registry
from fusionopt.opt_args import pass_options, pass_summary
from fusionopt.pipeline_spec import parse_pipeline

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "docs" / "passes.md"
COMMAND = "python docs/gen_passes.py"

# Stages in pipeline order (docs/architecture.md); the package under fusionopt.transforms.
STAGES = (
    ("graph", "Graph algebra and horizontal fusion (`graph/`: graph -> graph)"),
    ("lowering", "Lowering (`lowering/`: graph -> linalg on tensors)"),
    ("linalg", "Linalg preparation (`linalg/`: linalg -> linalg)"),
    ("dispatch", "Dispatch formation (`dispatch/`: linalg -> `flow.dispatch.region`)"),
    ("upstream", "Upstream xDSL passes"),
    ("testing", "Test-only passes (`testing/`)"),
)

# An entry of an `Options:` section: `name -- text`, `name: text`, `name (type, default X): text`,
# or several names sharing one text (`a, b -- text`).
_OPTION_ENTRY = re.compile(r"^(?P<names>[\w-]+(?:,\s*[\w-]+)*)\s*(?:\([^)]*\))?\s*(?:--|:)\s*(?P<text>.*)$")


def cell(text: str) -> str:
    """Text safe inside a markdown table cell."""
    return text.replace("|", "\\|")


def stage_of(module: str) -> str:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["fusionopt", "transforms"] else "upstream"


def first_paragraph(doc: str | None) -> str:
    return " ".join(inspect.cleandoc(doc or "").split("\n\n")[0].split())


def option_texts(doc: str | None) -> dict[str, str]:
    """Option name -> its meaning, from the first `Options:` section of a docstring."""
    lines = inspect.cleandoc(doc or "").splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == "Options:"), None)
    if start is None:
        return {}
    section: list[str] = []
    indent = None
    for line in lines[start + 1:]:
        depth = len(line) - len(line.lstrip())
        indent = depth if indent is None else indent
        if not line.strip() or depth < indent:  # a blank or outdented line ends the section
            break
        section.append(line)
    texts: dict[str, str] = {}
    names: list[str] = []
    for line in section:
        entry = _OPTION_ENTRY.match(line.strip()) if len(line) - len(line.lstrip()) == indent else None
        if entry:
            names = [n.strip().replace("_", "-") for n in entry["names"].split(",")]
            for name in names:
                texts[name] = entry["text"].strip()
        else:
            for name in names:
                texts[name] = f"{texts[name]} {line.strip()}".strip()
    return texts


def pipeline_uses() -> dict[str, list[str]]:
    """Pass name -> the named pipelines that run it, each with the options it sets there."""
    uses: dict[str, list[str]] = {}
    for pipeline in registry.PIPELINES:
        seen: set[str] = set()
        for request in parse_pipeline(pipeline, registry.PIPELINES):
            options = " ".join(f"{k}={','.join(v)}" if v else k for k, v in request.options.items())
            use = f"`{pipeline}`" + (f" (`{options}`)" if options else "")
            if (request.name, use) not in seen:
                seen.add((request.name, use))
                uses.setdefault(request.name, []).append(use)
    return uses


def load_passes() -> dict[str, tuple[str, type, object]]:
    """Pass name -> (stage, pass class, its module)."""
    loaded = {}
    for name, (module_name, class_name) in registry._PASS_MODULES.items():
        module = importlib.import_module(module_name)
        loaded[name] = (stage_of(module_name), getattr(module, class_name), module)
    return loaded


def pass_order(passes: dict[str, tuple[str, type, object]]) -> list[str]:
    """Stage by stage; within a stage in pipeline order, then the opt-in passes by name."""
    first_seen: dict[str, int] = {}
    for pipeline in registry.PIPELINES:
        for request in parse_pipeline(pipeline, registry.PIPELINES):
            first_seen.setdefault(request.name, len(first_seen))
    stage_rank = {stage: i for i, (stage, _) in enumerate(STAGES)}
    return sorted(passes, key=lambda n: (stage_rank[passes[n][0]], first_seen.get(n, len(first_seen)), n))


def options_table(pass_cls: type, module: object) -> list[str]:
    options = pass_options(pass_cls)
    if not options:
        return ["Options: none."]
    texts = {**option_texts(module.__doc__), **option_texts(pass_cls.__doc__)}
    rows = ["| option | type | default | meaning |", "|---|---|---|---|"]
    for name, kind, default in options:
        shown = "" if default is None else f"`{default}`"
        rows.append(f"| `{name}` | {kind} | {shown} | {cell(texts.get(name, ''))} |")
    return rows


def source_path(module: object) -> str:
    """Our modules' file in the checkout (from the module name, not where it is installed)."""
    parts = module.__name__.split(".")
    return "/".join(parts) + ".py" if parts[0] == "fusionopt" else ""


def pass_section(name: str, pass_cls: type, module: object, uses: list[str]) -> list[str]:
    lines = [f"### `{name}`", "", pass_summary(pass_cls), ""]
    about = first_paragraph(module.__doc__)
    if about:
        lines += [about, ""]
    source = source_path(module)
    lines.append(f"Source: [`{source}`](../{source})." if source else f"Source: xDSL `{module.__name__}`.")
    lines += ["", "Pipelines: " + ("; ".join(uses) if uses else "none (opt-in: name it in `-p`)") + ".", ""]
    return lines + options_table(pass_cls, module) + [""]


def pipelines_table() -> list[str]:
    rows = ["| pipeline | what it is | `=` (named pipelines expand in place) |", "|---|---|---|"]
    for name, pipeline in registry.PIPELINES.items():
        stages = re.split(r",(?![^{]*\})", pipeline.spec)
        rows.append(f"| `{name}` | {cell(pipeline.summary)} | {', '.join(f'`{s}`' for s in stages)} |")
    return rows


def render() -> str:
    passes = load_passes()
    uses = pipeline_uses()
    order = pass_order(passes)
    lines = [
        "# Passes",
        "",
        f"<!-- Generated by `{COMMAND}` from fusionopt/registry.py and the pass docstrings. Do not edit. -->",
        "",
        "Every pass `fusion-opt -p` accepts, stage by stage (the stages: [architecture.md](architecture.md);",
        "which pipeline to use: [pipelines.md](pipelines.md)). Options are set as in MLIR:",
        "`-p 'form-dispatch-regions{aggressive=true pads-into-pools=64}'`.",
        "",
        "| pass | stage | summary |",
        "|---|---|---|",
    ]
    lines += [f"| [`{n}`](#{n}) | {passes[n][0]} | {cell(pass_summary(passes[n][1]))} |" for n in order]
    lines += ["", "## Named pipelines", ""] + pipelines_table() + [""]
    for stage, title in STAGES:
        members = [n for n in order if passes[n][0] == stage]
        if members:
            lines += [f"## {title}", ""]
            for name in members:
                lines += pass_section(name, passes[name][1], passes[name][2], uses.get(name, []))
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    OUTPUT.write_text(render())
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
