"""Median time to read a hand from a 12-megapixel photo on the CPU.

Makes a 4000x3000 JPEG by upscaling a rendered scene (vision.synth), then times the whole
pipeline (decode, find, rectify, one batched model call) over several runs. Goal: median
under 300 ms. Run: `python benchmarks/bench_vision.py [--runs N] [--threads N]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.decode import decode_photo  # noqa: E402
from vision.halves import DEFAULT_HALF_MODEL  # noqa: E402
from vision.pipeline import READ_LONG_SIDE, HandReader  # noqa: E402
from vision.rectify import rectify_tiles  # noqa: E402
from vision.synth import render_scene  # noqa: E402
from vision.tiles import find_tiles  # noqa: E402


def twelve_megapixel_jpeg(seed: int) -> tuple[bytes, int]:
    """A 4000x3000 JPEG of a rendered hand, and how many whole tiles it shows."""
    scene = render_scene(seed, n_tiles=(10, 12))
    big = cv2.resize(scene.image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return encoded.tobytes(), len(scene.tiles)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    data, tiles = twelve_megapixel_jpeg(args.seed)
    print(f"photo: 4000x3000 JPEG, {len(data) / 1e6:.1f} MB, {tiles} tiles rendered")
    have_model = DEFAULT_HALF_MODEL.is_file()
    reader = HandReader(threads=args.threads) if have_model else None
    if reader is None:
        print(f"NOTE: {DEFAULT_HALF_MODEL} is missing; timing without the model call")
    stages: dict[str, list[float]] = {"decode": [], "find": [], "total": [], "cpu": []}
    found = 0
    for _ in range(args.runs + 1):  # the first run warms up caches and the session
        started = time.perf_counter()
        cpu_started = time.process_time()
        if reader is not None:
            reading = reader.read(data)
            found = len(reading.tiles)
            stages["total"].append(time.perf_counter() - started)
            stages["cpu"].append(time.process_time() - cpu_started)
            continue
        photo = decode_photo(data, min_long_side=READ_LONG_SIDE)
        decoded = time.perf_counter()
        quads = find_tiles(photo.pixels)
        located = time.perf_counter()
        crops = rectify_tiles(photo.pixels, quads)
        found = int(np.asarray(crops).shape[0])
        finished = time.perf_counter()
        stages["decode"].append(decoded - started)
        stages["find"].append(located - decoded)
        stages["total"].append(finished - started)
        stages["cpu"].append(time.process_time() - cpu_started)
    for name, values in stages.items():
        if len(values) > 1:
            runs = values[1:]
            print(
                f"{name:7s} median {statistics.median(runs) * 1000:6.0f} ms"
                f"  (min {min(runs) * 1000:.0f}, max {max(runs) * 1000:.0f}, {len(runs)} runs)"
            )
    # "cpu" is this process's CPU time: on a machine shared with other jobs the wall time
    # includes waiting for a core, the CPU time does not.
    print(f"tiles found: {found}; goal: total median under 300 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
