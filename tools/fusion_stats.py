"""`fusion-stats FILE [AFTER] [--json] [--device cpu|h100]`: what a program costs (kernels, FLOPs, memory traffic).

The figures are defined in docs/cost-model.md and computed by `fusionopt.stats.compute_stats`;
`--json` prints that dictionary (a stable interface), otherwise a table per function.

`--device NAME` adds a roofline time estimate (`fusionopt.device_profiles`): per function
`est_time_us` and `per_kernel` (one row per kernel: index, kind, root op, work class, shape,
flops, bytes, est_time_us), and `total.est_time_us`; the JSON only gains keys. In text mode a
per-kernel table follows each function's block.

`fusion-stats BEFORE AFTER` (either may be `-`, stdin) compares two programs, e.g. a model and
the output of a pipeline: per function, both columns and the ratio before/after for dispatches,
kernels, copies, flops, bytes_moved, bytes_min (and est_time_us with --device), then every
dot/matmul/contraction op of either side by name. `--json` prints
`{"before": STATS, "after": STATS, "ratio": {function: {figure: before/after or null}}}`.
Functions are paired by name (a single function on each side is paired whatever its name).

`--dot OUT.dot` / `--svg OUT.svg` also write a picture of the dataflow, each dispatch region a
cluster (`fusionopt.op_graph`); with BEFORE AFTER both programs side by side.
"""

from __future__ import annotations

import json
import sys

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError

from fusionopt.cli import EXIT_OK, ToolArgumentParser, run_tool
from fusionopt.device_profiles import PROFILES, estimate_stats, get_profile
from fusionopt.diagnostics import FusionError
from fusionopt.ir_io import parse_module, read_source
from fusionopt.op_graph import render, to_dot
from fusionopt.output_file import write_output
from fusionopt.registry import make_context
from fusionopt.stats import compute_stats, si_quantity

def human(number: int, unit: str) -> str:
    return si_quantity(number, unit)


_CONTRACTION_WORDS = ("dot", "matmul", "contract", "conv", "einsum")


def is_contraction_name(op_name: str) -> bool:
    """Dot/matmul-like ops by name: always listed (never hidden behind "(N more)")."""
    return any(word in op_name.split(".", 1)[-1] for word in _CONTRACTION_WORDS)


def format_figures(name: str, figures: dict, top_ops: int) -> str:
    ratio = figures["bytes_moved"] / figures["bytes_min"] if figures["bytes_min"] else 0.0
    ops = sorted(figures["ops"].items(), key=lambda kv: (-kv[1], kv[0]))
    listed = ops[:top_ops] + [kv for kv in ops[top_ops:] if is_contraction_name(kv[0])]
    shown = ", ".join(f"{op_name} {count}" for op_name, count in listed)
    if len(ops) > len(listed):
        shown += f", ... ({len(ops) - len(listed)} more)"
    return "\n".join(
        [
            name,
            f"  kernels      {figures['kernels']:>14}   (dispatches {figures['dispatches']}"
            f" + unfused compute ops {figures['unfused_compute_ops']})",
            f"  copies       {figures['copies']:>14}",
            f"  flops        {figures['flops']:>14}   ({human(figures['flops'], 'FLOP')})",
            f"  bytes_moved  {figures['bytes_moved']:>14}   ({human(figures['bytes_moved'], 'B')},"
            f" {ratio:.2f}x bytes_min)",
            f"  bytes_min    {figures['bytes_min']:>14}   ({human(figures['bytes_min'], 'B')})",
            f"  ops          {sum(figures['ops'].values()):>14}   ({shown})",
        ]
    )


def format_kernels(figures: dict, device: str) -> str:
    """Per-kernel roofline table (only with --device)."""
    lines = [
        f"  est_time_us  {figures['est_time_us']:>14.3f}   (device {device}, roofline per kernel)",
        f"  {'#':>4}  {'kind':<8} {'work':<11} {'root':<20} {'shape':<14} {'flops':>12} {'bytes':>10} {'est_us':>9}",
    ]
    for row in figures["per_kernel"]:
        lines.append(
            f"  {row['index']:>4}  {row['kind']:<8} {row['work']:<11} {row['root']:<20} {row['shape']:<14}"
            f" {row['flops']:>12} {row['bytes']:>10} {row['est_time_us']:>9.3f}"
        )
    return "\n".join(lines)


def format_table(stats: dict, top_ops: int = 8) -> str:
    device = stats.get("device")
    blocks = []
    for name, figs in stats["functions"].items():
        block = format_figures(f"@{name}", figs, top_ops)
        blocks.append(block + "\n" + format_kernels(figs, device) if device else block)
    if len(stats["functions"]) != 1:
        total = format_figures("total", stats["total"], top_ops)
        if device:
            total += f"\n  est_time_us  {stats['total']['est_time_us']:>14.3f}   (device {device})"
        blocks.append(total)
    return "\n\n".join(blocks) + "\n"


def add_estimates(stats: dict, module, device: str) -> dict:
    """Merge the roofline estimate into the stats without touching the existing keys."""
    estimates = estimate_stats(module, get_profile(device))
    for name, extra in estimates["functions"].items():
        stats["functions"][name].update(extra)
    stats["total"]["est_time_us"] = estimates["total_est_time_us"]
    stats["device"] = device
    return stats


COMPARED = ("dispatches", "kernels", "copies", "flops", "bytes_moved", "bytes_min", "est_time_us")


def _ratio(before, after) -> float | None:
    return before / after if after else None


def pair_functions(before: dict, after: dict) -> list[tuple[str, str | None, str | None]]:
    """(label, before name, after name): by name; one function each side is one pair."""
    b_names, a_names = list(before["functions"]), list(after["functions"])
    if len(b_names) == 1 and len(a_names) == 1:
        b, a = b_names[0], a_names[0]
        return [(f"@{b}" if a == b else f"@{b} -> @{a}", b, a)]
    pairs = [(f"@{name}", name, name if name in after["functions"] else None) for name in b_names]
    pairs += [(f"@{name}", None, name) for name in a_names if name not in before["functions"]]
    return pairs


def compare_stats(before: dict, after: dict) -> dict:
    """The JSON of `fusion-stats BEFORE AFTER`."""
    ratio = {}
    for label, b, a in pair_functions(before, after):
        fb, fa = before["functions"].get(b, {}), after["functions"].get(a, {})
        ratio[label.lstrip("@")] = {
            key: _ratio(fb[key], fa[key]) for key in COMPARED if key in fb and key in fa
        }
    if len(before["functions"]) != 1 or len(after["functions"]) != 1:
        ratio["total"] = {
            key: _ratio(before["total"][key], after["total"][key])
            for key in COMPARED if key in before["total"] and key in after["total"]
        }
    return {"before": before, "after": after, "ratio": ratio}


def _cell(value) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def format_comparison_block(label: str, fb: dict, fa: dict) -> str:
    width = max(24, len(label) + 2)
    lines = [f"{label:<{width}}{'before':>14}{'after':>14}{'before/after':>14}"]
    for key in COMPARED:
        if key not in fb and key not in fa:
            continue
        vb, va = fb.get(key), fa.get(key)
        ratio = _ratio(vb, va) if vb is not None and va is not None else None
        lines.append(f"  {key:<{width - 2}}{_cell(vb):>14}{_cell(va):>14}"
                     f"{'-' if ratio is None else f'{ratio:.2f}x':>14}")
    ops_b, ops_a = fb.get("ops", {}), fa.get("ops", {})
    contractions = sorted(n for n in {*ops_b, *ops_a} if is_contraction_name(n))
    if contractions:
        lines.append("  dot/matmul ops")
        for name in contractions:
            lines.append(f"    {name:<{width - 4}}{ops_b.get(name, 0):>14}{ops_a.get(name, 0):>14}")
    return "\n".join(lines)


def format_comparison(before: dict, after: dict) -> str:
    blocks = []
    for label, b, a in pair_functions(before, after):
        fb = before["functions"].get(b, {}) if b else {}
        fa = after["functions"].get(a, {}) if a else {}
        blocks.append(format_comparison_block(label, fb, fa))
    if len(before["functions"]) != 1 or len(after["functions"]) != 1:
        blocks.append(format_comparison_block("total", before["total"], after["total"]))
    device = before.get("device")
    tail = f"\n(est_time_us: device {device}, roofline per kernel)" if device else ""
    return "\n\n".join(blocks) + tail + "\n"


def parse_args(argv: list[str] | None):
    parser = ToolArgumentParser(
        prog="fusion-stats",
        description="Report kernels, FLOPs and memory traffic per function (definitions: docs/cost-model.md); "
                    "with two files, compare them (before, after, ratio).",
    )
    parser.add_argument("file", help="input .mlir file, or - for stdin (with AFTER: the program before)")
    parser.add_argument("after", nargs="?", metavar="AFTER",
                        help="a second .mlir file (or - for stdin) to compare against FILE")
    parser.add_argument("--json", action="store_true", help="print the stable JSON structure")
    parser.add_argument(
        "--device", choices=sorted(PROFILES),
        help="add a roofline time estimate per kernel and per function for this device profile",
    )
    parser.add_argument(
        "--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects"
    )
    parser.add_argument("--dot", metavar="OUT.dot",
                        help="also write the dataflow as Graphviz DOT, each dispatch region a cluster "
                             "(with AFTER: both programs side by side)")
    parser.add_argument("--svg", metavar="OUT.svg",
                        help="the same picture rendered to SVG (needs Graphviz `dot` or "
                             "`pip install 'fusionopt[pictures]'`)")
    args = parser.parse_args(argv)
    if args.after is not None and args.file == args.after == "-":
        parser.error("only one of FILE and AFTER can be '-' (stdin)")
    return args


def _load(path: str, args) -> ModuleOp:
    try:
        text, name = read_source(path)
        return parse_module(text, name, make_context(args.allow_unregistered_dialect))
    except (ParseError, DiagnosticException) as err:
        raise FusionError(str(err).rstrip()) from None


def _file_stats(module: ModuleOp, args) -> dict:
    stats = compute_stats(module)
    if args.device:
        stats = add_estimates(stats, module, args.device)
    return stats


def _write_pictures(modules: list[tuple[str, ModuleOp]], args) -> None:
    """--dot / --svg: the dataflow with each dispatch region as a cluster (fusionopt.op_graph)."""
    if not (args.dot or args.svg):
        return
    dot_text = to_dot(modules)
    if args.dot:
        write_output(args.dot, dot_text)
    if args.svg:
        write_output(args.svg, render(dot_text, "svg"))


def _main(argv: list[str] | None) -> int:
    args = parse_args(argv)
    module = _load(args.file, args)
    after_module = _load(args.after, args) if args.after is not None else None
    labels = ("before", "after") if after_module is not None else ("",)
    _write_pictures([(label, m) for label, m in zip(labels, (module, after_module)) if m is not None], args)
    stats = _file_stats(module, args)
    if after_module is None:
        sys.stdout.write(json.dumps(stats, indent=2) + "\n" if args.json else format_table(stats))
        return EXIT_OK
    after = _file_stats(after_module, args)
    if args.json:
        sys.stdout.write(json.dumps(compare_stats(stats, after), indent=2) + "\n")
    else:
        sys.stdout.write(format_comparison(stats, after))
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Exit codes as every tool (fusionopt/cli.py): 1 user error, 2 internal error."""
    return run_tool("fusion-stats", lambda: _main(argv))


if __name__ == "__main__":
    sys.exit(main())
