"""The `fusion-opt` driver: parse, run a pass pipeline, print — with MLIR-style diagnostics.

Built from xDSL's pieces (parser, printer, ModulePass options) but not from `xDSLOptMain`, whose
error handling is Python tracebacks. Exit codes (shared by all four tools, fusionopt/cli.py):
0 success; 1 user error (bad input, pipeline or command line, failed verification, unmet
`--verify-diagnostics` expectations, unwritable output); 2 internal error (a pass crashed). `main(argv, stdin=..., stdout=..., stderr=...)` runs it in-process (tests).
"""

from __future__ import annotations

import re
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from fusionopt import registry
from fusionopt.diagnostics import Diagnostic, FusionError, capture_diagnostics, register_source
from fusionopt.cli import report_usage_error
from fusionopt.ir_io import TextPieces, decode_source, print_module, read_source, verify_module
from fusionopt.locations import parse_module_located
from fusionopt.output_file import OutputFile
from fusionopt.opt_args import UsageError, format_pass_list, parse_command_line
from fusionopt.pass_statistics import PassStatistics
from fusionopt.pass_runner import InternalError, PassTimer, RunOptions, run_passes
from fusionopt.progress import progress_stream
from fusionopt.pipeline_spec import unknown_pass_message, build_passes, parse_pipeline
from fusionopt.verify_diagnostics import check_diagnostics, parse_expectations

EXIT_OK, EXIT_USER_ERROR, EXIT_INTERNAL_ERROR = 0, 1, 2
_SPLIT_MARKER = re.compile(r"^[ \t]*// -----[^\n]*$", re.MULTILINE)


@dataclass
class Chunk:
    text: str
    line_offset: int  # lines of the file before this chunk


def split_input(text: str, split: bool) -> list[Chunk]:
    """The `// -----`-separated chunks, each knowing where it starts in the file."""
    if not split:
        return [Chunk(text, 0)]
    chunks, start = [], 0
    for marker in _SPLIT_MARKER.finditer(text):
        chunks.append(Chunk(text[start : marker.start()], text.count("\n", 0, start)))
        start = marker.end()
    chunks.append(Chunk(text[start:], text.count("\n", 0, start)))
    return chunks


class FusionOptMain:
    def __init__(
        self,
        args: list[str] | None = None,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
    ):
        self.argv = sys.argv[1:] if args is None else list(args)
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.stderr = stderr or sys.stderr
        self.failed = False

    # -- entry points ------------------------------------------------------------------------

    def run(self) -> int:
        try:
            return self._run()
        except UsageError as err:
            return report_usage_error("fusion-opt", err, self.stderr)
        except FusionError as err:
            self.stderr.write(err.format() + "\n")
            return EXIT_USER_ERROR
        except InternalError as err:
            return self._internal_error(str(err), err.cause)
        except BrokenPipeError:  # e.g. `fusion-opt big.mlir | head`: not a compiler bug
            return EXIT_USER_ERROR
        except Exception as err:  # noqa: BLE001 - a driver bug is still an internal error
            return self._internal_error(f"{type(err).__name__}: {err}", err)

    def run_and_exit(self) -> None:
        sys.exit(self.run())

    def _internal_error(self, message: str, cause: BaseException) -> int:
        self.stderr.write(f"fusion-opt: internal error: {message}\n")
        self.stderr.write("".join(traceback.format_exception(cause)))
        self.stderr.write("Please report this as a fusionopt bug, with the command line above.\n")
        return EXIT_INTERNAL_ERROR

    # -- the pipeline of the driver ---------------------------------------------------------------

    def _run(self) -> int:
        self.args = args = parse_command_line(self.argv)
        available = registry.get_all_passes()
        if args.version:
            self.stdout.write(version_text())
            return EXIT_OK
        if args.show_dialects:
            names = sorted({"builtin", *registry.get_all_dialects()})
            self.stdout.write("Available Dialects: " + ",".join(names) + "\n")
            return EXIT_OK
        if args.list_passes:
            self.stdout.write(format_pass_list(available, registry.PIPELINES))
            return EXIT_OK
        passes = self._build_pipeline(available)
        if args.print_iree_flags:
            self.stdout.write(" ".join(registry.iree_flags_for(passes)) + "\n")
            return EXIT_OK
        onnx_input = args.input_file.lower().endswith(".onnx")
        self._check_onnx_flags(onnx_input)
        text, filename = (None, args.input_file) if onnx_input else self._read_input(args.input_file)
        self.timer = PassTimer() if args.time_passes else None
        self.statistics = PassStatistics() if args.pass_statistics else None
        output_path = args.output_file
        to_file = output_path not in (None, "-")
        out = TextPieces() if to_file else self.stdout
        output = OutputFile(output_path, self.stdout) if to_file else None
        try:
            if text is None:
                self._process_onnx(filename, passes, out)
            else:
                self._process(text, filename, passes, out)
            if self.timer is not None:
                self.stderr.write(self.timer.report())
            if self.statistics is not None:
                self.stderr.write(self.statistics.format_report())
            if self.failed:
                return EXIT_USER_ERROR
            if output is not None:
                output.commit(out.getvalue())  # type: ignore[union-attr]
            return EXIT_OK
        finally:
            if output is not None:
                output.discard()

    def _build_pipeline(self, available) -> list[ModulePass]:
        for flag in ("print_ir_before", "print_ir_after"):
            for name in sorted(getattr(self.args, flag) - available.keys()):
                option = "--" + flag.replace("_", "-")
                raise UsageError(f"{option}: {unknown_pass_message(name, available)}")
        passes: list[ModulePass] = []
        for spec in [*self.args.passes, *self.args.pass_pipeline]:
            # Built spec by spec: an option error must be shown against its own pipeline text.
            passes += build_passes(parse_pipeline(spec, registry.PIPELINES), available)
        return passes

    def _read_input(self, path: str) -> tuple[str, str]:
        if path == "-":
            stream = self.stdin
            buffer = getattr(stream, "buffer", None)
            if buffer is None:  # an in-memory text stream (tests)
                return stream.read(), "<stdin>"
            return decode_source(buffer.read(), "<stdin>"), "<stdin>"
        return read_source(path)

    # -- per chunk ---------------------------------------------------------------------------

    def _check_onnx_flags(self, onnx_input: bool) -> None:
        if not onnx_input and self.args.dims:
            raise UsageError("--dim applies to an ONNX input (MODEL.onnx)")
        if onnx_input and (self.args.split_input_file or self.args.verify_diagnostics):
            flag = "--split-input-file" if self.args.split_input_file else "--verify-diagnostics"
            raise UsageError(f"{flag} needs MLIR text, not an ONNX input")

    def _process_onnx(self, path: str, passes: list[ModulePass], out: TextIO) -> None:
        """An ONNX file imported in this process (`onnx_frontend`): no printing and re-parsing
        of the imported module, whose weights are megabytes of constants."""
        from fusionopt.importers.onnx_dims import parse_dims  # `onnx` loads in ~1 s: only here
        from fusionopt.importers.onnx_frontend import import_onnx_file

        dims = parse_dims(self.args.dims)
        with capture_diagnostics(self._report):
            try:
                module = self._timed("import (onnx)", lambda: import_onnx_file(
                    path, dims, progress=self._progress(), notes=self.stderr, tool="fusion-opt"))
                reimport = lambda: import_onnx_file(path, dims, tool="fusion-opt")  # noqa: E731
                out.write(self._run_and_print(registry.make_context(), module, passes, self._run_options(), reimport))
            except FusionError as err:
                self._report(err.diagnostic)

    def _progress(self) -> TextIO | None:
        return progress_stream() if self.stderr is sys.stderr else None

    def _run_options(self) -> RunOptions:
        return RunOptions(
            verify=self.args.verify_each is not False and not self.args.disable_verify,
            defer_verification=self.args.verify_each is None,
            print_before=self.args.print_ir_before,
            print_after=self.args.print_ir_after,
            print_after_all=self.args.print_ir_after_all,
            print_before_all=self.args.print_ir_before_all,
            generic=self.args.print_op_generic,
            debuginfo=self.args.print_debuginfo,
            timer=self.timer,
            dump_stream=self.stderr,
            statistics=self.statistics,
            elide_elements_if_larger=self.args.elide_elements_if_larger,
            progress=self._progress(),
        )

    def _process(self, text: str, filename: str, passes: list[ModulePass], out: TextIO) -> None:
        register_source(filename, text)
        options = self._run_options()
        for index, chunk in enumerate(split_input(text, self.args.split_input_file)):
            if index > 0:
                out.write("// -----\n")
            result = self._process_chunk(chunk, filename, passes, options)
            if result is not None:
                out.write(result)

    def _process_chunk(
        self, chunk: Chunk, filename: str, passes: list[ModulePass], options: RunOptions
    ) -> str | None:
        """The printed result of one chunk, or None when it failed (diagnostics reported)."""
        verifying = self.args.verify_diagnostics
        with capture_diagnostics(None if verifying else self._report) as diagnostics:
            try:
                return self._compile(chunk, filename, passes, options)
            except FusionError as err:
                if verifying:
                    diagnostics.append(err.diagnostic)
                else:
                    self._report(err.diagnostic)
                return None
            finally:
                if verifying:
                    self._check_expectations(chunk, filename, diagnostics)

    def _compile(
        self, chunk: Chunk, filename: str, passes: list[ModulePass], options: RunOptions
    ) -> str:
        ctx = registry.make_context(self.args.allow_unregistered_dialect)
        module = self._timed("parser", lambda: self._parse(ctx, chunk, filename))
        if not self.args.disable_verify:
            self._timed("(verifier)", lambda: verify_module(module))
        return self._run_and_print(ctx, module, passes, options, lambda: self._parse(ctx, chunk, filename))

    def _run_and_print(self, ctx: Context, module: ModuleOp, passes: list[ModulePass], options: RunOptions,
                       reload: Callable[[], ModuleOp]) -> str:
        """Run the passes (`reload`: the input afresh, should a deferred verification fail) and
        print the result."""
        run_passes(passes, ctx, module, options, reload)
        return self._timed(
            "output",
            lambda: print_module(
                module,
                self.args.print_op_generic,
                self.args.print_debuginfo,
                self.args.elide_elements_if_larger,
            ),
        )

    def _parse(self, ctx: Context, chunk: Chunk, filename: str) -> ModuleOp:
        # The whole file is registered as the source (in `_process`), so chunk locations
        # carry file lines and carets still find their source line.
        return parse_module_located(ctx, chunk.text, filename, chunk.line_offset)

    def _timed(self, name: str, action):
        start = time.perf_counter()
        try:
            return action()
        finally:
            if self.timer is not None:
                self.timer.add(name, time.perf_counter() - start)

    def _report(self, diag: Diagnostic) -> None:
        """Print a diagnostic as it is emitted; an error fails the run."""
        if diag.severity == "error":
            self.failed = True
        self.stderr.write(diag.format() + "\n")

    def _check_expectations(self, chunk: Chunk, filename: str, diagnostics) -> None:
        expectations = parse_expectations(chunk.text, filename, chunk.line_offset)
        for problem in check_diagnostics(expectations, list(diagnostics), filename):
            self._report(problem)


def version_text() -> str:
    """`--version`: ours and the xDSL we are built on."""
    from importlib import metadata

    def version(package: str) -> str:
        try:
            return metadata.version(package)
        except metadata.PackageNotFoundError:
            return "unknown"

    return f"fusionopt version {version('fusionopt')}\n  xDSL version {version('xdsl')}\n"


def main(
    argv: list[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run `fusion-opt` with `argv` (without the program name); returns the exit code."""
    return FusionOptMain(argv, stdin, stdout, stderr).run()
