"""Writing a tool's output file safely: the one helper behind every tool's `-o` / `--save`.

Rules (the behaviour of `mlir-opt -o` / llvm::ToolOutputFile):
* `-` is standard output;
* a symlink is resolved first and the rules below apply to its target (the link stays a link);
* anything that exists and is not a regular file (a character or block device, a FIFO, a
  socket) is opened and written straight into — never replaced, never truncated;
* a regular file, or a path that does not exist yet, is written atomically: a temporary file in
  the same directory, renamed over the path (`os.replace`) only when the run succeeded, so a
  failed run leaves the output untouched. An existing file keeps its mode; a new file gets the
  umask's mode (0666 & ~umask), as `open(path, "w")` would give it.

Two phases, so a tool can find an unwritable output before doing its work:

    output = OutputFile(path, stdout)   # raises FusionError("cannot open output file ...")
    ...                                 # the work
    output.commit(text)                 # or output.discard() on failure

`write_output(path, data, stdout)` does both at once.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from typing import IO

from fusionopt.diagnostics import FusionError

STDOUT = "-"


def current_umask() -> int:
    """The process umask (read by setting it and restoring it at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


class OutputFile:
    """An output path opened by the rules of the module docstring (see there)."""

    def __init__(self, path: str, stdout: IO | None = None):
        self.path = path
        self._stdout = stdout
        self._temp: str | None = None
        self._mode: int | None = None
        if path == STDOUT:
            self.kind = "stdout"
            self.target = path
            return
        self.target = os.path.realpath(path)  # through symlinks (also a dangling link's target)
        try:
            info = os.stat(self.target)
        except FileNotFoundError:
            info = None
        except OSError as err:
            raise FusionError(f"cannot open output file '{path}': {_reason(err)}") from None
        if info is not None and not stat.S_ISREG(info.st_mode):
            if stat.S_ISDIR(info.st_mode):
                raise FusionError(f"cannot open output file '{path}': Is a directory")
            self.kind = "special"  # device, FIFO, socket: written in place at commit
            if not os.access(self.target, os.W_OK):
                raise FusionError(f"cannot open output file '{path}': Permission denied")
            return
        self.kind = "regular"
        self._mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~current_umask()
        directory = os.path.dirname(self.target)
        try:
            handle, self._temp = tempfile.mkstemp(
                dir=directory, prefix=f".{os.path.basename(self.target)}.", suffix=".tmp"
            )
            os.close(handle)
        except OSError as err:
            raise FusionError(f"cannot open output file '{path}': {_reason(err)}") from None

    def commit(self, data: str | bytes) -> None:
        """Write `data` (text is UTF-8) to the output; on failure the output is untouched
        (regular files) and the temporary file is gone."""
        try:
            if self.kind == "stdout":
                self._write_stdout(data)
            elif self.kind == "special":
                # O_WRONLY without O_CREAT/O_TRUNC: a FIFO waits for its reader, a device
                # receives the bytes; nothing is created or replaced.
                fd = os.open(self.target, os.O_WRONLY)
                with os.fdopen(fd, "wb") as out:
                    out.writelines(_encoded(data))
            else:
                assert self._temp is not None and self._mode is not None
                with open(self._temp, "wb") as out:
                    out.writelines(_encoded(data))
                    out.flush()
                    os.fchmod(out.fileno(), self._mode)
                os.replace(self._temp, self.target)
                self._temp = None
        except OSError as err:
            self.discard()
            raise FusionError(f"cannot write output file '{self.path}': {_reason(err)}") from None

    def _write_stdout(self, data: str | bytes) -> None:
        stream = self._stdout if self._stdout is not None else sys.stdout
        if isinstance(data, str):
            stream.write(data)
        else:
            buffer = getattr(stream, "buffer", None)
            if buffer is None:
                raise FusionError("cannot write binary output to this standard output")
            stream.flush()
            buffer.write(data)
        stream.flush()

    def discard(self) -> None:
        """Give up: remove the temporary file; the output stays as it was."""
        if self._temp is not None:
            try:
                os.unlink(self._temp)
            except FileNotFoundError:
                pass
            self._temp = None


ENCODE_CHUNK = 1 << 20  # characters encoded at a time


def _encoded(data: str | bytes) -> Iterator[bytes]:
    """`data` as UTF-8, text encoded a chunk at a time: a module with inline weights is ~100 MB
    of hex, and one `str.encode` of it is a fresh 100 MB buffer whose page faults alone cost
    ~0.2 s on a VM (vit_s16_6l); the chunks reuse a few small buffers."""
    if isinstance(data, bytes):
        yield data
        return
    for start in range(0, len(data), ENCODE_CHUNK):
        yield data[start:start + ENCODE_CHUNK].encode("utf-8")


def write_output(path: str, data: str | bytes, stdout: IO | None = None) -> None:
    """Open `path` by the module's rules and write `data` to it."""
    OutputFile(path, stdout).commit(data)
