"""Quantize the tile finder to 8-bit integers for the CPU (never run in CI).

    .venv/bin/python -m training.quantize_finder [--source models/finder.onnx]
                                                 [--out models/finder-int8.onnx]

The finder's convolutions run in int8 (weights per channel, activations per tensor, as
onnxruntime's QDQ format), calibrated on what the finder really sees while the pipeline reads
rendered photos: 16 rendered hand scenes and 8 rendered 12-MP tables, first looks, fine looks
and second-look crops alike (no real or dev photo, so every real source stays held out). The
last convolutions, which give the heatmap and the outlines, stay in floating point: quantizing
them too cost rendered tables 3 points of tiles read right (models/MODEL_CARD.md).

Needs the `onnx` package (`pip install -e ".[train]"`); the app only needs onnxruntime.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

HAND_SEEDS = range(500_000, 500_016)
TABLE_SEEDS = range(800_505_000, 800_505_008)
"""Rendered tables of the tuning range, far from the held-out 900,000,000 on."""
CAPTURED = 400
CALIBRATION = 120
KEPT_IN_FLOAT = (
    "/net/merge4/merge4.1/merge4.1.0/Conv",
    "/net/head/Conv",
    "/Slice",
    "/Slice_1",
    "/Sigmoid",
    "/Concat",
)


class _Recording:
    """Stands in for the finder's session: runs it and keeps each input it is given, one
    (1, 3, h, w) tensor per crop."""

    def __init__(self, session: Any) -> None:
        self._session = session
        self.inputs: list[np.ndarray] = []

    def run(self, outputs: Any, feeds: dict[str, np.ndarray]) -> Any:
        for tensor in feeds.values():
            for index in range(tensor.shape[0]):
                if len(self.inputs) < CAPTURED:
                    self.inputs.append(np.ascontiguousarray(tensor[index : index + 1]))
        return self._session.run(outputs, feeds)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


def calibration_inputs(source: Path) -> tuple[str, list[np.ndarray]]:
    """The finder's input name and CALIBRATION of the tensors it saw reading rendered photos."""
    from training.scenes_data import render_sample
    from training.table_synth import render_table
    from vision.finder import TileFinder
    from vision.models import ModelPaths, ModelSet
    from vision.pipeline import HandReader

    reader = HandReader(ModelSet.load(ModelPaths(tile_finder=source), threads=2))
    finder = reader.models.tile_finder
    assert isinstance(finder, TileFinder)
    recording = _Recording(finder._session)
    finder._session = recording
    for seed in HAND_SEEDS:
        data, _ = render_sample(seed)
        reader.read(data)
    for seed in TABLE_SEEDS:
        image = render_table(seed).image
        big = cv2.resize(image, (4032, 3024), interpolation=cv2.INTER_CUBIC)
        ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 90])
        if not ok:  # pragma: no cover - OpenCV always encodes a uint8 BGR image
            raise RuntimeError("JPEG encoding failed")
        reader.read(encoded.tobytes())
    rng = np.random.default_rng(0)
    picked = rng.choice(len(recording.inputs), min(CALIBRATION, len(recording.inputs)), False)
    return finder._input, [recording.inputs[index] for index in picked]


def quantize(source: Path, out: Path) -> None:
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    name, tensors = calibration_inputs(source)

    class Inputs(CalibrationDataReader):
        def __init__(self) -> None:
            self._left = iter(tensors)

        def get_next(self) -> dict[str, np.ndarray] | None:
            tensor = next(self._left, None)
            return None if tensor is None else {name: tensor}

    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared), skip_symbolic_shape=True)
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
            nodes_to_exclude=list(KEPT_IN_FLOAT),
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--source", type=Path, default=Path("models/finder.onnx"))
    parser.add_argument("--out", type=Path, default=Path("models/finder-int8.onnx"))
    args = parser.parse_args(argv)
    quantize(args.source, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
