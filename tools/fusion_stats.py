"""`fusion-stats FILE [--json] [--device cpu|h100]`: what a program costs (kernels, FLOPs, memory traffic).

The figures are defined in the README (fusion-stats section) and computed by `fusionopt.stats.compute_stats`;
`--json` prints that dictionary (a stable interface), otherwise a table per function.

`--device NAME` adds a roofline time estimate (`fusionopt.device_profiles`): per function
`est_time_us` and `per_kernel` (one row per kernel: index, kind, root op, work class, shape,
flops, bytes, est_time_us), and `total.est_time_us`; the JSON only gains keys. In text mode a
per-kernel table follows each function's block.
"""

from __future__ import annotations

import argparse
import json
import sys

from xdsl.utils.exceptions import DiagnosticException, ParseError

from fusionopt.device_profiles import PROFILES, estimate_stats, get_profile
from fusionopt.diagnostics import FusionError
from fusionopt.ir_io import parse_module, read_source
from fusionopt.registry import make_context
from fusionopt.stats import compute_stats

_SI = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def human(number: int, unit: str) -> str:
    for scale, prefix in _SI:
        if number >= scale:
            return f"{number / scale:.2f} {prefix}{unit}"
    return f"{number} {unit}"


def format_figures(name: str, figures: dict, top_ops: int) -> str:
    ratio = figures["bytes_moved"] / figures["bytes_min"] if figures["bytes_min"] else 0.0
    ops = sorted(figures["ops"].items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{op_name} {count}" for op_name, count in ops[:top_ops])
    if len(ops) > top_ops:
        shown += f", ... ({len(ops) - top_ops} more)"
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


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="fusion-stats",
        description="Report kernels, FLOPs and memory traffic per function (definitions: README).",
    )
    parser.add_argument("file", help="input .mlir file, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print the stable JSON structure")
    parser.add_argument(
        "--device", choices=sorted(PROFILES),
        help="add a roofline time estimate per kernel and per function for this device profile",
    )
    parser.add_argument(
        "--allow-unregistered-dialect", action="store_true", help="accept ops of unknown dialects"
    )
    return parser.parse_args(argv)


# Bad input (reported as text, exit 1), as opposed to bugs (tracebacks).
_USER_ERRORS = (FusionError, ParseError, DiagnosticException)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        text, name = read_source(args.file)
        module = parse_module(text, name, make_context(args.allow_unregistered_dialect))
    except _USER_ERRORS as err:
        print(str(err).rstrip(), file=sys.stderr)
        return 1
    stats = compute_stats(module)
    if args.device:
        stats = add_estimates(stats, module, args.device)
    sys.stdout.write(json.dumps(stats, indent=2) + "\n" if args.json else format_table(stats))
    return 0


if __name__ == "__main__":
    sys.exit(main())
