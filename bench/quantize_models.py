"""Quantized forms of exported models, as CPU users make them with onnxruntime's tools:
`M.qdq.onnx` (`quantize_static`, QDQ format: int8 activations and per-channel int8 weights,
calibrated on a few seeded random inputs) and `M.dynamic.onnx` (`quantize_dynamic`: int8
weights, activations quantized at run time by DynamicQuantizeLinear, MatMulInteger /
ConvInteger). Benchmarks only (the build sweep `heldout_models.py` takes the files).

    python bench/quantize_models.py /tmp/heldout/mobilenet_v2/mobilenet_v2.inline.onnx ... \
        --forms qdq,dynamic --out /tmp/quantized

Writes `OUT/M/M.qdq.onnx` and `OUT/M/M.dynamic.onnx` for each `M.inline.onnx`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from heldout_models import image_inputs  # noqa: E402

FORMS = ("qdq", "dynamic")


class SeededInputs:
    """onnxruntime's CalibrationDataReader protocol: `count` seeded random input sets."""

    def __init__(self, model: Path, count: int):
        self.feeds = iter([image_inputs(model, "random", seed) for seed in range(count)])

    def get_next(self):
        return next(self.feeds, None)


def quantize(model: Path, form: str, out: Path, calibration: int) -> Path:
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_dynamic, quantize_static

    out.mkdir(parents=True, exist_ok=True)
    target = out / f"{model.name.split('.')[0]}.{form}.onnx"
    if form == "qdq":
        quantize_static(str(model), str(target), SeededInputs(model, calibration),
                        quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QInt8, weight_type=QuantType.QInt8)
    else:
        quantize_dynamic(str(model), str(target), weight_type=QuantType.QInt8)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("models", nargs="+", type=Path)
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--calibration", type=int, default=4, help="calibration input sets")
    args = parser.parse_args(argv)
    forms = [f for f in args.forms.split(",") if f]
    unknown = set(forms) - set(FORMS)
    if unknown:
        parser.error(f"unknown forms {sorted(unknown)} (have: {', '.join(FORMS)})")
    for model in args.models:
        name = model.name.split(".")[0]
        for form in forms:
            print(quantize(model, form, args.out / name, args.calibration), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
