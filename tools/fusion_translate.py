"""`fusion-translate`: translate between other formats and fusionopt IR (like `mlir-translate`).

    fusion-translate --import-onnx model.onnx [--weights inline|args] [--dim NAME=N ...]
                     [-o out.mlir] [--mlir-print-debuginfo]
    fusion-translate --import-migraphx program.txt [-o out.mlir] [--mlir-print-debuginfo]

`--import-onnx` builds `func.func @main_graph` in the `graph` dialect (see
`fusionopt.importers.onnx_import`; `--dim NAME=N`, repeatable, pins the symbolic dim NAME to N
first, as onnxruntime's `make_dynamic_shape_fixed` does: `fusionopt.importers.onnx_dims`); a
model whose inputs still have symbolic dims is imported with them as `?` into linalg on tensors
by IREE's ONNX importer (`fusionopt.importers.onnx_dynamic`), with a note on stderr;
`--import-migraphx` builds `func.func @main` from the text MIGraphX prints (see `fusionopt.importers.migraphx_import`). The output goes to stdout, or to `-o FILE`, written
by `fusionopt.output_file` (atomically for regular files, so a failed import never leaves a
truncated file; straight into devices and FIFOs; through symlinks). Errors print `error: ...` on stderr and exit with code 1; an importer crash
is an `internal error` with its traceback (exit 2), as in `fusion-opt`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from fusionopt.cli import (
    EXIT_USER_ERROR, ToolArgumentParser, UsageError, collect_cycles_rarely, exit_process,
    report_internal_error, report_usage_error,
)
from fusionopt.diagnostics import FusionError
from fusionopt.importers.migraphx_import import import_migraphx
from fusionopt.importers.onnx_dims import parse_dims
from fusionopt.importers.onnx_frontend import import_onnx_file
from fusionopt.importers.onnx_import import WEIGHT_MODES
from fusionopt.progress import progress_stream
from fusionopt.ir_io import print_module
from fusionopt.output_file import OutputFile



def build_parser() -> ToolArgumentParser:
    parser = ToolArgumentParser(
        prog="fusion-translate", description="Translate models into fusionopt IR.")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--import-onnx", metavar="MODEL",
                        help="import an ONNX model into the graph dialect (one whose inputs keep "
                             "symbolic dims after --dim: into linalg with `?` dims, through IREE's "
                             "ONNX importer)")
    source.add_argument("--import-migraphx", metavar="FILE.txt",
                        help="import a program as MIGraphX prints it (`migraphx-driver read`) "
                             "into the graph dialect")
    parser.add_argument("--weights", choices=WEIGHT_MODES, default="inline",
                        help="ONNX initializers as constants (inline, default) or as extra "
                             "function arguments after the graph inputs (args)")
    parser.add_argument("--dim", action="append", default=[], metavar="NAME=N",
                        help="pin the ONNX model's symbolic dim NAME (e.g. batch, seq) to N "
                             "before import (repeatable)")
    parser.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    parser.add_argument("--mlir-print-debuginfo", action="store_true", dest="debuginfo",
                        help="print locations: loc(\"<ONNX node name>\"), "
                             "loc(\"FILE\":LINE:COL) of a MIGraphX instruction")
    return parser


def run(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
    except UsageError as err:
        return report_usage_error("fusion-translate", err)
    output = None
    try:
        output = OutputFile(args.output)  # an unwritable output fails before the import
        if args.import_migraphx is not None:
            module = import_migraphx(args.import_migraphx)
        else:
            module = import_onnx_file(args.import_onnx, parse_dims(args.dim), args.weights,
                                      progress=progress_stream(), notes=sys.stderr)
        output.commit(print_module(module, debuginfo=args.debuginfo))
    except FusionError as err:
        print(err.format(), file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # `fusion-translate m.onnx | head`: not an importer bug
        return EXIT_USER_ERROR
    except Exception as err:  # noqa: BLE001 - an importer bug is an internal error, as in fusion-opt
        return report_internal_error("fusion-translate", f"{type(err).__name__}: {err}", err)
    finally:
        if output is not None:
            output.discard()
    return 0


def main(argv: Sequence[str] | None = None) -> None:
    if argv is None:  # the console script: this process is the one run
        collect_cycles_rarely()
    code = run(argv)
    if argv is None:  # the console script: nothing in this process needs the IR any more
        exit_process(code)
    sys.exit(code)


if __name__ == "__main__":
    main()
