"""Median time to read a hand from a 12-megapixel photo on the CPU, stage by stage.

Makes 4000x3000 JPEGs by upscaling rendered scenes (training.synth) of 3-tile, 10..12-tile and
20-tile hands, then times the whole pipeline (decode, learned finder with its second look, the
white balance by the faces found, the outline fitter, rectify + one batched reader call, the
face-down check on the same crops; a photo with at most 3 tiles kept is read again with the
close-up finder) over several runs, and each stage on its own ("balance": vision.balance;
"fit": the outline fitter; "check": the face-down check; "close": that second reading).
Goals: a usual hand under 150 ms, a 20-tile hand under 300 ms (median totals).
Run: `python benchmarks/bench_vision.py [--runs N] [--threads N] [--photos N]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.synth import render_scene, use_sample_photos  # noqa: E402
from vision.balance import white_balanced  # noqa: E402
from vision.decode import decode_photo  # noqa: E402
from vision.pipeline import CLOSE_UP_TILES, READ_LONG_SIDE, HandReader  # noqa: E402
from vision.rectify import rectify_tiles  # noqa: E402

# The same rendered photos whether or not scikit-image (the train extra) is installed.
use_sample_photos(False)

HANDS = {"3 tiles": (3, 3, 150.0), "10-12 tiles": (10, 12, 150.0), "20 tiles": (20, 20, 300.0)}
"""Name: (fewest, most tiles rendered, goal for the median total in ms)."""


def twelve_megapixel_jpeg(seed: int, n_tiles: tuple[int, int]) -> tuple[bytes, int]:
    """A 4000x3000 JPEG of a rendered hand, and how many whole tiles it shows."""
    scene = render_scene(seed, n_tiles=n_tiles, size=(1600, 1200))
    big = cv2.resize(scene.image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return encoded.tobytes(), len(scene.tiles)


def _line(name: str, values: list[float]) -> str:
    return (
        f"  {name:7s} median {statistics.median(values) * 1000:6.0f} ms"
        f"  (min {min(values) * 1000:.0f}, max {max(values) * 1000:.0f}, {len(values)} runs)"
    )


def bench_hand(
    reader: HandReader, n_tiles: tuple[int, int], photos: int, runs: int, seed: int
) -> dict[str, list[float]]:
    """Per-stage wall times (seconds) over ``runs`` timed runs of each of ``photos`` photos."""
    stages: dict[str, list[float]] = {
        "decode": [],
        "find": [],
        "balance": [],
        "fit": [],
        "read": [],
        "check": [],
        "close": [],
        "total": [],
        "cpu": [],
    }
    for photo_index in range(photos):
        data, rendered = twelve_megapixel_jpeg(seed + photo_index, n_tiles)
        found = 0
        check = reader.models.face_down_check
        fitter = reader.models.outline_fitter
        for run in range(runs + 1):  # the first run warms up caches and the sessions
            started = time.perf_counter()
            cpu_started = time.process_time()
            found = len(reader.read(data).tiles)
            total, cpu = time.perf_counter() - started, time.process_time() - cpu_started
            started = time.perf_counter()
            photo = decode_photo(data, min_long_side=READ_LONG_SIDE)
            decoded = time.perf_counter()
            faces = reader.models.tile_finder.find(photo.pixels)
            located = time.perf_counter()
            quads = [face.corners for face in faces]
            if quads:
                white_balanced(photo.pixels, quads)
            balanced = time.perf_counter()
            if fitter is not None:
                quads = fitter.fit(photo.pixels, quads)
            fitted = time.perf_counter()
            crops = rectify_tiles(photo.pixels, quads) if quads else None
            if crops is not None:
                reader.models.half_reader.read(crops)
            read = time.perf_counter()
            if crops is not None and check is not None:
                check.face_up(crops)
            finished = time.perf_counter()
            close_up = reader.models.close_up_finder
            # The pipeline looks again with the close-up finder only when few tiles are kept.
            if close_up is not None and found <= CLOSE_UP_TILES:
                again = [face.corners for face in close_up.find(photo.pixels)]
                if again and fitter is not None:
                    again = fitter.fit(photo.pixels, again)
                if again:
                    crops = rectify_tiles(photo.pixels, again)
                    reader.models.half_reader.read(crops)
                    if check is not None:
                        check.face_up(crops)
                if run > 0:
                    stages["close"].append(time.perf_counter() - finished)
            if run == 0:
                continue
            stages["total"].append(total)
            stages["cpu"].append(cpu)
            stages["decode"].append(decoded - started)
            stages["find"].append(located - decoded)
            stages["balance"].append(balanced - located)
            stages["fit"].append(fitted - balanced)
            stages["read"].append(read - fitted)
            stages["check"].append(finished - read)
        print(
            f"  photo {photo_index + 1}: 4000x3000 JPEG, {len(data) / 1e6:.1f} MB, "
            f"{rendered} tiles rendered, {found} read"
        )
    return stages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="timed runs per photo")
    parser.add_argument("--photos", type=int, default=3, help="rendered photos per hand size")
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime threads")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    try:
        reader = HandReader(threads=args.threads)
    except FileNotFoundError as exc:
        print(f"cannot run: {exc}")
        return 1
    for name, (fewest, most, goal) in HANDS.items():
        print(f"{name} in a 12-megapixel photo:")
        stages = bench_hand(reader, (fewest, most), args.photos, args.runs, args.seed)
        for stage, values in stages.items():
            if values:
                print(_line(stage, values))
        # "cpu" is this process's CPU time: on a machine shared with other jobs the wall time
        # includes waiting for a core, the CPU time does not.
        print(f"  goal: total median under {goal:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
