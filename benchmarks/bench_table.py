"""Median time to read a table from a 12-megapixel photo on the CPU (`python -m vision table`).

Makes 4032x3024 JPEGs by upscaling rendered tables (training.table_synth: a hub or bare
engine, trains of 20 to 60 small tiles, face-down hands), then times what the command does
with a photo's bytes (decode, the hand reader's finder, fitter and reader, the chain grouping,
the markers beside each train) over several runs, and the tiles, the grouping and the markers
on their own.
Goals: a 12-MP table photo read in under 1 s (median total; the table photo issue), its tiles
in under 400 ms for about 40 tiles (the real-photos issue).
Run: `python benchmarks/bench_table.py [--runs N] [--threads N] [--photos N]`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from training.synth import use_sample_photos  # noqa: E402
from training.table_synth import render_table  # noqa: E402
from vision.decode import decode_photo  # noqa: E402
from vision.markers import train_markers  # noqa: E402
from vision.pipeline import READ_LONG_SIDE, HandReader  # noqa: E402
from vision.table import group_table  # noqa: E402

# The same rendered photos whether or not scikit-image (the train extra) is installed.
use_sample_photos(False)

GOAL_MS = 1000.0
TILES_GOAL_MS = 400.0
FIRST_SEED = 910_000_000  # far from every seed a model learnt from


def twelve_megapixel_table(seed: int) -> tuple[bytes, int]:
    """A 4032x3024 JPEG of a rendered table, and how many face-up tiles it shows."""
    scene = render_table(seed)
    big = cv2.resize(scene.image, (4032, 3024), interpolation=cv2.INTER_CUBIC)
    ok, encoded = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return encoded.tobytes(), len(scene.tiles)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--photos", type=int, default=4)
    args = parser.parse_args()

    reader = HandReader(threads=args.threads)
    photos = [twelve_megapixel_table(FIRST_SEED + i) for i in range(args.photos)]
    totals: list[float] = []
    tiles_ms: list[float] = []
    grouping: list[float] = []
    markers: list[float] = []
    for _ in range(args.runs):
        for data, _tiles in photos:
            started = time.perf_counter()
            reader.read_table(data)
            totals.append((time.perf_counter() - started) * 1000)

            started = time.perf_counter()
            reading = reader.read(data)
            middle = time.perf_counter()
            layout = group_table(reading.tiles)
            ended = time.perf_counter()
            tiles_ms.append((middle - started) * 1000)
            grouping.append((ended - middle) * 1000)
            photo = decode_photo(data, min_long_side=READ_LONG_SIDE)
            started = time.perf_counter()
            train_markers(photo.pixels, photo.scale, layout, reader.models.marker_check)
            markers.append((time.perf_counter() - started) * 1000)
    tiles = statistics.median(count for _, count in photos)
    total = statistics.median(totals)
    verdict = "ok" if total < GOAL_MS else "SLOWER THAN THE GOAL"
    tiles_total = statistics.median(tiles_ms)
    tiles_verdict = "ok" if tiles_total < TILES_GOAL_MS else "SLOWER THAN THE GOAL"
    print(
        f"table photo, 12 MP, median {tiles:.0f} tiles: total {total:.0f} ms"
        f" (goal {GOAL_MS:.0f} ms: {verdict}); on their own: the tiles {tiles_total:.0f} ms"
        f" (goal {TILES_GOAL_MS:.0f} ms: {tiles_verdict}), chain grouping"
        f" {statistics.median(grouping):.1f} ms, markers {statistics.median(markers):.1f} ms;"
        f" {len(totals)} reads"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
