"""Choose, on rendered scenes, which found tiles the pipeline keeps (never on real photos).

    python -m training.choose_keep_rule [--scenes 150]

Every outline the finder returns on held-out rendered scenes (the reader's validation seeds)
is read by the reader; each is then a real face-up tile (IoU >= 0.5 with a rendered face) or
not. For a few simple rules combining the finder's score and the reader's "is a tile"
probability, this prints how many real tiles each keeps and how many false ones, so the
pipeline's rule (vision/pipeline.py) is set on synthetic data with known answers.
"""

from __future__ import annotations

import argparse

import numpy as np

from training.finder_crops_data import SCENE_SIZES
from vision.finder import TileFinder, outline_iou
from vision.halves import HalfReader
from vision.rectify import rectify_tiles
from vision.synth import render_scene

FIRST_SEED = 3_900_000  # the reader's held-out finder-crop scenes


def collect(scenes: int) -> np.ndarray:
    """Rows of (finder score, reader is_tile, reader confidence, is a tile, read right)."""
    finder, reader = TileFinder(), HalfReader()
    rows: list[tuple[float, float, float, float, float]] = []
    for seed in range(FIRST_SEED, FIRST_SEED + scenes):
        rng = np.random.default_rng([seed, 11])
        size = SCENE_SIZES[int(rng.integers(len(SCENE_SIZES)))]
        scene = render_scene(seed, size=size, n_tiles=(1, 12))
        found = finder.find(scene.image)
        if not found:
            continue
        reads = reader.read(rectify_tiles(scene.image, [f.corners for f in found]), 12)
        for face, read in zip(found, reads, strict=True):
            overlaps = [outline_iou(face.corners, t.corners) for t in scene.tiles]
            best = int(np.argmax(overlaps)) if overlaps else -1
            real = best >= 0 and overlaps[best] >= 0.5
            right = real and scene.tiles[best].pips == (max(read.pips), min(read.pips))
            rows.append((face.score, read.is_tile, read.confidence, float(real), float(right)))
    return np.array(rows, np.float64)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=150)
    args = parser.parse_args(argv)
    data = collect(args.scenes)
    score, is_tile, _, real, right = data.T
    print(f"{len(data)} outlines, {int(real.sum())} on real tiles, {int(right.sum())} read right")
    rules = {
        "is_tile >= 0.5, or finder >= 0.6 (v1 rule)": (is_tile >= 0.5) | (score >= 0.6),
        "is_tile >= 0.5": is_tile >= 0.5,
        "is_tile >= 0.7": is_tile >= 0.7,
        "is_tile >= 0.5, or finder >= 0.8": (is_tile >= 0.5) | (score >= 0.8),
    }
    for threshold in (0.2, 0.25, 0.3, 0.35, 0.4):
        rules[f"finder * is_tile >= {threshold}"] = score * is_tile >= threshold
    for threshold in (0.4, 0.5, 0.6):
        rules[f"mean(finder, is_tile) >= {threshold}"] = (score + is_tile) / 2 >= threshold
    print(f"{'rule':45} {'real kept':>9} {'false kept':>10} {'right kept':>10}")
    for name, kept in rules.items():
        print(
            f"{name:45} {int((kept & (real > 0)).sum()):9d} "
            f"{int((kept & (real == 0)).sum()):10d} {int((kept & (right > 0)).sum()):10d}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
