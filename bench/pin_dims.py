"""Write an ONNX model with its symbolic dims pinned to sizes (`fusion-translate --dim`'s
`pin_dims`), so that every anchor of bench/iree_runtime.py (onnxruntime, IREE's own import, ours)
runs one static model: the exported decoders' `M.dynamic.onnx` at real sequence lengths.

    python bench/pin_dims.py DIR/decoder/llama/llama.dynamic.onnx seq=1024 [seq=...]
        # -> DIR/decoder/llama/llama.seq1024.onnx (one file per size; weights kept inline)
"""

from __future__ import annotations

import argparse
from pathlib import Path

import onnx

from fusionopt.importers.onnx_dims import parse_dim, pin_dims


def pinned_path(model: Path, name: str, size: int) -> Path:
    stem = model.name.removesuffix(".onnx").removesuffix(".dynamic")
    return model.with_name(f"{stem}.{name}{size}.onnx")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", type=Path)
    parser.add_argument("dims", nargs="+", metavar="NAME=N", help="one file per NAME=N")
    args = parser.parse_args()
    for text in args.dims:
        name, size = parse_dim(text)
        out = pinned_path(args.model, name, size)
        onnx.save(pin_dims(onnx.load(str(args.model)), {name: size}), str(out))
        print(out)


if __name__ == "__main__":
    main()
