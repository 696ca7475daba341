"""Quantize the models the app runs to 8-bit integers for the CPU (never run in CI).

    .venv/bin/python -m training.quantize [finder halves face-down]

Each model's convolutions run in int8, onnxruntime's QDQ form: weights per channel on 7 bits
(`reduce_range`, so a CPU without the 8-bit dot-product instructions cannot overflow its 16-bit
sums), activations per tensor with MinMax ranges calibrated on what that model really sees
while the pipeline, with every model still in floating point, reads 16 rendered hand scenes
and 8 rendered 12-MP tables. No real or dev photo is used, so every real source stays held out.
Each model's last layer (the finder's heatmap and outlines, the readers' logits) stays in
floating point: quantizing the finder's too cost rendered tables 3 points of tiles read right.
The outline fitter is not quantized: in 8 bits its corners cost a dev photo's tile
(models/MODEL_CARD.md, "The models in 8-bit integers").

The floating-point files (models/finder.onnx, ...) stay what training makes and starts from;
this writes the -int8 files beside them. Needs the `onnx` package (`pip install -e
".[train]"`); the app only needs onnxruntime.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
HAND_SEEDS = range(500_000, 500_016)
TABLE_SEEDS = range(800_505_000, 800_505_008)
"""Rendered tables of the tuning range, far from the held-out 900,000,000 on."""


@dataclass(frozen=True)
class Quantized:
    source: str
    out: str
    session_holder: Callable[[Any], Any]
    """The object holding the model's onnxruntime session in a loaded ModelSet (Any: the
    session is a private attribute of each model's class)."""
    kept_in_float: tuple[str, ...]
    captured: int
    """How many single inputs are recorded, first come first kept."""
    calibration: int
    """How many of them, drawn at random (seed 0), calibrate."""
    batch: int
    """Calibration inputs of one shape are given this many at a time."""


QUANTIZED = {
    "finder": Quantized(
        "finder.onnx",
        "finder-int8.onnx",
        lambda models: models.tile_finder,
        (
            "/net/merge4/merge4.1/merge4.1.0/Conv",
            "/net/head/Conv",
            "/Slice",
            "/Slice_1",
            "/Sigmoid",
            "/Concat",
        ),
        captured=400,
        calibration=120,
        batch=1,
    ),
    "halves": Quantized(
        "halves.onnx",
        "halves-int8.onnx",
        lambda models: models.half_reader,
        ("/net/head/head.1/Gemm",),
        captured=3000,
        calibration=300,
        batch=30,
    ),
    "face-down": Quantized(
        "face-down.onnx",
        "face-down-int8.onnx",
        lambda models: models.face_down_check._reader,
        ("/net/head/head.1/Gemm",),
        captured=3000,
        calibration=300,
        batch=30,
    ),
}


class _Recording:
    """Stands in for a model's session: runs it and keeps each input it is given, one
    single-item batch per crop."""

    def __init__(self, session: Any, limit: int) -> None:
        self._session = session
        self._limit = limit
        self.inputs: list[tuple[str, np.ndarray]] = []

    def run(self, outputs: Any, feeds: dict[str, np.ndarray]) -> Any:
        for name, tensor in feeds.items():
            for index in range(tensor.shape[0]):
                if len(self.inputs) < self._limit:
                    self.inputs.append((name, np.ascontiguousarray(tensor[index : index + 1])))
        return self._session.run(outputs, feeds)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def float_model_paths() -> Any:
    from vision.models import ModelPaths

    return ModelPaths(
        tile_finder=MODELS_DIR / QUANTIZED["finder"].source,
        half_reader=MODELS_DIR / QUANTIZED["halves"].source,
        face_down_check=MODELS_DIR / QUANTIZED["face-down"].source,
        outline_fitter=MODELS_DIR / "outline-fitter.onnx",
    )


def calibration_batches(which: Quantized) -> list[dict[str, np.ndarray]]:
    """The inputs ``which`` saw while the float pipeline read rendered photos, drawn and
    grouped for calibration."""
    from training.scenes_data import render_sample
    from training.table_synth import render_table
    from vision.models import ModelSet
    from vision.pipeline import HandReader

    reader = HandReader(ModelSet.load(float_model_paths(), threads=2))
    holder = which.session_holder(reader.models)
    recording = _Recording(holder._session, which.captured)
    holder._session = recording
    for seed in HAND_SEEDS:
        data, _ = render_sample(seed)
        reader.read(data)
    for seed in TABLE_SEEDS:
        big = cv2.resize(render_table(seed).image, (4032, 3024), interpolation=cv2.INTER_CUBIC)
        ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
            raise RuntimeError("JPEG encoding failed")
        reader.read(encoded.tobytes())
    recorded = recording.inputs
    rng = np.random.default_rng(0)
    drawn = rng.choice(len(recorded), min(which.calibration, len(recorded)), replace=False)
    picked = [recorded[index] for index in drawn]
    batches: list[dict[str, np.ndarray]] = []
    for start in range(0, len(picked), which.batch):
        group = picked[start : start + which.batch]
        if len({tensor.shape for _, tensor in group}) == 1:
            batches.append({group[0][0]: np.concatenate([tensor for _, tensor in group])})
        else:
            batches.extend({name: tensor} for name, tensor in group)
    return batches


def quantize(which: Quantized) -> Path:
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    batches = calibration_batches(which)

    class Inputs(CalibrationDataReader):
        def __init__(self) -> None:
            self._left = iter(batches)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self._left, None)

    out = MODELS_DIR / which.out
    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        quant_pre_process(str(MODELS_DIR / which.source), str(prepared), skip_symbolic_shape=True)
        quantize_static(
            str(prepared),
            str(out),
            Inputs(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,
            calibrate_method=CalibrationMethod.MinMax,
            nodes_to_exclude=list(which.kept_in_float),
        )
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("models", nargs="*", help=f"some of {', '.join(QUANTIZED)} (default: all)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.models if name not in QUANTIZED]
    if unknown:
        parser.error(f"no model called {', '.join(unknown)}")
    for name in args.models or list(QUANTIZED):
        out = quantize(QUANTIZED[name])
        print(f"{name}: wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
