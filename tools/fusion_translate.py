"""`fusion-translate`: translate between other formats and fusionopt IR (like `mlir-translate`).

    fusion-translate --import-onnx model.onnx [--weights inline|args] [-o out.mlir]
                     [--mlir-print-debuginfo]

`--import-onnx` builds `func.func @main_graph` in the `graph` dialect (see
`fusionopt.importers.onnx_import`). The output goes to stdout, or to `-o FILE`, written
atomically (a temp file next to FILE, renamed on success), so a failed import never leaves a
truncated file. Errors print `error: ...` on stderr and exit with code 1; an importer crash
is an `internal error` with its traceback (exit 2), as in `fusion-opt`.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import traceback
from collections.abc import Sequence

from fusionopt.diagnostics import FusionError
from fusionopt.importers.onnx_import import WEIGHT_MODES, import_onnx
from fusionopt.ir_io import print_module

EXIT_USER_ERROR, EXIT_INTERNAL_ERROR = 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fusion-translate", description="Translate models into fusionopt IR.")
    parser.add_argument("--import-onnx", metavar="MODEL", required=True,
                        help="import an ONNX model (static shapes) into the graph dialect")
    parser.add_argument("--weights", choices=WEIGHT_MODES, default="inline",
                        help="initializers as constants (inline, default) or as extra "
                             "function arguments after the graph inputs (args)")
    parser.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    parser.add_argument("--mlir-print-debuginfo", action="store_true", dest="debuginfo",
                        help="print locations: loc(\"<ONNX node name>\")")
    return parser


def write_atomically(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    try:
        handle, temp = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(path)}.",
                                        suffix=".tmp")
    except OSError as err:
        raise FusionError(f"cannot open output file '{path}': {err.strerror}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temp, path)
    except OSError as err:
        os.unlink(temp)
        raise FusionError(f"cannot write output file '{path}': {err.strerror}") from None


def run(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        module = import_onnx(args.import_onnx, weights=args.weights)
        text = print_module(module, debuginfo=args.debuginfo)
        if args.output == "-":
            sys.stdout.write(text)
        else:
            write_atomically(args.output, text)
    except FusionError as err:
        print(err.format(), file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # `fusion-translate m.onnx | head`: not an importer bug
        return EXIT_USER_ERROR
    except Exception as err:  # noqa: BLE001 - an importer bug is an internal error, as in fusion-opt
        sys.stderr.write(f"fusion-translate: internal error: {type(err).__name__}: {err}\n")
        sys.stderr.write("".join(traceback.format_exception(err)))
        sys.stderr.write("Please report this as a fusionopt bug, with the command line above.\n")
        return EXIT_INTERNAL_ERROR
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    sys.exit(run(argv))


if __name__ == "__main__":
    main()
